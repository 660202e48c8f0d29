"""How a team decides, and the computer of the rules: uniformly random legal choices."""

from __future__ import annotations

import random
from typing import Protocol, cast

from .actions import (
    CALLS_PER_HAND,
    PLAYERS_PER_HAND,
    Action,
    ChooseSnap,
    PickHand,
    PickSwap,
    role_of,
)
from .cards import calls_for, players_for
from .dice import choose, sample
from .state import GameState, Hand, SnapChoice, Swap, SwapKind, Team

FOURTH_DOWN = 4
SWAP_KINDS = tuple(SwapKind)


class Policy(Protocol):
    """A team's decision maker. It sees only the state, which holds only revealed cards, and
    picks one of `legal` (never empty: see `actions.legal_actions`); a hand may hold its cards
    in any order, since the order is how the hand is read out."""

    rng: random.Random

    def choose(self, state: GameState, team: Team, legal: tuple[Action, ...]) -> Action: ...


def snaps(legal: tuple[Action, ...]) -> tuple[SnapChoice, ...]:
    return tuple(action.choice for action in legal if isinstance(action, ChooseSnap))


def fourth_down_kick(state: GameState, legal: tuple[SnapChoice, ...]) -> SnapChoice:
    """The rules' computer on offense: play downs 1-3; on fourth, kick a field goal in range,
    else punt."""
    assert state.down is not None
    if state.down.number < FOURTH_DOWN:
        return SnapChoice.PLAY
    return SnapChoice.FIELD_GOAL if SnapChoice.FIELD_GOAL in legal else SnapChoice.PUNT


class RandomComputer:
    """The computer opponent: each choice uniform over the legal options, from its own generator.

    The draws are made in a fixed order (the seeded games and their transcripts depend on it):
    a hand is 2 players then 3 calls drawn from the side's cards, and a swap is a kind (keep, a
    player or a call, 1/3 each), then the card out, then the card in."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, state: GameState, team: Team, legal: tuple[Action, ...]) -> Action:
        first = legal[0]
        if isinstance(first, ChooseSnap):
            return ChooseSnap(fourth_down_kick(state, snaps(legal)))
        if isinstance(first, PickHand):
            role = role_of(state, team)
            assert role is not None
            return PickHand(Hand(sample(self.rng, players_for(role), PLAYERS_PER_HAND),
                                 sample(self.rng, calls_for(role), CALLS_PER_HAND)))
        if isinstance(first, PickSwap):
            return self._swap(legal)
        return choose(self.rng, legal)  # the coin, the side and the final call

    def _swap(self, legal: tuple[Action, ...]) -> Action:
        kind = choose(self.rng, SWAP_KINDS)
        if kind is SwapKind.KEEP:
            return PickSwap(Swap.keep())
        swaps = [action.swap for action in cast("tuple[PickSwap, ...]", legal)
                 if action.swap.kind is kind]
        outs = list(dict.fromkeys(swap.out for swap in swaps))
        out = choose(self.rng, outs)
        return PickSwap(choose(self.rng, [swap for swap in swaps if swap.out == out]))
