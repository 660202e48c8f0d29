"""How a team decides, and the computer of the rules: uniformly random legal choices."""

from __future__ import annotations

import random
from typing import Protocol

from .card_model import Call, Role
from .cards import calls_for, players_for
from .dice import choose, sample
from .state import CoinFace, GameState, Hand, Side, SnapChoice, Swap, SwapKind, Team

FOURTH_DOWN = 4
COIN_FACES = tuple(CoinFace)
SIDES = tuple(Side)
SWAP_KINDS = tuple(SwapKind)


class Policy(Protocol):
    """A team's decision maker. It sees only the state, which holds only revealed cards."""

    def call_coin(self, state: GameState) -> CoinFace: ...

    def choose_side(self, state: GameState, team: Team) -> Side: ...

    def choose_snap(self, state: GameState, legal: tuple[SnapChoice, ...]) -> SnapChoice: ...

    def choose_hand(self, state: GameState, role: Role) -> Hand: ...

    def choose_swap(self, state: GameState, role: Role, hand: Hand) -> Swap: ...

    def choose_final(self, state: GameState, role: Role, hand: Hand) -> Call: ...


def fourth_down_kick(state: GameState, legal: tuple[SnapChoice, ...]) -> SnapChoice:
    """The rules' computer on offense: play downs 1-3; on fourth, kick a field goal in range,
    else punt."""
    assert state.down is not None
    if state.down.number < FOURTH_DOWN:
        return SnapChoice.PLAY
    return SnapChoice.FIELD_GOAL if SnapChoice.FIELD_GOAL in legal else SnapChoice.PUNT


class RandomComputer:
    """The computer opponent: each choice uniform over the legal options, from its own generator."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def call_coin(self, state: GameState) -> CoinFace:
        return choose(self.rng, COIN_FACES)

    def choose_side(self, state: GameState, team: Team) -> Side:
        return choose(self.rng, SIDES)

    def choose_snap(self, state: GameState, legal: tuple[SnapChoice, ...]) -> SnapChoice:
        return fourth_down_kick(state, legal)

    def choose_hand(self, state: GameState, role: Role) -> Hand:
        return Hand(sample(self.rng, players_for(role), 2), sample(self.rng, calls_for(role), 3))

    def choose_swap(self, state: GameState, role: Role, hand: Hand) -> Swap:
        """Keep, replace a player or replace a call (1/3 each), then uniform over the cards."""
        kind = choose(self.rng, SWAP_KINDS)
        if kind is SwapKind.KEEP:
            return Swap.keep()
        held, pool = (
            (hand.players, players_for(role))
            if kind is SwapKind.PLAYER
            else (hand.calls, calls_for(role))
        )
        out = choose(self.rng, held)
        into = choose(self.rng, [card for card in pool if card not in held])
        return Swap(kind, out, into)

    def choose_final(self, state: GameState, role: Role, hand: Hand) -> Call:
        return choose(self.rng, hand.calls)
