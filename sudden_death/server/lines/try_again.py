"""A greeting the server cannot answer for now, said as such (issue 70): while Valkey cannot
say where a table is, while the tables' database is away, or while a process is still
restoring its tables, a resume, a watch, a join or a new table is refused `fatal: false` and
its line closed with 1013 (try again later), never a fatal `no_table` for a table that is
there. The game and the page come back to a seat by themselves within a second and say once
that the server is busy; anything else says the words and lets the player try again.

Why the `busy` code (and `no_room` for a new table) rather than a new one: both are codes every
game of this protocol version already says ("Wait a moment and try again"), and a game of
version 6 already comes back after a refusal that is not fatal and a closed line, so no message
changes and the version stays. Why close the line: on a cluster the next line may reach a
process that can answer, and a line kept open would need a new message to say "ask again".
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from websockets.asyncio.server import ServerConnection

from ...wire import protocol as p
from ..stores.keeping import STORE_ERRORS
from ..stores.seam import answered
from .postman import Postman

__all__ = ["ANSWER_S", "TRY_AGAIN", "TryAgain", "refused_for_now", "soon"]

TRY_AGAIN = 1013  # the line's close: try again later
ANSWER_S = 1.0  # a greeting's read of the store that takes longer is an outage
T = TypeVar("T")


class TryAgain(p.ProtocolError):
    """What a greeting cannot be answered now: `code` is `busy` (a resume, a watch, a join)
    or `no_room` (a new table); its text is the server's English, for logs."""

    def __init__(self, text: str, code: str = p.BUSY) -> None:
        super().__init__(code, text)


async def refused_for_now(postman: Postman, line: ServerConnection, error: TryAgain) -> None:
    """`error` said, not fatal, and the line closed to try again."""
    postman.send(line, p.Refused(error.code, str(error), fatal=False))
    await line.close(TRY_AGAIN, "try again")


async def soon(call: Callable[[], T | Awaitable[T]], what: str, code: str = p.BUSY,
               seconds: float = ANSWER_S) -> T:
    """A store's answer for a greeting (`call`'s), awaited at most `seconds`; TryAgain when
    it fails or takes longer (a database away: the greeting is answered at once, never after
    the pool's own time-outs)."""
    try:
        return await asyncio.wait_for(answered(call()), seconds)
    except (*STORE_ERRORS, asyncio.TimeoutError, TimeoutError) as error:
        why = str(error) or type(error).__name__
        raise TryAgain(f"the server cannot {what} now ({why}); try again", code) from error
