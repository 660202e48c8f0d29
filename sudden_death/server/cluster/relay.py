"""A line greeted with a table another server process holds, relayed to that process (issue 62).

In a cluster (`--valkey`) every process reaches every table: a line that joins, resumes or
watches a table held elsewhere is piped, frame for frame, to the holder's relay listener, a
second WebSocket port each process opens for the others. The holder serves the piped line
exactly as one of its own (its greeting, seat, steps, spectating, limits), so nothing about a
table ever lives in two processes, and the client never knows: the protocol is unchanged.

Why relay and not redirect: the operator gives players one address, and several processes may
share one port (SO_REUSEPORT), where a client cannot choose which process it reaches; a
redirect would also be a new protocol message every client must follow. A relayed line costs
one more hop on loopback or the operator's network (docs/server.md measures it).

Who may hand a line to the relay listener: only a process that can write to the cluster's
Valkey. The sender writes a ticket there (the line's address and signed-in player, under the
SHA-256 of a random single-use token, expiring in seconds) and presents the token in a header;
the holder takes the ticket out (GETDEL) before the handshake completes, or refuses it. A
128-bit random token needs no slow hash: there is nothing to guess from. The Valkey side is
`valkey_routes.py`; this module imports no Valkey client.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from http import HTTPStatus
from typing import Protocol

from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.http11 import Request, Response

from ...wire import protocol as p
from ..lines.postman import Postman
from ..lines.try_again import TryAgain
from .splice import UNREACHABLE, spliced
from .stopping import stop

__all__ = ["TICKET_HEADER", "Here", "QuickElsewhere", "Relayed", "Routes", "ValkeyAway",
           "admit_relayed", "hand_over", "holder_of", "relay"]

LOG = logging.getLogger("sudden_death.server")

TICKET_HEADER = "Sudden-Death-Relay"
ROUTE_LATE_S = 0.3  # a code not routed yet is looked up once more after this
OPEN_TIMEOUT_S = 5.0  # the holder's relay listener answers a handshake within this
# The client's line is closed with UNREACHABLE (splice.py's) when the table's process cannot
# be reached: its game tries again by itself, as after any lost line (1013: try again later).
# A quick player whose process cannot ask Valkey where a quick table waits asks again this
# often, for up to QUICK_PATIENCE_S, before its table is opened here: two quick players kept
# apart by a passing fault (a command over its time-out on a loaded machine, an outage of a
# few seconds) are paired as soon as Valkey answers, not left waiting on two processes.
QUICK_AGAIN_S = 0.25
QUICK_PATIENCE_S = 30.0


class ValkeyAway(OSError):
    """Valkey cannot answer now (an outage, a command past its time-out): where a table is,
    or a quick table waits, is not known, which is not "nowhere"."""


@dataclass(frozen=True)
class Relayed:
    """What the sending process knew of a relayed line: its address (for the limits) and the
    player signed in on it (folded, and as typed; "" for none)."""

    address: str
    signed: str = ""
    typed: str = ""


class Routes(Protocol):
    """Which process holds which table, and the relay's tickets (valkey_routes.py)."""

    async def holder(self, code: str) -> str | None:
        """The relay address of the process that holds `code`, if another one does;
        ValkeyAway when Valkey cannot say."""

    async def lost(self, code: str) -> str | None:
        """The name of the lost process `code`'s route names (its lease ran out), if any;
        ValkeyAway when Valkey cannot say."""

    async def ticket(self, relayed: Relayed) -> str:
        """A single-use token that hands `relayed` to a holder (OSError: not written)."""

    async def redeem(self, token: str) -> Relayed | None:
        """What the token stood for, taken out (None: unknown, used or expired)."""


class QuickElsewhere(Protocol):
    """The cluster's waiting quick tables (valkey_quick.py)."""

    async def nearest(self, rating: float) -> str | None:
        """The relay address of the process whose quick table waiting nearest `rating` is
        taken for this player; None: host it here. ValkeyAway when Valkey cannot say."""

    def changed(self) -> None:
        """This process's waiting quick tables may have changed."""


@dataclass(frozen=True)
class Here:
    """What `holder_of` asks of this process: whether it holds a table (open or ended), to
    take over a table of a lost process (whether it could), whether a quick table of its own
    waits (or is being hosted), the relay address of the process whose waiting quick table is
    nearest a rating (valkey_quick.py; None: the player is hosted here), and a signed-in
    player's rating ("" for none)."""

    holds: Callable[[str], bool]
    adopt: Callable[[str, str], Awaitable[bool]]  # a lost process's table taken over here
    quick_waits: Callable[[], bool]
    quick_elsewhere: Callable[[float], Awaitable[str | None]] | None  # None: quick games here
    rating: Callable[[str], Awaitable[float]]


async def holder_of(greeting: p.ClientMessage, signed: str, routes: Routes,
                    here: Here) -> str | None:
    """The relay address of the process a greeting belongs to, when that is another one:
    for a join, resume or watch, the holder of its table (taken over here first when its
    process was lost: issue 63); for a quick game when no quick
    table waits here, the process of the waiting one nearest the player's rating, which
    pairs it (or hosts it, should that table be taken meanwhile). None: served here.
    TryAgain when Valkey cannot say where a table not here is: a table that is somewhere
    is never refused as unknown for a passing fault (issue 70)."""
    if isinstance(greeting, p.Quick):
        return await _quick_holder(signed, here)
    if not isinstance(greeting, (p.Join, p.Resume, p.Watch)):
        return None
    code = greeting.code.strip()
    if here.holds(code):
        return None
    try:
        found = await routes.holder(code)
        # Its process gone: taken over here from the store (another process may take it
        # first: then its new route is found below).
        if found is None and (lost := await routes.lost(code)) is not None \
                and await here.adopt(code, lost):
            return None
        if found is None:
            # A table opened elsewhere this very moment is routed within a fraction of a
            # second (valkey_routes.SOON_S): a join sent at once, by a script or a quick
            # friend, waits that long once before it is a table unknown here. A wrong code
            # waits as long.
            await asyncio.sleep(ROUTE_LATE_S)
            found = None if here.holds(code) else await routes.holder(code)
    except ValkeyAway as error:
        if here.holds(code):
            return None
        raise TryAgain(f"where table {code} is cannot be found now ({error}); try again") \
            from error
    return found


async def _quick_holder(signed: str, here: Here) -> str | None:
    """A quick player's process (`holder_of`): asked again while Valkey cannot answer, until
    a quick table waits here or QUICK_PATIENCE_S has passed (then hosted here)."""
    loop = asyncio.get_running_loop()
    ends = loop.time() + QUICK_PATIENCE_S
    rating: float | None = None
    while not (here.quick_waits() or here.quick_elsewhere is None):
        if rating is None:
            rating = await here.rating(signed)
        try:
            return await here.quick_elsewhere(rating)
        except ValkeyAway:
            if loop.time() >= ends:
                return None
            await asyncio.sleep(QUICK_AGAIN_S)
    return None


async def hand_over(line: ServerConnection, holder: str, first: str, relayed: Relayed,
                    routes: Routes, postman: Postman) -> None:
    """The line piped to `holder` from its greeting `first` on (`relay`), with a ticket for
    `relayed`; closed to try again when the ticket cannot be written."""
    try:
        token = await routes.ticket(relayed)
    except OSError:
        await line.close(UNREACHABLE, "the table's server is not reachable now")
        return
    await relay(line, holder, token, first, postman)


def admit_relayed(routes: Callable[[], Routes | None]) -> Callable[
        [ServerConnection, Request], Awaitable[Response | None]]:
    """The relay listener's check before the handshake: a redeemed ticket, kept on the line
    (`Line.relayed`), or 403. Anyone else who finds the port gets nothing further. `routes`:
    the cluster's, once open."""

    async def admit(connection: ServerConnection, request: Request) -> Response | None:
        token = request.headers.get(TICKET_HEADER, "")
        known = routes()
        relayed = await known.redeem(token) if known and 16 <= len(token) <= 128 else None
        if relayed is None:
            return connection.respond(HTTPStatus.FORBIDDEN, "Server processes only.\n")
        connection.relayed = relayed  # type: ignore[attr-defined]
        return None

    return admit


async def relay(line: ServerConnection, url: str, token: str, first: str,
                postman: Postman) -> None:
    """Pipe `line` to the holder at `url` from its greeting `first` on, until either side
    closes: byte for byte once both lines are at rest (splice.py), else frame by frame. The
    client gone, the holder's line closes; the holder closing, the client's line closes with
    the same code. A holder that cannot be reached, or is lost, closes the line
    with UNREACHABLE, and the client's game tries again by itself."""
    try:
        async with connect(url, additional_headers={TICKET_HEADER: token},
                           open_timeout=OPEN_TIMEOUT_S, max_size=p.MAX_MESSAGE_BYTES,
                           compression=None, ping_interval=None) as holder:
            pipe = spliced(line, holder, first, postman)
            if pipe is not None:  # bytes piped both ways: the holder closes as it closes
                try:
                    await asyncio.shield(pipe.ended)
                finally:
                    if not pipe.ended.done():  # this process stops
                        pipe.close()
                return
            await holder.send(first)  # a line not at rest: relayed frame by frame
            up = asyncio.ensure_future(_up(line, holder))
            down = asyncio.ensure_future(_down(holder, line, postman))
            try:
                await asyncio.wait({up, down}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                await stop(up)
                await stop(down)
            if not down.done() or down.cancelled():
                return  # the client went first: the holder's line closes with this block
            code = holder.close_code
            if code is not None and code not in (1005, 1006, 1015):  # a close it sent
                await line.close(code, holder.close_reason or "")
                return
    except (OSError, InvalidHandshake, InvalidURI, ConnectionClosed, TimeoutError,
            asyncio.TimeoutError) as error:
        LOG.warning("a line for the table server at %s was not relayed (%s): closed, to "
                    "try again", url, error or type(error).__name__)
    await line.close(UNREACHABLE, "the table's server is not reachable now")


async def _up(line: ServerConnection, holder: ClientConnection) -> None:
    """The client's frames to the holder, in order (the holder's reading paces them)."""
    try:
        async for frame in line:
            await holder.send(frame)
    except ConnectionClosed:
        pass


async def _down(holder: ClientConnection, line: ServerConnection, postman: Postman) -> None:
    """The holder's frames to the client, queued as any other (the postman never waits)."""
    try:
        async for frame in holder:
            postman.send_frame(line, frame if isinstance(frame, str) else frame.decode())
    except ConnectionClosed:
        pass
