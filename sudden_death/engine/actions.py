"""Every choice a team can make, as values, and which of them the rules allow now.

One vocabulary serves the engine, both computers, the front end and the key scripts, the way
OpenSpiel's actions and python-chess's moves do: ask `legal_actions(state, team)`, pick one, and
give it to `Game.apply`. Nothing else switches on the phase to find who acts or lists the swaps.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from typing import cast

from .card_model import Call, Player, Role
from .cards import calls_for, players_for
from .field import field_goal_distance, field_goal_needs
from .state import CoinFace, GameState, Hand, Phase, Side, SnapChoice, Swap, SwapKind, Team

PLAYERS_PER_HAND = 2
CALLS_PER_HAND = 3


@dataclass(frozen=True)
class CallCoin:
    """The home team calls the toss."""

    face: CoinFace


@dataclass(frozen=True)
class ChooseSide:
    """The toss winner takes offense or defense first."""

    side: Side


@dataclass(frozen=True)
class ChooseSnap:
    """Before a down the offense runs a play, punts or tries a field goal."""

    choice: SnapChoice


@dataclass(frozen=True)
class PickHand:
    """Step 1 of a down: 2 players and 3 calls, shown when both sides have picked."""

    hand: Hand


@dataclass(frozen=True)
class PickSwap:
    """Step 2: keep the hand, or replace one player or one call."""

    swap: Swap


@dataclass(frozen=True)
class PickFinal:
    """Step 3: the final call, one of the three held."""

    call: Call


@dataclass(frozen=True)
class Concede:
    """Give up the game; allowed at any step before the end, so it is never listed as legal."""


Action = CallCoin | ChooseSide | ChooseSnap | PickHand | PickSwap | PickFinal | Concede
CardAction = PickHand | PickSwap | PickFinal

# The one action each step takes: the rules' whole phase switch.
PHASE_ACTION: dict[Phase, type] = {
    Phase.COIN_TOSS: CallCoin,
    Phase.SIDE_CHOICE: ChooseSide,
    Phase.SNAP_CHOICE: ChooseSnap,
    Phase.SELECTION: PickHand,
    Phase.SUBSTITUTION: PickSwap,
    Phase.FINAL_CALL: PickFinal,
}
ACTION_PHASE: dict[type, Phase] = {kind: phase for phase, kind in PHASE_ACTION.items()}
SIMULTANEOUS = frozenset((Phase.SELECTION, Phase.SUBSTITUTION, Phase.FINAL_CALL))


def actors(state: GameState) -> tuple[Team, ...]:
    """The teams that must act at this step, offense first; none once the game is over."""
    if state.phase is Phase.GAME_OVER:
        return ()
    if state.phase is Phase.COIN_TOSS:
        return (Team.HOME,)
    if state.phase is Phase.SIDE_CHOICE:
        assert state.coin_winner is not None
        return (state.coin_winner,)
    assert state.offense is not None
    if state.phase is Phase.SNAP_CHOICE:
        return (state.offense,)
    return (state.offense, state.offense.other)


def role_of(state: GameState, team: Team) -> Role | None:
    """`team`'s side of the ball, or None before the first drive."""
    if state.offense is None:
        return None
    return Role.OFFENSE if team is state.offense else Role.DEFENSE


def held_hand(state: GameState, team: Team) -> Hand | None:
    """The cards `team` revealed this down, if any."""
    return state.offense_hand if team is state.offense else state.defense_hand


def legal_snaps(state: GameState) -> tuple[SnapChoice, ...]:
    """Play and punt always; a field goal only within range."""
    if state.phase is not Phase.SNAP_CHOICE or state.down is None:
        return ()
    if field_goal_needs(field_goal_distance(state.down.line)) is None:
        return (SnapChoice.PLAY, SnapChoice.PUNT)
    return tuple(SnapChoice)


def legal_actions(state: GameState, team: Team) -> tuple[Action, ...]:
    """What `team` may do now, in a fixed order (the computers' draws depend on it); empty when
    it is not `team`'s turn. Hands are listed once each, players and calls in card order."""
    if team not in actors(state):
        return ()
    return legal_for_actor(state, team)


def legal_for_actor(state: GameState, team: Team) -> tuple[Action, ...]:
    """`legal_actions` for a team already known to act now (the computers' hot path)."""
    phase = state.phase
    if phase is Phase.COIN_TOSS:
        return COIN_ACTIONS
    if phase is Phase.SIDE_CHOICE:
        return SIDE_ACTIONS
    if phase is Phase.SNAP_CHOICE:
        return tuple(SNAP_ACTIONS[choice] for choice in legal_snaps(state))
    role = role_of(state, team)
    assert role is not None
    if phase is Phase.SELECTION:
        return hand_actions(role)
    hand = held_hand(state, team)
    assert hand is not None
    if phase is Phase.SUBSTITUTION:
        return swap_actions(hand, role)
    return final_actions(hand.calls)


COIN_ACTIONS: tuple[Action, ...] = tuple(CallCoin(face) for face in CoinFace)
SIDE_ACTIONS: tuple[Action, ...] = tuple(ChooseSide(side) for side in Side)
SNAP_ACTIONS: dict[SnapChoice, Action] = {choice: ChooseSnap(choice) for choice in SnapChoice}


@lru_cache(maxsize=1024)
def final_actions(calls: tuple[Call, ...]) -> tuple[Action, ...]:
    """One final call per call held, in the hand's order."""
    return tuple(PickFinal(call) for call in calls)


@lru_cache(maxsize=2)
def hand_actions(role: Role) -> tuple[Action, ...]:
    """Every selection for `role` (120 of them), players then calls in card order."""
    own_calls: tuple[Call, ...] = calls_for(role)
    return tuple(
        PickHand(Hand(players, calls))
        for players in itertools.combinations(players_for(role), PLAYERS_PER_HAND)
        for calls in itertools.combinations(own_calls, CALLS_PER_HAND)
    )


@lru_cache(maxsize=4096)
def swap_actions(hand: Hand, role: Role) -> tuple[Action, ...]:
    """Keep; then each held player with each player not held; then the same for calls."""
    actions: list[Action] = [PickSwap(Swap.keep())]
    for kind, held, pool in (
        (SwapKind.PLAYER, hand.players, players_for(role)),
        (SwapKind.CALL, hand.calls, calls_for(role)),
    ):
        actions += [
            PickSwap(Swap(kind, out, into)) for out in held for into in pool if into not in held
        ]
    return tuple(actions)


def swapped(hand: Hand, swap: Swap) -> Hand:
    """`hand` after a swap already known to be legal (see `legal_actions`)."""
    if swap.kind is SwapKind.KEEP:
        return hand
    if swap.kind is SwapKind.PLAYER:
        players = tuple(swap.into if card == swap.out else card for card in hand.players)
        new_players = cast("tuple[Player, ...]", players)  # pragma: no mutate (types only)
        return Hand(new_players, hand.calls)
    calls = tuple(swap.into if card == swap.out else card for card in hand.calls)
    new_calls = cast("tuple[Call, ...]", calls)  # pragma: no mutate (types only)
    return Hand(hand.players, new_calls)
