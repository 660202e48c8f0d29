"""The computers a game can be played against, by name: one table for the game and the
simulator, so the coach a player meets is the very policy the balance figures come from."""

from __future__ import annotations

import random
from collections.abc import Callable

from .policy import Policy, RandomComputer
from .smart import SmartPolicy

RANDOM, COACH = "random", "coach"
# "random" is the rules' computer and the default; "coach" reads the band tables (smart.py).
COMPUTERS: dict[str, Callable[[random.Random], Policy]] = {
    RANDOM: RandomComputer,
    COACH: SmartPolicy,
}


def make_computer(name: str, rng: random.Random) -> Policy:
    """The computer called `name` (an unknown name is the rules' random computer)."""
    return COMPUTERS.get(name, RandomComputer)(rng)
