"""The table server: holds network games between two seats (`python -m sudden_death.server`)."""
