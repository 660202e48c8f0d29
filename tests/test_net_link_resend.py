"""The game's line (`TableLink`) after a drop: an act that never reached the server is sent
again once the seat is back, and one that went out on the new line is not (the server would
answer the repeat `not_now`, and the player would hear a refusal for nothing). A real server
on loopback, a proxy that cuts the line, and the real link."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from net_proxy import Proxy
from server_lab import receive, run, server

from sudden_death.net.link import TableLink
from sudden_death.net.news import Reconnecting, Restored
from sudden_death.wire import protocol as p

TOSS = p.Act(0, [{"action": "CallCoin", "face": "heads"}])


async def news_until(link: TableLink, heard: list[object], wanted: Callable[[object], bool],
                     seconds: float = 10) -> object:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for item in link.poll():
            heard.append(item)
            if wanted(item):
                return item
        await asyncio.sleep(0.01)
    raise AssertionError(f"never came; heard {heard}")


async def guest_through(proxy_of: Callable[[str], Proxy], when: type,
                        ) -> tuple[list[object], list[dict[str, object]]]:
    """A table whose guest (the home seat, which calls the toss) plays through a proxy; its
    line is cut, and it calls the toss on hearing `when` (Reconnecting: while the line is
    down; Restored: on the new line, right after its resume). Returns what the guest's link
    passed on and what the host heard."""
    async with server() as lab:
        host = await lab.connect()
        await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
        code = (await receive(host))["code"]
        proxy = proxy_of(lab.url)
        link = TableLink(proxy.url, p.Join(p.PROTOCOL_VERSION, str(code), "Bears"))
        link.start()
        heard: list[object] = []
        try:
            await news_until(link, heard, lambda item: isinstance(item, p.Start))
            assert (await receive(host))["type"] == "start"
            proxy.cut(0)
            await news_until(link, heard, lambda item: isinstance(item, when))
            link.send(TOSS)
            await news_until(link, heard, lambda item: isinstance(item, p.Update))
            await asyncio.sleep(0.5)  # time for a refusal of a repeat to come
            heard += link.poll()
            told = []
            while True:
                try:
                    told.append(await receive(host, 0.3))
                except (asyncio.TimeoutError, TimeoutError):
                    break
            return heard, told
        finally:
            link.close()
            proxy.close()


def proxy_for(url: str) -> Proxy:
    return Proxy(int(url.rsplit(":", 1)[1]))


def test_an_act_made_while_the_line_was_down_is_sent_once_the_seat_is_back() -> None:
    heard, told = run(lambda: guest_through(proxy_for, Reconnecting))
    assert sum(isinstance(item, p.Update) for item in heard) == 1
    assert not [item for item in heard if isinstance(item, p.Refused)], heard
    assert [message["type"] for message in told].count("update") == 1, told


def test_an_act_sent_on_the_new_line_is_not_sent_again() -> None:
    heard, told = run(lambda: guest_through(proxy_for, Restored))
    assert sum(isinstance(item, p.Update) for item in heard) == 1
    assert not [item for item in heard if isinstance(item, p.Refused)], heard
    assert [message["type"] for message in told].count("update") == 1, told
