"""A clean stop in a cluster (issue 70): a process sent SIGTERM hands its tables over before it
exits, so a rolling restart, a deploy or `serve-cluster`'s Ctrl+C loses no game.

With `--valkey` and a store the processes share (PostgreSQL), a stopping process:

1. stops listening, on its public port and its relay port: new lines reach the other
   processes (with `--reuse-port` the kernel sends them there; a relay to this one is
   refused, and the relaying process closes the client's line to try again);
2. lets go of every table (`Seats.hand_over`): its seats' and spectators' lines are closed
   with 1013 (try again: the desktop game and the page reconnect by themselves, as after any
   dropped line) and nothing more of it is played here; a host greeted meanwhile is refused;
3. awaits every write already made (`Keeper.settled`): the store has every step a seat heard;
4. takes its lease out of Valkey and leaves its tables' routes naming it (`ValkeyRoutes.leave`):
   to every other process each of its tables is then a lost process's, and the first a seat
   reaches takes it over from the store (relay.holder_of, the SIGKILL path's take-over) at
   once, with no lease to wait out, and the other seat is relayed to it.

Why this and not handing each claim to a chosen process: a table nobody comes back to needs
nothing, the claim in the store stays the one place that says who plays a table, and the
take-over it relies on is the one a kill already relies on. Its claims stay this process's
until taken, so a table nobody came back to is this process's again when it restarts.

The whole stop, from SIGTERM to exit, is bounded (STOP_BOUND_S, docs/server.md); the writes
are given SETTLE_S of it. A PostgreSQL or Valkey away is waited for no longer: what is not
done is then the SIGKILL path's (the lease runs out, the last steps never told are played
again). It never closes the stores: the command line does that once everything has stopped.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection, Iterable
from typing import Protocol

from websockets.asyncio.server import Server

from ..roles.seats import Seats

__all__ = ["SETTLE_S", "STOP_BOUND_S", "Leaving", "drain"]

LOG = logging.getLogger("sudden_death.server")

STOP_BOUND_S = 10.0  # SIGTERM to exit, at most, whatever is away (docs/server.md)
SETTLE_S = 5.0  # the tables' last writes are awaited this long, at most
CLOSES_S = 1.0  # the lines closed to try again: their closing handshakes awaited this long


class Leaving(Protocol):
    """The cluster's routes, as a clean stop leaves them (valkey_routes.py)."""

    def hold(self) -> None:
        """No route taken out from now: the tables let go of keep theirs."""

    async def leave(self, codes: Collection[str]) -> None:
        """`codes`' routes written where missing, then the lease taken out."""


async def drain(seats: Seats, listeners: Iterable[Server], routes: Leaving) -> int:
    """Hand every table over (see the module's docstring); returns how many."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    for listener in listeners:
        # No new line; the open ones stay for now. The listening socket only: websockets'
        # own close runs once, and the server's stop closes the lines left (the lobby's) later.
        listener.server.close()
    routes.hold()
    codes = seats.hand_over()
    await seats.keeper.settled(SETTLE_S)
    codes += seats.hand_over()  # opened or taken over by a greeting under way, if any
    await routes.leave(codes)
    if seats.closing:
        await asyncio.wait(set(seats.closing), timeout=CLOSES_S)
    LOG.info("stopping: %d tables handed over in %.2f s (their seats reconnect to the "
             "process that takes each over)", len(codes), loop.time() - started)
    return len(codes)
