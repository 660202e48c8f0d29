"""Which server process holds which table, on Valkey, and the relay's tickets (issue 62).

Each process keeps two kinds of key there. `sd:process:<name>` = its relay listener's address,
with a lease of LEASE_MS it renews every EVERY_S: while it lives, the process lives. And
`sd:table:<code>` = its name, for every table it holds, written within SOON_S of the table's
opening, taken out at its end (only while it still names this process), and renewed now and
then (ROUTE_MS, a few at a time, never all in one go). A table is held while its key names a
process whose lease lives: a process that dies, or loses Valkey, holds nothing within LEASE_MS,
whatever its tables' keys still say (where a take-over by another process will start). Why
not a lease on each table: renewing 2,000 keys a second would cost the loop a pause every
second; one lease a process costs nothing as tables grow. A process greeted with a code it
does not hold reads the route (two GETs) and relays the line there (relay.py).

Tickets: the relay's proof that a line comes from a process of the cluster. A ticket is the
line's address and signed-in player, kept for TICKET_MS under `sd:ticket:` + the SHA-256 of a
random token; the holder takes it out with GETDEL, so a token works once, and only for a
process that can write to this Valkey.

Nothing here blocks the loop for long: every command has a TIMEOUT_S, and a Valkey away is a
route that cannot be read (ValkeyAway: the greeting is refused for now, not fatal, and comes
back by itself; never told its table is unknown) and a ticket not written (the line is closed
to try again); the log says so once per outage. A Valkey restarted empty
between two commands (the client reconnects unseen) is found out by the lease renewal: the
lease gone, every route is written again, but only where no other process's route stands
(as each renewal is): a process held up past its lease (SIGSTOP, a frozen VM) may find its
tables taken over meanwhile, and must not route their lines back to itself; it learns so at
its next save of each (fenced: seats.Seats.taken_over) and drops them. Only the `valkey_*`
modules import the client (redis-py, the `server` extra).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Collection

import msgspec

from .relay import Relayed, ValkeyAway
from .stopping import stop
from .valkey_fanout import OUTAGE_ERRORS, Outage, outage_client, reached, where

__all__ = ["ValkeyRoutes"]

LOG = logging.getLogger("sudden_death.server")

PREFIX = "sd:"
LEASE_MS = 4000  # a process's lease outlives its last renewal by this much
EVERY_S = 1.0  # the lease renewed this often
SOON_S = 0.2  # a new table's route written, an ended one's taken out, within this
ROUTE_MS = 600_000  # a table's route outlives its last renewal by this much
RENEW_AFTER_S = 60.0  # a route renewed once this old...
RENEW_BATCH = 50  # ...at most this many in a round
TICKET_MS = 10_000  # a ticket not taken out by then is gone
TIMEOUT_S = 1.0  # a connection or a command that takes longer is an outage
# Valkey back after an outage: every live process renews its lease within its next round or
# two, and until then a lease that ran out during the outage is no process lost (issue 70):
# a table is not taken over from a process that only could not reach Valkey.
BACK_GRACE_S = 2 * EVERY_S

_ticket_decoder = msgspec.json.Decoder(Relayed)
_encoder = msgspec.json.Encoder()
# Takes a table's route out only while it names this process: a later holder's stays.
_DELETE_OWN = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


# A route written only while it is this process's or nobody's (a renewal, a rewrite after the
# lease was lost): never over the route of a process that took the table over.
_SET_OWN = """
local held = redis.call('GET', KEYS[1])
if held == false or held == ARGV[1] then
  return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
return 0
"""


# A restored table's route (a process started again under its name): written only where no
# other live process's route stands. Its claims were left for it by its clean stop, and a
# process a seat reached before this one's lease was back may have taken a table over in
# between (its claim read here just before): that process holds the table, and its route must
# not be overwritten (and later taken out with this process's fenced copy), which would leave
# the table with no route and its seats told it is unknown.
_SET_UNLESS_LIVE = """
local held = redis.call('GET', KEYS[1])
if held == false or held == ARGV[1]
    or redis.call('EXISTS', ARGV[3] .. held) == 0 then
  return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
return 0
"""


class ValkeyRoutes:
    """This process's lease and its tables' routes kept in Valkey, and the others' read there;
    see the module's docstring. `name`: this process's (`--name`); `relay_url`: its relay
    listener, as the others reach it; `codes`: the codes of the tables it holds now. Built
    with `await ValkeyRoutes.open(...)`, let go with `await close()`."""

    def __init__(self, url: str, name: str, relay_url: str,
                 codes: Callable[[], Collection[str]], prefix: str = PREFIX) -> None:
        self.name = name
        self.relay_url = relay_url
        self._codes = codes
        self._prefix = prefix
        self._routes: OrderedDict[str, float] = OrderedDict()  # code: last written, oldest first
        self._leased = -float("inf")
        self._back_at = -float("inf")  # when Valkey last answered again after an outage
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._left = False  # `leave` took the lease out and left the routes standing
        self._holding = False  # `hold`: routes no longer taken out
        self._client = outage_client(url, TIMEOUT_S)
        self._delete_own = self._client.register_script(_DELETE_OWN)
        self._set_own = self._client.register_script(_SET_OWN)
        self._set_unless_live = self._client.register_script(_SET_UNLESS_LIVE)
        # The tables held at `open` (restored from the store): each route written where no
        # other live process's stands (_SET_UNLESS_LIVE), never over a take-over's.
        self._restored: set[str] = set()
        self._rewrite: set[str] = set()  # routes to write again, only where none is another's
        self._where = where(url)
        self._outage = Outage(self._where, "the tables of the other server processes cannot "
                              "be reached from this one until it is back",
                              "the other processes' tables are reached again")

    @classmethod
    async def open(cls, url: str, name: str, relay_url: str,
                   codes: Callable[[], Collection[str]], prefix: str = PREFIX) -> ValkeyRoutes:
        """Written once, then kept so in the background; ValkeyUnreachable when Valkey cannot
        be reached now."""
        routes = cls(url, name, relay_url, codes, prefix)
        routes._restored.update(codes())
        await reached(routes._client, routes._where, routes._round())
        routes._task = asyncio.create_task(routes._run(), name="valkey routes")
        return routes

    async def holder(self, code: str) -> str | None:
        """The relay address of the live process holding `code`, when it is another one;
        ValkeyAway when Valkey cannot say (not "nowhere": the greeting is asked to try
        again, never told the table is unknown)."""
        try:
            name = _text(await self._client.get(self._route(code)))
            if name is None or name == self.name:
                return None
            return _text(await self._client.get(self._process(name)))
        except OUTAGE_ERRORS as error:
            self._outage.lost(error)
            raise ValkeyAway(f"Valkey at {self._where} cannot be reached") from error

    async def lost(self, code: str) -> str | None:
        """The name of the process `code`'s route names when that process is gone (its lease
        ran out) and is not this one: the table is there to be taken over. ValkeyAway when
        Valkey cannot say, or came back too lately for a lease to be trusted as lost."""
        if self._outage.down or time.monotonic() - self._back_at < BACK_GRACE_S:
            raise ValkeyAway(f"Valkey at {self._where} is back; the processes' leases are "
                             "being renewed")
        try:
            name = _text(await self._client.get(self._route(code)))
            if name is None or name == self.name:
                return None
            return None if await self._client.exists(self._process(name)) else name
        except OUTAGE_ERRORS as error:
            self._outage.lost(error)
            raise ValkeyAway(f"Valkey at {self._where} cannot be reached") from error

    async def ticket(self, relayed: Relayed) -> str:
        """A token that hands `relayed` to a holder once; OSError when it cannot be written."""
        token = secrets.token_urlsafe(24)
        try:
            await self._client.set(self._ticket(token), _encoder.encode(relayed),
                                   px=TICKET_MS)
        except OUTAGE_ERRORS as error:
            self._outage.lost(error)
            raise OSError(f"Valkey at {self._where} cannot be reached") from error
        return token

    async def redeem(self, token: str) -> Relayed | None:
        """What `token` stood for, taken out (None: unknown, used, expired, or no Valkey)."""
        try:
            found = await self._client.getdel(self._ticket(token))
        except OUTAGE_ERRORS as error:
            self._outage.lost(error)
            return None
        if found is None:
            return None
        try:
            return _ticket_decoder.decode(found)
        except msgspec.DecodeError:
            return None  # another version's ticket

    def hold(self) -> None:
        """From now no route is taken out (a clean stop's tables, let go of here, keep
        theirs for `leave`); the lease is still renewed."""
        self._holding = True

    async def leave(self, codes: Collection[str]) -> None:
        """A clean stop's hand-over (draining.py): the routes of `codes` (the tables let go
        of) written where not yet written, then only the lease taken out, so every one of them
        is a lost process's table at once, taken over by the process a seat reaches next
        (relay.holder_of), with no lease to wait out. A Valkey away: the lease runs out
        within LEASE_MS instead. `close` after this takes nothing out."""
        self._closing = True
        if self._task is not None:
            await stop(self._task)
            self._task = None
        self._left = True
        name = self.name.encode()
        try:
            async with self._client.pipeline(transaction=False) as pipe:
                for code in codes:
                    if code not in self._routes:  # opened moments ago, or after an outage
                        await self._set_own(keys=[self._route(code)], args=[name, ROUTE_MS],
                                            client=pipe)
                pipe.delete(self._process(self.name))
                await pipe.execute()
        except OUTAGE_ERRORS as error:
            self._outage.lost(error)

    async def close(self) -> None:
        """Stop, and take this process's lease and routes out at once (after `leave`: only
        the client closed, the routes left for the take-overs)."""
        self._closing = True
        if self._task is not None:
            await stop(self._task)
            self._task = None
        if self._left:
            await self._client.aclose()
            return
        try:
            async with self._client.pipeline(transaction=False) as pipe:
                pipe.delete(self._process(self.name))
                for code in self._routes:
                    await self._delete_own(keys=[self._route(code)], args=[self.name],
                                           client=pipe)
                await pipe.execute()
        except OUTAGE_ERRORS:
            pass
        await self._client.aclose()

    # Inside.

    def _route(self, code: str) -> str:
        return f"{self._prefix}table:{code}"

    def _process(self, name: str) -> str:
        return f"{self._prefix}process:{name}"

    def _ticket(self, token: str) -> str:
        digest = hashlib.sha256(token.encode()).hexdigest()
        return f"{self._prefix}ticket:{digest}"

    async def _run(self) -> None:
        while not self._closing:
            await asyncio.sleep(SOON_S)
            try:
                await self._round()
            except OUTAGE_ERRORS as error:
                self._outage.lost(error)
                self._rewrite.update(self._routes)
                self._routes.clear()  # all written again once back (Valkey may be empty)
                self._leased = -float("inf")
            else:
                if self._outage.back():
                    self._back_at = time.monotonic()

    async def _round(self) -> None:
        """The lease renewed when due, new routes written, ended ones taken out, and the
        oldest few renewed."""
        codes = set(self._codes())
        self._rewrite.intersection_update(codes)
        self._restored.intersection_update(codes)
        now = time.monotonic()
        lease = now - self._leased >= EVERY_S
        new = [code for code in codes if code not in self._routes]
        gone = [] if self._holding else [code for code in self._routes if code not in codes]
        old: list[str] = []
        for code, written in self._routes.items():
            if len(old) >= RENEW_BATCH or now - written < RENEW_AFTER_S:
                break
            if code in codes:
                old.append(code)
        if not (lease or new or gone or old):
            return
        name = self.name.encode()
        leased = self._leased > -float("inf")  # renewed before, with no outage since
        async with self._client.pipeline(transaction=False) as pipe:
            if lease:
                pipe.exists(self._process(self.name))
                pipe.set(self._process(self.name), self.relay_url.encode(), px=LEASE_MS)
            for code in new:
                if code in self._restored and code not in self._rewrite:
                    await self._set_unless_live(
                        keys=[self._route(code)],
                        args=[name, ROUTE_MS, self._process("").encode()], client=pipe)
                elif code not in self._rewrite:  # a new table's: its claim is this process's
                    pipe.set(self._route(code), name, px=ROUTE_MS)
            for code in (*(code for code in new if code in self._rewrite), *old):
                await self._set_own(keys=[self._route(code)], args=[name, ROUTE_MS],
                                    client=pipe)
            for code in gone:
                await self._delete_own(keys=[self._route(code)], args=[name], client=pipe)
            done = await pipe.execute()
        if lease:
            self._leased = now
        for code in gone:
            del self._routes[code]
        for code in (*new, *old):
            self._routes[code] = now
            self._routes.move_to_end(code)
            self._rewrite.discard(code)
            self._restored.discard(code)
        if lease and leased and not done[0] and self._routes:
            # The lease was gone: Valkey restarted empty (too quickly for a command to fail
            # meanwhile: the client reconnects unseen) or lost its keys, or this process was
            # held up past its lease. The routes may be gone too: all written next round.
            LOG.info("Valkey at %s had lost this process's lease: the routes of its tables "
                     "(%d) are written again where no other process took them over",
                     self._where, len(self._routes))
            self._rewrite.update(self._routes)
            self._routes.clear()


def _text(value: bytes | str | None) -> str | None:
    return value.decode(errors="replace") if isinstance(value, bytes) else value
