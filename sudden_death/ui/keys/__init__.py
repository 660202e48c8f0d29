"""The keys: every key and controller button as data (`keymap.py`: the bindings the app
dispatches through, F1's key list and the docs' key table) and the player's own changes to
them (`own_keys.py`: the rules every map keeps, read from and written to the settings' text).

The lowest layer of the front end: it imports no other part of `ui`, so words, screens and
the loop can all name a key."""
