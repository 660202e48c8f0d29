"""What outlives the window, on the player's computer: settings, the game in progress, the
seat at a table, the record, a series' file, and the folders they live in (`folders.py`), each
written atomically (`files.py`)."""
