"""The roles: each owns one part of what the table server does, and says in its docstring what
it never touches: the lobby (lobby.py), the spectators (gallery.py), quick pairing
(pairing.py), the seats and their tables (seats.py, composed of its parts: seat_book.py,
greeting.py, seat_life.py, table_steps.py, turn_limits.py, claims.py) and the accounts
(account_desk.py); with the pure parts only roles use (stand_in.py, turn_clock.py, chat.py,
checks.py, hashing.py, sign_ins.py).

A role never imports another role (the connection handler, service.py, wires them:
tests/test_server_roles.py), and never imports an implementation behind a seam (a SQLite or
PostgreSQL store, anything of Valkey): only the seams, stores/seam.py, cluster/fanout.py,
cluster/tally.py (tests/test_structure.py). Nothing is imported here.
"""
