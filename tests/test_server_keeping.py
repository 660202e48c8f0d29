"""Writes before words (sudden_death/server/stores/keeping.py): no seat hears of a change before the
store has kept it, a table's changes are told in the order they were made, and a store that
fails is said once while the game goes on, with an embedded store that writes at once and
with one whose writes take time, as a database server's do."""

from __future__ import annotations

import asyncio
import logging
import random
import sqlite3
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import pytest
from server_lab import run
from table_bots import play_tables

from sudden_death.engine.state import Team
from sudden_death.server.lines.limits import Limits
from sudden_death.server.service import TableService, address, start, stop
from sudden_death.server.stores.keeping import Keeper
from sudden_death.server.stores.seam import TakenOver
from sudden_death.server.stores.sqlite_tables import TableStore
from sudden_death.server.tables import Seat, Table, new_game
from sudden_death.wire import protocol as p


def table(code: str = "000001", step: int = 0) -> Table:
    made = Table(code, new_game(1), {Team.AWAY: Seat("Hawks")})
    made.step = step  # only what the store is asked to keep: the record is not played
    return made


class SlowStore:
    """The embedded store behind a delay: each write is a snapshot of the table when asked,
    kept after a seeded 0 to `most_s` seconds, so later writes may finish first."""

    def __init__(self, folder: Path, seed: int, most_s: float = 0.02) -> None:
        self.inner = TableStore(folder)
        self.rng = random.Random(seed)
        self.most_s = most_s
        self.kept: dict[str, int] = {}  # table: the highest step written
        self.pending = self.most_pending = 0

    def save(self, table: Table, owner: str | None = None) -> Awaitable[None]:
        snapshot = Table.from_record(table.to_record())
        return asyncio.ensure_future(self._later(snapshot, self.rng.uniform(0, self.most_s)))

    def defer(self, table: Table, owner: str | None = None) -> None:
        """A held choice: written at once, as the embedded store does, so it never lands
        after a later save of its table (these land in any order)."""
        self.inner.save(table, owner)

    async def _later(self, snapshot: Table, delay: float) -> None:
        self.pending += 1
        self.most_pending = max(self.most_pending, self.pending)
        try:
            await asyncio.sleep(delay)
            self.inner.save(snapshot)
            self.kept[snapshot.code] = max(self.kept.get(snapshot.code, 0), snapshot.step)
        finally:
            self.pending -= 1

    def open_tables(self) -> list[Table]:
        return self.inner.open_tables()

    def ended(self, code: str) -> Table | None:
        return self.inner.ended(code)

    def claim(self, code: str, owner: str) -> bool:
        return self.inner.claim(code, owner)

    def release(self, code: str, owner: str) -> None:
        self.inner.release(code, owner)

    def close(self) -> None:
        self.inner.close()


def test_an_embedded_write_tells_at_once_with_nothing_queued(tmp_path: Path) -> None:
    store = TableStore(tmp_path)
    keeper = Keeper(store)
    told: list[int] = []
    kept = table("000042")
    keeper.keep(kept, lambda: told.append(len(store.open_tables())))  # no loop: no wait
    assert told == [1] and keeper.queues == {}  # told once the row was there
    assert [found.code for found in store.open_tables()] == ["000042"]
    store.close()


def test_slow_writes_are_told_after_they_are_kept_in_the_order_made() -> None:
    async def scenario() -> list[tuple[str, int, bool]]:
        written: dict[int, asyncio.Event] = {}

        class Gate:
            """Each write waits for its own event: the test finishes them out of order."""

            def save(self, saved: Table, owner: str | None = None) -> Awaitable[None]:
                event = written[saved.step] = asyncio.Event()
                return asyncio.ensure_future(event.wait())

        keeper = Keeper(Gate())
        told: list[tuple[str, int, bool]] = []
        first, other = table("000001"), table("000002")
        for step in (1, 2, 3):
            first.step = step
            keeper.keep(first, lambda step=step: told.append(  # type: ignore[misc]
                ("000001", step, written[step].is_set())))
        other.step = 9
        keeper.keep(other, lambda: told.append(("000002", 9, written[9].is_set())))
        for step in (3, 9, 2):  # the later writes first
            written[step].set()
            await asyncio.sleep(0)
        await asyncio.sleep(0.01)
        assert [entry for entry in told if entry[0] == "000001"] == []  # 1 is not kept yet
        written[1].set()
        await asyncio.sleep(0.01)
        assert keeper.queues == {}
        return told

    told = run(scenario)
    assert told == [("000002", 9, True), ("000001", 1, True), ("000001", 2, True),
                    ("000001", 3, True)]


def test_a_deferred_change_is_told_at_once_unless_a_change_of_its_table_waits() -> None:
    """Issue 73: a held choice (`defer`) is handed to the store's `defer` and told at once;
    behind a change of its table still being written it is kept as any change, told after
    that one; `settled` waits for what the store deferred."""
    async def scenario() -> list[str]:
        events: list[str] = []
        writes: dict[int, asyncio.Event] = {}
        later: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        class Deferring:
            def save(self, saved: Table, owner: str | None = None) -> Awaitable[None]:
                events.append(f"save {saved.step}")
                event = writes[saved.step] = asyncio.Event()
                return asyncio.ensure_future(event.wait())

            def defer(self, saved: Table, owner: str | None = None) -> Awaitable[None]:
                events.append(f"defer {saved.step}")
                return later

        keeper = Keeper(Deferring())
        kept = table("000001", step=1)
        keeper.defer(kept, lambda: events.append("told 1"))
        assert events == ["defer 1", "told 1"]  # nothing awaited, nothing queued
        kept.step = 2
        keeper.keep(kept, lambda: events.append("told 2"))
        kept.step = 3
        keeper.defer(kept, lambda: events.append("told 3"))  # step 2 is still being written
        await asyncio.sleep(0.01)
        assert events[2:] == ["save 2", "save 3"]
        writes[2].set()
        writes[3].set()
        await asyncio.sleep(0.01)
        settling = asyncio.ensure_future(keeper.settled(patience_s=5))
        await asyncio.sleep(0.05)
        assert not settling.done()  # the deferred write of step 1 is not done yet
        later.set_result(None)
        await asyncio.wait_for(settling, 1)
        return events

    assert run(scenario)[4:] == ["told 2", "told 3"]


class Full:
    """A store whose disk (or database) is full until `broken` is cleared: the embedded kind
    raises at once, a database server's (`slow`) when its write is awaited."""

    def __init__(self, slow: bool) -> None:
        self.slow, self.broken, self.tries = slow, True, 0

    def save(self, saved: Table, owner: str | None = None) -> Awaitable[None] | None:
        self.tries += 1
        if not self.slow:
            if self.broken:
                raise sqlite3.OperationalError("database or disk is full")
            return None
        return asyncio.ensure_future(self._later())

    async def _later(self) -> None:
        await asyncio.sleep(0)
        if self.broken:
            raise OSError(28, "No space left on device")


def test_a_failing_embedded_store_is_said_once_the_game_goes_on_and_new_tables_wait(
        caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> tuple[list[str], bool, bool]:
        store = Full(slow=False)
        keeper = Keeper(store)
        told: list[str] = []
        for number in range(3):
            keeper.keep(table(), lambda number=number: told.append(str(number)))  # type: ignore[misc]
        refused = await keeper.kept(table("000002"))  # a new table is not given out
        store.broken = False
        accepted = await keeper.kept(table("000003"))
        return told, refused, accepted

    with caplog.at_level(logging.WARNING, logger="sudden_death.server"):
        told, refused, accepted = run(scenario)
    assert told == ["0", "1", "2"]  # every change still told, in order
    assert refused is False and accepted is True
    errors = [record for record in caplog.records if record.levelno == logging.ERROR]
    assert len(errors) == 1 and "cannot be written" in errors[0].getMessage()
    assert any("can be written again" in record.getMessage() for record in caplog.records)


def test_a_database_away_holds_the_words_tries_again_and_tells_busy_then_back_once(
        caplog: pytest.LogCaptureFixture) -> None:
    """A database server's failed writes: nothing is told while it is away (no seat hears of
    a step it does not have), the table hears `busy` once, the write is tried again, longer
    apart each time, and once kept the table hears `back`, then every change in order; a
    new table meanwhile is refused at once, not kept waiting."""
    async def scenario() -> tuple[list[str], list[str], bool, bool, int]:
        store = Full(slow=True)
        heard: list[str] = []
        keeper = Keeper(store, on_busy=lambda code, busy: heard.append(
            f"{code} {'busy' if busy else 'back'}"), first_retry_s=0.01)
        for number in range(3):
            keeper.keep(table(), lambda number=number: heard.append(str(number)))  # type: ignore[misc]
        refused = await keeper.kept(table("000002"))
        await asyncio.sleep(0.2)  # tried again, and again: still away
        during = list(heard)
        tries = store.tries
        store.broken = False
        accepted = await keeper.kept(table("000003"))
        await keeper.settled()
        return during, heard, refused, accepted, tries

    with caplog.at_level(logging.WARNING, logger="sudden_death.server"):
        during, heard, refused, accepted, tries = run(scenario)
    assert during == ["000001 busy"]  # said once, and nothing of what waits
    assert 4 <= tries <= 12  # 3 changes, the new table, then 10, 20, 40, 80 ms apart...
    assert heard == ["000001 busy", "000001 back", "0", "1", "2"]
    assert refused is False and accepted is True
    errors = [record for record in caplog.records if record.levelno == logging.ERROR]
    assert len(errors) == 1 and "cannot be written" in errors[0].getMessage()


def test_a_server_stopping_with_its_database_away_gives_up_in_time_and_warns_of_nothing(
        caplog: pytest.LogCaptureFixture) -> None:
    async def scenario() -> list[str]:
        store = Full(slow=True)
        told: list[str] = []
        keeper = Keeper(store, first_retry_s=0.01)
        keeper.keep(table(), lambda: told.append("told"))
        await keeper.settled(patience_s=0.1)
        assert not keeper.drains and not keeper.queues
        return told

    with caplog.at_level(logging.ERROR, logger="sudden_death.server"):
        assert run(scenario) == []  # never told: the seats play it again on resuming
    assert any("not kept: the database is away" in record.getMessage()
               for record in caplog.records)


def test_with_a_slow_store_no_seat_hears_a_step_before_it_is_kept(tmp_path: Path) -> None:
    """Three bot tables play whole games against a store whose writes take up to 20 ms and
    finish out of order: every update a seat is sent names a step the store already has."""
    store = SlowStore(tmp_path, seed=5)
    early: list[tuple[str, int, int]] = []

    async def scenario() -> Any:
        service = TableService(seed=4, store=store,
                               limits=Limits(connects_per_s=100, connect_burst=100))
        send = service.postman.send

        def checked(line: Any, message: p.Message) -> None:
            if isinstance(message, p.Update):
                for (code, _team), held in service.seats.connections.items():
                    if held is line and store.kept.get(code, -1) < message.step:
                        early.append((code, message.step, store.kept.get(code, -1)))
            send(line, message)

        service.postman.send = checked  # type: ignore[method-assign]
        running = await start(service, "127.0.0.1", 0)
        try:
            return await asyncio.wait_for(play_tables(address(running, tls=False), 3, seed=8),
                                          60)
        finally:
            await stop(running)
            service.close()

    stats = run(scenario)
    assert stats.errors == [] and stats.games == 3
    assert stats.steps > 10 and store.most_pending >= 2  # writes really overlapped
    assert early == []
    again = TableStore(tmp_path)  # and what was kept is there for a restarted server
    assert all(again.ended(code) is not None for code in store.kept)
    again.close()


def test_a_write_slower_than_a_second_is_said_busy_then_back_before_its_words() -> None:
    """A database that neither answers nor fails (restarting, or swamped): after
    `busy_after_s` the table hears that the server is busy, and once the write is kept,
    that it is back, then the change; a quick write says neither."""
    async def scenario() -> list[str]:
        heard: list[str] = []

        class Slow:
            def save(self, saved: Table, owner: str | None = None) -> Awaitable[None]:
                return asyncio.sleep(0.15 if saved.step else 0.0)

        keeper = Keeper(Slow(), on_busy=lambda code, busy: heard.append(
            "busy" if busy else "back"), busy_after_s=0.05)
        keeper.keep(table(), lambda: heard.append("quick"))
        await keeper.settled()
        keeper.keep(table(step=1), lambda: heard.append("slow"))
        await keeper.settled()
        return heard

    assert run(scenario) == ["quick", "busy", "back", "slow"]


def test_a_save_fenced_out_is_final_never_told_retried_or_said_busy() -> None:
    """A database's save refused with TakenOver (another process holds the table now): the
    change and every one queued behind it are dropped untold (a greeting's `kept` answers
    False), nothing is tried again, the table is not said busy, the store is not failing,
    and `on_taken` hears the table's code once; another table's changes go on."""
    async def scenario() -> tuple[list[str], list[str], bool, int]:
        told: list[str] = []
        taken: list[str] = []

        class Fenced:
            tries = 0

            def save(self, saved: Table, owner: str | None = None) -> Awaitable[None]:
                assert owner == "alpha"
                self.tries += 1
                return self._later(saved)

            async def _later(self, saved: Table) -> None:
                await asyncio.sleep(0.01)
                if saved.code == "000001":
                    raise TakenOver(saved.code, "alpha", "beta")

        store = Fenced()
        keeper = Keeper(store, owner="alpha", first_retry_s=0.01,
                        on_busy=lambda code, busy: told.append(f"busy {code} {busy}"),
                        on_taken=taken.append)
        keeper.keep(table("000001", 1), lambda: told.append("one 1"))
        keeper.keep(table("000001", 2), lambda: told.append("one 2"))
        keeper.keep(table("000002", 1), lambda: told.append("two 1"))
        greeted = await keeper.kept(table("000001", 3))
        await keeper.settled()
        return told, taken, greeted or keeper.failing, store.tries

    told, taken, kept_or_failing, tries = run(scenario)
    assert told == ["two 1"]  # never busy: not an outage
    assert taken == ["000001"] and not kept_or_failing and tries == 4  # never tried again
