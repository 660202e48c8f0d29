"""A client's line as the server handles it, below every role: admitted against its address's
limits (limits.py), answered as plain HTTP when it is no WebSocket (plain.py), written to
without waiting (postman.py), told to try again later (try_again.py) and closed (line.py).

No game logic here, and never a role, a store's implementation or Valkey's. Nothing is
imported here.
"""
