"""The browser seat in a real browser (issue 64): `python -m sudden_death.server` serves its
page, Debian's Chromium opens it, and a player who reads only what a screen reader is given
(the focused element's role, name and state, the headings, the live regions) plays a whole
game against the computer with the keyboard alone.

Chromium is needed: CI sets SUDDEN_DEATH_REQUIRE_CHROMIUM=1 (tests/browser.py installs it);
elsewhere these tests skip without it.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import (
    AriaNode,
    accessible_tree,
    aria_snapshot,
    browser_page,
    complaints,
    focused,
    walk,
)
from page_ear import KeyPlayer, decision_focus
from playwright.sync_api import Page, Route
from table_driver import FINAL_SCORE, HOST_KEYS, Seat, Server, final_score, start_playing
from test_online_game import rated_games, sign_up
from websockets.sync.client import connect as sync_connect

from sudden_death.web.site import page_words
from sudden_death.wire import protocol as p

pytestmark = [pytest.mark.skipif(not sys.platform.startswith("linux"),
                                 reason="Debian's Chromium is Linux's"),
              pytest.mark.timeout(300)]

REGIONS = ["Current decision", "The other team's calls", "Cards on the table", "Game log"]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Server]:
    with Server("--seed", "3") as server:
        yield server


def heard(page: Page, selector: str) -> str:
    """A live region's words, as the accessibility tree gives them."""
    return " ".join(node.text or node.name for node in walk(accessible_tree(page, selector)))


def next_decision(page: Page, deadline_s: float = 20) -> AriaNode:
    """The control the page moves the focus to for the next decision (the first radio button
    or checkbox, or Play again when the game is over)."""
    return decision_focus(page, deadline_s)


def play_out(page: Page, rng: random.Random, drop_at: int = 0) -> tuple[str, int]:
    """Answer every decision that takes the focus until the game is over, by the desktop
    game's keys (page_ear.KeyPlayer): the final words and how many decisions there were.
    Only the focus, the headings and the form are read. `drop_at`: the page's line drops
    before that decision (as a phone's does)."""
    player = KeyPlayer(page, rng)
    while True:
        if drop_at and player.decisions == drop_at:
            page.evaluate("line.close()")  # not the page's doing: its close is a drop
            drop_at = 0
            # Back on its seat, the page may first draw the decision its resumed `start`
            # shows, then the one after the steps it missed (left in the stop's note): the
            # player reads on once the page is back and its news has come.
            deadline = time.monotonic() + 20
            while not page.evaluate("line !== null && line.readyState === 1 && dropped === 0"):
                assert time.monotonic() < deadline, "the page never went back to its seat"
                time.sleep(0.05)
            time.sleep(0.5)
        node = next_decision(page)
        if node.role == "button":
            return heard(page, "#decision"), player.decisions
        player.decisions += 1
        names = [n.name for n in walk(accessible_tree(page)) if n.role == "heading"]
        assert all(region in names for region in REGIONS), names
        if node.role == "radio":
            player.choice()
        else:
            player.hand()
        assert player.decisions < 400


def test_a_whole_game_against_the_computer_by_keyboard_alone(served: Server) -> None:
    """Its line drops once mid-game, as a phone's does: the page goes back to its seat by
    itself (resume, with the last step it heard) and the game goes on to its end."""
    with browser_page(1280, 900) as page:
        page.goto(served.page)
        headings = [(n.role, n.name) for n in walk(accessible_tree(page)) if n.role == "heading"]
        assert ("heading", "Play") in headings and ("heading", "Play a friend") in headings
        met = []  # the help first, folded; the explorer; then the start form, in order
        for _ in range(8):
            page.keyboard.press("Tab")
            node = focused(page)
            assert node is not None
            met.append((node.role, node.name))
            if met[-1] == ("button", "Play the computer"):
                break
        assert met == [("button", "How to play here"),
                       ("button", "Explore play cards and bands"),
                       ("textbox", "Your team's name"), ("textbox", "The computer's team"),
                       ("radio", "the rules' computer, picking at random"),
                       ("button", "Play the computer")], met
        page.keyboard.press("Enter")
        over, decisions = play_out(page, random.Random(7), drop_at=6)
        assert "Final score" in over, over
        log = [n for n in walk(accessible_tree(page, "#log")) if n.role == "listitem"]
        assert len(log) > 20
        assert decisions > 10


def test_play_pressed_before_the_page_s_words_have_come_starts_the_game(
        served: Server) -> None:
    """A player quick with Enter (or a slow network for the words): the controls answer
    from the start, and the game begins once the words are here, not a form sent the
    browser's own way (which the page's policy refuses, so nothing would happen)."""
    with browser_page(1280, 900) as page:
        held: list[Route] = []
        page.route("**/words.json*", lambda route: held.append(route))  # held until released
        page.goto(served.page)
        page.get_by_role("button", name="Play the computer").click()
        assert len(held) == 1, "the words were not asked for"
        time.sleep(0.3)
        assert focused(page) is not None and "?" not in page.url  # nothing sent away
        held[0].continue_()
        first = next_decision(page)
        assert first.role in ("radio", "checkbox")


def test_a_line_that_drops_mid_choice_keeps_the_choice_and_the_focus(served: Server) -> None:
    """A phone's line drops while its player is on a decision, an option picked but not sent:
    back on its seat, the page keeps the form as it was (the option or card still checked, the
    focus on it), as the same decision is owed (the whole game's test plays on after a drop)."""
    with browser_page(1280, 900) as page:
        page.goto(served.page)
        page.get_by_role("button", name="Play the computer").click()
        first = next_decision(page)  # the toss's call, or a hand if the coach won it
        page.keyboard.press("ArrowDown" if first.role == "radio" else "Space")
        picked = focused(page)
        assert picked is not None and picked.states.get("checked") == "true"
        page.evaluate("line.close()")  # not the page's doing: its close is a drop
        deadline = time.monotonic() + 20
        while "Connected again." not in heard(page, "#news") and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "Connected again." in heard(page, "#news")
        time.sleep(0.3)  # the resumed game's view drawn by now, if it were drawn again
        still = focused(page)
        assert still is not None and (still.role, still.name) == (picked.role, picked.name)
        assert still.states.get("checked") == "true"


def until_focused(page: Page, role: str, name: str) -> AriaNode:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        node = focused(page)
        if node is not None and (node.role, node.name) == (role, name):
            return node
        time.sleep(0.05)
    raise AssertionError(f"no {role} {name!r} took the focus:\n{aria_snapshot(page)}")


def test_concede_is_asked_first_as_the_desktop_asks_and_leave_goes_back_to_the_start(
        served: Server) -> None:
    """Concede: a group named by the desktop game's question, No focused; Escape is No and
    the decision has the focus again. Yes ends the game for the page's team; Leave the table
    closes the table and puts the player back at the start, its heading focused."""
    errors: list[str] = []
    with browser_page(1280, 900) as page:
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(served.page)
        assert not page.get_by_role("button", name="Concede the game").is_visible()
        page.get_by_role("button", name="Play the computer").click()
        next_decision(page)
        concede = page.get_by_role("button", name="Concede the game")
        concede.focus()
        page.keyboard.press("Enter")
        until_focused(page, "button", "No")
        asked = [node for node in walk(accessible_tree(page, "#game")) if node.role == "group"
                 and node.name == "Concede the game? The Bears would win."]
        assert asked and [(n.role, n.name) for n in walk(asked[0].children)
                          if n.role == "button"] == [("button", "No"),
                                                     ("button", "Yes, concede")]
        page.keyboard.press("Escape")
        back = focused(page)
        assert back is not None and back.role in ("radio", "checkbox"), back
        assert concede.is_visible()
        concede.focus()
        page.keyboard.press("Enter")
        until_focused(page, "button", "No")
        page.keyboard.press("Tab")
        until_focused(page, "button", "Yes, concede")
        page.keyboard.press("Enter")
        over = until_focused(page, "button", "Play again")
        assert over is not None
        assert "The Hawks conceded." in heard(page, "#decision")
        assert not concede.is_visible()
        page.keyboard.press("Tab")
        until_focused(page, "button", "Leave the table")
        page.keyboard.press("Enter")
        until_focused(page, "heading", "Play")
        assert not page.locator("#game").is_visible()
        assert page.locator("#log li").count() == 0  # the next game's log starts empty
        page.get_by_role("button", name="Play the computer").click()
        assert next_decision(page).role in ("radio", "checkbox")  # a new table, a new game
    assert errors == []


def test_a_browser_seat_and_a_desktop_game_play_one_table_to_the_same_end(
        served: Server, tmp_path: Path) -> None:
    """The desktop game hosts (Play a friend, as the Hawks) and says its code; the browser
    joins it by that code as the Bears; both play it out and hear the same final score."""
    with Seat(tmp_path / "desktop", "--server", served.url) as desktop, \
            browser_page(1280, 900) as page:
        desktop.send(*HOST_KEYS)
        code = desktop.next("table")["code"]
        page.goto(served.page)
        page.get_by_label("Your team's name").fill("Bears")
        page.get_by_label("Table code").fill(f"{code[:2]} {code[2:4]} {code[4:]}")
        page.get_by_role("button", name="Join a table").click()
        threads = start_playing(desktop)
        chat = page.get_by_role("textbox", name="Chat")  # the one shown: the table's
        chat.fill("good luck")  # the desktop game hears it, by team
        page.get_by_role("button", name="Send").click()
        page.locator("#decision input").first.focus()  # back to the decision the chat left
        over, _decisions = play_out(page, random.Random(11))
        for thread in threads:
            thread.join(60)
        heard_desktop = final_score(desktop.speech())
        found = FINAL_SCORE.match(over)
        assert found is not None, over
        mine, my_points, theirs, their_points = found.groups()
        assert heard_desktop == {mine: int(my_points), theirs: int(their_points)}
        assert "The Bears joined your table." in desktop.speech()
        assert any(line.endswith("Bears: good luck") for line in desktop.speech())


AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"


def violations(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the page as it stands, 7:1 contrast
    included (run through the
    browser's debugging protocol, which the page's Content-Security-Policy does not govern:
    the page itself never loads it)."""
    page.evaluate(AXE.read_text(encoding="utf-8"))
    found = page.evaluate("""async () => {
        // 7:1 contrast (WCAG's AAA rule, off in axe by default) as well as the usual rules.
        const result = await axe.run(document, {resultTypes: ["violations"],
            rules: {"color-contrast-enhanced": {enabled: true}}});
        return result.violations.filter(v => ["serious", "critical"].includes(v.impact))
            .map(v => `${v.id} (${v.impact}): ${v.nodes.map(n => n.target).join(", ")}`);
    }""")
    return list(found)


def small_targets(page: Page) -> list[str]:
    """Every visible control (and checkbox or radio label) less than 44 CSS pixels tall."""
    return list(page.evaluate("""() => [...document.querySelectorAll(
            "button, input:not([type=checkbox]):not([type=radio]), .choice label")]
        .filter(e => e.offsetParent !== null)
        .map(e => [e.textContent.trim() || e.id, e.getBoundingClientRect().height])
        .filter(([, h]) => h < 44).map(([name, h]) => `${name}: ${h}px`)"""))


def until_focused_role(page: Page, role: str) -> AriaNode:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        node = focused(page)
        if node is not None and node.role == role:
            return node
        time.sleep(0.05)
    raise AssertionError(f"no {role} took the focus:\n{aria_snapshot(page)}")


@pytest.mark.parametrize("width", [320, 1280])
def test_the_page_reads_well_fits_a_phone_and_breaks_no_rule_of_axe(
        served: Server, width: int, tmp_path: Path) -> None:
    with browser_page(width, 800) as page:
        errors = complaints(page)
        page.goto(served.page)
        help_text = page.get_by_text("Heading navigation reaches the current decision")
        assert not help_text.is_visible()  # the help is folded until asked for
        page.get_by_role("button", name="How to play here").click()
        assert help_text.is_visible()
        assert violations(page) == []
        assert small_targets(page) == []
        page.get_by_role("button", name="Play the computer").click()
        # The toss and the side, if they are ours to call, then the cards.
        first = next_decision(page)
        while first.role == "radio":
            page.keyboard.press("Enter")
            first = next_decision(page)
        headings = [n.name for n in walk(accessible_tree(page)) if n.role == "heading"]
        assert [h for h in headings if h in REGIONS] == REGIONS
        # A card's details: D on the card shows them under it and says them; the switch
        # at the form's end shows every card's.
        card = page.locator("#decision input[data-detail]").first
        detail = page.locator(f"#{card.get_attribute('data-detail-id')}")
        assert not detail.is_visible()
        page.keyboard.press("d")
        assert detail.is_visible()
        assert detail.inner_text() in heard(page, "#news")
        page.keyboard.press("Space")
        said = json.loads(page_words("en"))
        assert heard(page, "#count") == said["players_picked"][1]
        page.get_by_role("checkbox", name="Show what each card does").check()
        assert all(page.locator(".detail").nth(i).is_visible()
                   for i in range(page.locator(".detail").count()))
        assert violations(page) == []
        assert small_targets(page) == []
        overflow = page.evaluate("document.documentElement.scrollWidth")
        assert overflow <= width, f"the page scrolls sideways at {width} pixels: {overflow}"
        shot = tmp_path / f"page-{width}.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert int.from_bytes(shot.read_bytes()[16:20], "big") == width
        kept = os.environ.get("SUDDEN_DEATH_TEST_ARTIFACTS")
        if kept:  # docs/playing.md's picture of the page comes from here
            folder = Path(kept, "browser-test")
            folder.mkdir(parents=True, exist_ok=True)
            shutil.copy(shot, folder / shot.name)
    assert errors == []  # the policy refused nothing the page needs, and no script failed


def test_a_browser_player_signs_up_and_meets_a_desktop_player_in_a_quick_game(
        tmp_path: Path) -> None:
    """From the page: a new name and password, the lobby, Quick game; the desktop game signs
    up in its own lobby and presses Quick game: they meet, play it out, hear the same end, and
    the server rates both (the same accounts as the desktop game's)."""
    with Server("--seed", "4", "--data", str(tmp_path / "server")) as served, \
            browser_page(1280, 900) as page:
        page.goto(served.page)
        page.get_by_label("Your name").fill("Anna")
        page.get_by_label("Password").fill("anna's secret")
        page.get_by_role("button", name="A new name").click()
        lobby = until_focused_role(page, "heading")
        assert lobby.name == "Lobby"
        assert "Lobby: 0 open, 0 playing." in heard(page, "#lobby")
        assert violations(page) == [] and small_targets(page) == []
        page.get_by_role("button", name="Quick game").click()
        with Seat(tmp_path / "ben", "--server", served.url) as ben:
            sign_up(ben, "Ben")
            ben.send("return")  # Quick game: Anna's, waiting
            threads = start_playing(ben)
            over, _decisions = play_out(page, random.Random(5))
            for thread in threads:
                thread.join(60)
            found = FINAL_SCORE.match(over)
            assert found is not None, over
            mine, my_points, theirs, their_points = found.groups()
            assert final_score(ben.speech()) == {mine: int(my_points),
                                                 theirs: int(their_points)}
            assert "You are the Bears; Anna plays the Hawks." in ben.speech()
            log = heard(page, "#log")
            assert "You are the Hawks; Ben plays the Bears." in log
            # Leave the table: back to the lobby, signed in again by this browser's key,
            # where Your rating reads the ladder as the desktop game does.
            page.get_by_role("button", name="Leave the table").click()
            until_focused(page, "heading", "Lobby")
            rating = re.compile(r"Your rating: [\d,]+, (1st|2nd) of 2\.")
            deadline = time.monotonic() + 15  # the server rates after the seats hear the end
            while not rating.search(heard(page, "#told")) and time.monotonic() < deadline:
                page.get_by_role("button", name="Your rating").click()
                time.sleep(0.5)
            assert rating.search(heard(page, "#told")), heard(page, "#told")
        token = json.loads(page.evaluate("localStorage.getItem('sudden-death-sign-in')"))
        assert token["name"] == "Anna" and len(token["token"]) >= 24  # a key, not a password
        assert "anna's secret" not in json.dumps(token)
    games, rated = rated_games(tmp_path / "server" / "accounts.sqlite3")
    assert len(games) == 1, "the game was never rated"
    assert set(rated) == {"anna", "ben"}


def test_the_lobby_s_chat_is_read_as_it_comes_and_kept_to_read_again(tmp_path: Path) -> None:
    """In the lobby without a name, the page says chat needs one and offers no line to type;
    signed in, a line from another player is read (the live region) and listed under "Chat in
    the lobby", and the page's own line reaches that player, as the desktop game's would."""
    with Server("--seed", "4", "--data", str(tmp_path / "server")) as served, \
            browser_page(1280, 900) as page:
        page.goto(served.page)
        page.get_by_role("button", name="Play without a name").click()
        until_focused(page, "heading", "Lobby")
        assert "for players with a name" in heard(page, "#lobby")
        assert page.get_by_role("textbox", name="Chat").count() == 0
        page.reload()
        page.get_by_label("Your name").fill("Anna")
        page.get_by_label("Password").fill("anna's secret")
        page.get_by_role("button", name="A new name").click()
        until_focused(page, "heading", "Lobby")
        assert "for players with a name" not in heard(page, "#lobby")
        with sync_connect(served.url) as ben:
            ben.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, "Ben", "ben's secret")))
            ben.send(p.encode(p.Lobby()))
            deadline = time.monotonic() + 10
            while "Ben" not in heard(page, "#lobby-here") and time.monotonic() < deadline:
                time.sleep(0.05)  # Ben in the lobby, so he hears its chat
            ben.send(p.encode(p.Chat("anyone for a quick game?")))
            deadline = time.monotonic() + 10
            while "Ben: anyone" not in heard(page, "#news") and time.monotonic() < deadline:
                time.sleep(0.05)
            assert "Ben: anyone for a quick game?" in heard(page, "#news")
            assert heard(page, "#lobby-said").strip() == "Ben: anyone for a quick game?"
            line = page.get_by_role("textbox", name="Chat")
            line.fill("yes, me")
            line.press("Enter")
            while True:
                message = p.decode_server(str(ben.recv(timeout=10)))
                if isinstance(message, p.Said):
                    break
            assert (message.name, message.text) == ("Anna", "yes, me")
            items = [n for n in walk(accessible_tree(page, "#lobby-said"))
                     if n.role == "listitem"]
            assert len(items) == 2
            assert (heard(page, "#lobby-said").strip()
                    == "Ben: anyone for a quick game? Anna: yes, me")
            assert violations(page) == [] and small_targets(page) == []
