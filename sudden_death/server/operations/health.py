"""What an operator's probes ask the server on its own port, before any WebSocket handshake:
`GET /healthz` (alive: the event loop answers), `GET /readyz` (ready: its tables restored, not
draining, and its stores and Valkey answering) and, for the addresses allowed, `GET /metrics`
(metrics.py's page).

Why on the players' port and not a port of its own: the probes then test the very listener the
players reach (a supervisor, a load balancer or compose's healthcheck needs no second address),
and the page's files are answered the same way already (web/site.py). A probe is a plain
request answered and closed; it is answered before the new-lines limit (limits.Addresses
.arriving), so probes never spend the burst of new lines an address is allowed and can never
lock a player behind the same address out (a load balancer, a proxy or a NAT). It is still
counted among its address's open lines from its TCP accept to its close (a few milliseconds,
lines.Counting), as every connection is.

`Readiness` never blocks the loop and never lets a probe flood reach the databases: each check
is a task of its own, at most one in flight per check (a check that hangs is waited for, not
asked again), a probe waits at most `timeout_s` for them, and a verdict is kept `kept_s` for
every probe that comes meanwhile. What the checks ask is the operator's business only in so
far as a reason is one line naming the part that failed, never its error's text (no address,
user or password reaches a public probe; the log says the rest).

It never touches a table, a seat or a line other than the probe's own.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from http import HTTPStatus
from urllib.parse import urlsplit

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from ..lines.line import Line
from ..lines.plain import headless, methods

__all__ = ["HEALTH_PATH", "METRICS_PATH", "READY_PATH", "Check", "Probes", "Readiness",
           "listen", "networks"]

LOG = logging.getLogger("sudden_death.server")
HEALTH_PATH, READY_PATH, METRICS_PATH = "/healthz", "/readyz", "/metrics"
CHECK_TIMEOUT_S = 1.0  # a probe's longest wait for the checks: under a probe's own timeout
KEPT_S = 1.0  # a verdict answers every probe within this long of it
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@dataclass
class Check:
    """One part readiness asks: `name` as a reason says it ("the tables store", "Valkey"),
    `label` as the metrics do ("store", "valkey"), `ask` the call that answers when the part
    does (raises or hangs when it does not)."""

    name: str
    label: str
    ask: Callable[[], Awaitable[object]]
    asking: asyncio.Task[object] | None = None  # in flight: never two at once
    since: float = 0.0  # when it was asked (the loop's clock)


@dataclass
class Readiness:
    """Whether this process should be sent players now, and if not, why (one line).
    `draining` (the service's flag) and `restored` (set once its stored tables are: the
    server's start) are read at every probe; the checks' answers are kept `kept_s`.
    `checked(label, seconds, ok)` hears every check's outcome, also those that come after a
    probe gave up on them (metrics.py's latencies)."""

    draining: Callable[[], bool]
    restored: bool = False
    checks: list[Check] = field(default_factory=list)
    timeout_s: float = CHECK_TIMEOUT_S
    kept_s: float = KEPT_S
    checked: Callable[[str, float, bool], None] = field(default=lambda name, s, ok: None)
    clock: Callable[[], float] = time.monotonic
    kept: tuple[float, str | None] | None = None  # (when, reason: None when ready)
    deciding: asyncio.Future[str | None] | None = None  # a verdict being reached
    said: str | None = None  # the last reason logged (None: ready)

    @property
    def last(self) -> str | None:
        """The last verdict's reason without asking anything (None: ready, or never asked)."""
        return None if self.kept is None else self.kept[1]

    async def reason(self) -> str | None:
        """None when ready; else why not, in one line."""
        if self.draining():
            return self._said("draining: this process is stopping")
        if not self.restored:
            return self._said("restoring its tables")
        if self.kept is not None and self.clock() - self.kept[0] < self.kept_s:
            return self.kept[1]
        if self.deciding is None:
            self.deciding = asyncio.ensure_future(self._decide())
        # Shielded: a probe that gives up (its client gone) never cancels the verdict others
        # wait for.
        return await asyncio.shield(self.deciding)

    async def _decide(self) -> str | None:
        try:
            asking = [self._ask(check) for check in self.checks]
            if asking:
                await asyncio.wait(asking, timeout=self.timeout_s)
            reason = None
            for check, task in zip(self.checks, asking, strict=True):
                if not task.done():
                    reason = f"{check.name} did not answer within {self.timeout_s:g} s"
                elif task.cancelled() or task.exception() is not None:
                    failure = "cancelled" if task.cancelled() else type(task.exception()).__name__
                    reason = f"{check.name} failed ({failure})"
                if reason is not None:
                    break
            self.kept = (self.clock(), reason)
            return self._said(reason)
        finally:
            self.deciding = None

    def _ask(self, check: Check) -> asyncio.Task[object]:
        """The check's task in flight, or a new one."""
        if check.asking is not None and not check.asking.done():
            return check.asking
        loop = asyncio.get_running_loop()
        check.since = loop.time()
        task = check.asking = asyncio.ensure_future(check.ask())
        task.add_done_callback(lambda done: self._answered(check, done, loop.time()))
        return task

    def _answered(self, check: Check, task: asyncio.Task[object], now: float) -> None:
        failed = task.cancelled() or task.exception() is not None
        if failed and not task.cancelled():
            LOG.debug("readiness: %s failed: %s", check.name, task.exception())
        self.checked(check.label, now - check.since, not failed)

    def _said(self, reason: str | None) -> str | None:
        """`reason`, logged when it differs from the last one logged."""
        if reason != self.said:
            if reason is None:
                LOG.info("ready again")
            else:
                LOG.warning("not ready: %s", reason)
            self.said = reason
        return reason

    async def close(self) -> None:
        """Checks still in flight cancelled and awaited (a stopping server's)."""
        for check in self.checks:
            task = check.asking
            if task is not None and not task.done():
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task


def networks(specs: Iterable[str]) -> tuple[Network, ...]:
    """`--metrics-from`'s networks ("10.0.0.0/8", "127.0.0.1", "::1"); ValueError for one
    that is not."""
    return tuple(ipaddress.ip_network(spec, strict=False) for spec in specs)


def allowed(line: ServerConnection, among: tuple[Network, ...]) -> bool:
    """Whether the line's peer address is in one of `among` (an IPv4-mapped IPv6 peer as its
    IPv4 address). The TCP peer's own: behind a proxy, the proxy's."""
    remote = line.remote_address
    if not remote or not among:
        return False
    try:
        ip = ipaddress.ip_address(str(remote[0]).split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in network for network in among)


def text(status: HTTPStatus, body: str) -> Response:
    """A one-line plain answer, never cached."""
    data = body.encode()
    return Response(status.value, status.phrase, Headers([
        ("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(data))),
        ("Cache-Control", "no-store"), ("Connection", "close")]), data)


@dataclass
class Probes:
    """The answers to the operator's paths. `page`: the metrics' text and its content type
    (metrics.Metrics.page), None without `--metrics-from`, when /metrics is not found;
    `metrics_from`: the networks whose addresses may read it (another address: 403)."""

    readiness: Readiness
    page: Callable[[], tuple[bytes, str]] | None = None
    metrics_from: tuple[Network, ...] = ()
    elsewhere: bool = False  # /metrics is served on the operator's own port only (`listen`)

    async def answer(self, line: ServerConnection, request: Request,
                     own_port: bool = False) -> Response | None:
        """The answer to one of the operator's paths; None for any other request.
        `own_port`: asked on the operator's own port (`listen`)."""
        path = urlsplit(request.path).path
        if path == HEALTH_PATH:
            return text(HTTPStatus.OK, "ok\n")
        if path == READY_PATH:
            reason = await self.readiness.reason()
            if reason is None:
                return text(HTTPStatus.OK, "ready\n")
            return text(HTTPStatus.SERVICE_UNAVAILABLE, f"not ready: {reason}\n")
        if path == METRICS_PATH:
            if self.elsewhere and not own_port:
                return text(HTTPStatus.NOT_FOUND, "Not found.\n")
            return self._metrics(line)
        return None

    def _metrics(self, line: ServerConnection) -> Response:
        if self.page is None:
            return text(HTTPStatus.NOT_FOUND, "Not found.\n")
        if not allowed(line, self.metrics_from):
            return text(HTTPStatus.FORBIDDEN, "Not for this address.\n")
        body, kind = self.page()
        return Response(HTTPStatus.OK.value, HTTPStatus.OK.phrase, Headers([
            ("Content-Type", kind), ("Content-Length", str(len(body))),
            ("Cache-Control", "no-store"), ("Connection", "close")]), body)


async def listen(probes: Probes, host: str, port: int) -> Server:
    """The operator's own port (`--metrics-port`): /healthz, /readyz and /metrics of this
    process alone (with --reuse-port the players' port reaches any process of the host), every
    other path 404, never a WebSocket. Not counted against the players' per-address limits:
    it belongs on loopback or the operator's network, as the relay port does."""

    async def answer(line: ServerConnection, request: Request) -> Response:
        found = await probes.answer(line, request, own_port=True)
        return found if found is not None else text(HTTPStatus.NOT_FOUND, "Not found.\n")

    async def unused(line: ServerConnection) -> None:  # every request is answered above
        await line.close()

    probes.elsewhere = True
    return await serve(unused, host, port, process_request=methods(answer),
                       process_response=headless, create_connection=Line,
                       compression=None, open_timeout=CHECK_TIMEOUT_S * 5)

