"""The simulator: whole games between computer players with the rules engine alone
(`games.py`), counted (`tally.py`) and reported (`report.py`); `python -m sudden_death.simulate`
is its command line (`__main__.py`, SPEC's JSON)."""
