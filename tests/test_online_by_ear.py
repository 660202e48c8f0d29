"""Two listeners play an online game by speech alone (issue 49): two real game processes sign
up and meet in a quick game on a real server, then each is played by an `EarPlayer`, which
chooses every key from the lines its own game spoke since its last key, and nothing else. The
table's `turn` records only say when the game waits on that player (a listener hears that as
the question being asked); what to press is decided from the words. Both reach the final
score, and both heard the same one."""

from __future__ import annotations

import queue
import threading
import time
from pathlib import Path

from ear_player import CAREFUL, EXPERT, EarPlayer
from table_driver import Seat, Server, final_score
from test_online_game import sign_up

QUIET_S = 0.25  # the game has said what a key made it say
GAME_S = 300


def settled(seat: Seat, since: int) -> list[str]:
    """The lines said after `since`, once the game has been quiet for QUIET_S."""
    count, still = len(seat.speech()), time.monotonic()
    while time.monotonic() - still < QUIET_S:
        time.sleep(0.02)
        if len(seat.speech()) != count:
            count, still = len(seat.speech()), time.monotonic()
    return seat.speech()[since:]


def listen(seat: Seat, player: EarPlayer, errors: list[str]) -> None:
    """Answer each of this game's turns with the keys the player picks by ear."""
    heard = len(seat.speech())
    try:
        while True:
            turn = seat.next("turn", GAME_S)
            if turn.get("over"):
                seat.send("end", "return")  # Game over: Quit, the last choice
                return
            if not turn["mine"]:
                continue
            while True:  # keys for this decision, until the game moves on
                lines = settled(seat, heard)
                heard += len(lines)
                key = player.next_key(lines)
                if key is None:
                    return
                seat.send(key)
                time.sleep(QUIET_S)  # what the key made the game say, and a turn it began
                try:
                    nxt = seat.next("turn", 0.01)
                except queue.Empty:
                    continue  # the same decision: the player goes on choosing
                if nxt.get("over"):
                    seat.send("end", "return")
                    return
                if not nxt["mine"]:
                    break  # committed: the other player chooses now
    except Exception as error:  # the thread's failure is the test's
        errors.append(f"{type(error).__name__}: {error}")


def test_two_listeners_play_an_online_game_by_ear_to_the_same_final_score(
        tmp_path: Path) -> None:
    with Server("--seed", "6", "--data", str(tmp_path / "server")) as server:
        anna = Seat(tmp_path / "anna", "--server", server.url)
        ben = Seat(tmp_path / "ben", "--server", server.url)
        with anna, ben:
            sign_up(anna, "Anna")
            anna.send("return")  # Quick game: Anna waits, as the Hawks
            anna.until_said("Waiting for a player.")
            sign_up(ben, "Ben")
            ben.send("return")  # Ben joins her quick table, as the Bears
            errors: list[str] = []
            players = [(anna, EarPlayer(CAREFUL, 1, team="Hawks")),
                       (ben, EarPlayer(EXPERT, 2, team="Bears"))]
            threads = [threading.Thread(target=listen, args=(seat, player, errors),
                                        daemon=True) for seat, player in players]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(GAME_S)
            assert not errors, errors
            scores = final_score(anna.speech()), final_score(ben.speech())
            assert scores[0] is not None and scores[0] == scores[1], scores
