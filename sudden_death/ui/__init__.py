"""The playable front end: a pygame loop that speaks every decision, count and result.

Nothing here runs at import time; `sudden_death.ui.run.loop.run_app` starts the game.
"""
