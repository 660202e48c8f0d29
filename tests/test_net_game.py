"""Two real game processes play a whole game against each other through a real table server
on 127.0.0.1, each from its own live key script (`--keys -`), judged by their transcripts and
by a local replay of the server's seed with the same choices."""

from __future__ import annotations

import contextlib
import fcntl
import json
import random
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from net_proxy import Proxy
from table_driver import (
    HOST_KEYS,
    JOIN_KEYS,
    Seat,
    Server,
    final_score,
    free_port,
    play_a_friend,
    seated,
    start_playing,
    table,
    write_settings,
)

from sudden_death.engine import events as ev
from sudden_death.engine.actions import (
    CallCoin,
    ChooseSide,
    ChooseSnap,
    PickSwap,
    actors,
    legal_actions,
)
from sudden_death.engine.game import Game
from sudden_death.engine.state import CoinFace, Outcome, Phase, Side, SnapChoice, Swap, Team
from sudden_death.ui.words.phrases import Names
from sudden_death.ui.words.situation import outcome_words

SEED = 5


def replayed(seed: int) -> tuple[Game, list[ev.Event]]:
    """The game both drivers play (their strategy, table_driver.Seat.keys_for), locally."""
    game, events = Game(random.Random(seed)), []
    while not game.is_over:
        state, actions = game.state, {}
        for team in actors(state):
            phase = state.phase
            if phase is Phase.COIN_TOSS:
                actions[team] = CallCoin(CoinFace.HEADS)
            elif phase is Phase.SIDE_CHOICE:
                actions[team] = ChooseSide(Side.OFFENSE)
            elif phase is Phase.SNAP_CHOICE:
                actions[team] = ChooseSnap(SnapChoice.PLAY)
            elif phase is Phase.SUBSTITUTION:
                actions[team] = PickSwap(Swap.keep())
            else:
                actions[team] = legal_actions(state, team)[0]
        events += game.apply(actions)
    return game, events


def heard_final(seat: Seat, outcome: Outcome, names: Names) -> bool:
    """Whether the seat heard this final score (the call on the winner after it varies)."""
    score = outcome_words(outcome, names).split(". ")[0] + ". "
    return any(line.startswith(score) for line in seat.speech())


@pytest.fixture(scope="module")
def friendly_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Seat, Seat, int]:
    host, guest, server = play_a_friend(tmp_path_factory.mktemp("table"), "--seed", str(SEED))
    with server, host, guest:  # all three ended, whatever the checks find
        codes = host.finish(), guest.finish()
        assert codes == (0, 0), host.stderr() + guest.stderr()
        assert server.stop() == 0
    return host, guest, 0


def test_both_players_hear_the_same_final_score_the_servers_dice_give(friendly_game) -> None:
    host, guest, _ = friendly_game
    game, _events = replayed(SEED)
    outcome = game.state.outcome
    assert outcome is not None
    # The guest is the home team and named the Bears; the host the away team, the Hawks.
    assert heard_final(host, outcome, Names("Bears", "Hawks", Team.AWAY))
    assert heard_final(guest, outcome, Names("Bears", "Hawks", Team.HOME))
    for seat in (host, guest):
        assert "Traceback" not in seat.stderr()
        # Nothing either driver sent was refused: each turn came once, with its own step.
        assert not [line for line in seat.speech() if "refused" in line or "Not allowed" in line]


def test_each_card_step_is_heard_by_both_once_each_down(friendly_game) -> None:
    host, guest, _ = friendly_game
    _game, events = replayed(SEED)
    downs = sum(isinstance(event, ev.FinalCallsRevealed) for event in events)
    assert downs > 5
    for seat in (host, guest):
        turns = [r for r in seat.records if r.get("kind") == "turn" and r.get("mine")]
        finals = [turn for turn in turns if turn["phase"] == "final_call"]
        assert len(finals) == downs  # each seat chose a final call every down, no more
        spoken = seat.speech()
        assert sum("against" in line for line in spoken) >= downs


def test_a_seat_still_choosing_hears_that_its_friend_has_chosen_and_never_what(
        friendly_game) -> None:
    """At a card step the first to choose is held; the other seat hears that its friend has
    chosen (named), never its own choice told back, and the cards only at the reveal."""
    host, guest, _ = friendly_game
    told = {seat: [line for line in seat.speech() if line.endswith(" have chosen.")]
            for seat in (host, guest)}
    assert set(told[host]) <= {"The Bears have chosen."}, told[host]
    assert set(told[guest]) <= {"The Hawks have chosen."}, told[guest]
    assert told[host] or told[guest]  # one of the two chose first at some step
    for seat in (host, guest):  # each card step is told once at most, as it happens
        finals = sum(r.get("phase") == "final_call" for r in seat.records
                     if r.get("kind") == "turn" and r.get("mine"))
        assert len(told[seat]) <= 3 * finals


@pytest.mark.parametrize("sound", [True, False])
def test_while_the_friend_chooses_the_player_hears_whom_they_wait_for(
        tmp_path: Path, sound: bool) -> None:
    """Said once the friend has taken a moment; a friend who had already chosen reveals at
    once, with no "Waiting" before it (the quick game above hears it rarely if ever). Then a
    soft pulse every few seconds, unless the setting turns it off."""
    settings = {"waiting_sound": sound}
    with table(tmp_path, "--seed", str(SEED), guest_settings=settings) as (_, host, guest):
        host.pause_at = 5
        threads = start_playing(host, guest)
        assert host.paused.wait(60)
        guest.until_said("Waiting for the Hawks.")
        assert guest.speech().count("Waiting for the Hawks.") == 1
        time.sleep(4.5)  # WAIT_SOUND_S and a little
        pulses = [r for r in list(guest.records) if r.get("kind") == "cue"
                  and r["name"] == "waiting"]
        assert len(pulses) == (1 if sound else 0)
        host.go_on.set()
        for thread in threads:
            thread.join(120)
        assert (host.finish(), guest.finish()) == (0, 0)


def test_the_host_hears_the_code_and_the_friend_joining(friendly_game) -> None:
    host, guest, _ = friendly_game
    table = [r for r in host.records if r.get("kind") == "table"]
    assert len(table) == 1 and len(table[0]["code"]) == 6
    code = table[0]["code"]
    said = f"Your table code: {code[:2]} {code[2:4]} {code[4:]}."
    assert said in host.speech()
    assert "The Bears joined your table." in host.speech()
    assert "You are the Bears; your friend plays the Hawks." in guest.speech()


def test_a_wrong_code_is_said_and_the_code_can_be_typed_again(tmp_path: Path) -> None:
    with (Server() as server,
          Seat(tmp_path / "host", "--server", server.url) as host,
          Seat(tmp_path / "guest", "--server", server.url) as guest):
        host.send(*HOST_KEYS)
        code = host.next("table")["code"]
        wrong = "999999" if code != "999999" else "111111"
        guest.send(*JOIN_KEYS, "type 12", "return", f"type {wrong[2:]}", "return")
        guest.until_said("No open table has that code. Check it and type it again.")
        assert "A table code has 6 digits; you typed 2." in guest.speech()
        guest.send(f"type {code}", "return")
        turn = guest.next("turn")
        assert turn["mine"] and turn["phase"] == "coin_toss"


def test_a_server_that_is_not_there_is_said_and_the_game_goes_on(tmp_path: Path) -> None:
    with Seat(tmp_path / "guest", "--server", "ws://127.0.0.1:9") as guest:
        guest.send(*JOIN_KEYS, "type 123456", "return")
        guest.until_said("Could not reach the table server. Check the address, or try again "
                         "later.")
        guest.until_said("Play a friend: Host a table, 1 of 4")  # back to host or join
        guest.send("escape", "end", "return", "down", "return")  # the title, Quit, Yes
        assert guest.finish() == 0
        assert "Goodbye." in guest.speech()


def test_a_server_killed_mid_down_comes_back_and_both_games_go_on_to_the_same_end(
        tmp_path: Path) -> None:
    """SIGKILL the server while the host is deciding (the guest's choice may be held), start
    it again on the same port and data: both games reconnect by themselves, and the game ends
    exactly as the uninterrupted one would (the dice and every committed step were kept)."""
    port, data = free_port(), tmp_path / "tables"
    args = ("--port", str(port), "--data", str(data), "--seed", str(SEED))
    with table(tmp_path, *args) as (server, host, guest):
        host.pause_at = 9
        threads = start_playing(host, guest)
        assert host.paused.wait(60)
        server.proc.kill()
        server.stop()
        for seat in (host, guest):
            seat.until_said("Connection lost; trying again.")
        with Server(*args):  # the same port and data
            for seat in (host, guest):
                seat.until_said("Connected again.")
            host.go_on.set()
            for thread in threads:
                thread.join(120)
            assert (host.finish(), guest.finish()) == (0, 0)
            assert outcome_heard(host, guest), (host.speech()[-40:], guest.speech()[-40:])
            for seat in (host, guest):
                assert not [line for line in seat.speech() if "refused" in line]
                # How it ended is heard once, naming both teams.
                finals = [line for line in seat.speech() if line.startswith("Final score:")]
                assert len(finals) == 1 and "Hawks" in finals[0] and "Bears" in finals[0]


def outcome_heard(host: Seat, guest: Seat, seed: int = SEED) -> bool:
    game, _events = replayed(seed)
    outcome = game.state.outcome
    assert outcome is not None
    return (heard_final(host, outcome, Names("Bears", "Hawks", Team.AWAY))
            and heard_final(guest, outcome, Names("Bears", "Hawks", Team.HOME)))


def test_with_the_network_stalled_review_keys_are_still_answered(tmp_path: Path) -> None:
    with (Server("--seed", str(SEED)) as server,
          contextlib.closing(Proxy(int(server.url.rsplit(":", 1)[1]))) as proxy,
          seated(tmp_path, proxy.url) as (host, guest)):
        host.pause_at = 6
        threads = start_playing(host, guest)
        assert host.paused.wait(60)
        proxy.stall()  # from here nothing reaches the server or comes back
        host.go_on.set()  # the host commits into the stalled line
        for key in ("r", "s", "f1"):  # repeat, the situation, help
            before = len(host.speech())
            host.send(key)
            deadline = time.monotonic() + 10
            while len(host.speech()) == before:  # a hang fails here (and by the test timeout)
                assert time.monotonic() < deadline, f"{key} went unanswered while stalled"
                time.sleep(0.005)
        proxy.release()
        for thread in threads:
            thread.join(120)
        assert (host.finish(), guest.finish()) == (0, 0)
        assert outcome_heard(host, guest)


def test_a_dropped_line_comes_back_by_itself_and_the_friend_hears_both(tmp_path: Path) -> None:
    with (Server("--seed", str(SEED)) as server,
          contextlib.closing(Proxy(int(server.url.rsplit(":", 1)[1]))) as proxy,
          seated(tmp_path, proxy.url) as (host, guest)):
        host.pause_at = 7
        threads = start_playing(host, guest)
        assert host.paused.wait(60)
        proxy.cut(0)  # the host's line: it connected first
        host.until_said("Connection lost; trying again.")
        guest.until_said("The Hawks dropped out; waiting for them.")
        host.until_said("Connected again.")
        guest.until_said("The Hawks are back.")
        host.go_on.set()
        for thread in threads:
            thread.join(120)
        assert (host.finish(), guest.finish()) == (0, 0)
        assert outcome_heard(host, guest)


def test_a_chat_line_and_a_quick_one_reach_the_friend_with_their_cue(tmp_path: Path) -> None:
    with table(tmp_path, "--seed", str(SEED)) as (_, host, guest):
        host.pause_at = 5
        threads = start_playing(host, guest)
        assert host.paused.wait(60)
        guest.send("t", "type nice   play", "return")
        host.until_said("Bears: nice play")
        assert "You: nice play" in guest.speech()
        host.send("t", "down", "down", "return")  # the second quick line, over the decision
        guest.until_said("Hawks: Nice play!")
        host.go_on.set()
        for thread in threads:
            thread.join(120)
        assert (host.finish(), guest.finish()) == (0, 0)
        for seat in (host, guest):
            cues = [r["name"] for r in seat.records if r.get("kind") == "cue"]
            assert cues.count("chat") == 1
        assert outcome_heard(host, guest)  # the game went on as if nothing had been said


def test_play_again_at_the_table_starts_a_rematch_with_new_dice_once_both_ask(
        tmp_path: Path) -> None:
    with table(tmp_path, "--seed", str(SEED)) as (_, host, guest):
        host.rematches = guest.rematches = 1
        for thread in start_playing(host, guest):
            thread.join(120)
        assert (host.finish(), guest.finish()) == (0, 0)
        assert outcome_heard(host, guest, SEED)  # the table's first game
        assert outcome_heard(host, guest, SEED + 1)  # the rematch: the server's next dice
        asked = [line for seat in (host, guest) for line in seat.speech()
                 if line.startswith("Rematch asked; waiting for the")]
        assert len(asked) == 2
        for seat in (host, guest):
            assert sum(line.startswith("Final score:") for line in seat.speech()) == 2


@pytest.fixture
def home_network() -> Iterator[None]:
    """The tests whose host announces its table on the home network (zeroconf) take turns
    across test runs side by side on this machine (tasks.py test-pythons runs the Pythons'
    suites at once): a guest's list must hold only its own host's table."""
    with open(Path(tempfile.gettempdir()) / "sudden-death-home-network.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def test_with_no_server_set_the_hosts_own_game_serves_the_table(tmp_path: Path,
                                                                 home_network: None) -> None:
    """The home-network path: the host's game serves the table itself and says the address;
    the guest types the code, then that address."""
    with Seat(tmp_path / "host") as host, Seat(tmp_path / "guest") as guest:
        host.send(*HOST_KEYS)
        code = host.next("table")["code"]
        said = host.said_starting("Your table code:")
        address = said.rsplit(" at ", 1)[1].rstrip(".")
        port = address.rsplit(":", 1)[1]
        assert port.isdigit()
        guest.send(*JOIN_KEYS, "end", "return", f"type {code}", "return")  # type, not listed
        guest.until_said("The host's address, as their game says it, such as "
                         "192.168.1.20:8765: type it and press Enter.")
        guest.send(f"type 127.0.0.1:{port}", "return")
        for thread in start_playing(host, guest):
            thread.join(120)
        assert (host.finish(), guest.finish()) == (0, 0)
        assert sum(line.startswith("Final score:") for line in guest.speech()) == 1


def test_a_game_killed_mid_down_goes_back_to_its_table_at_the_next_start(
        tmp_path: Path) -> None:
    """SIGKILL the host's game while it is deciding; started again with the same folder, its
    title screen offers the table first, and Enter goes back to the same decision. The friend
    hears the host drop out and come back, and the game ends as the uninterrupted one."""
    with table(tmp_path, "--seed", str(SEED)) as (server, host, guest):
        host.pause_at = 7
        threads = start_playing(host, guest)
        assert host.paused.wait(60)
        assert (tmp_path / "host" / "table.json").exists()
        host.proc.kill()
        host.proc.wait(10)
        host.go_on.set()  # its driver finds the game gone and stops
        guest.until_said("The Hawks dropped out; waiting for them.")
        with Seat(tmp_path / "host", "--server", server.url) as again:
            again.until_said("Main menu: Back to your table with the Bears, 1 of 13")
            again.send("return")
            guest.until_said("The Hawks are back.")
            (resumed,) = start_playing(again)
            for thread in [threads[1], resumed]:
                thread.join(120)
            assert (again.finish(), guest.finish()) == (0, 0)
            assert outcome_heard(again, guest), (again.speech()[-30:], guest.speech()[-30:])
            assert not (tmp_path / "host" / "table.json").exists()  # the table is over


def test_on_the_home_network_join_lists_the_table_the_host_announces(
        tmp_path: Path, home_network: None) -> None:
    """No server and no address typed: the host's game announces its table (zeroconf), the
    guest's Join a table finds it and says it, and Enter on it joins."""
    with Seat(tmp_path / "host") as host, Seat(tmp_path / "guest") as guest:
        host.send(*HOST_KEYS)
        code = host.next("table")["code"]
        guest.send(*JOIN_KEYS)
        pairs = f"{code[:2]} {code[2:4]} {code[4:]}"
        guest.until_said(f"Found the Hawks' table, {pairs}.")
        guest.send("return")
        for thread in start_playing(host, guest):
            thread.join(120)
        assert (host.finish(), guest.finish()) == (0, 0)
        assert sum(line.startswith("Final score:") for line in guest.speech()) == 1


def test_a_concession_while_waiting_ends_the_game_for_both_with_the_reason(
        tmp_path: Path) -> None:
    with table(tmp_path, "--seed", str(SEED)) as (_, host, guest):
        host.pause_at = 5
        threads = start_playing(host, guest)
        assert host.paused.wait(60)
        guest.until_said("Waiting for the Hawks.")
        guest.send("down", "return", "down", "return")  # Concede the game, Yes
        for seat in (host, guest):
            final = seat.said_starting("Final score:")
            assert "The Bears conceded." in final and "Hawks" in final.split("conceded.")[1]
        host.go_on.set()
        for thread in threads:
            thread.join(60)
        assert (host.finish(), guest.finish()) == (0, 0)


def test_at_a_table_the_words_name_the_friends_team_and_the_host_sets_the_seat_wait(
        tmp_path: Path) -> None:
    """Where a game against the computer says "Computer calls", "History: computer" and "the
    computer has already chosen", a table names the friend's team; and the table the host
    opens keeps a dropped seat as long as the host's setting says (2 minutes here)."""
    data = tmp_path / "data"
    with table(tmp_path, "--seed", str(SEED), "--data", str(data),
               host_settings={"seat_wait": 2}) as (_, host, guest):
        host.pause_at = 5
        threads = start_playing(host, guest)
        assert host.paused.wait(60)
        guest.until_said("Waiting for the Hawks.")
        guest.send("h")
        assert guest.said_starting("Hawks calls. Their cards: ")
        guest.send("/", "/")  # everything, results, the friend's moves
        assert guest.said_starting("History: Hawks, ")
        guest.send("h", "h", "h")  # rosters, game log, and back to the decision
        guest.said_starting("Current decision.")
        turn = [r for r in host.records if r.get("kind") == "turn" and r["mine"]][-1]
        before = len(host.speech())
        host.send("f1")
        deadline = time.monotonic() + 10
        while len(host.speech()) == before:
            assert time.monotonic() < deadline, "F1 went unanswered"
            time.sleep(0.01)
        help_words = host.speech()[-1]
        assert "computer" not in help_words.lower(), help_words
        picking = turn["phase"] == "selection" or (turn["phase"] == "snap_choice"
                                                   and turn["down"] < 4)  # cards, or a kick
        assert picking, turn  # this seed's 5th turn of the host's: a card screen
        assert "The Bears choose at the same time" in help_words, help_words
        host.go_on.set()
        for thread in threads:
            thread.join(120)
        assert (host.finish(), guest.finish()) == (0, 0)
    with contextlib.closing(sqlite3.connect(data / "tables.sqlite3")) as db:
        (record,) = db.execute("SELECT record FROM tables").fetchone()
    assert json.loads(record)["seat_wait_s"] == 120


def test_a_table_with_a_password_asks_the_friend_for_it_until_it_is_right(
        tmp_path: Path) -> None:
    write_settings(tmp_path / "host", {"table_password": "blue 42"})
    with (Server("--seed", str(SEED)) as server,
          Seat(tmp_path / "host", "--server", server.url) as host,
          Seat(tmp_path / "guest", "--server", server.url) as guest):
        host.send(*HOST_KEYS)
        code = host.next("table")["code"]
        host.said_starting(f"Your table code: {code[:2]} {code[2:4]} {code[4:]}. Your friend "
                           "also needs your table password.")
        guest.send(*JOIN_KEYS, f"type {code}", "return")
        guest.until_said("This table has a password. Ask your friend for it.")
        guest.until_said("The table's password: type it and press Enter. Escape goes back.")
        guest.send("type blue 41", "return")
        guest.until_said("That is not the table's password. Ask your friend for it.")
        guest.send("type blue 42", "return")
        guest.until_said("You are the Bears; your friend plays the Hawks.")
        host.until_said("The Bears joined your table.")
        for thread in start_playing(host, guest):
            thread.join(120)
        assert (host.finish(), guest.finish()) == (0, 0)
        assert outcome_heard(host, guest)


def test_a_game_away_when_the_friend_leaves_hears_it_once_on_return_and_stops_trying(
        tmp_path: Path) -> None:
    """The guest's game is killed mid-game and the host quits the table meanwhile. Started
    again, the guest goes back to its table and hears that the Hawks left, once; it does not
    drop and reconnect for ever ("Connection lost; trying again") waiting for them."""
    with table(tmp_path, "--seed", str(SEED)) as (server, host, guest):
        host.pause_at = 7
        threads = start_playing(host, guest)
        assert host.paused.wait(60)
        guest.kill()  # its driver then ends quietly
        host.until_said("The Bears dropped out; waiting for them.")
        assert host.finish() == 0  # quits the game, and with it the table
        host.go_on.set()
        with Seat(tmp_path / "guest", "--server", server.url) as again:
            again.said_starting("Main menu: Back to your table with the Hawks")
            again.send("return")
            again.until_said("The Hawks left the table. The game is over.")
            time.sleep(2.0)  # long enough for a few of the old reconnections
            said = again.speech()
            assert said.count("The Hawks left the table. The game is over.") == 1, said[-10:]
            assert "Connection lost; trying again." not in said, said[-10:]
            assert "Waiting for the Hawks." not in said[said.index(
                "The Hawks left the table. The game is over."):]
        for thread in threads:
            thread.join(30)


def test_a_guest_with_the_hosts_name_plays_as_the_other_default_and_the_end_names_both(
        tmp_path: Path) -> None:
    """Both players leave the name to its default: the guest's game hears why it is now the
    Bears, joins again at once, and the final score names two different teams for both."""
    with (Server("--seed", str(SEED)) as server,
          Seat(tmp_path / "host", "--server", server.url) as host,
          Seat(tmp_path / "guest", "--server", server.url) as guest):
        host.send(*HOST_KEYS)
        code = host.next("table")["code"]
        as_hawks = [key if key != "type Bears" else "type hâwks" for key in JOIN_KEYS]
        guest.send(*as_hawks, f"type {code}", "return")
        guest.until_said("The host's team is also the hâwks, so you play as the Bears.")
        for thread in start_playing(host, guest):
            thread.join(120)
        assert (host.finish(), guest.finish()) == (0, 0)
        for seat in (host, guest):
            score = final_score(seat.speech())
            assert score is not None and set(score) == {"Hawks", "Bears"}, seat.speech()[-5:]
