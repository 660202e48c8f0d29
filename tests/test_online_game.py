"""Play online with real game processes against a real table server with a --data folder
(issue 49): two players sign up by ear, one opens a quick game and the other's quick game
joins it, a third watches from the lobby, they play it out, and the game ends with both
rated and the spectator's record untouched. A later start signs in by
itself with the kept token (never the password) and reads Your rating. Each game is driven
by its key script and judged by what it said (its transcript)."""

from __future__ import annotations

import contextlib
import json
import re
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from table_driver import Seat, Server, final_score, start_playing

from sudden_death.storage.sign_in_file import FILE_NAME as SIGN_IN_FILE

# The title screen from its end: Quit, Play a friend, Report a problem, Your rating, Play online.
PLAY_ONLINE = ["end", "up", "up", "up", "up", "return"]
YOUR_RATING = ["end", "up", "up", "up", "return"]
PASSWORDS = {"Anna": "anna's secret", "Ben": "ben's secret"}
SEED = 4  # the away team wins this one as both drivers play it (test_net_game.replayed):
# Anna, who waited at her quick table, has the away seat


def sign_up(seat: Seat, name: str) -> None:
    """Play online, a new name, its password twice; then the lobby."""
    seat.send(*PLAY_ONLINE)
    seat.until_said("Your name on this server: A new name, 1 of 4")
    password = PASSWORDS[name]
    seat.send("return", f"type {name}", "return", f"type {password}", "return",
              f"type {password}", "return")
    seat.until_said(f"Signed in as {name}.")
    seat.said_starting("Quick game, 1 of ")


def rated_games(path: Path) -> tuple[list[tuple[str, str, float]],
                                     dict[str, tuple[float, float]]]:
    """The rated games and ratings kept, once the game's rating is written: the server rates
    a finished game on a thread after telling its seats (the ear never waits on it), so on a
    busy machine the score can be heard a moment before the row is there."""
    deadline = time.monotonic() + 15
    while True:
        with contextlib.closing(sqlite3.connect(path)) as db:
            games = db.execute("SELECT first, second, score FROM games").fetchall()
            rated = {name: (rating, deviation) for name, rating, deviation in db.execute(
                "SELECT folded, rating, deviation FROM ratings")}
        if games or time.monotonic() > deadline:
            return games, rated
        time.sleep(0.05)


@pytest.fixture(scope="module")
def online(tmp_path_factory: pytest.TempPathFactory,
           ) -> Iterator[tuple[Path, Server, Seat, Seat, Seat]]:
    tmp = tmp_path_factory.mktemp("online")
    with Server("--seed", str(SEED), "--data", str(tmp / "server")) as server:
        anna = Seat(tmp / "anna", "--server", server.url)
        ben = Seat(tmp / "ben", "--server", server.url)
        cleo = Seat(tmp / "cleo", "--server", server.url)
        with anna, ben, cleo:
            sign_up(anna, "Anna")
            anna.send("return")  # Quick game: nobody waits, so Anna's table waits
            anna.until_said("Waiting for a player.")
            sign_up(ben, "Ben")
            anna.pause_at = 3  # a few steps in, Cleo comes to watch
            ben.send("return")  # Quick game: Anna's
            threads = start_playing(anna, ben)
            assert anna.paused.wait(120)
            cleo.send(*PLAY_ONLINE)
            cleo.until_said("Your name on this server: A new name, 1 of 4")
            cleo.send("down", "down", "return")  # Play without a name: the lobby
            cleo.said_starting("Lobby: 0 open, 1 playing.")
            cleo.send("type b", "return")  # B: Ben's game (Ben against Anna)
            cleo.until_said("Watching the Bears and the Hawks.")
            anna.go_on.set()
            for thread in threads:
                thread.join(600)
            cleo.until_said("Back to the lobby, 1 of 2")
            yield tmp, server, anna, ben, cleo


def test_two_quick_players_meet_play_it_out_and_both_are_rated(
        online: tuple[Path, Server, Seat, Seat, Seat]) -> None:
    tmp, _server, anna, ben, _cleo = online
    assert "The Bears joined your table." in anna.speech()  # both kept the default name
    # Each hears whom they play, by the name the other signed in with (issue 59, 9).
    assert "You are the Hawks; Ben plays the Bears." in anna.speech()
    assert "You are the Bears; Anna plays the Hawks." in ben.speech()
    # A game reached from the lobby offers the lobby again at its end.
    anna.until_said("Play again, back to the lobby, or quit?")  # said just after the score
    scores = final_score(anna.speech()), final_score(ben.speech())
    assert scores[0] is not None and scores[0] == scores[1]  # one game, heard alike
    games, rated = rated_games(tmp / "server" / "accounts.sqlite3")
    assert len(games) == 1 and {games[0][0], games[0][1]} == {"anna", "ben"}
    assert set(rated) == {"anna", "ben"}
    assert all(deviation < 350 for _rating, deviation in rated.values())  # surer of both
    assert final_score(anna.speech()) == {"Hawks": 7, "Bears": 0}
    assert rated["anna"][0] > 1500 > rated["ben"][0]  # the winner up, the loser down


def test_the_game_keeps_a_token_never_the_password(
        online: tuple[Path, Server, Seat, Seat, Seat]) -> None:
    tmp, server, _anna, _ben, _cleo = online
    for name in PASSWORDS:
        folder = tmp / name.lower()
        kept = json.loads((folder / SIGN_IN_FILE).read_text())["servers"][server.url]
        assert kept["name"] == name and len(kept["token"]) >= 24
        assert (folder / SIGN_IN_FILE).stat().st_mode & 0o077 == 0  # the owner's alone
        for path in folder.rglob("*"):
            if path.is_file():
                assert PASSWORDS[name].encode() not in path.read_bytes(), path


def test_a_later_start_signs_in_by_itself_and_hears_its_rating(
        online: tuple[Path, Server, Seat, Seat, Seat]) -> None:
    tmp, server, _anna, _ben, _cleo = online
    with contextlib.closing(sqlite3.connect(tmp / "server" / "accounts.sqlite3")) as db:
        ratings = dict(db.execute("SELECT folded, rating FROM ratings").fetchall())
    with Seat(tmp / "anna", "--server", server.url) as again:
        again.send(*PLAY_ONLINE)
        again.until_said("Signed in as Anna.")  # the kept token: no name, no password
        again.said_starting("Quick game, 1 of ")
        assert not any("Your name on this server" in line for line in again.speech())
        again.send("escape")  # out of the lobby, to the title screen
        again.until_said("Main menu: Start a game, 1 of 12")
        again.send(*YOUR_RATING)
        again.until_said(f"Your rating: {round(ratings['anna'])}, 1st of 2.")
        assert again.said_starting("Last games, newest first: ").startswith(
            "Last games, newest first: a win against Ben. Just below you: Ben.")


def test_a_line_of_lobby_chat_reaches_the_other_game_by_ear(
        online: tuple[Path, Server, Seat, Seat, Seat]) -> None:
    tmp, server, _anna, _ben, _cleo = online
    with Seat(tmp / "anna", "--server", server.url) as anna, \
            Seat(tmp / "ben", "--server", server.url) as ben:
        for seat, name in ((anna, "Anna"), (ben, "Ben")):
            seat.send(*PLAY_ONLINE)
            seat.until_said(f"Signed in as {name}.")
            seat.said_starting("Quick game, 1 of ")  # in the lobby: its first list is heard
        anna.send("type c", "return", "type hello all", "return")  # C: Chat in the lobby
        anna.until_said("You: hello all")
        ben.until_said("Anna: hello all")


def test_a_spectator_hears_both_teams_never_you_and_its_record_is_untouched(
        online: tuple[Path, Server, Seat, Seat, Seat]) -> None:
    tmp, _server, anna, ben, cleo = online
    said = cleo.speech()
    watched = said[said.index("Watching the Bears and the Hawks."):]
    assert not [line for line in watched if re.search(r"\b(you|your)\b", line, re.I)
                and not line.startswith(("Back to the lobby", "Play again"))]
    assert final_score(watched) == {"Bears": 0, "Hawks": 7}  # as both players heard it
    assert "Someone is watching your game." in anna.speech()
    assert "Someone is watching your game." in ben.speech()
    record = tmp / "cleo" / "record.sqlite3"
    if record.exists():
        with contextlib.closing(sqlite3.connect(record)) as db:
            assert db.execute("SELECT count(*) FROM games").fetchone() == (0,)


def test_a_player_plays_the_computer_online_and_it_is_not_rated(
        online: tuple[Path, Server, Seat, Seat, Seat]) -> None:
    tmp, server, _anna, _ben, _cleo = online
    with contextlib.closing(sqlite3.connect(tmp / "server" / "accounts.sqlite3")) as db:
        rated_before = db.execute("SELECT count(*) FROM games").fetchone()
    with Seat(tmp / "anna", "--server", server.url) as anna:
        anna.send(*PLAY_ONLINE)
        anna.until_said("Signed in as Anna.")
        anna.said_starting("Quick game, 1 of ")
        anna.send("type p", "return")  # P: Play the computer, for all to watch
        anna.until_said("You are the Hawks, against the Bears.")
        (thread,) = start_playing(anna)
        thread.join(300)
        said = anna.speech()
        assert final_score(said) is not None
        assert not any(line.startswith(("Your table code", "The Bears joined", "The Bears have "
                                                                               "chosen"))
                       for line in said)
    with contextlib.closing(sqlite3.connect(tmp / "server" / "accounts.sqlite3")) as db:
        assert db.execute("SELECT count(*) FROM games").fetchone() == rated_before


def test_escape_stops_waiting_for_a_quick_game_and_the_lobby_is_back(
        online: tuple[Path, Server, Seat, Seat, Seat]) -> None:
    tmp, server, _anna, _ben, _cleo = online
    with Seat(tmp / "ben", "--server", server.url) as ben:
        ben.send(*PLAY_ONLINE)
        ben.until_said("Signed in as Ben.")
        ben.said_starting("Quick game, 1 of ")
        ben.send("return")  # nobody waits: Ben's quick table waits
        ben.until_said("Waiting for a player.")
        heard = len(ben.speech())
        ben.send("escape")
        deadline = time.monotonic() + 30
        while not any(line.startswith("Lobby: ") for line in ben.speech()[heard:]):
            assert time.monotonic() < deadline, ben.speech()[heard:]
            time.sleep(0.05)
        lobby = next(line for line in ben.speech()[heard:] if line.startswith("Lobby: "))
        if not lobby.startswith("Lobby: 0 open"):  # the new line was quicker than the leave:
            ben.until_said("1 table gone.")  # the lobby's next list says so


def test_the_pairing_names_the_other_player_and_r_says_it_again(
        online: tuple[Path, Server, Seat, Seat, Seat]) -> None:
    """Issue 59, 9: "You are the Hawks, against the Bears." named no one, and R just after
    it said "Signed in as Anna." The other player's name is said, and R says it again."""
    tmp, server, _anna, _ben, _cleo = online
    with Seat(tmp / "anna", "--server", server.url) as anna, \
            Seat(tmp / "ben", "--server", server.url) as ben:
        for seat, name in ((anna, "Anna"), (ben, "Ben")):
            seat.send(*PLAY_ONLINE)
            seat.until_said(f"Signed in as {name}.")
            seat.said_starting("Quick game, 1 of ")
        anna.send("return")  # Quick game: nobody waits
        anna.until_said("Waiting for a player.")
        ben.send("return")  # Quick game: Anna's
        paired = {anna: "You are the Hawks; Ben plays the Bears.",
                  ben: "You are the Bears; Anna plays the Hawks."}
        for seat, words in paired.items():
            seat.until_said(words)
            signed = [line for line in seat.speech() if line.startswith("Signed in as")]
            seat.send("r")
            deadline = time.monotonic() + 30
            while seat.speech().count(words) < 2:
                assert time.monotonic() < deadline, seat.speech()[-5:]
                time.sleep(0.02)
            assert [line for line in seat.speech()  # R said it, not "Signed in as"
                    if line.startswith("Signed in as")] == signed
