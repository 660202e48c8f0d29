-- The fence a save checks (postgres_tables.py): the table's holder, kept on its header row, the
-- row every save upserts anyway, so checking it costs no lock of its own. A claim made or
-- taken over writes it too; tables already claimed take their claim's owner.

ALTER TABLE tables ADD COLUMN holder text;

UPDATE tables SET holder = claims.owner FROM claims WHERE claims.code = tables.code;
