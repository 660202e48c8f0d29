"""What the line to a table server tells the game besides the server's own messages.

Kept apart from `link.py` and `discovery.py` so the game can know these without importing
websockets, asyncio (about 65 ms) and zeroconf (about 80 ms) before anyone plays a friend.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from ..wire import protocol as p


@dataclass(frozen=True)
class Connected:
    """The line is up; `address` is what a friend types to join a table served here."""

    address: str | None = None


@dataclass(frozen=True)
class Lost:
    """The line failed or closed; `reason` is for a log, the game says its own words."""

    reason: str
    ever_connected: bool


@dataclass(frozen=True)
class Reconnecting:
    """The line dropped after the seat was taken; the link is trying again by itself."""

    reason: str


@dataclass(frozen=True)
class Restored:
    """The line is back; the server's `Seated` and `Start` follow."""


@dataclass(frozen=True)
class NearbyTable:
    """A table open on the home network (net/discovery.py): the host's team, its code, and
    where to join it."""

    team: str
    code: str
    address: str  # HOST:PORT


class TableFinder(Protocol):
    """What the game asks of `discovery.Finder` (imported only when it is needed)."""

    def start(self) -> None: ...

    def tables(self) -> list[NearbyTable]: ...

    def close(self) -> None: ...


class Alarm(Protocol):
    """What the link raises when news arrives, so the game's loop need not poll it (the
    loop's `Wake`; a `threading.Event` does too)."""

    def set(self) -> None: ...


News = p.ServerMessage | Connected | Lost | Reconnecting | Restored
