"""Ratings on the table server (issue 49): Glicko-2 for every finished game between two
signed-in players, kept in the accounts' SQLite file; the ladder read back as "Your rating"
says it; and through a real server on loopback, a conceded game rated as a loss."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from server_lab import Lab, receive, run, server, wire_actions
from websockets.asyncio.client import ClientConnection

from sudden_death.server.stores.accounts import Accounts
from sudden_death.server.stores.ratings import RECENT, Ladder, rated
from sudden_death.server.stores.seam import START, Rating
from sudden_death.server.tables import Table
from sudden_death.wire import protocol as p

ratings = st.builds(Rating, st.floats(800, 2400), st.floats(30, 350), st.floats(0.03, 0.09))
scores = st.sampled_from([0.0, 0.5, 1.0])


@given(ratings, ratings, scores)
def test_a_rating_never_depends_on_which_seat_hosted(
        first: Rating, second: Rating, score: float) -> None:
    one_way = rated(first, second, score)
    other_way = rated(second, first, 1.0 - score)
    assert one_way == (other_way[1], other_way[0])


@given(ratings, ratings)
def test_the_winner_gains_and_the_loser_loses(first: Rating, second: Rating) -> None:
    winner, loser = rated(first, second, 1.0)
    assert winner.rating > first.rating and loser.rating < second.rating


def test_the_ladder_ranks_players_and_reads_back_their_last_results(tmp_path: Path) -> None:
    accounts = Accounts(tmp_path)
    for name in ("Anna", "Ben", "Cleo"):
        accounts.sign_up(name, "password one")
    ladder = Ladder(accounts)
    assert ladder.standing("anna") is None  # no rated game yet
    assert ladder.rating("anna") == Rating(*START)
    for _ in range(RECENT + 2):
        ladder.record("anna", "ben", 1.0)  # Anna beats Ben
    ladder.record("cleo", "anna", 0.5)
    anna, ben, cleo = (ladder.standing(name) for name in ("anna", "ben", "cleo"))
    assert anna is not None and ben is not None and cleo is not None
    assert (anna.rank, cleo.rank, ben.rank) == (1, 2, 3) and anna.of == 3
    assert anna.above is None and anna.below == "Cleo" and ben.below is None
    assert cleo.above == "Anna" and cleo.below == "Ben"
    assert len(anna.recent) == RECENT
    assert anna.recent[0].opponent == "Cleo" and anna.recent[0].score == 0.5  # newest first
    assert anna.recent[1].opponent == "Ben" and anna.recent[1].score == 1.0
    assert ben.recent[0].score == 0.0
    accounts.close()
    with Accounts(tmp_path) as reopened:
        kept = Ladder(reopened).standing("ben")  # kept in the file
    assert kept is not None and kept.rank == 3


async def signed_seat(lab: Lab, name: str,
                      greeting: p.Message) -> tuple[ClientConnection, dict[str, Any]]:
    client = await lab.connect()
    await client.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, name, "password one")))
    assert (await receive(client))["type"] == "signed_in"
    await client.send(p.encode(greeting))
    return client, await receive(client)


async def standing_of(lab: Lab, name: str) -> dict[str, Any]:
    client = await lab.connect()
    await client.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, name, "password one")))
    assert (await receive(client))["type"] == "signed_in"
    await client.send(p.encode(p.AskRating()))
    return await receive(client)


def test_a_conceded_game_between_signed_in_players_is_rated_a_loss() -> None:
    async def scenario() -> None:
        async with server() as lab:
            host, seated = await signed_seat(lab, "Anna", p.Host(p.PROTOCOL_VERSION, "Hawks"))
            guest, _ = await signed_seat(lab, "Ben", p.Join(p.PROTOCOL_VERSION,
                                                            seated["code"], "Bears"))
            for client in (host, guest):
                assert (await receive(client))["type"] == "start"
            table = lab.service.tables[seated["code"]]
            kept = Table.from_record(table.to_record())  # who sat where outlives a restart
            assert {seat.account for seat in kept.seats.values()} == {"anna", "ben"}
            await guest.send(p.encode(p.Act(0, wire_actions({"action": "Concede"}))))
            update = await receive(host)
            assert update["type"] == "update" and update["state"]["outcome"] is not None
            while lab.service.desk.rating:  # rated on a thread
                await asyncio.sleep(0.01)
            anna, ben = await standing_of(lab, "Anna"), await standing_of(lab, "Ben")
            assert anna["type"] == "standing" and (anna["rank"], anna["of"]) == (1, 2)
            assert anna["rating"] > START[0] > ben["rating"]
            assert anna["recent"] == [["Ben", 1.0]] and ben["recent"] == [["Anna", 0.0]]
            assert anna["below"] == "Ben" and ben["above"] == "Anna"

    run(scenario)


def test_a_game_with_a_player_not_signed_in_is_not_rated_and_asking_needs_a_name() -> None:
    async def scenario() -> None:
        async with server() as lab:
            host, seated = await signed_seat(lab, "Anna", p.Host(p.PROTOCOL_VERSION, "Hawks"))
            guest = await lab.connect()
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, seated["code"], "Bears")))
            assert (await receive(guest))["type"] == "seated"
            for client in (host, guest):
                assert (await receive(client))["type"] == "start"
            await guest.send(p.encode(p.Act(0, wire_actions({"action": "Concede"}))))
            assert (await receive(host))["type"] == "update"
            assert not lab.service.desk.rating
            anna = await standing_of(lab, "Anna")
            assert anna == {"type": "standing", "name": "Anna", "rating": 0, "rank": 0,
                            "of": 0, "recent": [], "above": "", "below": ""}
            stranger = await lab.connect()
            await stranger.send(p.encode(p.AskRating()))
            refused = await receive(stranger)
            assert refused["code"] == p.NOT_NOW and "sign in" in refused["text"]

    run(scenario)
