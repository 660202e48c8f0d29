"""Several ways to say the same news, so a game sounds like a broadcast and not a log read aloud.

Each common result has a few phrasings that all carry the same facts (the yards, the team, the
spot); a `Variety` picks one, seeded by the game's seed so a transcript stays reproducible, and
never the same one twice in a row for the same kind of news. Short verbosity always takes the
first, plain phrasing: a player who asked for the fewest words gets the same ones each time.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


class Variety:
    """The game's choice among phrasings: seeded, and never the last one again."""

    def __init__(self, seed: int | None) -> None:
        self._rng = random.Random(seed)
        self._last: dict[str, int] = {}

    def pick(self, kind: str, phrasings: Sequence[T]) -> T:
        """One of `phrasings` for this `kind` of news, not the one said last time."""
        count = len(phrasings)
        last = self._last.get(kind)
        if count == 1:
            index = 0
        elif last is not None and last < count:
            index = self._rng.randrange(count - 1)
            if index >= last:
                index += 1  # skip the one said last time
        else:
            index = self._rng.randrange(count)
        self._last[kind] = index
        return phrasings[index]


def choose(variety: Variety | None, brief: bool, kind: str, phrasings: Sequence[T]) -> T:
    """The phrasing to say: the plain first one when there is no variety (a result told again,
    a test pinning words) or the player asked for short words; else the variety's pick."""
    if variety is None or brief:
        return phrasings[0]
    return variety.pick(kind, phrasings)
