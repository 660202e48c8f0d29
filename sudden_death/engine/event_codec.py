"""Events as plain JSON values, and back: what a table server sends both seats after a step.

Every field is written from its value and read back by the event's own type hints, so a new
event needs no code here (the property test plays whole games and checks every event comes
back equal). Cards carry their kind, as in snapshots. Nothing here carries the dice generator:
a seat hears the rolls, never the state that would tell it the next ones.
"""

from __future__ import annotations

import types
import typing
from dataclasses import fields, is_dataclass
from enum import Enum
from functools import cache
from typing import Any, Union

from . import events as ev
from .card_model import DefCall, OffCall, Player
from .dice import Roll
from .errors import SnapshotError
from .field import Down
from .snapshot import (
    _enum,
    _int,
    _scores,
    card_from_str,
    card_to_str,
    hand_from_dict,
    hand_to_dict,
    swap_from_dict,
    swap_to_dict,
)
from .state import GameEnd, Hand, Outcome, Swap, Team

CARD_TYPES = (Player, OffCall, DefCall)


def _event_kinds() -> dict[str, type[ev.Event]]:
    found: dict[str, type[ev.Event]] = {}
    for value in vars(ev).values():
        if isinstance(value, type) and issubclass(value, ev.Event) and value is not ev.Event:
            found[value.kind] = value
    return found


EVENT_KINDS = _event_kinds()


def event_to_dict(event: ev.Event) -> dict[str, Any]:
    assert is_dataclass(event)
    data: dict[str, Any] = {"event": event.kind}
    for field in fields(event):
        data[field.name] = _value_to_json(getattr(event, field.name))
    return data


def events_to_list(events: typing.Iterable[ev.Event]) -> list[dict[str, Any]]:
    return [event_to_dict(event) for event in events]


def event_from_dict(data: Any) -> ev.Event:
    """The event `event_to_dict` wrote, or `SnapshotError` naming what does not fit."""
    if not isinstance(data, dict) or data.get("event") not in EVENT_KINDS:
        raise SnapshotError("an event must be an object naming a known event")
    kind = EVENT_KINDS[data["event"]]
    hints = _hints(kind.kind)
    names = {field.name for field in fields(kind)}
    if not set(data) - {"event"} <= names:
        raise SnapshotError(f"a {kind.kind} event has only the fields {sorted(names)}")
    values = {}
    for name in names:
        if name not in data:
            raise SnapshotError(f"a {kind.kind} event needs its {name}")
        values[name] = _value_from_json(hints[name], data[name])
    return kind(**values)


def events_from_list(data: Any) -> list[ev.Event]:
    if not isinstance(data, list):
        raise SnapshotError("events come as a list")
    return [event_from_dict(item) for item in data]


@cache
def _hints(kind: str) -> dict[str, Any]:
    """An event's field types, read once per kind (`get_type_hints` is slow)."""
    return typing.get_type_hints(EVENT_KINDS[kind])


def _value_to_json(value: Any) -> Any:
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, CARD_TYPES):
        return card_to_str(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, int):
        return value
    if isinstance(value, Hand):
        return hand_to_dict(value)
    if isinstance(value, Swap):
        return swap_to_dict(value)
    if isinstance(value, Down):
        return [value.number, value.line, value.marker]
    if isinstance(value, Roll):
        return {"dice": list(value.dice), "sides": value.sides}
    if isinstance(value, Outcome):
        return {"scores": list(value.scores),
                "winner": None if value.winner is None else value.winner.value,
                "end": value.end.value}
    if isinstance(value, tuple):
        return [_value_to_json(item) for item in value]
    raise TypeError(f"an event field of type {type(value).__name__} has no JSON form")


def _value_from_json(hint: Any, value: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        options = typing.get_args(hint)
        if value is None:
            if type(None) in options:
                return None
            raise SnapshotError("an event field may not be empty")
        rest = [option for option in options if option is not type(None)]
        if all(option in CARD_TYPES for option in rest):
            return _card(tuple(rest), value)
        if len(rest) == 1:
            return _value_from_json(rest[0], value)
        raise SnapshotError(f"no decoder for {hint}")
    try:
        return _decode_plain(hint, value)
    except SnapshotError:
        raise
    except (KeyError, TypeError, ValueError):
        raise SnapshotError(f"an event field is not a {hint}") from None


def _decode_plain(hint: Any, value: Any) -> Any:
    if hint is bool:
        if type(value) is not bool:
            raise SnapshotError(f"{value!r} is not true or false")
        return value
    if hint is int:
        return _int(value)
    if hint is Team:
        return Team(_int(value))
    if hint in CARD_TYPES:
        return _card((hint,), value)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return _enum(hint, value)
    if hint is Hand:
        return hand_from_dict(value)
    if hint is Swap:
        return swap_from_dict(value)
    if hint is Down:
        number, line, marker = (_int(n) for n in value)
        return Down(number, line, marker)
    if hint is Roll:
        dice = tuple(_int(n) for n in value["dice"])
        return Roll(dice, _int(value["sides"]))
    if hint is Outcome:
        winner = value["winner"]
        return Outcome(_scores(value["scores"]), None if winner is None else Team(_int(winner)),
                       _enum(GameEnd, value["end"]))
    if typing.get_origin(hint) is tuple:
        return _scores(value)
    raise SnapshotError(f"no decoder for {hint}")


def _card(kinds: tuple[type, ...], value: Any) -> Any:
    card = card_from_str(value)
    if not isinstance(card, kinds):
        raise SnapshotError(f"{value!r} is not one of {[kind.__name__ for kind in kinds]}")
    return card
