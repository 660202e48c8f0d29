"""The lobby across server processes on one Valkey (issue 62, `--valkey URL`): each process
writes its own lobby entries (`lobby_entries.Listed`: its public tables waiting, its games
played, its totals, its signed-in players in the lobby) under a key of its own,
`sd:lobby:<name>`, that expires TTL_MS after each write, and reads every other live process's
into a cached copy the lobby merges into its list.

Why a key a process with an expiry rather than pub/sub: a process that dies, or loses Valkey,
drops out of the others' lobbies by itself within TTL_MS, and a process that starts reads the
whole lobby at once instead of waiting for news. The keys are found through one sorted set,
`sd:lobby-processes` (name: when last written), never by scanning Valkey's keys; the key's
expiry, not the set, says who is alive.

Read so, every process reads every other's entries each second: the bytes out of Valkey grow
with the square of the processes (at 175 processes with full entries, hundreds of megabytes a
second). So from MERGE_FROM live processes, one of them, the merger (whoever holds the key
`sd:lobby-merger`, taken when free and renewed by its holder, so another takes over within
TTL_MS of its loss), reads them all and writes the cluster's lobby as one capped value,
`sd:lobby-merged` (`lobby_entries.Merged`), which the others read in one GET a second and take
their own entries out of (their fresh ones take their place): every process's reading is then
bounded, whatever the number of processes. A reader that finds no merged value (the merger
just lost) reads each entry as before, until one is there again. Below MERGE_FROM, each
process reads the others' entries itself, a second fresher than through the merger.

The lobby never waits on Valkey: one background task writes this process's entries when they
change (at most every SOON_S) and at least every EVERY_S, and reads the others' at most once
every EVERY_S, then tells the lobby (its news throttle applies) when what it read changed.
A copy read is trusted for TTL_MS only, so a reader cut off from Valkey also forgets it. Valkey
down: the lobby lists this process's own tables, the log says so once per outage and once when
it is back, never with a traceback. Entries a process of another version wrote that this one
cannot read (a field it does not know) are left out of its list. The lobby's chat crosses on
Valkey's pub/sub instead (valkey_fanout.py: a message, not a state to read again), and a line
that joins or watches another process's table is relayed there (relay.py, valkey_routes.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

import msgspec

from .lobby_entries import Listed, Merged, merge_for_all, others_in
from .stopping import stop
from .valkey_fanout import (
    OUTAGE_ERRORS,
    Outage,
    ValkeyUnreachable,
    outage_client,
    reached,
    where,
)

__all__ = ["ValkeyLobby", "ValkeyUnreachable"]

PREFIX = "sd:"
TTL_MS = 3000  # a process's entries outlive its last write by this much
EVERY_S = 1.0  # written and read at least (written) and at most (read) this often
SOON_S = 0.2  # a change is written within this, and no more often
TIMEOUT_S = 1.0  # a connection or a command that takes longer is an outage
FORGOTTEN_MS = 60_000  # a name not written for this long leaves the index
# From this many live processes, one of them (the merger, elected by a key with an expiry)
# reads every entry and writes the cluster's lobby merged into one key, which the others read
# instead: each reads one capped value a second, not every other process's (issue 73).
MERGE_FROM = 8
# The merger's key: taken when free, renewed by its holder, and the holder's name returned.
_MERGER = """
local holder = redis.call('GET', KEYS[1])
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return ARGV[1]
end
if holder == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return holder
"""

_decoder = msgspec.json.Decoder(Listed)
_merged_decoder = msgspec.json.Decoder(Merged)
_encoder = msgspec.json.Encoder()


class ValkeyLobby:
    """This process's entries written to Valkey, and the others' read back; see the module's
    docstring. `own`: this process's entries; `heard`: called when the others' changed.
    Built with `await ValkeyLobby.open(...)`, let go with `await close()`."""

    def __init__(self, url: str, name: str, own: Callable[[], Listed],
                 heard: Callable[[], None], prefix: str = PREFIX,
                 merge_from: int = MERGE_FROM) -> None:
        self.name = name
        self.merge_from = merge_from  # MERGE_FROM (a benchmark compares without merging)
        self._own = own
        self._heard = heard
        self._key = f"{prefix}lobby:{name}"
        self._key_prefix = f"{prefix}lobby:"
        self._index = f"{prefix}lobby-processes"
        self._merged_key = f"{prefix}lobby-merged"
        self._merger_key = f"{prefix}lobby-merger"
        self.merging = False  # whether this process merges the lobby for the others now
        self._others: dict[str, tuple[float, bytes, Listed]] = {}  # name: until, raw, entries
        self._written = b""
        self._last_write = self._last_read = -float("inf")
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._client = outage_client(url, TIMEOUT_S)
        self._merger = self._client.register_script(_MERGER)
        self._outage = Outage(where(url), "the lobby lists this process's tables only until "
                              "it is back", "the lobby lists the other processes' tables again")

    @classmethod
    async def open(cls, url: str, name: str, own: Callable[[], Listed],
                   heard: Callable[[], None], prefix: str = PREFIX,
                   merge_from: int = MERGE_FROM) -> ValkeyLobby:
        """Written and read once, then kept so in the background; ValkeyUnreachable when
        Valkey cannot be reached now (a server does not start without it; later outages are
        outlived)."""
        lobby = cls(url, name, own, heard, prefix, merge_from)
        await reached(lobby._client, lobby._outage.place, lobby._round(read=True))
        lobby._task = asyncio.create_task(lobby._run())
        return lobby

    def others(self) -> list[Listed]:
        """The other live processes' entries, by name (a copy older than TTL_MS is gone)."""
        now = time.monotonic()
        return [listed for _name, (until, _raw, listed) in sorted(self._others.items())
                if until > now]

    def changed(self) -> None:
        """This process's entries may have changed: written soon (at most every SOON_S)."""
        self._wake.set()

    async def close(self) -> None:
        """Stop, and take this process's entries out at once (the others need not wait for
        their expiry)."""
        self._closing = True  # the loop ends by itself too, should a cancellation be lost
        if self._task is not None:
            await stop(self._task)
            self._task = None
        with contextlib.suppress(*OUTAGE_ERRORS):
            async with self._client.pipeline(transaction=False) as pipe:
                pipe.delete(self._key)
                pipe.zrem(self._index, self.name)
                await pipe.execute()
        await self._client.aclose()

    async def _run(self) -> None:
        while not self._closing:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), EVERY_S)
            self._wake.clear()
            now = time.monotonic()
            await asyncio.sleep(max(0.0, self._last_write + SOON_S - now))
            try:
                await self._round(read=time.monotonic() - self._last_read >= EVERY_S * 0.9)
            except OUTAGE_ERRORS as error:
                self._lost(error)
            else:
                self._back()

    async def _round(self, read: bool) -> None:
        """Write this process's entries (when changed, or due to be renewed); read the others'
        (when `read`)."""
        payload = _encoder.encode(self._own())
        now = time.monotonic()
        changed = payload != self._written
        write = changed or now - self._last_write >= EVERY_S * 0.9
        if not (write or read):
            return
        async with self._client.pipeline(transaction=False) as pipe:
            if write:
                # Unchanged entries are renewed, not sent again (issue 73: 10 kB a process a
                # second at full lists); a key gone meanwhile (Valkey restarted) is written.
                if changed:
                    pipe.set(self._key, payload, px=TTL_MS)
                else:
                    pipe.pexpire(self._key, TTL_MS)
                wall_ms = int(time.time() * 1000)
                pipe.zadd(self._index, {self.name: wall_ms})
                pipe.zremrangebyscore(self._index, "-inf", wall_ms - FORGOTTEN_MS)
            if read:
                pipe.zrange(self._index, 0, -1)
            answers = await pipe.execute()
        if write and not changed and not answers[0]:  # renewed nothing: the key was gone
            await self._client.set(self._key, payload, px=TTL_MS)
        if write:
            self._written, self._last_write = payload, now
        if read:
            await self._read([name.decode() for name in answers[-1]], now)

    async def _read(self, names: list[str], now: float) -> None:
        """The others' entries: each read (a few processes), or the merged lobby (from
        MERGE_FROM processes: one process merges for all; the others read its one key, and
        read each again only while there is none to read)."""
        self.merging = False
        if len(names) >= self.merge_from:
            holder = await self._merger(keys=[self._merger_key], args=[self.name, TTL_MS])
            self.merging = (holder.decode() if isinstance(holder, bytes) else holder) == self.name
            if not self.merging:
                raw = await self._client.get(self._merged_key)
                if isinstance(raw, bytes) and self._took_merged(raw, now):
                    return
        await self._read_each([name for name in names if name != self.name], now)
        if self.merging:
            entries = {name: listed for name, (_u, _r, listed) in self._others.items()}
            entries[self.name] = self._own()
            await self._client.set(self._merged_key, _encoder.encode(merge_for_all(entries)),
                                   px=TTL_MS)

    def _took_merged(self, raw: bytes, now: float) -> bool:
        """The merged lobby read, as one entry of all the others; False when it cannot be
        read (another version's), so each is read instead."""
        try:
            listed = others_in(_merged_decoder.decode(raw), self.name)
        except msgspec.DecodeError:
            return False
        self._last_read = now
        known = self._others.get("")
        self._others = {"": (now + TTL_MS / 1000, raw, listed)}
        if known is None or known[2] != listed:
            self._heard()
        return True

    async def _read_each(self, names: list[str], now: float) -> None:
        values: list[Any] = await self._client.mget(
            [self._key_prefix + name for name in names]) if names else []
        self._last_read = now
        until = now + TTL_MS / 1000
        others: dict[str, tuple[float, bytes, Listed]] = {}
        for name, raw in zip(names, values, strict=True):
            if raw is None:
                continue  # expired: that process is gone
            known = self._others.get(name)
            if known is not None and known[1] == raw:
                others[name] = (until, raw, known[2])
                continue
            try:
                others[name] = (until, raw, _decoder.decode(raw))
            except msgspec.DecodeError:
                continue  # another version's entries: not listed here
        news = {name: listed for name, (_u, _r, listed) in others.items()} != {
            name: listed for name, (_u, _r, listed) in self._others.items()}
        self._others = others
        if news:
            self._heard()

    def _lost(self, error: BaseException) -> None:
        """Valkey went away: said once per outage; the others' entries forgotten at once."""
        self._outage.lost(error)
        if self._others:
            self._others = {}
            self._heard()
        self._written = b""  # written again once back (a restarted Valkey is empty)

    def _back(self) -> None:
        self._outage.back()
