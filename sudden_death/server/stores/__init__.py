"""What a table server keeps past its own process. The seam (seam.py: the stores' Protocols
and the values they answer with), writes before words (keeping.py) and the timed wrapper for
the metrics (timed_store.py), which the roles may use; and the implementations behind the
seam, which no role imports: SQLite's (sqlite_tables.py; accounts.py with ratings.py, whose
account and rating rules PostgreSQL's run too) and PostgreSQL's (postgres_*.py, pool_log.py,
the SQL in migrations/; loaded only with --postgres, psycopg being the server extra's).

An implementation never imports a role (tests/test_structure.py). Nothing is imported here.
"""
