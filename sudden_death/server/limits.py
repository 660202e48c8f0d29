"""What a table server allows one client: how fast it may talk, how many lines one address may
hold, how many wrong codes it may try, and how much unread data it may leave queued.

A server strangers can reach meets floods, guessers and clients that never read. Each limit
here is one of those defences, checked in the service before any table is touched; every
refusal is said to the client in words (a `Refused` with its code), never a silent close.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Limits:
    """The server's limits; the defaults suit a server on the internet. A normal game sends a
    message a step and a few chat lines, so `messages_per_s` and `burst` are far above it."""

    handshake_s: float = 10.0  # from the TCP connection to the WebSocket opened
    greeting_s: float = 10.0  # from the WebSocket opened to its host, join or resume
    messages_per_s: float = 10.0  # a connection's sustained rate; more is a flood
    burst: int = 40  # messages a connection may send at once before the rate applies
    per_address: int = 32  # lines open at once from one address
    failed_tries: int = 10  # wrong codes, tokens or passwords from one address...
    tries_window_s: float = 60.0  # ...within this long, before its tries are refused
    send_queue_bytes: int = 256 * 1024  # unread data queued for a client before it is dropped


@dataclass
class Bucket:
    """A token bucket: `take` is False once a client has spent its burst faster than the rate
    refills it."""

    rate: float
    burst: int
    clock: Callable[[], float] = time.monotonic
    tokens: float = field(init=False)
    at: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = float(self.burst)
        self.at = self.clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True


@dataclass
class Addresses:
    """Per client address: its open lines, and its recent failed tries (a code guesser's)."""

    limits: Limits
    clock: Callable[[], float] = time.monotonic
    lines: dict[str, int] = field(default_factory=dict)
    failures: dict[str, deque[float]] = field(default_factory=dict)

    def open(self, address: str) -> bool:
        """Count a new line from `address`; False (and not counted) over the limit."""
        count = self.lines.get(address, 0)
        if count >= self.limits.per_address:
            return False
        self.lines[address] = count + 1
        return True

    def close(self, address: str) -> None:
        count = self.lines.get(address, 0) - 1
        if count > 0:
            self.lines[address] = count
        else:
            self.lines.pop(address, None)

    def failed(self, address: str) -> None:
        self.failures.setdefault(address, deque()).append(self.clock())

    def blocked_for(self, address: str) -> float:
        """How long `address` must wait before its next try counts (0: it may try now)."""
        tries = self.failures.get(address)
        if not tries:
            return 0.0
        window = self.limits.tries_window_s
        now = self.clock()
        while tries and now - tries[0] >= window:
            tries.popleft()
        if not tries:
            del self.failures[address]
            return 0.0
        if len(tries) < self.limits.failed_tries:
            return 0.0
        return window - (now - tries[0])
