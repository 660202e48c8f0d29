"""The browser page heard as the desktop game is heard (issue 69), in Debian's Chromium: what
its live regions held and for how long (page_ear.LISTEN, a MutationObserver inside the page),
where the focus was after each key, and how many keys a down took.

Chromium is needed: CI sets SUDDEN_DEATH_REQUIRE_CHROMIUM=1 (tests/browser.py installs it);
elsewhere these tests skip without it.
"""

from __future__ import annotations

import json
import random
import re
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator

import pytest
from browser import browser_page, focused
from page_ear import KeyPlayer, decision_focus, heard, listen, news, wait_for_news
from table_driver import Server, free_port
from websockets.sync.client import ClientConnection
from websockets.sync.client import connect as sync_connect

from sudden_death.engine.actions import SNAP_ACTIONS, actors, legal_actions
from sudden_death.engine.state import Phase, SnapChoice, Team
from sudden_death.web.site import page_words
from sudden_death.wire import protocol as p
from sudden_death.wire.values import action_to_wire, state_from_wire

pytestmark = [pytest.mark.skipif(not sys.platform.startswith("linux"),
                                 reason="Debian's Chromium is Linux's"),
              pytest.mark.timeout(300)]

READABLE_MS = 1000  # the least time a line must stand to be read (issue 69)
KEYS_PER_DOWN = 10


@pytest.fixture
def served() -> Iterator[Server]:
    with Server("--seed", "3") as server:
        yield server


def words() -> dict[str, object]:
    found: dict[str, object] = json.loads(page_words("en"))
    return found


@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_game_by_keys_is_heard_whole_in_a_few_keys_a_down(
        served: Server, seed: int) -> None:
    """Against the computer, by the desktop's keys alone: every line the game log gains was
    said in the news log and stood there a second at least; no line is said twice in a step;
    the focus never fell to the page's body, and after each Enter it was on the next
    decision or on words that say what happens now; a down took at most 10 keys."""
    errors: list[str] = []
    with browser_page(1280, 900) as page:
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(served.page)
        listen(page)
        page.get_by_role("button", name="Play the computer").click()
        first = decision_focus(page)  # the player calls the toss, as in the desktop game
        assert (first.role, first.name) == ("radio", "Heads"), first
        player = KeyPlayer(page, random.Random(seed))
        over = player.play_out()
        assert "Final score" in over
        time.sleep(READABLE_MS / 1000 + 0.2)  # the last lines have their second too
        record = heard(page)
        logged = page.locator("#log li").all_inner_texts()
    said = [entry for entry in record["news"] if entry["region"] == "news"]
    texts = [entry["text"] for entry in said]
    assert len(logged) > 20
    # The rules' computer picks at random: its cards differ from down to down (the coach's
    # opening cards were the same on every down).
    shown = [line for line in logged if line.startswith("The Bears show ")]
    assert len(shown) >= 4 and len(set(shown)) > 1, shown
    assert [line for line in logged if line not in texts] == []
    short = [(entry["text"], round(entry["stood"])) for entry in said
             if entry["stood"] < READABLE_MS]
    assert short == [], short
    twice = [key for key, times in Counter((entry["step"], entry["text"]) for entry in said
                                           if entry["step"]).items() if times > 1]
    assert twice == [], twice
    assert record["lost"] == 0, "the focus fell to the page's body"
    assert "" not in player.focus_after_enter
    assert player.downs >= 4
    assert player.keys / player.downs <= KEYS_PER_DOWN, (player.keys, player.downs)
    assert errors == []


def test_a_wrong_code_is_said_as_it_is_and_nothing_dropped(served: Server) -> None:
    """A code no table has: the desktop game's words, in the urgent log; never "the line
    dropped" (the server closed it after saying why), and the focus stays on the button."""
    with browser_page(1280, 900) as page:
        page.goto(served.page)
        listen(page)
        page.get_by_label("Table code").fill("999999")
        page.get_by_role("button", name="Join a table").click()
        wait_for_news(page, "No open table has that code.")
        time.sleep(0.5)  # the line's close comes after the refusal
        record = heard(page)
        urgent = [entry["text"] for entry in record["news"] if entry["region"] == "urgent"]
        assert any(text.startswith("No open table has that code.") for text in urgent), urgent
        assert "dropped" not in news(page)
        button = focused(page)
        assert button is not None and (button.role, button.name) == ("button", "Join a table")
        # Tried again with the right code later, the page opens a new line and goes on.
        page.get_by_label("Table code").fill("")


def test_a_team_name_refused_is_said_as_a_team_name(served: Server) -> None:
    """A team name the server will not take (300 characters, past the field's own limit):
    the refusal is said, as a team name, and nothing is said to have dropped."""
    with browser_page(1280, 900) as page:
        page.goto(served.page)
        listen(page)
        page.evaluate("document.getElementById('team').value = 'A'.repeat(300)")
        page.get_by_role("button", name="Host a table").click()
        said = wait_for_news(page, "team name")
        time.sleep(0.5)
        assert "dropped" not in news(page), said


def test_a_player_name_refused_is_said_as_a_player_name_with_why(served: Server) -> None:
    """A name of 300 characters for a new account: said as a player's name, with the
    reason, in the urgent log; never as a team name or a dropped line."""
    with browser_page(1280, 900) as page:
        page.goto(served.page)
        listen(page)
        page.evaluate("document.getElementById('player').value = 'A'.repeat(300)")
        page.get_by_label("Password").fill("a good secret")
        page.get_by_role("button", name="A new name").click()
        said = wait_for_news(page, "name")
        time.sleep(0.5)
        urgent = " ".join(entry["text"] for entry in heard(page)["news"]
                          if entry["region"] == "urgent")
        assert "player name" in urgent and "team name" not in urgent and "24" in urgent, urgent
        assert "dropped" not in news(page), said


def test_a_third_card_is_refused_and_said_why(served: Server) -> None:
    """Two players checked by digits move the focus on to the calls; back in the players,
    a third is refused with the desktop game's words, and the count stays 2."""
    with browser_page(1280, 900) as page:
        page.goto(served.page)
        listen(page)
        page.get_by_role("button", name="Play the computer").click()
        node = decision_focus(page)
        while node.role == "radio":
            page.keyboard.press("Enter")
            node = decision_focus(page)
        page.keyboard.press("1")
        page.keyboard.press("2")
        assert page.evaluate("document.activeElement.name") == "call"  # moved on
        page.keyboard.press("Shift+Tab")
        assert page.evaluate("document.activeElement.name") == "player"
        page.keyboard.press("3")
        expected = words()["players_over"]
        deadline = time.monotonic() + 5
        while page.locator("#count").inner_text() != expected and time.monotonic() < deadline:
            time.sleep(0.05)
        assert page.locator("#count").inner_text() == expected
        assert page.locator("#decision input[name=player]:checked").count() == 2
        page.keyboard.press("3")  # again: said again, not left as it was
        time.sleep(0.3)
        counts = [entry["text"] for entry in heard(page)["count"]]
        assert counts[-3:] == [expected, "", expected], counts
        page.keyboard.press("Enter")  # no calls yet: not yet, and why
        time.sleep(0.2)
        assert page.locator("#count").inner_text() != expected
        assert page.evaluate("document.activeElement.name") == "call"


def friend(url: str, code: str, stop: threading.Event) -> None:
    """The other seat, by the protocol: joins as the Bears, calls the toss, chooses the side
    and snaps the ball if asked, and never chooses cards (so the page waits on it)."""
    with sync_connect(url) as line:
        line.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
        seat: Team | None = None
        while not stop.is_set():
            try:
                frame = line.recv(timeout=0.2)
            except TimeoutError:
                continue
            message = p.decode_server(str(frame))
            if isinstance(message, p.Seated):
                seat = Team(message.seat)
            if isinstance(message, (p.Start, p.Update)) and seat is not None:
                state = state_from_wire(message.state)
                if state.phase in (Phase.COIN_TOSS, Phase.SIDE_CHOICE) and \
                        seat in actors(state):
                    act(line, message.step, legal_actions(state, seat)[0])
                elif state.phase is Phase.SNAP_CHOICE and seat in actors(state):
                    act(line, message.step, SNAP_ACTIONS[SnapChoice.PLAY])


def act(line: ClientConnection, step: int, action: object) -> None:
    line.send(p.encode(p.Act(step, [action_to_wire(action)])))  # type: ignore[arg-type]


def test_the_focus_says_what_happens_now_while_the_friend_decides(served: Server) -> None:
    """Host a table: the focus is on its code. Once the friend joins and the game asks the
    page's cards, Enter confirms them and the focus rests on words naming whom the game
    waits for, and stays there while the friend decides."""
    stop = threading.Event()
    with browser_page(1280, 900) as page:
        page.goto(served.page)
        listen(page)
        page.get_by_role("button", name="Host a table").click()
        deadline = time.monotonic() + 15
        while "table code" not in page.locator("#told").inner_text().lower():
            assert time.monotonic() < deadline, page.locator("#told").inner_text()
            time.sleep(0.05)
        assert page.evaluate("document.activeElement.id") == "told"
        code = "".join(ch for ch in page.locator("#told").inner_text() if ch.isdigit())
        other = threading.Thread(target=friend, args=(served.url, code, stop), daemon=True)
        other.start()
        try:
            node = decision_focus(page)
            while node.role == "radio":
                page.keyboard.press("Enter")
                node = decision_focus(page)
            for key in "12":
                page.keyboard.press(key)
            for key in "123":
                page.keyboard.press(key)
            page.keyboard.press("Enter")
            time.sleep(1.0)  # the friend has not chosen: the page still waits
            waiting = focused(page)
            assert waiting is not None and waiting.role == "paragraph", waiting
            assert waiting.text == "Waiting for the Bears.", waiting
            assert heard(page)["lost"] == 0
        finally:
            stop.set()
            other.join(10)


def test_a_seat_the_restarted_server_does_not_know_is_said_so_and_back_to_the_start(
        ) -> None:
    """The server stops and another starts on its address with no data: the page goes back
    to its seat by itself, is refused (the table is gone), says the refusal in the urgent
    log, never that the line dropped, and puts the player back at the start, its heading
    focused."""
    port = free_port()
    with browser_page(1280, 900) as page:
        with Server("--port", str(port)) as first:
            page.goto(first.page)
            listen(page)
            page.get_by_role("button", name="Play the computer").click()
            decision_focus(page)
        with Server("--port", str(port)):
            wait_for_news(page, "No open table has that code.", timeout_s=30)
            deadline = time.monotonic() + 10
            while True:
                node = focused(page)
                if node is not None and (node.role, node.name) == ("heading", "Play"):
                    break
                assert time.monotonic() < deadline, node
                time.sleep(0.05)
            said = news(page)
            assert "Connection lost; trying again." in said
            assert "dropped" not in said, said
            assert not page.locator("#game").is_visible()


def public_game(url: str, seed: int, ready: threading.Event, stop: threading.Event) -> None:
    """A game for all to watch, by the protocol: hosts a public table with the computer and
    plays it with random choices, a step every 0.15 s once `ready` (a spectator is there)."""
    rng = random.Random(seed)
    with sync_connect(url) as line:
        line.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", public=True, computer="Bears")))
        seat: Team | None = None
        acted = -1
        state = None
        step = 0
        while not stop.is_set():
            try:
                message = p.decode_server(str(line.recv(timeout=0.15)))
            except TimeoutError:
                message = None
            if isinstance(message, p.Seated):
                seat = Team(message.seat)
            if isinstance(message, (p.Start, p.Update)):
                state, step = state_from_wire(message.state), message.step
            if state is None or seat is None or not ready.is_set() or step == acted or \
                    state.outcome is not None or seat not in actors(state):
                continue
            legal = [action for action in legal_actions(state, seat)
                     if type(action).__name__ != "Concede"]
            act(line, step, rng.choice(legal))
            acted = step


def test_a_spectator_s_focus_rests_on_what_it_watches_and_then_on_the_result(
        served: Server) -> None:
    """Watch from the lobby: the focus goes to the words that say what is watched (never the
    page's body) and stays there, not taken at every step; after the final they give the
    result, not "Watching" still."""
    stop, ready = threading.Event(), threading.Event()
    game = threading.Thread(target=public_game, args=(served.url, 5, ready, stop), daemon=True)
    game.start()
    try:
        with browser_page(1280, 900) as page:
            page.goto(served.page)
            listen(page)
            page.get_by_role("button", name="Play without a name").click()
            watch = page.get_by_role("button", name=re.compile(r"^Watch: "))
            watch.first.wait_for(timeout=15_000)
            watch.first.click()
            deadline = time.monotonic() + 15
            while (node := focused(page)) is None or node.role != "paragraph":
                assert time.monotonic() < deadline, node
                time.sleep(0.05)
            assert node.text == "Watching the Bears and the Hawks.", node
            ready.set()
            deadline = time.monotonic() + 120
            while "Final score" not in page.locator("#decision .note").inner_text():
                assert time.monotonic() < deadline, "the game never ended"
                time.sleep(0.2)
            node = focused(page)
            assert node is not None and node.role == "paragraph" and \
                node.text.startswith("Final score"), node
            record = heard(page)
            watching = [entry for entry in record["focus"] if entry["tag"] == "P"]
            assert len(watching) == 1, watching  # the focus was given once, not at every step
            assert record["lost"] == 0
    finally:
        stop.set()
        game.join(10)
