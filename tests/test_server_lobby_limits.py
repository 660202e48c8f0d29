"""A lobby that survives strangers (issue 59): tables waiting for a player capped per address
and in all, a lobby list that fits a frame however many there are, a spectator's comings and
goings said once, and one player's chat one voice however many lines they open. Real
WebSocket clients against a real server on loopback."""

from __future__ import annotations

import asyncio
from typing import Any

from server_lab import Lab, receive, run, server
from websockets.asyncio.client import ClientConnection

from sudden_death.engine.state import Team
from sudden_death.server.lines.limits import Limits
from sudden_death.server.roles.chat import CHAT_BURST
from sudden_death.server.tables import HOST_SEAT, Seat, Table, new_game
from sudden_death.wire import protocol as p

MANY = Limits(connects_per_s=1000, connect_burst=1000, per_address=1000)


async def until(client: ClientConnection, kind: str, timeout: float = 5) -> dict[str, Any]:
    while (message := await receive(client, timeout))["type"] != kind:
        pass
    return message


async def hosted(lab: Lab, name: str, public: bool = True) -> tuple[ClientConnection,
                                                                    dict[str, Any]]:
    client = await lab.connect()
    await client.send(p.encode(p.Host(p.PROTOCOL_VERSION, name, public=public)))
    return client, await receive(client)


def test_an_address_has_a_few_tables_waiting_and_the_lobby_a_few_hundred() -> None:
    """Found online: 24 addresses opened 8,000 tables in 150 s. An address may have
    `open_tables` waiting for a player (a table that fills or goes frees its place), and the
    lobby `public_tables` in all; past either, `tables`, said in words."""
    async def scenario() -> None:
        limits = Limits(connects_per_s=1000, connect_burst=1000, open_tables=3,
                        public_tables=4)
        async with server(limits=limits) as lab:
            waiting = [await hosted(lab, f"Team {number}") for number in range(3)]
            assert all(seat["type"] == "seated" for _client, seat in waiting)
            _client, refused = await hosted(lab, "Team 3", public=False)
            assert refused["code"] == p.TABLES and refused["fatal"]
            quick = await lab.connect()  # a quick game would open one more: refused too
            await quick.send(p.encode(p.Quick(p.PROTOCOL_VERSION, "Team 3")))
            assert (await receive(quick))["code"] == p.TABLES
            guest = await lab.connect()  # joining is never capped
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, waiting[0][1]["code"],
                                             "Bears")))
            assert (await receive(guest))["seat"] == int(HOST_SEAT.other)
            _client, seat = await hosted(lab, "Team 4")  # a table filled: a place is free
            assert seat["type"] == "seated"
            # The lobby's own cap counts public tables from every address.
            lab.service.seats.limits = Limits(connects_per_s=1000, connect_burst=1000,
                                        open_tables=10, public_tables=3)
            _client, refused = await hosted(lab, "Team 5")
            assert refused["code"] == p.TABLES
            _client, seat = await hosted(lab, "Team 6", public=False)  # by code: not listed
            assert seat["type"] == "seated"

    run(scenario)


def test_the_lobby_list_fits_a_frame_with_every_list_full_of_the_longest_names() -> None:
    """Found online: 600 tables made an 82 KB list, past the 64 KiB frame the docs promise,
    and 8,000 cut every lobby line off. Each list is capped; `open` and `playing` count all."""
    async def scenario() -> None:
        async with server(limits=MANY) as lab:
            service = lab.service
            longest = "\U0001d538" * p.MAX_NAME  # 24 four-byte letters
            for number in range(400):
                code = f"{number:06d}"
                seats = {HOST_SEAT: Seat(longest, player=longest)}
                if number % 2:
                    seats[HOST_SEAT.other] = Seat(longest[:-1] + "B", player=longest)
                table = Table(code, new_game(number), seats)
                table.public = True
                service.tables[code] = table
            listener = await lab.connect()
            await listener.send(p.encode(p.Lobby()))
            for number in range(3 * p.MAX_LISTED_HERE):  # lines named as the longest
                service.lobby.lines[await lab.connect()] = longest[:-3] + f"{number:03d}"
            listing = service.lobby.listing()
            assert len(p.encode(listing)) < p.MAX_MESSAGE_BYTES // 2
            assert (listing.open, listing.playing) == (200, 200)
            assert len(listing.tables) == p.MAX_LISTED_TABLES
            assert len(listing.games) == p.MAX_LISTED_GAMES
            assert len(listing.here) == p.MAX_LISTED_HERE
            service.lobby.tell()
            heard = await until(listener, "lobby")
            heard = await until(listener, "lobby")  # the big one, and the line still open
            assert heard["open"] == 200 and len(heard["tables"]) == p.MAX_LISTED_TABLES
            await listener.send(p.encode(p.Lobby()))  # it can still talk
            for table in list(service.tables.values()):
                service.tables.pop(table.code)

    run(scenario)


def test_a_seat_hears_each_spectator_once_however_often_they_come_back() -> None:
    """Found online: watching and dropping again and again made a seat hear `watching` 153
    times in 10 s. A name is news once a table (as an ear compares names); one with no name
    once a minute."""
    async def scenario() -> None:
        async with server(limits=MANY) as lab:
            host, seat = await hosted(lab, "Hawks")
            guest = await lab.connect()
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, seat["code"], "Bears")))
            for client in (host, guest):
                await until(client, "start")
            for name in ["Anna"] * 8 + [""] * 8 + ["ANNA"] * 2 + ["Ben"]:
                spectator = await lab.connect()
                await spectator.send(p.encode(p.Watch(p.PROTOCOL_VERSION, seat["code"], name=name)))
                await until(spectator, "start")
                await spectator.close()
            heard: list[str] = []
            while True:
                try:
                    message = await receive(guest, 0.5)
                except (asyncio.TimeoutError, TimeoutError):
                    break
                if message["type"] == "watching":
                    heard.append(message["name"])
            assert heard == ["Anna", "", "Ben"]

    run(scenario)


def test_one_player_on_many_lines_chats_in_the_lobby_as_one_voice() -> None:
    """Found online: 20 lines of one account made the lobby hear 160 chat lines a second. A
    player's lines share one rate: past its burst, `too_fast`, and the lobby hears nothing."""
    async def scenario() -> None:
        async with server(limits=MANY) as lab:
            lab.service.accounts.sign_up("Mallory", "password one")
            listener = await lab.connect()
            await listener.send(p.encode(p.Lobby()))
            await until(listener, "lobby")
            lines = []
            for _ in range(4):
                line = await lab.connect()
                await line.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "Mallory",
                                                  "password one")))
                await until(line, "signed_in")
                await line.send(p.encode(p.Lobby()))
                await until(line, "lobby")
                lines.append(line)
            for number in range(5):
                for line in lines:
                    await line.send(p.encode(p.Chat(f"line {number}")))
            refused = [await until(line, "refused") for line in lines[1:]]
            assert {message["code"] for message in refused} == {p.TOO_FAST}
            said = 0
            while True:
                try:
                    message = await receive(listener, 0.5)
                except (asyncio.TimeoutError, TimeoutError):
                    break
                said += message["type"] == "said"
            assert said <= CHAT_BURST + 1  # the burst, and what refilled meanwhile

    run(scenario)


def test_seats_of_a_table_are_untouched_by_the_lobby_caps() -> None:
    """A game between two seats goes on whatever the lobby's caps refuse around it."""
    async def scenario() -> None:
        limits = Limits(connects_per_s=1000, connect_burst=1000, open_tables=1)
        async with server(limits=limits) as lab:
            host, seat = await hosted(lab, "Hawks")
            _other, refused = await hosted(lab, "Owls")
            assert refused["code"] == p.TABLES
            guest = await lab.connect()
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, seat["code"], "Bears")))
            start = await until(guest, "start")
            assert start["names"] == ["Bears", "Hawks"]
            table = lab.service.tables[seat["code"]]
            assert set(table.seats) == set(Team)
            await host.close()

    run(scenario)
