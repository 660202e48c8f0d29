"""The game's line (`TableLink`) after a drop: an act that never reached the server is sent
again once the seat is back, and one that went out on the new line is not (the server would
answer the repeat `not_now`, and the player would hear a refusal for nothing). A real server
on loopback, a proxy that cuts the line, and the real link; and a held choice a server on
PostgreSQL was SIGKILLed before writing (issue 73) is sent again once the seat is back."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable

from net_proxy import Proxy
from postgres_server import PostgresCluster, postgres_cluster
from server_lab import receive, run, server
from server_process import Running
from test_postgres_server import require_postgres
from websockets.asyncio.client import ClientConnection, connect

from sudden_death.engine.actions import ChooseSnap, Concede, actors, legal_actions
from sudden_death.engine.snapshot import action_to_dict, state_from_dict
from sudden_death.engine.state import GameState, SnapChoice, Team
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


async def _step_played(host: ClientConnection, link: TableLink, heard: list[object],
                       step: int) -> GameState:
    """Both seats hear the update of `step`: the host on its line, the guest's link as news."""
    while (message := await receive(host, 30))["type"] != "update":
        assert message["type"] in ("committed", "back"), message
    assert message["step"] == step + 1, message
    await news_until(link, heard, lambda item: isinstance(item, p.Update)
                     and item.step == step + 1, 30)
    return state_from_dict(message["state"])


def test_a_held_choice_a_killed_server_never_kept_is_sent_again_by_the_link() -> None:
    """Issue 73: on PostgreSQL a held choice is told (`committed`) before it is written, so a
    server SIGKILLed at once loses it. The guest's link, which chose first, comes back to the
    server started again on the same database and port, hears a start holding nothing at that
    step, and sends its choice again; the host chooses, and the step plays for both."""
    require_postgres()
    rng = random.Random(3)

    def chosen(state: GameState, team: Team) -> p.Act:
        """A legal choice, the snap played (no kick that could end the game first)."""
        legal = [action for action in legal_actions(state, team)
                 if not isinstance(action, Concede)]
        play = ChooseSnap(SnapChoice.PLAY)
        return p.Act(step, [action_to_dict(play if play in legal else rng.choice(legal))])

    async def scenario(first: Running, cluster: PostgresCluster) -> list[object]:
        host = await connect(first.url)
        await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
        seat = await receive(host)
        link = TableLink(first.url, p.Join(p.PROTOCOL_VERSION, seat["code"], "Bears"))
        link.start()
        heard: list[object] = []
        try:
            start = await receive(host, 30)
            assert start["type"] == "start"
            state = state_from_dict(start["state"])
            nonlocal step
            while len(actors(state)) < 2:  # to the first card step, one seat at a time
                (team,) = actors(state)
                if team is Team.HOME:
                    link.send(chosen(state, team))
                else:
                    await host.send(p.encode(chosen(state, team)))
                state = await _step_played(host, link, heard, step)
                step += 1
            link.send(chosen(state, Team.HOME))  # the guest first: held, told, not written
            assert await receive(host, 30) == {"type": "committed", "step": step, "seat": 0}
            first.killed()
            with Running("--postgres", cluster.url, "--port", first.url.rsplit(":", 1)[1]):
                await host.close()
                host = await connect(first.url)
                await host.send(p.encode(p.Resume(p.PROTOCOL_VERSION, seat["code"],
                                                  seat["token"], step)))
                assert (await receive(host, 30))["type"] == "seated"
                assert (await receive(host, 30))["type"] == "start"
                resumed = await news_until(link, heard, lambda item: isinstance(item, p.Start),
                                           30)
                assert isinstance(resumed, p.Start)
                assert (resumed.step, resumed.held) == (step, [])  # the choice was lost
                while (message := await receive(host, 30))["type"] != "committed":
                    assert message["type"] == "back", message  # the guest came back
                assert message == {"type": "committed", "step": step, "seat": 0}  # sent again
                await host.send(p.encode(chosen(state, Team.AWAY)))
                await _step_played(host, link, heard, step)
                await asyncio.sleep(0.3)  # a refusal of a repeat would come by now
                return heard + link.poll()
        finally:
            link.close()
            await host.close()

    step = 0
    with postgres_cluster() as cluster, Running("--postgres", cluster.url) as first:
        heard = run(lambda: scenario(first, cluster))
    assert not [item for item in heard if isinstance(item, p.Refused)], heard
    assert any(isinstance(item, Restored) for item in heard), heard
