"""Running the game: the command line, the event loop, key scripts and the transcript."""
