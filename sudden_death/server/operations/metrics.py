"""The table server's metrics in Prometheus's text format, for `GET /metrics` (health.py
answers it, only to `--metrics-from`'s networks). Every name, and what it means, is listed in
docs/server.md ("Seen from outside").

Why prometheus_client: it is the Prometheus project's own client, pure Python with no
dependency, and writes the text format, counters, histograms and the process's CPU, memory and
open files exactly as Prometheus reads them; a hand-written exposition would have to keep up
with the format's escaping and its histograms' conventions itself. Each `Metrics` keeps its own
`CollectorRegistry`, never the library's global default one: two servers in one process (the
tests') never share a count, and nothing is registered at import.

What it measures, and where from:
- the tables, seats, spectators and lines now: read from the roles when scraped, nothing kept;
- steps and step latency: the service's `watch.Watch` calls (a seat's message heard, handled,
  a table's kept changes told); the latency runs from the message that played a step reaching
  the service to its update being handed to the postman, so it includes the store's write,
  and a step played by a turn running out or the computer standing in (no message) is counted
  but not timed;
- the tables store's calls: timed_store.TimedStore around the store;
- Valkey's round trip and errors: the readiness check's PING (health.py), asked every
  `CHECK_EVERY_S` by this module, since the lobby's, the routes' and the limits' own commands
  run in their modules' background loops, which say their outages in the log;
- the collector's pauses (gc.callbacks, added by `start` and taken out by `close`) and the
  event loop's lag (a sleep of `LAG_TICK_S` and how late it wakes).

It only counts and times: nothing here changes what the server does.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from ...engine.state import TEAMS
from ...wire import protocol as p
from ..service import TableService
from ..tables import Outgoing
from .health import Readiness

__all__ = ["Metrics"]

PREFIX = "sudden_death_"
LAG_TICK_S = 0.25  # the loop's lag is how late a sleep this long wakes
CHECK_EVERY_S = 2.0  # readiness (Valkey's PING, the store's read) asked this often
STALE_S = 60.0  # a message heard this long before its step was told is not a sample
PENDING_KEPT = 10_000  # tables with a step on its way, before the oldest are forgotten
STEP_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
                5.0, 10.0)
CALL_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                0.5, 1.0, 2.5, 5.0, 10.0)
PAUSE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)
LAG_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


@dataclass(eq=False)  # the registry keys its collectors by identity
class _Now(Collector):
    """The gauges read from the roles at each scrape: nothing is counted between scrapes."""

    service: TableService
    readiness: Readiness | None = None

    def collect(self) -> Iterator[Metric]:
        service = self.service
        seats = service.seats
        states = {"waiting": 0, "playing": 0, "over": 0}
        connected = away = 0
        for code, table in seats.tables.items():
            states["over" if table.over else "playing" if table.full else "waiting"] += 1
            for team in TEAMS:
                if team not in table.seats or team in table.computer:
                    continue
                if (code, team) in seats.connections:
                    connected += 1
                elif not table.over:
                    away += 1
        tables = GaugeMetricFamily(PREFIX + "tables", "Tables held by this process, by state: "
                                   "waiting for a seat, playing, over (about to be let go).",
                                   labels=["state"])
        for state, count in states.items():
            tables.add_metric([state], count)
        yield tables
        seated = GaugeMetricFamily(PREFIX + "seats", "Players' seats at this process's "
                                   "tables: with a line here, or away (their line dropped).",
                                   labels=["state"])
        seated.add_metric(["connected"], connected)
        seated.add_metric(["away"], away)
        yield seated
        yield GaugeMetricFamily(PREFIX + "spectators", "Lines watching this process's tables.",
                                value=sum(len(lines) for lines in
                                          service.gallery.watchers.values()))
        yield GaugeMetricFamily(PREFIX + "lobby_lines", "Lines in this process's lobby.",
                                value=len(service.lobby.lines))
        yield GaugeMetricFamily(PREFIX + "open_lines", "Connections open on the players' port "
                                "(every kind, counted from the TCP accept; relayed lines on "
                                "the relay port are not).",
                                value=sum(service.addresses.lines.values()))
        yield GaugeMetricFamily(PREFIX + "tables_waiting_on_store", "Tables whose writes are "
                                "being tried again (their seats told the server is busy).",
                                value=len(seats.keeper.busy))
        yield GaugeMetricFamily(PREFIX + "draining", "1 while this process is draining.",
                                value=int(service.draining))
        if self.readiness is not None:
            yield GaugeMetricFamily(PREFIX + "ready", "1 when the last readiness verdict was "
                                    "ready (what /readyz last answered).",
                                    value=int(self.readiness.kept is not None
                                              and self.readiness.last is None
                                              and not service.draining))


@dataclass
class Metrics:
    """One server's metrics (its own registry), meeting watch.Watch for the service. Made
    before the service (its store is wrapped first: `store_call`), then given it (`watch`)."""

    registry: CollectorRegistry = field(default_factory=CollectorRegistry)
    clock: Callable[[], float] = time.perf_counter
    pending: dict[str, float] = field(default_factory=dict)  # code: when its step was heard
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    now: _Now | None = None  # the gauges read from the service (`watch`)
    _gc_started: float = 0.0

    def __post_init__(self) -> None:
        registry = self.registry
        ProcessCollector(registry=registry)  # CPU, memory, open files (Linux)
        PlatformCollector(registry=registry)  # the Python's version
        GCCollector(registry=registry)  # the collector's counts per generation
        self.steps = Counter(PREFIX + "steps", "Steps played at this process's tables "
                             "(rate() is steps a second).", registry=registry)
        self.step_seconds = Histogram(
            PREFIX + "step_seconds", "From the message that played a step reaching the server "
            "to its update handed to the seats' lines (the store's write included).",
            buckets=STEP_BUCKETS, registry=registry)
        self.refusals = Counter(PREFIX + "refusals", "Refusals sent to lines, by the "
                                "protocol's code (docs/protocol.md).", ["code"],
                                registry=registry)
        self.store_seconds = Histogram(
            PREFIX + "store_seconds", "The tables store's calls, by call: done at once "
            "(SQLite, on the loop) or from first awaited to answered (PostgreSQL).", ["call"],
            buckets=CALL_BUCKETS, registry=registry)
        self.store_errors = Counter(PREFIX + "store_errors", "The tables store's calls that "
                                    "failed, by call (a database away, a full disk).",
                                    ["call"], registry=registry)
        self.check_seconds = Histogram(
            PREFIX + "check_seconds", "Readiness checks' round trips, by check: valkey "
            "(a PING), store (a read of a table that cannot exist).", ["check"],
            buckets=CALL_BUCKETS, registry=registry)
        self.check_errors = Counter(PREFIX + "check_errors", "Readiness checks that failed, "
                                    "by check (a check that never answers is counted when it "
                                    "gives up).", ["check"], registry=registry)
        self.gc_pause = Histogram(PREFIX + "gc_pause_seconds", "Each pass of the garbage "
                                  "collector, by generation: the event loop stops meanwhile.",
                                  ["generation"], buckets=PAUSE_BUCKETS, registry=registry)
        self.loop_lag = Histogram(PREFIX + "loop_lag_seconds", "How late the event loop "
                                  f"wakes from a {LAG_TICK_S:g} s sleep (its lag).",
                                  buckets=LAG_BUCKETS, registry=registry)

    def watch(self, service: TableService) -> Metrics:
        """Read `service`'s tables, seats and lines at each scrape; this, as its watch."""
        self.now = _Now(service)
        self.registry.register(self.now)
        return self

    # -- watch.Watch ---------------------------------------------------------------------

    def heard(self, code: str) -> float:
        started = self.clock()
        pending = self.pending
        if code not in pending:  # an earlier step still on its way is timed from its own
            if len(pending) >= PENDING_KEPT:
                pending.clear()  # tables dropped with a step on its way: never told
            pending[code] = started
        return started

    def handled(self, code: str, heard: float, moved: bool) -> None:
        if self.pending.get(code) != heard:
            return  # told already (a store that writes at once), or an earlier step's
        if moved and self.now is not None:
            table = self.now.service.seats.tables.get(code)
            if table is not None and not table.held:
                return  # a step played: its update comes once the store has kept it
        del self.pending[code]  # no step comes of it (a first commit held, a chat line)

    def told(self, code: str, out: Outgoing) -> None:
        steps = {message.step for _team, message in out if isinstance(message, p.Update)}
        if not steps:
            return
        self.steps.inc(len(steps))
        heard = self.pending.pop(code, None)
        if heard is not None:
            took = self.clock() - heard
            if took < STALE_S:
                self.step_seconds.observe(took)

    def refused(self, code: str) -> None:
        self.refusals.labels(code).inc()

    # -- the store and the checks -----------------------------------------------------

    def store_call(self, call: str, seconds: float, failed: bool) -> None:
        """timed_store.TimedStore's report of one call."""
        self.store_seconds.labels(call).observe(seconds)
        if failed:
            self.store_errors.labels(call).inc()

    def checked(self, name: str, seconds: float, ok: bool) -> None:
        """health.Readiness's report of one check (`name`: its label)."""
        self.check_seconds.labels(name).observe(seconds)
        if not ok:
            self.check_errors.labels(name).inc()

    # -- running ---------------------------------------------------------------------------

    def start(self, readiness: Readiness) -> None:
        """Measure the collector's pauses, the loop's lag and the checks from now on (inside
        the running loop)."""
        if self.now is not None:
            self.now.readiness = readiness
        gc.callbacks.append(self._gc)
        self.tasks = [asyncio.ensure_future(self._lag()),
                      asyncio.ensure_future(self._checks(readiness))]

    async def close(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._gc)
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(BaseException):
                await task
        self.tasks = []

    def page(self) -> tuple[bytes, str]:
        """The metrics now, in Prometheus's text format, and its content type."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST

    def _gc(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        elif self._gc_started:
            self.gc_pause.labels(str(info.get("generation", ""))).observe(
                time.perf_counter() - self._gc_started)
            self._gc_started = 0.0

    async def _lag(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(LAG_TICK_S)
            self.loop_lag.observe(max(0.0, loop.time() - before - LAG_TICK_S))

    async def _checks(self, readiness: Readiness) -> None:
        while True:
            await readiness.reason()
            await asyncio.sleep(CHECK_EVERY_S)
