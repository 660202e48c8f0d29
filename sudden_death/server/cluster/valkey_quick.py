"""Quick games across server processes, on Valkey (issue 62): a quick player who reaches a
process where no quick table waits is sent to the process where one does, the nearest rating
first, or waits where it is, and two such players never both wait alone.

One sorted set, `sd:quick`, holds every process's waiting quick tables as `<name>|<code>`,
scored by the waiting player's rating. A quick player with nothing waiting on its own process
runs one script (atomic in Valkey): it takes the entry of another live process (its lease,
`sd:process:<name>`, valkey_routes.py) whose rating is nearest, and answers that process's
relay address; or, when there is none, it puts a reservation of this process in the set
(`<name>|~<token>`) and answers nothing, and the player's table is hosted here. A second quick
player a moment later, on any process, finds that reservation and is sent here, where the
pairing waits for a quick table being hosted before it pairs (pairing.QuickPairing.settled).
Why not the lobby's copy of the others' entries: it is up to a second old, and two players
who came within that second each waited alone.

Each process keeps its own entries true in the background: within SOON_S of a change (read
from the pairing, never awaited by it), its waiting tables are written, and its taken ones
and ended ones taken out. A reservation goes out only in the round that writes a table that
was not there before (the oldest reservation for each: the table hosted for it now stands in
its place), or after RESERVED_MAX_S (a table never hosted, or paired here before it was ever
written). Why not after a fixed moment: a table is hosted once its store has kept it, which
on a starved machine took longer than any such moment, and a second quick player who came in
between found neither and waited alone (a busy .ci/run, issue 71). A reservation left a
little long costs only a player sent to this process, which hosts it. Every RENEW_S all are
written again (a restarted Valkey is empty). An entry taken by another process's player comes
back at the next renewal if its table still waits. An entry of a process whose lease has run
out (a process lost) is skipped and taken out by the script. Valkey away: a quick player is
served here (hosted, or paired with a table of this process), the log says so once per
outage. Only the `valkey_*` modules import the client.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable

from .relay import QUICK_PATIENCE_S, ValkeyAway
from .stopping import stop
from .valkey_fanout import OUTAGE_ERRORS, Outage, outage_client, reached, where

__all__ = ["ValkeyQuick"]

PREFIX = "sd:"
SOON_S = 0.2  # a change written within this
RENEW_S = 2.0  # every entry written again this often
RESERVED_MAX_S = 10.0  # a reservation no table has taken the place of is taken out after this
TIMEOUT_S = 1.0  # a connection or a command that takes longer is an outage
SCANNED = 200  # entries the script reads at most (waiting quick tables are few)

# KEYS[1]: the set. ARGV: rating, this process's name, its reservation, the lease prefix.
# The nearest live entry of another process taken out and its relay address answered, or
# this process's reservation put in and nothing answered. Entries of dead processes go.
_NEAREST_OR_RESERVE = """
local rating = tonumber(ARGV[1])
local entries = redis.call('ZRANGE', KEYS[1], 0, tonumber(ARGV[5]) - 1, 'WITHSCORES')
local best, best_apart, best_url
for i = 1, #entries, 2 do
  local entry = entries[i]
  local name = string.match(entry, '^(.-)|')
  if name ~= nil and name ~= ARGV[2] then
    local url = redis.call('GET', ARGV[4] .. name)
    if url then
      local apart = math.abs(tonumber(entries[i + 1]) - rating)
      if best == nil or apart < best_apart then
        best, best_apart, best_url = entry, apart, url
      end
    else
      redis.call('ZREM', KEYS[1], entry)
    end
  end
end
if best then
  redis.call('ZREM', KEYS[1], best)
  return best_url
end
redis.call('ZADD', KEYS[1], rating, ARGV[3])
return false
"""


class ValkeyQuick:
    """This process's waiting quick tables in Valkey, and the quick players it sends to
    others; see the module's docstring. `waiting`: this process's waiting quick tables (code,
    rating), the pairing's. Built with `await ValkeyQuick.open(...)`, let go with `close()`."""

    def __init__(self, url: str, name: str, waiting: Callable[[], list[tuple[str, float]]],
                 prefix: str = PREFIX) -> None:
        self.name = name
        self._waiting = waiting
        self._key = f"{prefix}quick"
        self._leases = f"{prefix}process:"
        self._written: dict[str, float] = {}  # entry: rating, as last written
        self._reserved: dict[str, float] = {}  # reservations put in, not yet out: when
        self._renewed = -float("inf")
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._client = outage_client(url, TIMEOUT_S)
        self._script = self._client.register_script(_NEAREST_OR_RESERVE)
        self._outage = Outage(where(url), "quick players wait for it (then, after "
                              f"{QUICK_PATIENCE_S:g} s, are paired on this process only)",
                              "quick players are paired across the processes again")

    @classmethod
    async def open(cls, url: str, name: str, waiting: Callable[[], list[tuple[str, float]]],
                   prefix: str = PREFIX) -> ValkeyQuick:
        """Written once, then kept so in the background; ValkeyUnreachable when Valkey cannot
        be reached now."""
        quick = cls(url, name, waiting, prefix)
        await reached(quick._client, quick._outage.place, quick._round())
        quick._task = asyncio.create_task(quick._run(), name="valkey quick")
        return quick

    async def nearest(self, rating: float) -> str | None:
        """The relay address of the process whose waiting quick table (or quick player being
        seated) is nearest `rating`, taken for this player; None: the player's table is
        hosted here, and the next quick player anywhere is sent here. ValkeyAway when Valkey
        cannot answer (relay.holder_of asks again)."""
        reservation = f"{self.name}|~{secrets.token_hex(6)}"
        # Noted before the script runs: one that timed out here may still have put it in.
        self._reserved[reservation] = time.monotonic()
        try:
            found = await self._script(keys=[self._key],
                                       args=[rating, self.name, reservation, self._leases,
                                             SCANNED])
        except OUTAGE_ERRORS as error:
            self._outage.lost(error)
            self._wake.set()  # taken out once Valkey answers, if it was put in
            raise ValkeyAway(f"Valkey at {self._outage.place} cannot be reached") from error
        self._outage.back()
        if found is None:
            self._wake.set()  # taken out soon: by then its table is hosted, and written
            return None
        return found.decode(errors="replace") if isinstance(found, bytes) else str(found)

    def changed(self) -> None:
        """This process's waiting quick tables may have changed: written within SOON_S."""
        self._wake.set()

    async def close(self) -> None:
        """Stop, and take this process's entries out at once."""
        self._closing = True
        if self._task is not None:
            await stop(self._task)
            self._task = None
        ours = [*self._written, *self._reserved]
        if ours:
            with contextlib.suppress(*OUTAGE_ERRORS):
                await self._client.zrem(self._key, *ours)
        await self._client.aclose()

    # Inside.

    async def _run(self) -> None:
        while not self._closing:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), RENEW_S)
            self._wake.clear()
            await asyncio.sleep(SOON_S)
            try:
                await self._round()
            except OUTAGE_ERRORS as error:
                self._outage.lost(error)
                self._written.clear()  # all written again once back
            else:
                self._outage.back()

    async def _round(self) -> None:
        """This process's waiting tables written (all of them when due for renewal), the
        others of its entries and its reservations taken out."""
        wanted = {f"{self.name}|{code}": rating for code, rating in self._waiting()}
        now = time.monotonic()
        renew = now - self._renewed >= RENEW_S
        new = wanted if renew else {entry: rating for entry, rating in wanted.items()
                                    if self._written.get(entry) != rating}
        gone = [entry for entry in self._written if entry not in wanted]
        appeared = sum(entry not in self._written for entry in wanted)
        oldest_first = sorted(self._reserved, key=self._reserved.__getitem__)
        reserved = [entry for index, entry in enumerate(oldest_first)
                    if index < appeared or now - self._reserved[entry] >= RESERVED_MAX_S]
        if not (new or gone or reserved):
            self._renewed = now if renew else self._renewed
            return
        async with self._client.pipeline(transaction=False) as pipe:
            if new:
                pipe.zadd(self._key, new)
            if gone or reserved:
                pipe.zrem(self._key, *gone, *reserved)
            await pipe.execute()
        if renew:
            self._renewed = now
        self._written = wanted
        for entry in reserved:
            del self._reserved[entry]
