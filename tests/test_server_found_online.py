"""What strangers found on a public table server (issue 59), each as a player meets it: a
seat nobody comes back to, a turn dodged by dropping the line, a quick game held hostage.
Real WebSocket clients against a real server on loopback."""

from __future__ import annotations

import asyncio
from typing import Any

from server_lab import Lab, nothing_comes, receive, run, seated_pair, server
from websockets.asyncio.client import ClientConnection

from sudden_death.engine.state import Team
from sudden_death.server.tables import HOST_SEAT
from sudden_death.wire import protocol as p

GUEST = HOST_SEAT.other  # the guest sits home and calls the toss


async def until(client: ClientConnection, kind: str, timeout: float = 10) -> dict[str, Any]:
    while (message := await receive(client, timeout))["type"] != kind:
        pass
    return message


async def lobby_tables(lab: Lab) -> list[str]:
    """The codes of the open tables a new lobby line hears."""
    client = await lab.connect()
    await client.send(p.encode(p.Lobby()))
    listing = await until(client, "lobby")
    await client.close()
    return [table["code"] for table in listing["tables"]]


def test_a_public_table_whose_host_drops_before_anyone_comes_is_gone_at_once() -> None:
    """Found online: the next player was seated opposite nobody, heard neither `away` nor
    the computer, and waited out the seat wait. Now the table leaves the lobby and quick
    pairing the moment its host drops, and its code opens nothing."""
    async def scenario() -> None:
        async with server() as lab:
            for greeting in (p.Host(p.PROTOCOL_VERSION, "Hawks", public=True,
                                    seat_wait_s=p.MAX_SEAT_WAIT_S),
                             p.Quick(p.PROTOCOL_VERSION, "Hawks", other="Bears")):
                host = await lab.connect()
                await host.send(p.encode(greeting))
                code = (await receive(host))["code"]
                assert code in await lobby_tables(lab)
                await host.close()
                for _ in range(50):
                    if code not in lab.service.tables:
                        break
                    await asyncio.sleep(0.02)
                assert code not in await lobby_tables(lab)
                guest = await lab.connect()
                await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
                assert (await receive(guest))["code"] == p.NO_TABLE
                quick = await lab.connect()
                await quick.send(p.encode(p.Quick(p.PROTOCOL_VERSION, "Bears")))
                seated = await receive(quick)
                assert seated["seat"] == int(HOST_SEAT) and seated["code"] != code  # a new one
                await quick.send(p.encode(p.Leave()))

    run(scenario)


def test_a_guest_who_joins_a_private_table_whose_host_dropped_hears_it_and_gets_the_computer(
        ) -> None:
    async def scenario() -> None:
        async with server() as lab:
            lab.service.seats.stand_in_after_s = 0.3
            host = await lab.connect()
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            code = (await receive(host))["code"]
            await host.close()
            await asyncio.sleep(0.1)
            assert code in lab.service.tables  # a friend may still come by its code
            guest = await lab.connect()
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
            assert (await receive(guest))["type"] == "seated"
            assert (await receive(guest))["type"] == "start"
            away = await until(guest, "away")
            assert away["name"] == "Hawks" and 0 < away["wait_s"] <= 600
            assert await until(guest, "computer") == {"type": "computer", "name": "Hawks",
                                                      "reason": "away"}

    run(scenario)


def test_dropping_and_coming_back_does_not_start_the_computers_wait_again() -> None:
    """Found online: a seat away 25 s that came back and dropped again had the computer's
    30 s start from zero each time. The time away is counted for the step."""
    async def scenario() -> None:
        async with server() as lab:
            now = [1000.0]
            lab.service.clock = lambda: now[0]
            line, guest, host_seat, _guest_seat = await seated_pair(lab)
            code = host_seat["code"]
            lab.service.seats.stand_in_after_s = 30.0
            for dropped in range(2):
                await line.close()
                await until(guest, "away")
                timer = lab.service.seats.stand_ins[(code, HOST_SEAT)]
                due = timer.when() - asyncio.get_running_loop().time()
                if dropped == 0:
                    assert 29 < due <= 30
                else:  # 25 s of the 30 were spent away already
                    assert 4 < due <= 5
                    break
                now[0] += 25.0  # away 25 s (by the server's clock), then back
                line = await lab.connect()
                await line.send(p.encode(p.Resume(p.PROTOCOL_VERSION, code,
                                                  host_seat["token"], 0)))
                assert (await receive(line))["type"] == "seated"
                await until(guest, "back")

    run(scenario)


def test_a_turn_goes_on_from_where_it_was_when_its_seat_comes_back() -> None:
    """Found online: dropping for 25 s and coming back gave the seat a whole new turn (the
    toss unplayed after 105 s of a 60 s turn). What was left is kept, and when little was
    left the seat is warned at once and has the warning's 20 s."""
    async def scenario() -> None:
        async with server() as lab:
            host = await lab.connect()
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", turn_s=60)))
            seated = await receive(host)
            code = seated["code"]
            guest = await lab.connect()
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
            guest_seat = await receive(guest)
            await until(guest, "start")
            clock = lab.service.seats.turn_clock
            loop = asyncio.get_running_loop()
            turn = clock.turns[(code, GUEST)]  # the guest owes the toss
            turn.ends = loop.time() + 5  # as if 55 s of it had gone
            await guest.close()
            await until(host, "away")
            assert (code, GUEST) not in clock.turns  # no clock for a seat that is away
            back = await lab.connect()
            await back.send(p.encode(p.Resume(p.PROTOCOL_VERSION, code, guest_seat["token"],
                                              0)))
            assert (await receive(back))["type"] == "seated"
            warned = await until(back, "time_warning", 2)  # at once: little is left
            assert warned["seconds"] == p.TURN_WARNING_S
            left = clock.turns[(code, GUEST)].ends - loop.time()
            assert 10 < left <= p.TURN_WARNING_S  # not a new 60 s turn

    run(scenario)


def test_a_quick_game_has_a_turn_limit_both_players_hear() -> None:
    """Found online: quick games had no turn limit, so a stranger could stall for ever and
    the other could only leave, a rated loss. Quick tables have `QUICK_TURN_S`."""
    async def scenario() -> None:
        async with server() as lab:
            first, second = await lab.connect(), await lab.connect()
            await first.send(p.encode(p.Quick(p.PROTOCOL_VERSION, "Hawks")))
            await receive(first)
            await second.send(p.encode(p.Quick(p.PROTOCOL_VERSION, "Bears")))
            await receive(second)
            for client in (first, second):
                assert (await until(client, "start"))["turn_s"] == p.QUICK_TURN_S
            assert p.QUICK_TURN_S in p.TURN_LIMITS
            table = next(iter(lab.service.tables.values()))
            assert {team for team in Team if (table.code, team) in
                    lab.service.seats.turn_clock.turns} == {GUEST}
            assert await nothing_comes(first)

    run(scenario)
