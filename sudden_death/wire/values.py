"""The engine's values as the wire carries them: msgspec structs made from the engine's own
dataclasses, so every field of a frame is checked while it decodes.

Actions are a tagged union on `action` (the class's name), events on `event` (its `kind`), and
the state is a struct of its own. Each struct is built from its dataclass's fields and type
hints (`defstruct`), not written out a second time: a new event or action needs no code here,
and the wire cannot drift from the rules. The JSON is the engine's own form (cards as
"OffCall.run", a down as [number, line, marker]), so a frame reads as a saved game does.

Decoding checks each field's type; `from_wire` then makes the engine's value, refusing a card
of the wrong kind (a defense call where an offense call belongs) with a `SnapshotError`.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Callable
from dataclasses import MISSING, fields, is_dataclass
from enum import Enum
from functools import cache
from typing import TYPE_CHECKING, Annotated, Any, TypeVar, Union

import msgspec

from ..engine import events as ev
from ..engine.actions import Action
from ..engine.card_model import DefCall, OffCall, Player
from ..engine.errors import SnapshotError
from ..engine.event_codec import EVENT_KINDS
from ..engine.field import Down
from ..engine.snapshot import ACTION_KINDS, card_from_str, card_to_str
from ..engine.state import GameState

CARD_TYPES = (Player, OffCall, DefCall)
# A card as the engine writes it: its kind and its value.
Card = Annotated[str, msgspec.Meta(pattern=r"^(Player|OffCall|DefCall)\.[a-z_]+$",
                                   max_length=40)]
T = TypeVar("T")


@cache
def _hints(kind: type) -> dict[str, Any]:
    return typing.get_type_hints(kind)


def _is_union(hint: Any) -> bool:
    return typing.get_origin(hint) in (Union, types.UnionType)


def _wire_type(hint: Any) -> Any:
    """The type a field of the engine's type `hint` has on the wire."""
    if _is_union(hint):
        options = [option for option in typing.get_args(hint) if option is not type(None)]
        if all(option in CARD_TYPES for option in options):
            base: Any = Card
        elif len(options) == 1:
            base = _wire_type(options[0])
        else:
            raise TypeError(f"no wire form for {hint}")
        return base | None if type(None) in typing.get_args(hint) else base
    if typing.get_origin(hint) is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return types.GenericAlias(tuple, (_wire_type(args[0]), ...))
        return types.GenericAlias(tuple, tuple(_wire_type(arg) for arg in args))
    if hint in CARD_TYPES:
        return Card
    if hint is Down:
        return tuple[int, int, int]
    if isinstance(hint, type) and is_dataclass(hint):
        return struct_of(hint)
    return hint  # int, bool and the engine's enums, which msgspec checks by value


@cache
def struct_of(kind: Any, tag_field: str | None = None, tag: str | None = None
              ) -> type[msgspec.Struct]:
    """The wire struct of an engine dataclass (tagged, for a member of a union)."""
    hints = _hints(kind)
    spec: list[Any] = []
    for item in fields(kind):
        wire = _wire_type(hints[item.name])
        if item.default is MISSING:
            spec.append((item.name, wire))
        else:
            spec.append((item.name, wire, _to_wire(item.default)))
    # Untracked by the collector, as the protocol's messages (protocol.Message): plain data.
    return msgspec.defstruct(f"Wire{kind.__name__}", spec, tag_field=tag_field, tag=tag,
                             forbid_unknown_fields=True, frozen=True, module=__name__,
                             gc=False)


def _to_wire(value: Any) -> Any:
    kind: Any = type(value)
    if value is None or kind is bool or kind is int or kind is str:
        return value
    if kind in CARD_TYPES:
        return card_to_str(value)
    if isinstance(value, Enum):
        return value
    if isinstance(value, Down):
        return (value.number, value.line, value.marker)
    if isinstance(value, tuple):
        return tuple(_to_wire(item) for item in value)
    if is_dataclass(value):
        wire, names = _writer(kind)
        return wire(**{name: _to_wire(getattr(value, name)) for name in names})
    raise TypeError(f"{kind.__name__} has no wire form")


@cache
def _writer(kind: Any) -> tuple[type[msgspec.Struct], tuple[str, ...]]:
    """An engine dataclass's wire struct and its fields' names, worked out once a class: a
    server writes thousands of states and events a second (docs/server.md, its loop's lag)."""
    return _struct_for_value(kind), tuple(item.name for item in fields(kind))


def _struct_for_value(kind: Any) -> type[msgspec.Struct]:
    if kind in _ACTION_TAGS:
        return struct_of(kind, "action", kind.__name__)
    if issubclass(kind, ev.Event):
        return struct_of(kind, "event", kind.kind)
    return struct_of(kind)


def _from_wire(hint: Any, value: Any) -> Any:
    return _reader(hint)(value)


@cache
def _reader(hint: Any) -> Callable[[Any], Any]:
    """What makes the engine's value of type `hint` from its wire form, worked out once a
    type (as `_writer`): a card of the wrong kind is a SnapshotError."""
    if _is_union(hint):
        options = [option for option in typing.get_args(hint) if option is not type(None)]
        if all(option in CARD_TYPES for option in options):
            kinds = tuple(options)
            return lambda value: None if value is None else _card(kinds, value)
        inner = _reader(options[0])
        return lambda value: None if value is None else inner(value)
    if typing.get_origin(hint) is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            each = _reader(args[0])
            return lambda value: tuple(each(item) for item in value)
        readers = tuple(_reader(arg) for arg in args)
        return lambda value: tuple(read(item)
                                   for read, item in zip(readers, value, strict=True))
    if hint in CARD_TYPES:
        return lambda value: _card((hint,), value)
    if hint is Down:
        return lambda value: Down(*value)
    if isinstance(hint, type) and is_dataclass(hint):
        hints = _hints(hint)
        names = tuple(item.name for item in fields(hint))
        parts = tuple((name, _reader(hints[name])) for name in names)
        make: Callable[..., Any] = hint
        return lambda value: make(**{name: read(getattr(value, name)) for name, read in parts})
    return _same


def _same(value: Any) -> Any:
    return value


def _card(kinds: tuple[type, ...], text: str) -> Any:
    card = card_from_str(text)
    if type(card) not in kinds:
        names = " or ".join(kind.__name__ for kind in kinds)
        raise SnapshotError(f"{text!r} is not a card of the kind wanted here ({names})")
    return card


_ACTION_TAGS = {kind: name for name, kind in ACTION_KINDS.items()}

if TYPE_CHECKING:  # for the type checker, each is one struct; at run time, the tagged union
    WireAction = msgspec.Struct
    WireEvent = msgspec.Struct
    WireState = msgspec.Struct
else:
    WireAction = Union[tuple(struct_of(kind, "action", name)  # noqa: UP007
                             for name, kind in ACTION_KINDS.items())]
    WireEvent = Union[tuple(struct_of(kind, "event", kind.kind)  # noqa: UP007
                            for kind in EVENT_KINDS.values())]
    WireState = struct_of(GameState)


# -- the engine's values in and out --------------------------------------------------------------


def action_to_wire(action: Action) -> WireAction:
    wire: WireAction = _to_wire(action)
    return wire


def action_from_wire(wire: WireAction) -> Action:
    """The engine's action; SnapshotError for a card of the wrong kind."""
    kind = ACTION_KINDS[_tag(wire)]
    action: Action = _from_wire(kind, wire)
    return action


def events_to_wire(events: typing.Iterable[ev.Event]) -> list[WireEvent]:
    return [_to_wire(event) for event in events]


def events_from_wire(wire: typing.Iterable[WireEvent]) -> list[ev.Event]:
    return [_from_wire(EVENT_KINDS[_tag(event)], event) for event in wire]


def _tag(wire: msgspec.Struct) -> str:
    """A union member's tag: the action's or the event's name (every tag here is a string,
    as `struct_of` makes them)."""
    tag = wire.__struct_config__.tag
    if not isinstance(tag, str):
        raise SnapshotError(f"{type(wire).__name__} is no action or event of this protocol")
    return tag


def state_to_wire(state: GameState) -> WireState:
    wire: WireState = _to_wire(state)
    return wire


def state_from_wire(wire: WireState) -> GameState:
    state: GameState = _from_wire(GameState, wire)
    return state


def as_json(value: T) -> Any:
    """`value` (a wire struct, or a list of them) as plain JSON values, to keep in a record
    (as JSON reads them back: arrays as lists)."""
    return msgspec.json.decode(msgspec.json.encode(value))


def from_json(data: Any, kind: type[T]) -> T:
    """Plain JSON values (from a record) as wire structs of `kind`, checked; SnapshotError
    for anything else."""
    try:
        return msgspec.convert(data, kind)
    except msgspec.ValidationError as error:
        raise SnapshotError(f"not a value of this protocol: {error}") from None
