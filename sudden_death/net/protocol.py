"""The table protocol: JSON text messages between a game and a table server (docs/protocol.md).

Messages are msgspec structs tagged by `type`: msgspec checks every field's type while it
decodes, about ten times faster than validating a parsed dict by hand, so a hostile frame costs
the server little and a good one reaches the rules already typed. The engine's values (actions,
states, events) travel as the engine's own JSON forms (`engine/snapshot.py`,
`engine/event_codec.py`) and are decoded there.

Refusals carry a `code` the game says in the player's language; `text` is the server's English,
for a log or a client that does not know the code.
"""

from __future__ import annotations

from typing import Any

import msgspec

PROTOCOL_VERSION = 1
MAX_MESSAGE_BYTES = 64 * 1024
CODE_DIGITS = 6


class Message(msgspec.Struct, tag_field="type", forbid_unknown_fields=True):
    """Base of every message; the subclass's tag is its `type`."""


# -- game to server ----------------------------------------------------------------------------


class Host(Message, tag="host"):
    """Open a table; the server answers `Seated` with its code."""

    version: int
    name: str


class Join(Message, tag="join"):
    """Take the free seat at the table with `code`."""

    version: int
    code: str
    name: str


class Act(Message, tag="act"):
    """This seat's actions for `step` (the number of steps played before them), in order: the
    snap and the cards come together before fourth down."""

    step: int
    actions: list[dict[str, Any]]


class Leave(Message, tag="leave"):
    """The player quit the table (the game ends for both; a dropped line is not a leave)."""


ClientMessage = Host | Join | Act | Leave


# -- server to game ----------------------------------------------------------------------------


class Seated(Message, tag="seated"):
    """You have a seat: `seat` is the team you play (0 home, 1 away); `token` proves it."""

    code: str
    seat: int
    token: str


class Start(Message, tag="start"):
    """Both seats are taken: the game begins. `names` are the teams' names, home first."""

    names: list[str]
    step: int
    state: dict[str, Any]
    events: list[dict[str, Any]]


class Update(Message, tag="update"):
    """A step was played (both seats had committed, for the three card steps): what happened
    and the new state. Every seat gets the same update at once."""

    step: int
    state: dict[str, Any]
    events: list[dict[str, Any]]


class Committed(Message, tag="committed"):
    """Your actions for `step` are held until the other seat commits too."""

    step: int


class Refused(Message, tag="refused"):
    """What you asked for was not done; `fatal` means the connection closes after it."""

    code: str
    text: str
    fatal: bool = False


class Left(Message, tag="left"):
    """The other seat left the table; the game is over for both."""

    name: str


ServerMessage = Seated | Start | Update | Committed | Refused | Left

# Refusal codes, said by the game in the player's language (ui/words/table.py).
NO_TABLE = "no_table"
TABLE_FULL = "table_full"
WRONG_VERSION = "version"
BAD_MESSAGE = "bad_message"
NOT_NOW = "not_now"
NOT_ALLOWED = "not_allowed"
BAD_NAME = "bad_name"

MAX_NAME = 24

_client_decoder = msgspec.json.Decoder(ClientMessage)
_server_decoder = msgspec.json.Decoder(ServerMessage)
_encoder = msgspec.json.Encoder()


class ProtocolError(ValueError):
    """A message that cannot be used: `code` is one of the refusal codes above."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


def encode(message: Message) -> str:
    return _encoder.encode(message).decode()


def decode_client(frame: str | bytes) -> ClientMessage:
    """A game's message, or ProtocolError: a binary frame, a frame over MAX_MESSAGE_BYTES,
    JSON that is not a known message, or a greeting of another protocol version."""
    if isinstance(frame, bytes):
        raise ProtocolError(BAD_MESSAGE, "messages are JSON text frames, not binary")
    if len(frame) > MAX_MESSAGE_BYTES:
        raise ProtocolError(BAD_MESSAGE, f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    try:
        message = _client_decoder.decode(frame)
    except RecursionError:  # msgspec's own depth guard, for JSON nested past reason
        raise ProtocolError(BAD_MESSAGE, "a message is not nested that deeply") from None
    except msgspec.DecodeError as error:
        _check_version(_version_of(frame))  # another version's greeting may differ in shape
        raise ProtocolError(BAD_MESSAGE, f"not a message of this protocol: {error}") from None
    if isinstance(message, (Host, Join)):
        _check_version(message.version)
    return message


def _version_of(frame: str) -> object:
    try:
        data = msgspec.json.decode(frame)
    except (msgspec.DecodeError, RecursionError):
        return None
    return data.get("version") if isinstance(data, dict) else None


def _check_version(version: object) -> None:
    if isinstance(version, int) and version != PROTOCOL_VERSION:
        raise ProtocolError(WRONG_VERSION, f"this server speaks protocol {PROTOCOL_VERSION}, "
                                           f"the game speaks {version}")


def decode_server(frame: str | bytes) -> ServerMessage:
    """A server's message, or ProtocolError (the game says the server misbehaved)."""
    if isinstance(frame, bytes) or len(frame) > 16 * MAX_MESSAGE_BYTES:
        raise ProtocolError(BAD_MESSAGE, "the server sent something that is not a message")
    try:
        return _server_decoder.decode(frame)
    except RecursionError:
        raise ProtocolError(BAD_MESSAGE, "the server sent a message nested too deeply") from None
    except msgspec.DecodeError as error:
        raise ProtocolError(BAD_MESSAGE, f"the server sent a bad message: {error}") from None
