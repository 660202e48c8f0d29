"""What the outage tests share (issue 70): an engine held still with SIGSTOP and let go with
SIGCONT (a real PostgreSQL's or Valkey's processes: the commands hang, as behind a cut cable
or a frozen machine, rather than fail), and a seat coming back as the game does: a resume
sent again after every line that closes without a fatal refusal, each answer kept."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from sudden_death.wire import protocol as p

AGAIN_S = 0.25  # a seat refused for now asks again this often (the game: at most 1 s)


@contextmanager
def held(pids: list[int]) -> Iterator[None]:
    """The processes stopped (SIGSTOP) for the block, and let go (SIGCONT) however it ends."""
    assert pids, "nothing to hold"
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for pid in pids:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)


@dataclass
class Comeback:
    """A seat's tries to come back: every answer heard first on a line (its message, or the
    line's close code), and when it was heard (time.monotonic)."""

    answers: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    seated_at: float | None = None
    start: dict[str, Any] | None = None

    @property
    def fatal(self) -> list[dict[str, Any]]:
        return [answer for _at, answer in self.answers
                if answer.get("type") == "refused" and answer.get("fatal")]


async def first_answer(line: ClientConnection, greeting: p.Message, timeout: float = 20.0
                       ) -> dict[str, Any]:
    """The first message `line` hears after `greeting` (past `busy` and `steady`); after a
    refusal, with the code its line then closed with (`closed`, None while it stays open);
    {"type": "closed", ...} when it closed with nothing said."""
    await line.send(p.encode(greeting))
    try:
        while (message := json.loads(await asyncio.wait_for(line.recv(), timeout)))[
                "type"] in ("busy", "steady"):
            pass
    except ConnectionClosed as closed:
        return {"type": "closed", "closed": closed.rcvd.code if closed.rcvd else None}
    if message["type"] == "refused":
        try:
            await asyncio.wait_for(line.recv(), timeout)
            message["closed"] = None
        except ConnectionClosed as closed:
            message["closed"] = closed.rcvd.code if closed.rcvd else None
    return message


async def come_back(url: str, resume: p.Resume, within_s: float
                    ) -> tuple[Comeback, ClientConnection | None]:
    """`resume` sent on a new line to `url` until it is seated, a fatal refusal comes, or
    `within_s` has passed, AGAIN_S between tries; the seated line (its start read), if any."""
    found = Comeback()
    ends = time.monotonic() + within_s
    while time.monotonic() < ends:
        line = None
        try:
            line = await connect(url, open_timeout=10)
            answer = await first_answer(line, resume, timeout=max(1.0, ends - time.monotonic()))
        except (OSError, asyncio.TimeoutError, TimeoutError, ConnectionClosed) as error:
            answer = {"type": "error", "error": str(error) or type(error).__name__}
        found.answers.append((time.monotonic(), answer))
        if answer.get("type") == "seated" and line is not None:
            found.seated_at = time.monotonic()
            while (message := json.loads(await asyncio.wait_for(line.recv(), 10)))[
                    "type"] != "start":
                pass
            found.start = message
            return found, line
        if line is not None:
            await line.close()
        if found.fatal:
            break
        await asyncio.sleep(AGAIN_S)
    return found, None
