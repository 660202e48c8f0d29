"""Slow hashes (argon2id of a password) on threads of their own, bounded per address and in all.

A password's argon2id costs about 0.3 s of CPU on purpose. Run on asyncio's default executor,
which also reads SQLite and seals every new seat's token, a flood of passworded `host`s or
sign-ups from a few addresses queued everything behind it: a plain new table elsewhere waited
15 s, a sign-in 9 s (issue 59). Here the slow hashes have their own few threads, and a hash
is refused at once (never queued) when its address already has `hashes_per_address` asked
and not yet done, or the server `hashes_queued` in all: the client hears `slow_down` or
`busy` in words and may try again, and the backlog, its memory and its wait stay bounded. A
name's owner signing in with their password from their usual address (`sign_ins.py`) has
`hashes_for_owners` more in all kept for them, so a flood from strangers, who cannot make an
address usual without the password, never refuses them: they wait at most for the queue.
Cheap work (a token's seal, a seat's check, a file read) stays on the default executor, so
it never waits behind a password.

Sign-in tokens are checked the same way on a lane of their own (`Hashing(limits,
what="sign-in tokens")`): a token's hash is cheap (20 ms, five of them for an account's five
tokens), but tokens from many addresses at once would otherwise fill the default executor
that seals new seats; on their own threads, under the same bounds, they cannot.

A slot is freed when its hash is done, not when its client goes: a line that sends a sign-up
and hangs up still holds its slot until the thread has finished, so hanging up frees nothing.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from ...wire import protocol as p
from ..lines.limits import Limits

T = TypeVar("T")


class HashRefused(Exception):
    """A slow hash not even queued: `code` is `slow_down` (this address has enough in hand)
    or `busy` (the server has), said to the client with `text`."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


class Hashing:
    """The server's slow hashes: `run` one for an address, or be refused at once. `threads`:
    how many run at once (the limits' `hash_threads` by default); `what`: what they check,
    for the refusal's words."""

    def __init__(self, limits: Limits, threads: int = 0, what: str = "passwords") -> None:
        self.limits, self.what = limits, what
        self.pool = ThreadPoolExecutor(max(1, threads or limits.hash_threads),
                                       thread_name_prefix="slow-hash")
        self.lock = threading.Lock()  # the counts change on the loop and on the pool's threads
        self.asked: dict[str, int] = {}  # per address: asked and not yet done
        self.total = 0

    def take(self, address: str, owner: bool = False) -> None:
        """Count a hash for `address`, or raise HashRefused without counting it; `owner`: a
        name's owner from their usual address, who may use the places kept for owners."""
        kept = self.limits.hashes_for_owners if owner else 0
        with self.lock:
            if self.total >= self.limits.hashes_queued + kept:
                raise HashRefused(p.BUSY, f"the server has too many {self.what} to check "
                                          "now; try again in a few seconds")
            if self.asked.get(address, 0) >= self.limits.hashes_per_address:
                raise HashRefused(p.SLOW_DOWN, f"your address has {self.what} being checked "
                                               "already; wait for their answers")
            self.asked[address] = self.asked.get(address, 0) + 1
            self.total += 1

    def _done(self, address: str) -> None:
        with self.lock:
            self.total -= 1
            left = self.asked.get(address, 0) - 1
            if left > 0:
                self.asked[address] = left
            else:
                self.asked.pop(address, None)

    async def run(self, address: str, work: Callable[[], T], owner: bool = False) -> T:
        """`work()` on the slow threads, counted for `address` until it is done."""
        self.take(address, owner)
        try:
            future: Future[T] = self.pool.submit(work)
        except RuntimeError:  # the pool is shut: the server is stopping
            self._done(address)
            raise
        future.add_done_callback(lambda _: self._done(address))
        return await asyncio.wrap_future(future)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
