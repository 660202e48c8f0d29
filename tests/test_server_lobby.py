"""The lobby on the table server (issue 49): a line that asks for it hears the public tables
waiting for a player, the public games being played and who is here, and hears it again as it
changes (at most once a second); private tables never appear, and no card ever does. Real
WebSocket clients against a real server on loopback."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from server_lab import Lab, nothing_comes, receive, run, server, wire_actions
from websockets.asyncio.client import ClientConnection

from sudden_death.server.lines.limits import Limits
from sudden_death.server.tables import HOST_SEAT, Seat, Table, new_game
from sudden_death.wire import protocol as p

EMPTY = {"type": "lobby", "tables": [], "games": [], "here": [], "open": 0, "playing": 0}


async def in_lobby(lab: Lab, name: str = "") -> ClientConnection:
    client = await lab.connect()
    if name:
        await client.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, name, "password one")))
        assert (await receive(client))["type"] == "signed_in"
    await client.send(p.encode(p.Lobby()))
    return client


async def host(lab: Lab, name: str, public: bool, best_of: int = 1) -> tuple[ClientConnection,
                                                                            str]:
    client = await lab.connect()
    await client.send(p.encode(p.Host(p.PROTOCOL_VERSION, name, best_of=best_of,
                                      public=public)))
    seated = await receive(client)
    return client, seated["code"]


async def next_lobby(client: ClientConnection, timeout: float = 5) -> dict[str, Any]:
    while (message := await receive(client, timeout))["type"] != "lobby":
        pass
    return message


def test_the_lobby_lists_public_tables_then_their_games_and_who_is_here() -> None:
    async def scenario() -> None:
        async with server() as lab:
            lab.service.lobby.every_s = 0.05
            listener = await in_lobby(lab, "Anna")
            assert await next_lobby(listener) == {**EMPTY, "here": ["Anna"]}
            await host(lab, "Owls", public=False)  # by code only: never listed
            _hawks, code = await host(lab, "Hawks", public=True, best_of=3)
            listed = await next_lobby(listener)
            while not listed["tables"]:
                listed = await next_lobby(listener)
            assert listed["tables"] == [{"code": code, "host": "Hawks", "best_of": 3}]
            assert listed["games"] == [] and listed["here"] == ["Anna"]
            guest = await lab.connect()
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
            while not (listed := await next_lobby(listener))["games"]:
                pass
            assert listed["tables"] == []
            assert listed["games"] == [{"code": code, "names": ["Bears", "Hawks"],
                                        "scores": [0, 0], "drive": 0, "watching": 0,
                                        "players": ["", ""]}]
            other = await in_lobby(lab, "Ben")
            assert (await next_lobby(other))["here"] == ["Anna", "Ben"]
            while (await next_lobby(listener))["here"] != ["Anna", "Ben"]:
                pass
            await other.close()
            while (await next_lobby(listener))["here"] != ["Anna"]:
                pass

    run(scenario)


def test_the_lobby_hears_a_burst_of_changes_as_one_list_a_second() -> None:
    async def scenario() -> None:
        async with server(limits=Limits(open_tables=5)) as lab:  # five tables, one address
            listener = await in_lobby(lab)
            assert await next_lobby(listener) == EMPTY
            began = time.monotonic()
            for number in range(5):
                await host(lab, f"Team {number}", public=True)
            first = await next_lobby(listener)  # the first change goes at once
            second = await next_lobby(listener)  # the rest, gathered, a second later
            assert time.monotonic() - began >= 0.9
            assert len(first["tables"]) >= 1 and len(second["tables"]) == 5
            assert await nothing_comes(listener)

    run(scenario)


def test_a_lobby_line_may_listen_past_the_greeting_time_and_hears_no_card() -> None:
    async def scenario() -> None:
        async with server(limits=Limits(greeting_s=0.5)) as lab:
            lab.service.lobby.every_s = 0.01
            listener = await in_lobby(lab)
            heard = [await next_lobby(listener)]
            idle = await lab.connect()  # says nothing: closed after greeting_s
            hawks, code = await host(lab, "Hawks", public=True)
            guest = await lab.connect()
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
            for client in (hawks, guest):
                while (await receive(client))["type"] != "start":
                    pass
            await guest.send(p.encode(p.Act(0, wire_actions(
                {"action": "CallCoin", "face": "heads"}))))
            await asyncio.sleep(1.0)
            await asyncio.wait_for(idle.wait_closed(), 5)
            with_cards = 0
            while not await nothing_comes(listener):
                pass
            await hawks.send(p.encode(p.Leave()))  # the computer plays on for the Hawks...
            await guest.send(p.encode(p.Leave()))  # ...until the Bears leave too
            while (message := await next_lobby(listener))["games"]:
                heard.append(message)
            heard.append(message)
            for message in heard:
                text = json.dumps(message)
                with_cards += any(kind in text for kind in ("OffCall", "DefCall", "Player."))
            assert with_cards == 0 and heard[-1] == EMPTY  # the game left: gone from the list

    run(scenario)


def test_a_public_table_stays_public_after_a_restart() -> None:
    table = Table("123456", new_game(1), {HOST_SEAT: Seat("Hawks")}, public=True)
    assert Table.from_record(table.to_record()).public is True
    private = Table("654321", new_game(2), {HOST_SEAT: Seat("Hawks")})
    assert Table.from_record(private.to_record()).public is False


async def drained(client: ClientConnection, quiet_s: float = 0.3) -> list[dict[str, Any]]:
    """Every message that arrives until none has for `quiet_s`."""
    found = []
    while True:
        try:
            found.append(json.loads(await asyncio.wait_for(client.recv(), quiet_s)))
        except (asyncio.TimeoutError, TimeoutError):
            return found


def test_lobby_chat_reaches_everyone_else_there_from_signed_in_players_only() -> None:
    async def scenario() -> None:
        async with server(limits=Limits(messages_per_s=2, burst=3)) as lab:
            lab.service.lobby.every_s = 0.05
            anna, ben, nobody = (await in_lobby(lab, "Anna"), await in_lobby(lab, "Ben"),
                                 await in_lobby(lab))
            at_table, _code = await host(lab, "Owls", public=True)
            await anna.send(p.encode(p.Chat("  anyone   for a game? ")))
            for listener in (ben, nobody):
                while (heard := await receive(listener))["type"] == "lobby":
                    pass
                assert heard == {"type": "said", "name": "Anna", "text": "anyone for a game?"}
            assert await nothing_comes(at_table)  # a seat at a table is not in the lobby
            assert all(message["type"] == "lobby" for message in await drained(anna))  # never
            # its own line back
            await nobody.send(p.encode(p.Chat("hello")))
            while (refused := await receive(nobody))["type"] == "lobby":
                pass
            assert refused["type"] == "refused" and refused["code"] == p.NOT_NOW
            assert not refused["fatal"]
            await ben.send(p.encode(p.Chat("\u202eevil")))  # not printable: refused, not sent
            while (bad := await receive(ben))["type"] == "lobby":
                pass
            assert bad["code"] == p.BAD_MESSAGE
            for _ in range(6):  # past the line's flood limit: the line closes, as at a table
                await ben.send(p.encode(p.Chat("spam")))
            while (last := await receive(ben))["type"] != "refused":
                pass
            assert last["code"] == p.FLOOD and last["fatal"]

    run(scenario)
