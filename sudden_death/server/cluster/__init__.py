"""What the processes of a cluster share, each as a seam with this process's own version (all
a process alone needs) and Valkey's (`--valkey`, issue 62): the fan-out (fanout.py,
LocalFanOut; valkey_fanout.py, with the Valkey connection's outages the others share), the
limits' counts (tally.py; valkey_tally.py), the lobby's entries (lobby_entries.py;
valkey_lobby.py), the tables' routes and the relay between processes (relay.py;
valkey_routes.py) and the quick games waiting (relay.QuickElsewhere; valkey_quick.py); and
stopping.py, a background task stopped for certain.

The valkey_* modules never import a role, no role imports them (tests/test_structure.py), and
only start-up loads them, with `--valkey` (redis-py is the server extra's). Nothing is
imported here.
"""
