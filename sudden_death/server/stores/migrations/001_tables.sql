-- The tables a server plays (store.py's SQLite layout, in PostgreSQL): a header row per table,
-- a row per game of it, a row per step of a game, and which server holds which table.
-- Records stay text, exactly as tables.py writes them (jsonb would reorder and re-space them).
-- There is no `layout` column: a PostgreSQL database only ever holds headers with step rows.
-- The foreign keys are checked at COMMIT, so a save may write its rows in any order.

CREATE TABLE tables (
    code text PRIMARY KEY,
    record text NOT NULL,           -- the header: seats, flags, held choices, counters
    over boolean NOT NULL DEFAULT false,
    game integer NOT NULL DEFAULT 0 CHECK (game >= 0)  -- the current game's number
);

-- Only tables not over are opened at start-up.
CREATE INDEX tables_open ON tables (code) WHERE NOT over;

CREATE TABLE games (
    code text NOT NULL REFERENCES tables (code) ON DELETE CASCADE
        DEFERRABLE INITIALLY DEFERRED,
    game integer NOT NULL CHECK (game >= 0),
    first text NOT NULL,
    PRIMARY KEY (code, game)
);

CREATE TABLE steps (
    code text NOT NULL,
    game integer NOT NULL,
    step integer NOT NULL CHECK (step >= 0),
    actions text NOT NULL,
    told text NOT NULL,
    PRIMARY KEY (code, game, step),
    FOREIGN KEY (code, game) REFERENCES games (code, game) ON DELETE CASCADE
        DEFERRABLE INITIALLY DEFERRED
);

-- Not tied to `tables`: a server claims a code before its first save.
CREATE TABLE claims (
    code text PRIMARY KEY,
    owner text NOT NULL,
    since timestamptz NOT NULL DEFAULT now()
);
