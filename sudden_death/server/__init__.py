"""The table server: holds network games between two seats (`python -m sudden_death.server`).

At the top: the connection handler (service.py), start-up (__main__.py), a table served inside
the game (home.py) and the table itself (tables.py: the game between two seats, pure). Below
them, a package a kind of thing, each saying what it holds: roles/ (a module a part of the
service's behaviour), stores/ (what outlives the process: the seam and its SQLite and
PostgreSQL implementations), cluster/ (what the processes of a cluster share: the seams and
Valkey's implementations), lines/ (a client's line: admitted, written to, closed) and
operations/ (probes, metrics, a clean stop). Nothing is imported here.
"""
