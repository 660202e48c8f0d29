"""The fan-out seam: a message for everyone on a topic, not for one line.

Topics are the lobby's listeners (`LOBBY`, its lists; `LOBBY_CHAT`, its chat) and each table's
spectators (`watch_topic(code)`): the roles publish there and never loop over other roles'
lines. `LocalFanOut` is the one in this process; a cluster's (Valkey pub/sub,
valkey_fanout.py: today the lobby's chat only) publishes through the engine and delivers to
the lines each process holds, under the same contract, which
tests/test_contract_fanout.py states: per topic, messages arrive in the order published;
a line hears a topic only while subscribed; `but` (the sender) never hears its own; nothing is
delivered, encoded or kept for a topic nobody subscribed to. It never decides who may
subscribe (the roles do) and never holds a table's secrets: only what every subscriber may hear.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, Protocol

from ...wire import protocol as p

LOBBY = "lobby"
# The lobby's chat, apart from its lists: in a cluster the chat crosses processes, where each
# process tells its own lines its own list (sent across, every list would come twice).
LOBBY_CHAT = "lobby-chat"


def watch_topic(code: str) -> str:
    """The topic of the spectators of the table with `code`."""
    return f"watch:{code}"


class FanOut(Protocol):
    """Where a message goes beyond one line. A `line` is whatever the delivery callable takes
    (a WebSocket connection in the server)."""

    def subscribe(self, topic: str, line: Hashable) -> None:
        """From now, `line` hears what is published on `topic` (again: no change)."""

    def unsubscribe(self, topic: str, line: Hashable) -> None:
        """From now, `line` hears nothing more of `topic` (not subscribed: no change)."""

    def publish(self, topic: str, message: p.Message, but: Hashable | None = None) -> None:
        """`message` for every line on `topic` except `but`, in the order published."""

    def subscribed(self, topic: str) -> int:
        """How many lines hear `topic` now."""


# Queues one encoded message on each of many lines, never waiting on any (the postman's
# `send_frames`): one call a message, however many hear it.
Deliver = Callable[[list[Any], str], None]


class LocalFanOut:
    """The fan-out of one process: topics in a dictionary, each message encoded once and
    handed with every line that hears it to `deliver` in one call."""

    def __init__(self, deliver: Deliver) -> None:
        self._deliver = deliver
        self._topics: dict[str, dict[Hashable, None]] = {}  # in the order lines came

    def subscribe(self, topic: str, line: Hashable) -> None:
        self._topics.setdefault(topic, {})[line] = None

    def unsubscribe(self, topic: str, line: Hashable) -> None:
        lines = self._topics.get(topic)
        if lines is None:
            return
        lines.pop(line, None)
        if not lines:
            del self._topics[topic]

    def publish(self, topic: str, message: p.Message, but: Hashable | None = None) -> None:
        lines = self._topics.get(topic)
        if not lines:
            return  # nobody hears it: not even encoded
        hearing = [line for line in lines if line is not but]
        if hearing:
            self._deliver(hearing, p.encode(message))

    def subscribed(self, topic: str) -> int:
        return len(self._topics.get(topic, ()))
