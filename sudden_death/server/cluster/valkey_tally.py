"""The limits' counts shared by the processes of a cluster, on Valkey (issue 62): a client meets
the same per-address limits (new lines a second, lines open, wrong codes and passwords) and a
name the same limit on tries, whichever process it reaches.

Two kinds of key, each under `sd:limit:<kind>:<key>`. Events (a new line, a wrong try): a
sorted set of `<process>|<n>` scored by Valkey's own clock (`TIME`, so machines whose clocks
differ agree), trimmed to KEEP_MS and expiring with it; a process reads the others' events of
a window as their ages. Gauges (lines open): a sorted set of process names scored by each
one's count now; a process reads the others' sum, and a process whose lease
(`sd:process:<name>`, valkey_routes.py) has run out counts nothing and is taken out. Each
process keeps its own counts in memory (limits.py) and adds the others', so its own are
exact at once and the others' as of their last write.

Writes never wait: they are queued for one background task that sends them in order, in
pipelines. Reads are one script each, awaited where a line is admitted or a try is heard
(the places that already wait: a handshake, a greeting), with a short timeout. Valkey away:
the others' counts are taken as none (each process holds its own limits, as alone), reads are
not tried again for RETRY_S (no client waits a timeout each), writes are dropped, the log says
so once per outage, and once back this process's gauges are written again. Only the
`valkey_*` modules import the client.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Awaitable, Callable

from .stopping import stop
from .valkey_fanout import OUTAGE_ERRORS, Outage, outage_client, reached, where

__all__ = ["ValkeyTally"]

PREFIX = "sd:"
KEEP_MS = 120_000  # an event is kept this long (longer than any limit's window)
GAUGE_MS = 3_600_000  # a gauge's key outlives its last write by this much
TIMEOUT_S = 0.5  # a read or a batch of writes that takes longer is an outage
RETRY_S = 1.0  # after an outage, reads wait this long before Valkey is tried again
BATCH = 256  # writes sent in one pipeline
MAX_QUEUED = 10_000  # writes waiting; past it (Valkey too slow) new ones are dropped
MINE_KEPT = 64  # this process's latest events kept per key, to be taken back
POLL_S = 0.5  # a polled gauge (`polled`) is read this often, and its changes written
RENEW_S = 10.0  # every gauge of this process written again this often (a restarted Valkey)

_NOW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
"""
# KEYS[1]: the events. ARGV: the event's member, how long one is kept (ms).
_ADD = _NOW + """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""
# KEYS[1]: the events. ARGV: this process's prefix ("name|"), the window (ms). The others'
# events within the window, as ages (ms).
_AGES = _NOW + """
local found = redis.call('ZRANGEBYSCORE', KEYS[1], now - tonumber(ARGV[2]), '+inf',
                         'WITHSCORES')
local own = ARGV[1]
local ages = {}
for i = 1, #found, 2 do
  if string.sub(found[i], 1, #own) ~= own then
    table.insert(ages, now - tonumber(found[i + 1]))
  end
end
return ages
"""
# KEYS[1]: the gauges. ARGV: this process's name, the lease prefix. The other live
# processes' counts summed; a process without a lease taken out.
_ELSEWHERE = """
local found = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
local sum = 0
for i = 1, #found, 2 do
  local name = found[i]
  if name ~= ARGV[1] then
    if redis.call('EXISTS', ARGV[2] .. name) == 1 then
      sum = sum + tonumber(found[i + 1])
    else
      redis.call('ZREM', KEYS[1], name)
    end
  end
end
return sum
"""

class ValkeyTally:
    """`tally.Tally` on Valkey for the process `name`; see the module's docstring. Built with
    `await ValkeyTally.open(url, name)`, let go with `await close()`."""

    def __init__(self, url: str, name: str, prefix: str = PREFIX) -> None:
        self.name = name
        self._prefix = f"{prefix}limit:"
        self._leases = f"{prefix}process:"
        self._own = f"{name}|"
        self._client = outage_client(url, TIMEOUT_S)
        self._add = self._client.register_script(_ADD)
        self._ages = self._client.register_script(_AGES)
        self._elsewhere = self._client.register_script(_ELSEWHERE)
        self._outbox: deque[tuple[str, str, str, int]] = deque()  # op, key, member, count
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._down_until = -float("inf")  # reads skipped until then (monotonic)
        self._counted = 0
        self._mine: dict[str, deque[str]] = {}  # key: this process's latest events
        self._gauges: dict[str, int] = {}  # key: this process's count, when not 0
        # Gauges read from their owner now and then (`polled`): kind, reader, last read.
        self._polled: list[tuple[str, Callable[[], dict[str, int]], dict[str, int]]] = []
        self._poller: asyncio.Task[None] | None = None
        self._outage = Outage(where(url), "each process counts its own clients' limits "
                              "until it is back",
                              "the limits are counted across the processes again")

    @classmethod
    async def open(cls, url: str, name: str, prefix: str = PREFIX) -> ValkeyTally:
        """Ready once Valkey answers; ValkeyUnreachable when it cannot be reached now."""
        tally = cls(url, name, prefix)
        await reached(tally._client, tally._outage.place, tally._client.ping())
        tally._task = asyncio.create_task(tally._send(), name="valkey tally")
        return tally

    def add(self, kind: str, key: str) -> None:
        self._counted += 1
        member = f"{self._own}{self._counted}"
        where = self._key(kind, key)
        mine = self._mine.get(where)
        if mine is None:
            if len(self._mine) > MAX_QUEUED:  # many keys: forget the oldest
                self._mine.pop(next(iter(self._mine)))
            mine = self._mine[where] = deque(maxlen=MINE_KEPT)
        mine.append(member)
        self._queue("add", where, member)

    def take_back(self, kind: str, key: str) -> None:
        mine = self._mine.get(self._key(kind, key))
        if mine:
            self._queue("rem", self._key(kind, key), mine.pop())

    def gauge(self, kind: str, key: str, count: int) -> None:
        where = self._key(kind, key)
        if count > 0:
            self._gauges[where] = count
        else:
            self._gauges.pop(where, None)
        self._queue("gauge", where, self.name, count)

    def polled(self, kind: str, counts: Callable[[], dict[str, int]]) -> None:
        """A gauge whose counts (key: count, zero ones left out) change where no call can
        say so at once (a table filling or ending): read every POLL_S, its changes written;
        the same task writes every gauge again every RENEW_S (a Valkey restarted between two
        commands is empty, and its client never said it was lost). Call inside the loop."""
        self._polled.append((kind, counts, {}))
        if self._poller is None:
            self._poller = asyncio.create_task(self._poll(), name="valkey tally poll")

    async def ages(self, kind: str, key: str, window_s: float) -> list[float]:
        found = await self._read(lambda: self._ages(keys=[self._key(kind, key)],
                                                    args=[self._own, int(window_s * 1000)]))
        return [] if not isinstance(found, list) else [int(age) / 1000 for age in found]

    async def elsewhere(self, kind: str, key: str) -> int:
        found = await self._read(lambda: self._elsewhere(keys=[self._key(kind, key)],
                                                         args=[self.name, self._leases]))
        return int(found) if isinstance(found, int) else 0

    async def close(self) -> None:
        """Stop (the writes still queued given a moment), this process's gauges taken out."""
        self._closing = True
        self._wake.set()
        if self._poller is not None:
            await stop(self._poller)
            self._poller = None
        if self._task is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._task), TIMEOUT_S * 2)
            await stop(self._task)
            self._task = None
        if self._gauges:
            with contextlib.suppress(*OUTAGE_ERRORS):
                async with self._client.pipeline(transaction=False) as pipe:
                    for where in self._gauges:
                        pipe.zrem(where, self.name)
                    await pipe.execute()
        await self._client.aclose()

    # Inside.

    async def _poll(self) -> None:
        renewed = time.monotonic()
        while not self._closing:
            await asyncio.sleep(POLL_S)
            if time.monotonic() - renewed >= RENEW_S:  # a Valkey restarted unseen is empty
                renewed = time.monotonic()
                for where, count in self._gauges.items():
                    self._queue("gauge", where, self.name, count)
            for index, (kind, counts, last) in enumerate(self._polled):
                now = counts()
                for key in now.keys() | last.keys():
                    if now.get(key, 0) != last.get(key, 0):
                        self.gauge(kind, key, now.get(key, 0))
                self._polled[index] = (kind, counts, now)

    def _key(self, kind: str, key: str) -> str:
        return f"{self._prefix}{kind}:{key}"

    def _queue(self, op: str, where: str, member: str, count: int = 0) -> None:
        if len(self._outbox) >= MAX_QUEUED:
            return  # Valkey too slow: the others count this process's as it was
        self._outbox.append((op, where, member, count))
        self._wake.set()

    async def _read(self, ask: Callable[[], Awaitable[object]]) -> object:
        if time.monotonic() < self._down_until:
            return None  # lost lately: not tried again yet, so no client waits a timeout
        try:
            found = await ask()
        except OUTAGE_ERRORS as error:
            self._lost(error)
            return None
        self._back()
        return found

    async def _send(self) -> None:
        while not (self._closing and not self._outbox):
            if not self._outbox:
                if self._closing:
                    return
                self._wake.clear()
                await self._wake.wait()
                continue
            batch = [self._outbox.popleft() for _ in range(min(BATCH, len(self._outbox)))]
            try:
                async with self._client.pipeline(transaction=False) as pipe:
                    for op, where, member, count in batch:
                        if op == "add":
                            await self._add(keys=[where], args=[member, KEEP_MS], client=pipe)
                        elif op == "rem":
                            pipe.zrem(where, member)
                        elif count > 0:
                            pipe.zadd(where, {member: count})
                            pipe.pexpire(where, GAUGE_MS)
                        else:
                            pipe.zrem(where, member)
                    await pipe.execute()
            except OUTAGE_ERRORS as error:
                self._lost(error)
                if self._closing:
                    return
                await asyncio.sleep(RETRY_S)
            else:
                self._back()

    def _lost(self, error: BaseException) -> None:
        self._down_until = time.monotonic() + RETRY_S
        self._outage.lost(error)

    def _back(self) -> None:
        if self._outage.back():
            for where, count in self._gauges.items():  # a restarted Valkey is empty
                self._queue("gauge", where, self.name, count)
