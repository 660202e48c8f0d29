"""The game the page plays on its own device, in Pyodide (issue 74): the same engine and the
same computers as the desktop game, run by `page/offline.js` in a Web Worker.

Only the engine is imported here: Pyodide's core has the standard library and nothing
compiled, so nothing of the wire (msgspec) or the server comes in. `games` plays seeded games
between the game's computers and gives back what happened as the engine writes it
(`event_codec`), so a test can hold the browser's games against the desktop engine's, event
for event, and a benchmark can time the engine where the page runs it.
"""

from __future__ import annotations

import json
import random
from typing import Any

from ..engine import Game, Match, Team
from ..engine.computers import COMPUTERS
from ..engine.event_codec import events_to_list


def game(seed: int, home: str = "random", away: str = "coach") -> dict[str, Any]:
    """One whole game from `seed` (its dice and both computers' choices drawn from it), the
    home team kicking off to the away team: its events and its final score."""
    master = random.Random(seed)
    dice, home_rng, away_rng = (random.Random(master.getrandbits(64)) for _ in range(3))
    played = Game.from_kickoff(dice, Team.AWAY)
    Match(played, {Team.HOME: COMPUTERS[home](home_rng),
                   Team.AWAY: COMPUTERS[away](away_rng)}).advance()
    return {"seed": seed, "events": events_to_list(played.log),
            "scores": list(played.state.scores)}


def games(seeds: list[int], home: str = "random", away: str = "coach") -> list[dict[str, Any]]:
    """`game` for each seed, in order."""
    return [game(seed, home, away) for seed in seeds]


def games_json(seeds: Any, home: str = "random", away: str = "coach") -> str:
    """`games` as JSON text, for the worker: one string crosses into JavaScript, not a proxy
    of every event (`seeds` arrives as a JavaScript array, any iterable of ints)."""
    return json.dumps(games([int(seed) for seed in seeds], home, away))
