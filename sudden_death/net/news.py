"""What the line to a table server tells the game besides the server's own messages.

Kept apart from `link.py` so the game can know these without importing websockets and
asyncio (about 65 ms) before anyone plays a friend.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import protocol as p


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


News = p.ServerMessage | Connected | Lost | Reconnecting | Restored
