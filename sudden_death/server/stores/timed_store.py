"""A tables store whose every call is timed and its failures counted, for the metrics
(`--metrics-from`, metrics.py): the store itself is handed in unchanged and answers as before.

Why a wrapper and not timings inside each store: the seam (stores.TableStore) is the one place
every store's call passes, so SQLite's and PostgreSQL's are timed alike and neither store
knows of metrics. A call that answers at once (the embedded store) is timed around the call;
one that returns an awaitable (a database's) is timed from when it is first awaited (a
database's coroutine does nothing before) to its answer, and the awaitable handed back can
still be closed unawaited (keeping.py drops a save a fresh one holds), closing the store's own.
A save refused because another process took the table over (stores.TakenOver) is no failure
of the store: it is timed, not counted as an error.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Generator
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from ..tables import Table
from .seam import TableStore, TakenOver

T = TypeVar("T")
Timed = Callable[[str, float, bool], None]  # (call, seconds, failed)


class _Awaited(Generic[T]):
    """The store's awaitable, timed from its first await to its answer."""

    def __init__(self, inner: Awaitable[T], call: str, timed: Timed) -> None:
        self.inner, self.call, self.timed = inner, call, timed

    def __await__(self) -> Generator[Any, None, T]:
        started = time.perf_counter()
        try:
            result = yield from self.inner.__await__()
        except TakenOver:
            self.timed(self.call, time.perf_counter() - started, False)
            raise
        except Exception:
            self.timed(self.call, time.perf_counter() - started, True)
            raise
        self.timed(self.call, time.perf_counter() - started, False)
        return result

    def close(self) -> None:
        """Never to be awaited: the store's own coroutine closed too (not left unawaited)."""
        close = getattr(self.inner, "close", None)
        if close is not None:
            close()


@dataclass
class TimedStore:
    """`store`, each call reported to `timed(call, seconds, failed)`."""

    store: TableStore
    timed: Timed

    def _time(self, call: str, made: Callable[[], T | Awaitable[T]]) -> T | Awaitable[T]:
        started = time.perf_counter()
        try:
            answer = made()
        except TakenOver:
            self.timed(call, time.perf_counter() - started, False)
            raise
        except Exception:
            self.timed(call, time.perf_counter() - started, True)
            raise
        if isinstance(answer, Awaitable):
            return _Awaited(answer, call, self.timed)
        self.timed(call, time.perf_counter() - started, False)
        return answer

    def save(self, table: Table, owner: str | None = None) -> Awaitable[None] | None:
        return self._time("save", lambda: self.store.save(table, owner))

    def defer(self, table: Table, owner: str | None = None) -> Awaitable[None] | None:
        """Passed on untimed: its write, if not replaced, is timed as part of another save's
        group, and nobody waits on it."""
        return self.store.defer(table, owner)

    def open_tables(self) -> list[Table] | Awaitable[list[Table]]:
        return self._time("open_tables", self.store.open_tables)

    def ended(self, code: str) -> Table | Awaitable[Table | None] | None:
        return self._time("ended", lambda: self.store.ended(code))

    def table(self, code: str) -> Table | Awaitable[Table | None] | None:
        return self._time("table", lambda: self.store.table(code))

    def claim(self, code: str, owner: str) -> bool | Awaitable[bool]:
        return self._time("claim", lambda: self.store.claim(code, owner))

    def take_over(self, code: str, owner: str, lost: str) -> bool | Awaitable[bool]:
        return self._time("take_over", lambda: self.store.take_over(code, owner, lost))

    def release(self, code: str, owner: str) -> Awaitable[None] | None:
        return self._time("release", lambda: self.store.release(code, owner))

    def close(self) -> Awaitable[None] | None:
        return self.store.close()
