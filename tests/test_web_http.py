"""The page's and the probes' HTTP on a WebSocket port (issue 71, server/lines/plain.py), asked with
raw bytes on real sockets of a real server (the in-process lab) and of the operator's own port:

- two requests in one packet, or the second sent before the first is answered: the first is
  answered whole, with `Connection: close`, and the line closes (the second is left for a new
  line, as RFC 9112 9.6 allows); never "unexpected internal error" or a traceback in the log;
- a WebSocket's frames sent with its upgrade, before the 101, still reach it;
- HEAD: the headers GET gets, Content-Length of the body included, and no body;
- every other method, with a body or without, 405 with `Allow: GET, HEAD`; a GET with a body
  that websockets cannot read, 400: each answered, none closed without a word.
"""

from __future__ import annotations

import asyncio
import base64
import logging
import os
import struct
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from raw_http import answers, exchange, request
from server_lab import run, server

from sudden_death.server.lines.limits import Limits
from sudden_death.server.operations.health import listen, networks
from sudden_death.web.site import Site

PROBES = ("/healthz", "/readyz", "/metrics")
METRICS = b"sudden_death_steps_total 3\n"
OTHER_METHODS = ("POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "PROPFIND")


def pages() -> tuple[str, ...]:
    """Every kind of path the page answers: its files, its words, a sound, one not found."""
    cue = next(iter(Site().cues.paths))
    return (*Site().paths, "/words.json?lang=es", "/explorer.json", cue, "/nothing.html")


@asynccontextmanager
async def ports() -> AsyncIterator[dict[str, tuple[str, int]]]:
    """The players' port serving the page and the probes (metrics shown to loopback), and the
    operator's own port (health.listen) beside it."""
    async with server(page=True, limits=Limits(connects_per_s=10_000,
                                               connect_burst=10_000)) as lab:
        probes = lab.service.probes
        probes.page = lambda: (METRICS, "text/plain; version=0.0.4")
        probes.metrics_from = networks(["127.0.0.0/8"])
        probes.readiness.restored = True
        players = lab.url.removeprefix("ws://").rsplit(":", 1)
        own = await listen(probes, "127.0.0.1", 0)
        try:
            yield {"players": (players[0], int(players[1])),
                   "operator": next(iter(own.sockets)).getsockname()[:2]}
        finally:
            probes.elsewhere = False
            own.close()
            await own.wait_closed()


def quiet(caplog: pytest.LogCaptureFixture) -> None:
    """Nothing in the server's log that says a bug: no traceback, no internal error."""
    for record in caplog.records:
        assert record.exc_info is None, caplog.text
        assert "unexpected internal error" not in record.getMessage()
    assert "Traceback" not in caplog.text


def test_two_requests_in_one_packet_get_the_first_answered_whole_and_the_line_closed(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)

    async def scenario() -> None:
        async with ports() as where:
            index = Site().file("/")[0]  # type: ignore[index]
            for _ in range(12):  # the race came 1 try in 5: many tries, two ways of sending
                for pause_s in (0.0, 0.01):
                    got = answers(await exchange(
                        where["players"], request("GET", "/"),
                        request("GET", "/page.css") + request("GET", "/healthz"),
                        pause_s=pause_s))
                    assert len(got) == 1
                    status, headers, body = got[0]
                    assert (status, body) == (200, index)
                    assert headers["Connection"] == "close"
                    together = request("GET", "/healthz") + request("GET", "/")
                    for port in ("players", "operator"):
                        got = answers(await exchange(where[port], together))
                        assert [(status, body) for status, _, body in got] == [(200, b"ok\n")]
                    got = answers(await exchange(where["operator"], request("GET", "/metrics")
                                                 + request("GET", "/readyz")))
                    assert [(status, body) for status, _, body in got] == [(200, METRICS)]

    run(scenario)
    quiet(caplog)


def test_a_websocket_s_frames_sent_with_its_upgrade_reach_it_once_it_is_open(
        caplog: pytest.LogCaptureFixture) -> None:
    """A ping in the upgrade's own packet is answered by a pong after the 101."""
    caplog.set_level(logging.DEBUG)
    key = base64.b64encode(os.urandom(16)).decode()
    upgrade = request("GET", "/", "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                      f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n")
    mask = os.urandom(4)
    ping = struct.pack("!BB", 0x89, 0x80 | 4) + mask + bytes(
        b ^ mask[i % 4] for i, b in enumerate(b"echo"))

    async def scenario() -> None:
        async with ports() as where:
            reader, writer = await asyncio.open_connection(*where["players"])
            writer.write(upgrade + ping)
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
            assert head.startswith(b"HTTP/1.1 101 ")
            assert await asyncio.wait_for(reader.readexactly(6), 5) == b"\x8a\x04echo"
            writer.close()
            await writer.wait_closed()

    run(scenario)
    quiet(caplog)


def test_head_is_answered_with_get_s_headers_and_no_body(
        caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)

    async def scenario() -> None:
        async with ports() as where:
            asked = [("players", path) for path in (*pages(), *PROBES)]
            asked += [("operator", path) for path in (*PROBES, "/")]
            for port, path in asked:
                (status, headers, body), = answers(
                    await exchange(where[port], request("GET", path)))
                head = await exchange(where[port], request("HEAD", path))
                assert head.endswith(b"\r\n\r\n") and head.count(b"\r\n\r\n") == 1, path
                (head_status, head_headers, _), = answers(head + body)  # its length, GET's
                assert head_status == status, path
                assert int(head_headers["Content-Length"]) == len(body) > 0, path
                assert head_headers["Content-Type"] == headers["Content-Type"], path

    run(scenario)
    quiet(caplog)


@pytest.mark.parametrize("method", OTHER_METHODS)
def test_every_other_method_is_answered_405_with_allow_bodies_and_all(
        method: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    ways = {"no body": request(method, "{path}"),
            "a body": request(method, "{path}", "Content-Length: 5\r\n", b"hello"),
            "chunked": request(method, "{path}", "Transfer-Encoding: chunked\r\n",
                               b"5\r\nhello\r\n0\r\n\r\n"),
            "an upgrade": request(method, "{path}", "Upgrade: websocket\r\n"
                                  "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                                  "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n")}

    async def scenario() -> None:
        async with ports() as where:
            asked = [("players", path) for path in ("/", "/page.css", *PROBES, "/play")]
            asked += [("operator", path) for path in PROBES]
            for port, path in asked:
                for way, sent in ways.items():
                    got = answers(await exchange(where[port], sent.replace(
                        b"{path}", path.encode())))
                    assert [status for status, _, _ in got] == [405], (path, way)
                    allow = "GET" if way == "an upgrade" else "GET, HEAD"
                    assert got[0][1]["Allow"] == allow, (path, way)
            for port in ("players", "operator"):  # a GET with a body: refused, in words
                got = answers(await exchange(where[port], request(
                    "GET", "/healthz", "Content-Length: 2\r\n", b"hi")))
                assert [status for status, _, _ in got] == [400]

    run(scenario)
    quiet(caplog)
