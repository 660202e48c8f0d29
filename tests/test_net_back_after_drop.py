"""The desktop game back at its table after a dropped line (issue 71, 8): nothing already told
is told again, and a choice made while the line was down is sent, not asked for again. Each
test fails on its own when its one behaviour breaks (the link resuming from step 0, say, or the
game forgetting the choice it made). Two real game processes, a real table server, and a proxy
on the host's line that drops it; what is asserted is what the host hears, and its history.

At the host's 7th turn (seed 5) it is the host's final call of its second down, the Bears
having chosen: the game waits on the host alone, so nothing new can happen at the table until
the host chooses, and anything it hears of the game meanwhile is a retelling.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from net_proxy import Proxy
from table_driver import Seat, Server, seated, start_playing

SEED = 5
PAUSE_AT = 7  # the host's final call of its second down (see the module's docstring)
LOST, BACK = "Connection lost; trying again.", "Connected again."


@contextlib.contextmanager
def paused_host(tmp_path: Path) -> Iterator[tuple[Seat, Seat, Proxy, list]]:
    """A game between two real processes through a proxy, the host paused at its final call;
    the threads that play both seats, joined (and the games ended) on leaving."""
    with (Server("--seed", str(SEED)) as server,
          contextlib.closing(Proxy(int(server.url.rsplit(":", 1)[1]))) as proxy,
          seated(tmp_path, proxy.url) as (host, guest)):
        host.pause_at = PAUSE_AT
        threads = start_playing(host, guest)
        assert host.paused.wait(60)
        turn = max(i for i, record in enumerate(host.records) if record.get("kind") == "turn")
        for words in ("Final call?", "The Bears have chosen."):  # all told: the table waits
            said_after(host, turn, words, records=True)
        yield host, guest, proxy, threads
        host.go_on.set()
        for thread in threads:
            thread.join(120)
        assert (host.finish(), guest.finish()) == (0, 0), host.stderr() + guest.stderr()


def said_after(seat: Seat, start: int, words: str, timeout: float = 10,
               records: bool = False) -> str:
    """The first line from `start` on (an index in `seat.speech()`, or in `seat.records` if
    `records`) that begins with `words`, once said."""
    def lines() -> list[str]:
        if records:
            return [record["text"] for record in seat.records[start:]
                    if record.get("kind") == "speech"]
        return seat.speech()[start:]

    deadline = time.monotonic() + timeout
    while not (found := [line for line in lines() if line.startswith(words)]):
        assert time.monotonic() < deadline, f"never said {words!r}: {lines()}"
        time.sleep(0.01)
    return found[0]


def results_in_history(host: Seat) -> str:
    """What Shift+Period says on the history of results: its last, "... 5 of 5." (the
    filter is set to results once, before)."""
    before = len(host.speech())
    host.send("shift+.")
    return said_after(host, before, "")


@pytest.mark.timeout(240)
def test_back_after_a_drop_nothing_already_told_is_told_again(tmp_path: Path) -> None:
    with paused_host(tmp_path) as (host, _guest, proxy, _threads):
        host.send("/")  # the history's filter: results
        said_after(host, len(host.speech()) - 1, "History: results")
        logged = results_in_history(host)
        heard = host.speech()
        proxy.cut(0)  # the host's line: it connected first
        host.until_said(BACK)
        time.sleep(1.0)  # time for anything the resume tells to be said
        again = results_in_history(host)
        after = host.speech()[len(heard):]
        assert after[:2] == [LOST, BACK], after
        assert after[2:] == [again], after  # nothing of the game told again ...
        assert again == logged  # ... nor logged again ("2nd and 5 at your own 30. 5 of 5.")


@pytest.mark.timeout(240)
def test_a_choice_made_while_the_line_was_down_is_sent_not_asked_again(
        tmp_path: Path) -> None:
    with paused_host(tmp_path) as (host, guest, proxy, _threads):
        asked = host.speech().count("Final call?")
        turns = len(host.records)
        proxy.shut()  # the line stays down while the host chooses
        proxy.cut(0)
        host.until_said(LOST)
        lost = next(i for i, record in enumerate(host.records)
                    if record.get("text") == LOST)
        host.go_on.set()  # the final call (Enter on Inside Run), into the down line
        deadline = time.monotonic() + 10
        while not [record for record in host.records[lost:]
                   if record.get("kind") == "cue" and record["name"] == "menu_select"]:
            assert time.monotonic() < deadline, host.records[lost:]  # Enter, heard
            time.sleep(0.01)
        time.sleep(0.3)  # still down: the choice waits in the link
        assert BACK not in host.speech()
        start = len(host.speech()), len(guest.speech())
        proxy.open()
        host.until_said(BACK)
        # Sent: both hear the down played with the host's Inside Run ...
        said_after(host, start[0], "Inside Run against", timeout=30)
        said_after(guest, start[1], "Inside Run against", timeout=30)
        # ... and never asked for again: one final call, one question.
        assert host.speech().count("Final call?") == asked
        mine = [(record["phase"], record["down"]) for record in host.records[turns:]
                if record.get("kind") == "turn" and record["mine"]]
        assert ("final_call", 2) not in mine, mine
        assert not [line for line in host.speech() if "refused" in line.lower()]
