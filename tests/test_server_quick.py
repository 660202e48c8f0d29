"""Quick games on the table server (issue 49): a quick player takes the seat at a waiting
quick table whose player's rating is nearest, or opens one and waits. Real WebSocket clients
against a real server on loopback."""

from __future__ import annotations

import asyncio

from server_lab import Lab, nothing_comes, receive, run, server
from websockets.asyncio.client import ClientConnection

from sudden_death.server.lines.limits import Limits
from sudden_death.server.tables import Table
from sudden_death.wire import protocol as p


async def quick(lab: Lab, team: str, player: str = "") -> tuple[ClientConnection, dict]:
    client = await lab.connect()
    if player:
        await client.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, player, "password one")))
        assert (await receive(client))["type"] == "signed_in"
    await client.send(p.encode(p.Quick(p.PROTOCOL_VERSION, team)))
    return client, await receive(client)


def test_two_quick_players_are_paired_and_a_third_waits_at_a_new_table() -> None:
    async def scenario() -> None:
        async with server() as lab:
            first, first_seat = await quick(lab, "Hawks")
            assert first_seat["type"] == "seated" and first_seat["seat"] == 1  # hosts
            assert await nothing_comes(first)  # waiting for a player
            second, second_seat = await quick(lab, "Bears")
            assert second_seat["code"] == first_seat["code"] and second_seat["seat"] == 0
            for client in (first, second):
                start = await receive(client)
                assert start["type"] == "start" and start["names"] == ["Bears", "Hawks"]
            _third, third_seat = await quick(lab, "Owls")
            assert third_seat["code"] != first_seat["code"]
            pairing = lab.service.pairing
            assert list(pairing.quick) == [third_seat["code"]] and not pairing.paired

    run(scenario)


async def signed_quick(lab: Lab, player: str, team: str) -> dict:
    client = await lab.connect()
    await client.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, player, "password one")))
    assert (await receive(client))["type"] == "signed_in"
    await client.send(p.encode(p.Quick(p.PROTOCOL_VERSION, team)))
    return await receive(client)


def test_a_quick_player_meets_the_nearest_rating_and_never_its_own_team_name() -> None:
    async def scenario() -> None:
        async with server() as lab:
            for name in ("Low", "High", "Near", "Far"):
                lab.service.accounts.sign_up(name, "password one")
            for _ in range(6):  # High climbs, Low falls
                lab.service.desk.store.record("high", "far", 1.0)
                lab.service.desk.store.record("low", "far", 0.0)
            for _ in range(3):  # Near climbs less
                lab.service.desk.store.record("near", "far", 1.0)
            rating = {name: lab.service.desk.store.rating(name).rating
                      for name in ("low", "high", "near")}
            assert abs(rating["near"] - rating["high"]) < abs(rating["near"] - rating["low"])
            low_seat = await signed_quick(lab, "Low", "Lions")  # waits longest
            high_seat = await signed_quick(lab, "High", "Lions")
            assert low_seat["code"] != high_seat["code"]  # one name twice: both wait
            near_seat = await signed_quick(lab, "Near", "Bears")
            assert near_seat["code"] == high_seat["code"]  # the nearest, not the oldest
            _stranger, stranger_seat = await quick(lab, "Lions")  # only Low's table waits
            assert stranger_seat["code"] != low_seat["code"]  # two Lions: never one table

    run(scenario)


def test_two_players_who_kept_the_default_name_meet_as_the_second_default() -> None:
    """Both games send the Hawks, with the Bears as `other`: the second joins as the Bears,
    so two players who never named a team still get a game (and a score with two names)."""
    async def scenario() -> None:
        async with server() as lab:
            first = await lab.connect()
            await first.send(p.encode(p.Quick(p.PROTOCOL_VERSION, "Hawks", other="Bears")))
            first_seat = await receive(first)
            second = await lab.connect()
            await second.send(p.encode(p.Quick(p.PROTOCOL_VERSION, "Hawks", other="Bears")))
            second_seat = await receive(second)
            assert second_seat["code"] == first_seat["code"] and second_seat["seat"] == 0
            for client in (first, second):
                start = await receive(client)
                assert start["type"] == "start" and start["names"] == ["Bears", "Hawks"]
            _waits, owls = await quick(lab, "Owls")  # a name and an `other` that clash
            clash = await lab.connect()
            await clash.send(p.encode(p.Quick(p.PROTOCOL_VERSION, "Owls", other="owls")))
            assert (await receive(clash))["code"] != owls["code"]  # passed over: it waits

    run(scenario)


def test_each_seat_and_the_lobby_hear_the_players_names_as_they_typed_them() -> None:
    """Issue 59, 9: nobody was told whom they play. The start names each seat's signed-in
    player as typed, home first ("" for a seat with none), and so do the lobby's game and a
    spectator's start, and the table's record keeps them; names only, never a card."""
    async def scenario() -> None:
        async with server() as lab:
            listener = await lab.connect()
            await listener.send(p.encode(p.Lobby()))
            first, first_seat = await quick(lab, "Hawks", "Ánna Lee")
            second, second_seat = await quick(lab, "Bears", "Ben")
            assert (first_seat["seat"], second_seat["seat"]) == (1, 0)
            for client in (first, second):
                start = await receive(client)
                assert start["type"] == "start" and start["players"] == ["Ben", "Ánna Lee"]
                assert start["names"] == ["Bears", "Hawks"] and start["held"] == []
            code = first_seat["code"]
            while not (listed := await receive(listener, 5)).get("games"):
                pass
            (game,) = listed["games"]
            assert game["players"] == ["Ben", "Ánna Lee"] and game["code"] == code
            spectator = await lab.connect()
            await spectator.send(p.encode(p.Watch(p.PROTOCOL_VERSION, code)))
            watched = await receive(spectator)
            assert watched["players"] == ["Ben", "Ánna Lee"] and watched["held"] == []
            kept = Table.from_record(lab.service.tables[code].to_record())
            assert kept.players() == ["Ben", "Ánna Lee"]
            _alone, alone_seat = await quick(lab, "Owls")  # no name: nothing to tell
            _other, _seat = await quick(lab, "Lions", "Cleo")
            start = await receive(_other)
            assert start["players"] == ["Cleo", ""] and alone_seat["seat"] == 1

    run(scenario)


def test_two_players_who_press_quick_game_at_the_same_moment_are_always_paired() -> None:
    """Quick game's one promise: two players waiting are paired, whatever the timing. Both
    messages are sent at once, many times; the pairing and the new table are one step on
    the server, so neither can open a table while the other is choosing (found online: 14
    runs of 15 left two players waiting for ever at two tables)."""
    async def scenario() -> None:
        async with server(limits=Limits(connects_per_s=100, connect_burst=100)) as lab:
            for _round in range(20):
                first, second = await lab.connect(), await lab.connect()
                greeting = p.encode(p.Quick(p.PROTOCOL_VERSION, "Hawks", other="Bears"))
                await asyncio.gather(first.send(greeting), second.send(greeting))
                seats = [await receive(first), await receive(second)]
                assert [seat["type"] for seat in seats] == ["seated", "seated"]
                assert seats[0]["code"] == seats[1]["code"]
                assert sorted(seat["seat"] for seat in seats) == [0, 1]
                for client in (first, second):
                    assert (await receive(client))["type"] == "start"
                    await client.send(p.encode(p.Leave()))
                    await client.close()
            assert not lab.service.pairing.quick and not lab.service.pairing.paired

    run(scenario)
