"""Dice: every random number in the rules comes through here from an injected `random.Random`."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Roll:
    """A roll of `len(dice)` dice with `sides` faces, kept whole so each die can be voiced."""

    dice: tuple[int, ...]
    sides: int

    @property
    def total(self) -> int:
        return sum(self.dice)


def index(rng: random.Random, size: int) -> int:
    """A uniform index in range(size). `rng.random()` is several times cheaper than `randint`,
    and the simulator draws hundreds of thousands of these."""
    return int(rng.random() * size)


def roll(rng: random.Random, count: int, sides: int = 6) -> Roll:
    return Roll(tuple(1 + index(rng, sides) for _ in range(count)), sides)


def choose(rng: random.Random, options: Sequence[T]) -> T:
    return options[index(rng, len(options))]


def sample(rng: random.Random, options: Sequence[T], count: int) -> tuple[T, ...]:
    """`count` different items, uniformly, in the order drawn (a partial Fisher-Yates shuffle)."""
    pool = list(options)
    for i in range(count):
        j = i + index(rng, len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
    return tuple(pool[:count])


def percentile(rng: random.Random) -> Roll:
    """One roll of 1..100, used to pick a row of a weighted table or test a percent chance."""
    return roll(rng, 1, 100)
