"""Game states, actions and dice as plain JSON values, and back.

A saved game must continue exactly as the unsaved one would have, so the dice's generator state
travels with the game state. Cards are written with their kind ("OffCall.draw") because a hand or
a swap alone does not say which side's cards it holds. Anything that does not decode is a
`SnapshotError` naming what is wrong, never a half-built game.
"""

from __future__ import annotations

import json
import random
from dataclasses import fields
from enum import Enum
from typing import Any, TypeVar

from .actions import (
    Action,
    CallCoin,
    ChooseSide,
    ChooseSnap,
    Concede,
    PickFinal,
    PickHand,
    PickSwap,
)
from .card_model import Call, DefCall, OffCall, Player
from .errors import SnapshotError
from .field import Down
from .state import (
    STATE_FIELDS,
    CoinFace,
    GameEnd,
    GameState,
    Hand,
    Outcome,
    Phase,
    Side,
    SnapChoice,
    Swap,
    SwapKind,
    Team,
)

SNAPSHOT_FORMAT = 1
# State fields a snapshot may leave out, each read as its default when missing: the overtime
# rule is written only when on, so a regulation game's snapshot is what it was before the rule
# existed (older saves still equal their replays, and older readers still read new saves).
OPTIONAL_STATE_FIELDS = frozenset({"overtime"})
MAX_SNAPSHOT_CHARS = 1 << 20
E = TypeVar("E", bound=Enum)
CARD_KINDS: dict[str, type[Enum]] = {kind.__name__: kind for kind in (Player, OffCall, DefCall)}
ACTION_KINDS: dict[str, type] = {
    kind.__name__: kind
    for kind in (CallCoin, ChooseSide, ChooseSnap, PickHand, PickSwap, PickFinal, Concede)
}


def load_snapshot(text: str) -> dict[str, Any]:
    """The JSON object of a snapshot of this format, or `SnapshotError`."""
    if not isinstance(text, str) or len(text) > MAX_SNAPSHOT_CHARS:
        raise SnapshotError("a saved game is a JSON text of at most 1 MiB")
    try:
        data = json.loads(text)
    except RecursionError:
        raise SnapshotError("a saved game is not nested that deeply") from None
    except ValueError as error:
        raise SnapshotError(f"a saved game must be JSON: {error}") from None
    if not isinstance(data, dict) or data.get("format") != SNAPSHOT_FORMAT:
        raise SnapshotError(f"a saved game must be an object of format {SNAPSHOT_FORMAT}")
    return data


# -- dice --------------------------------------------------------------------------------------


def rng_to_list(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_list(data: Any) -> random.Random:
    rng = random.Random()
    try:
        version, internal, gauss = data
        rng.setstate((version, tuple(internal), gauss))
    except (TypeError, ValueError, OverflowError):
        raise SnapshotError("the saved dice are not a generator state") from None
    return rng


# -- cards and small values --------------------------------------------------------------------


def card_to_str(card: Player | Call) -> str:
    return f"{type(card).__name__}.{card.value}"


def card_from_str(text: object) -> Any:
    kind_name, _, value = str(text).partition(".")
    kind = CARD_KINDS.get(kind_name)
    if kind is None:
        raise SnapshotError(f"{text!r} is not a card")
    return _enum(kind, value)


def _enum(kind: type[E], value: object) -> E:
    try:
        return kind(value)
    except ValueError:
        raise SnapshotError(f"{value!r} is not a {kind.__name__}") from None


def _optional_enum(kind: type[E], value: object) -> E | None:
    return None if value is None else _enum(kind, value)


def hand_to_dict(hand: Hand) -> dict[str, list[str]]:
    return {"players": [card_to_str(p) for p in hand.players],
            "calls": [card_to_str(c) for c in hand.calls]}


def hand_from_dict(data: Any) -> Hand:
    try:
        return Hand(tuple(card_from_str(p) for p in data["players"]),
                    tuple(card_from_str(c) for c in data["calls"]))
    except (KeyError, TypeError):
        raise SnapshotError("a saved hand needs players and calls") from None


def swap_to_dict(swap: Swap) -> dict[str, Any]:
    return {"kind": swap.kind.value,
            "out": None if swap.out is None else card_to_str(swap.out),
            "into": None if swap.into is None else card_to_str(swap.into)}


def swap_from_dict(data: Any) -> Swap:
    try:
        return Swap(_enum(SwapKind, data["kind"]),
                    None if data["out"] is None else card_from_str(data["out"]),
                    None if data["into"] is None else card_from_str(data["into"]))
    except (KeyError, TypeError):
        raise SnapshotError("a saved swap needs its kind, out and into") from None


# -- states ------------------------------------------------------------------------------------


def state_to_dict(state: GameState) -> dict[str, Any]:
    down, outcome = state.down, state.outcome
    data: dict[str, Any] = {
        "phase": state.phase.value,
        "scores": list(state.scores),
        "drive": state.drive,
        "offense": None if state.offense is None else state.offense.value,
        "coin_winner": None if state.coin_winner is None else state.coin_winner.value,
        "down": None if down is None else [down.number, down.line, down.marker],
        "offense_hand": None if state.offense_hand is None else hand_to_dict(state.offense_hand),
        "defense_hand": None if state.defense_hand is None else hand_to_dict(state.defense_hand),
        "outcome": None if outcome is None else {
            "scores": list(outcome.scores),
            "winner": None if outcome.winner is None else outcome.winner.value,
            "end": outcome.end.value,
        },
    }
    if state.overtime:
        data["overtime"] = True
    return data


def state_from_dict(data: Any) -> GameState:
    """The state `state_to_dict` wrote. The values are checked for their kinds; whether the
    position could arise in play is the rules' business, not the decoder's."""
    if not isinstance(data, dict) or not (
        STATE_FIELDS - OPTIONAL_STATE_FIELDS <= set(data) <= STATE_FIELDS
    ):
        raise SnapshotError(f"a saved state has exactly the fields {sorted(STATE_FIELDS)}"
                            f" (or all but {sorted(OPTIONAL_STATE_FIELDS)})")
    try:
        down, outcome = data["down"], data["outcome"]
        return GameState(
            phase=_enum(Phase, data["phase"]),
            scores=_scores(data["scores"]),
            drive=_int(data["drive"]),
            offense=_optional_enum(Team, data["offense"]),
            coin_winner=_optional_enum(Team, data["coin_winner"]),
            down=None if down is None else Down(*(_int(n) for n in down)),
            offense_hand=_optional_hand(data["offense_hand"]),
            defense_hand=_optional_hand(data["defense_hand"]),
            outcome=None if outcome is None else Outcome(
                _scores(outcome["scores"]),
                _optional_enum(Team, outcome["winner"]),
                _enum(GameEnd, outcome["end"]),
            ),
            overtime=_bool(data.get("overtime", False)),
        )
    except SnapshotError:
        raise
    except (KeyError, TypeError, ValueError):
        error = SnapshotError("a saved state is missing a part or has one of the wrong kind")
        raise error from None


def _optional_hand(data: object) -> Hand | None:
    return None if data is None else hand_from_dict(data)


def _bool(value: object) -> bool:
    if type(value) is not bool:
        raise SnapshotError(f"{value!r} is not true or false")
    return value


def _int(value: object) -> int:
    if type(value) is not int:
        raise SnapshotError(f"{value!r} is not a whole number")
    return value


def _scores(value: Any) -> tuple[int, int]:
    home, away = value
    return _int(home), _int(away)


# -- actions -----------------------------------------------------------------------------------


def action_to_dict(action: Action) -> dict[str, Any]:
    data: dict[str, Any] = {"action": type(action).__name__}
    for field in fields(action):
        value = getattr(action, field.name)
        if isinstance(value, Hand):
            data[field.name] = hand_to_dict(value)
        elif isinstance(value, Swap):
            data[field.name] = swap_to_dict(value)
        elif isinstance(value, (Player, OffCall, DefCall)):
            data[field.name] = card_to_str(value)
        else:
            data[field.name] = value.value
    return data


def action_from_dict(data: Any) -> Action:
    if not isinstance(data, dict) or data.get("action") not in ACTION_KINDS:
        raise SnapshotError(f"{data!r} is not a saved action")
    kind = ACTION_KINDS[data["action"]]
    try:
        if kind is CallCoin:
            return CallCoin(_enum(CoinFace, data["face"]))
        if kind is ChooseSide:
            return ChooseSide(_enum(Side, data["side"]))
        if kind is ChooseSnap:
            return ChooseSnap(_enum(SnapChoice, data["choice"]))
        if kind is PickHand:
            return PickHand(hand_from_dict(data["hand"]))
        if kind is PickSwap:
            return PickSwap(swap_from_dict(data["swap"]))
        if kind is PickFinal:
            return PickFinal(card_from_str(data["call"]))
        return Concede()
    except (KeyError, TypeError):
        raise SnapshotError(f"{data!r} is not a saved action") from None
