"""The app's side of what it writes to the player's folders (`storage/`): the game in
progress, the series and the record, each finished game told as a story (`keeping.py`), and
Report a problem's file, its path said and copied (`reporting.py`).

They sit above the games and their seats and below `app.py`, which holds them: they never
import the app, the loop, or `in_game/`."""
