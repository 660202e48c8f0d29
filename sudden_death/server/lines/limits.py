"""What a table server allows one client: how fast it may talk, how many lines one address may
hold, how many wrong codes it may try, and how much unread data it may leave queued.

A server strangers can reach meets floods, guessers and clients that never read. Each limit
here is one of those defences, checked in the service before any table is touched; every
refusal is said to the client in words (a `Refused` with its code), never a silent close.
In a cluster, each limit also counts what the other processes counted for the same address or
name (a `Tally`: tally.py, valkey_tally.py), so a client meets it whichever process it reaches.
"""

from __future__ import annotations

import enum
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from ..cluster.tally import NoTally, Tally

SWEEP_AT = 10_000  # addresses with recent failures kept before the stale ones are swept
SAID_EVERY_S = 60.0  # an address shut out is logged at most this often


class Place(enum.Enum):
    """Where a new TCP connection stands among its address's lines (`Addresses.accept`)."""

    IN = "in"  # within `per_address`: served
    TOLD = "told"  # the one line past it: let through its handshake only to hear `busy`
    OUT = "out"  # past that: closed at once, before anything is read, and not counted


@dataclass(frozen=True)
class Limits:
    """The server's limits; the defaults suit a server on the internet. A normal game sends a
    message a step and a few chat lines, so `messages_per_s` and `burst` are far above it."""

    handshake_s: float = 10.0  # from the TCP connection to the WebSocket opened
    greeting_s: float = 10.0  # from the WebSocket opened to its host, join or resume
    messages_per_s: float = 10.0  # a connection's sustained rate; more is a flood
    burst: int = 40  # messages a connection may send at once before the rate applies
    per_address: int = 32  # lines open at once from one address
    connects_per_s: float = 2.0  # new lines from one address, sustained...
    connect_burst: int = 20  # ...after this many at once (refused before the handshake)
    failed_tries: int = 10  # wrong codes, tokens or passwords from one address...
    tries_window_s: float = 60.0  # ...within this long, before its tries are refused
    send_queue_bytes: int = 256 * 1024  # unread data queued for a client before it is dropped
    # Slow hashes (argon2id of a password: a sign-up, a sign-in, a table's password) run on
    # their own threads (hashing.py), so the rest of the server never waits behind them...
    hash_threads: int = 2
    hashes_per_address: int = 2  # ...one address may have this many asked and not yet done...
    hashes_queued: int = 16  # ...and all addresses together this many: past either, refused
    hashes_for_owners: int = 8  # more in all kept for owners signing in from a usual address
    open_tables: int = 4  # tables waiting for a player, hosted from one address...
    public_tables: int = 500  # ...and public ones waiting in all (the lobby's own cap)

    @classmethod
    def shared(cls, players: int) -> Limits:
        """The limits for `players` clients behind one address (a reverse proxy, a school's
        network): every per-address limit grows with them, the others stay."""
        players = max(1, players)
        base = cls()
        return cls(per_address=max(base.per_address, players),
                   connect_burst=max(base.connect_burst, players),
                   connects_per_s=max(base.connects_per_s, players / 16),
                   failed_tries=max(base.failed_tries, players // 3),
                   hashes_per_address=max(base.hashes_per_address, players // 16),
                   open_tables=max(base.open_tables, players // 4))


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

    def full(self) -> bool:
        """Whether it has refilled to its whole burst (its owner has been quiet a while)."""
        return self.tokens + (self.clock() - self.at) * self.rate >= self.burst

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
    """Per client address: its open lines, and its recent failed tries (a code guesser's).
    The `async` checks add the other processes' counts (`tally`; none on a process alone);
    `kind` names its tries there, apart from another book's (a name's, a sign-in's)."""

    limits: Limits
    clock: Callable[[], float] = time.monotonic
    lines: dict[str, int] = field(default_factory=dict)
    failures: dict[str, deque[float]] = field(default_factory=dict)
    arrivals: dict[str, Bucket] = field(default_factory=dict)
    arrived: dict[str, deque[float]] = field(default_factory=dict)  # in a cluster: when
    tally: Tally = field(default_factory=NoTally)
    kind: str = "fail"
    said: dict[str, float] = field(default_factory=dict)  # when an address shut out was logged

    async def arriving(self, address: str) -> bool:
        """`arrive`; in a cluster, also fewer than `connect_burst` new lines from `address`
        let in by all the processes within the time a burst takes to refill (so the
        sustained rate is the cluster's `connects_per_s`, not each process's)."""
        limits = self.limits
        window = limits.connect_burst / limits.connects_per_s
        elsewhere = await self.tally.ages("arrive", address, window)
        now = self.clock()
        if elsewhere:
            mine = sum(1 for at in self.arrived.get(address, ()) if now - at < window)
            if mine + len(elsewhere) >= limits.connect_burst:
                return False
        if not self.arrive(address):
            return False
        if not isinstance(self.tally, NoTally):
            if len(self.arrived) > SWEEP_AT:  # forget the addresses quiet for a window
                self.arrived = {where: times for where, times in self.arrived.items()
                                if now - times[-1] < window}
            self.arrived.setdefault(address, deque(maxlen=limits.connect_burst)).append(now)
            self.tally.add("arrive", address)
        return True

    async def opening(self, address: str) -> bool:
        """`open`, with the other processes' lines from `address` counted too."""
        if not self.open(address, await self.tally.elsewhere("lines", address)):
            return False
        self.tally.gauge("lines", address, self.lines[address])
        return True

    def accept(self, address: str) -> tuple[Place, int]:
        """A TCP connection from `address`, just accepted: its place, and the lines this
        process already counted for it. Counted from now until `closing` (unless OUT), so
        the lines still in their handshake count too: 2,000 of them from one address were
        once all accepted, and a step elsewhere waited behind them. This is the only count
        of a client's line (`opening` is not called for it again), so none is counted twice.
        One line past `per_address` is let through to hear `busy` in words (a player's game
        says why); past that one, the address gets nothing but a closed connection."""
        before = self.lines.get(address, 0)
        place = self.place(before)
        if place is not Place.OUT:
            self.lines[address] = before + 1
            self.tally.gauge("lines", address, before + 1)
        return place, before

    async def recount(self, address: str, before: int) -> Place:
        """In a cluster, an accepted line's place once the other processes' lines from
        `address` are added to the `before` this process counted (`accept`)."""
        return self.place(before + await self.tally.elsewhere("lines", address))

    def place(self, before: int) -> Place:
        """The place of a line with `before` lines from its address already open."""
        over = before - self.limits.per_address
        return Place.IN if over < 0 else Place.TOLD if over == 0 else Place.OUT

    @property
    def shared(self) -> bool:
        """Whether other processes count for the same addresses (a cluster's tally)."""
        return not isinstance(self.tally, NoTally)

    def first_said(self, address: str) -> bool:
        """Whether `address` being shut out should be logged now: at most once a minute
        each, so a flood of connections is one line in the log, not thousands."""
        now, said = self.clock(), self.said.get(address)
        if said is not None and now - said < SAID_EVERY_S:
            return False
        if len(self.said) > SWEEP_AT:
            self.said = {where: at for where, at in self.said.items()
                         if now - at < SAID_EVERY_S}
        self.said[address] = now
        return True

    def closing(self, address: str) -> None:
        """`close` of a line `opening` or `accept` counted."""
        self.close(address)
        self.tally.gauge("lines", address, self.lines.get(address, 0))

    async def waiting(self, address: str) -> float:
        """`blocked_for`, with the other processes' tries from `address` counted too."""
        window = self.limits.tries_window_s
        elsewhere = await self.tally.ages(self.kind, address, window)
        if not elsewhere:
            return self.blocked_for(address)
        now = self.clock()
        ages = sorted([*(now - at for at in self.failures.get(address, ())
                         if now - at < window), *elsewhere], reverse=True)  # oldest first
        over = len(ages) - self.limits.failed_tries
        return 0.0 if over < 0 else max(0.0, window - ages[over])

    def tried(self, address: str) -> int:
        """This process's tries counted for `address` within the window."""
        self.blocked_for(address)  # drops the tries older than the window
        return len(self.failures.get(address, ()))

    async def tried_elsewhere(self, address: str) -> int:
        """The other processes' tries counted for `address` within the window."""
        return len(await self.tally.ages(self.kind, address, self.limits.tries_window_s))

    def arrive(self, address: str) -> bool:
        """A new line from `address` asks in; False when it comes faster than
        `connects_per_s` after its burst (a client reconnecting in a loop)."""
        bucket = self.arrivals.get(address)
        if bucket is None:
            if len(self.arrivals) > SWEEP_AT:  # forget the addresses whose bucket is full
                self.arrivals = {where: kept for where, kept in self.arrivals.items()
                                 if not kept.full()}
            bucket = self.arrivals[address] = Bucket(self.limits.connects_per_s,
                                                      self.limits.connect_burst, self.clock)
        return bucket.take()

    def open(self, address: str, elsewhere: int = 0) -> bool:
        """Count a new line from `address`; False (and not counted) over the limit."""
        count = self.lines.get(address, 0)
        if count + elsewhere >= self.limits.per_address:
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
        now = self.clock()
        self.failures.setdefault(address, deque()).append(now)
        self.tally.add(self.kind, address)
        if len(self.failures) > SWEEP_AT:  # many addresses trying: forget the stale ones
            window = self.limits.tries_window_s
            for stale in [where for where, tries in self.failures.items()
                          if now - tries[-1] >= window]:
                del self.failures[stale]

    def refund(self, address: str) -> None:
        """Take back the latest try counted for `address` (one that turned out right)."""
        tries = self.failures.get(address)
        if tries:
            tries.pop()
            self.tally.take_back(self.kind, address)
            if not tries:
                del self.failures[address]

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
