"""The app's helpers for the game in front of the player, kept out of `app.py`: which screen
asks the decision now (`deciding.py`), the game's own keys on top of any screen, with the
review sections, card details and the window's `View` (`controls.py`), and what has been said,
for the eye and for R (`panel.py`).

They sit above the games and their seats (`session.py`, `friends.py`...) and below `app.py`,
which holds them: they never import the app, the loop, or `files/`."""
