"""Network play: the table protocol and the game's connection to a table server."""
