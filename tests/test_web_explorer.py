"""The browser page's explorer of play cards and bands (issue 69): the desktop explorer's own
levels and figures, as JSON (`/explorer.json`, English and Spanish), and in Chromium a modal
dialog opened by its button or by E, walked by keys, read as a screen reader reads it, and
closed by Escape with the focus back on exactly the element that had it and the game untouched.

Chromium is needed for the browser's tests (tests/browser.py); the JSON's tests need none.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from typing import Any

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
from playwright.sync_api import Page
from table_driver import Server
from test_ui_explorer import FakeHost
from test_web_browser import heard, next_decision, small_targets, violations

from sudden_death.engine.card_model import DefCall, OffCall
from sudden_death.language import load, using
from sudden_death.ui.screens.explorer import CardListScreen, ExplorerHome, ExplorerScreen
from sudden_death.ui.screens.menu import Menu
from sudden_death.ui.words import cards
from sudden_death.ui.words import explorer as words
from sudden_death.web.explorer_words import HOME, card_id, explorer_json
from sudden_death.web.site import POLICY, Site

ON_LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"),
                              reason="Debian's Chromium is Linux's")


# -- the JSON: the desktop explorer's levels, line for line -------------------------------------


def said(line: dict[str, str]) -> str:
    """A line as the page shows it and the desktop's menu reads it: label, then note."""
    return f"{line['label']}, {line['note']}" if "note" in line else line["label"]


def desktop_lines(menu: Menu, host: FakeHost) -> list[list[tuple[str, str, str]]]:
    """Each group of a desktop explorer level but its Back: (label, note, what Enter says)."""
    groups = []
    for group in menu.groups[:-1]:
        lines = []
        for item in group.items:
            host.spoken.clear()
            if item.press is not None:
                item.press()
            lines.append((item.label, item.note, host.spoken[-1] if host.spoken else ""))
        groups.append(lines)
    return groups


def page_lines(level: dict[str, Any]) -> list[list[tuple[str, str, str]]]:
    return [[(line["label"], line.get("note", ""), line.get("more", "")) for line in part["lines"]]
            for part in level["parts"]]


@pytest.mark.parametrize("tag", ["en-US", "es-MX"])
def test_the_page_s_explorer_is_the_desktop_s_level_by_level(tag: str) -> None:
    tree = json.loads(explorer_json(tag))
    code = tag.split("-")[0]
    assert tree["lang"] == code
    levels = tree["levels"]
    with using(load(code)):
        host = FakeHost()
        home = ExplorerHome(host, ExplorerScreen(host, Menu("", [])))  # type: ignore[arg-type]
        # The desktop's main menu, without Try a matchup (not on the page) and its Close.
        assert [line["label"] for line in levels[HOME]["parts"][0]["lines"]] == \
            [item.label for item in home.menu.groups[0].items[:-2]]
        assert tree["close"] == home.menu.groups[0].items[-1].label
        assert tree["back"] == words.back_label()
        for number, (title, kind) in enumerate(words.card_lists()):
            listed = levels[levels[HOME]["parts"][0]["lines"][number]["open"]]
            screen = CardListScreen(host, title, kind)  # type: ignore[arg-type]
            assert listed["title"] == screen.menu.title
            # One list, its Back the last line (pressing a card would open it: not here).
            assert page_lines(listed) == [[(item.label, item.note, "")
                                           for item in screen.menu.groups[0].items[:-1]]]
            for line, card in zip(listed["parts"][0]["lines"], kind, strict=True):
                assert line["open"] == card_id(card)
                level = levels[card_id(card)]
                host.pushed.clear()
                screen.open(card)
                desktop = host.pushed[-1]
                assert isinstance(desktop, ExplorerScreen)
                assert level["title"] == desktop.menu.title
                assert level["text"] == cards.card_details(card)
                assert [part["title"] for part in level["parts"]] == \
                    [group.title for group in desktop.menu.groups[:-1]]
                assert page_lines(level) == desktop_lines(desktop.menu, host)
        rules = levels[levels[HOME]["parts"][0]["lines"][-1]["open"]]
        assert [line["label"] for line in rules["parts"][0]["lines"]] == cards.band_rules_lines()


def test_every_level_is_reached_from_home_and_every_line_leads_somewhere() -> None:
    tree = json.loads(explorer_json("en"))
    reached, waiting = set(), [tree["home"]]
    while waiting:
        key = waiting.pop()
        level = tree["levels"][key]
        reached.add(key)
        for part in level["parts"]:
            assert part["lines"] or part["empty"] == f"{part['title']}, empty", part
            waiting += [line["open"] for line in part["lines"] if "open" in line]
    cards_count = len(list(OffCall)) + len(list(DefCall)) + sum(
        len(kind) for _, kind in words.card_lists()[2:])
    assert len(tree["levels"]) == 1 + 4 + cards_count + 1  # home, lists, cards, the rules
    assert len(reached) == len(tree["levels"])


def test_spanish_is_spanish_and_each_language_is_made_once() -> None:
    english, spanish = json.loads(explorer_json("en")), json.loads(explorer_json("es"))
    assert spanish["open"] != english["open"] and spanish["note"] != english["note"]
    assert spanish["open"] == "Explorar cartas y niveles"
    for key in ("back", "close"):
        assert spanish[key] != english[key]
    titles = [(english["levels"][key]["title"], level["title"])
              for key, level in spanish["levels"].items() if not key.startswith("Player.")]
    assert all(mine != theirs for theirs, mine in titles), titles
    assert explorer_json("es-ES") is explorer_json("es")  # cached by catalog, not by tag
    assert explorer_json("xx") is explorer_json("en")
    assert json.loads(explorer_json("../../etc/passwd" * 9))["lang"] == "en"


def test_the_site_serves_it_by_language_under_the_page_s_policy() -> None:
    class Request:  # what `Site.answer` reads of a request
        def __init__(self, path: str) -> None:
            self.path, self.headers = path, {}

    for tag in ("es", "en-US"):
        found = Site().answer(object(), Request(f"/explorer.json?lang={tag}"))  # type: ignore[arg-type]
        assert found is not None and found.status_code == 200
        assert found.headers["Content-Security-Policy"] == POLICY
        assert found.headers["Content-Type"].startswith("application/json")
        assert found.body == explorer_json(tag)


# -- in Chromium --------------------------------------------------------------------------------


@pytest.fixture
def served() -> Iterator[Server]:
    with Server("--seed", "3") as server:
        yield server


def until(page: Page, test: Any, what: str, deadline_s: float = 15) -> AriaNode:
    """The focused element once `test` holds of it."""
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        node = focused(page)
        if node is not None and test(node):
            return node
        time.sleep(0.05)
    raise AssertionError(f"{what} never took the focus:\n{aria_snapshot(page)}")


def tab_to(page: Page, name: str) -> AriaNode:
    """Tab forward to the button called `name`, as a keyboard player does."""
    for _ in range(80):
        page.keyboard.press("Tab")
        node = focused(page)
        if node is not None and (node.role, node.name) == ("button", name):
            return node
    raise AssertionError(f"no button {name!r}:\n{aria_snapshot(page, '#explorer')}")


def enter_level(page: Page, button: str, title: str) -> None:
    """Enter on `button` opens the level `title`: its heading takes the focus."""
    tab_to(page, button)
    page.keyboard.press("Enter")
    until(page, lambda n: (n.role, n.name) == ("heading", title), f"the heading {title!r}")


def buttons_under(page: Page, heading: str) -> list[str]:
    """The buttons read after the heading `heading` and before the next, in reading order."""
    found: list[str] = []
    inside = False
    for node in walk(accessible_tree(page, "#explorer")):
        if node.role == "heading":
            inside = node.name == heading
        elif inside and node.role == "button":
            found.append(node.name)
    return found


def open_dialog_is_sound(page: Page) -> None:
    assert page.evaluate("window.explorerOpen()") is True
    assert violations(page) == []
    assert small_targets(page) == []
    # Nothing outside the dialog is reachable while it is open (the page is inert).
    assert page.evaluate("document.getElementById('explorer').contains(document.activeElement)")


@ON_LINUX
@pytest.mark.timeout(300)
@pytest.mark.parametrize("width", [320, 1280])
def test_the_explorer_opens_from_the_start_page_is_walked_by_keys_and_escape_returns(
        served: Server, width: int) -> None:
    with browser_page(width, 800) as page:
        errors = complaints(page)
        page.goto(served.page)
        tree = json.loads(explorer_json("en-US"))
        opener = page.get_by_role("button", name=tree["open"])
        opener.focus()
        page.keyboard.press("Enter")
        home = tree["levels"][HOME]
        until(page, lambda n: (n.role, n.name) == ("heading", home["title"]), "the explorer")
        assert page.get_by_role("dialog", name=home["title"]).is_visible()
        assert tree["note"] in heard(page, "#explorer")
        open_dialog_is_sound(page)
        offense = home["parts"][0]["lines"][0]
        enter_level(page, offense["label"], offense["label"])
        call = next(iter(OffCall))
        listed = tree["levels"][offense["open"]]["parts"][0]["lines"]
        enter_level(page, said(listed[0]), tree["levels"][card_id(call)]["title"])
        # The bands, as the desktop's menu reads them: label and figures from the same words.
        bands = words.off_call_parts(call)[0]
        assert buttons_under(page, bands.title) == [f"{line.label}, {line.note}"
                                                    for line in bands.lines]
        band_0 = bands.lines[bands.focus]
        assert band_0.more is not None
        tab_to(page, f"{band_0.label}, {band_0.note}")
        assert band_0.more() not in heard(page, "#explorer")  # folded until asked for
        page.keyboard.press("Enter")
        assert focused(page).states.get("expanded") == "true"  # type: ignore[union-attr]
        assert band_0.more() in heard(page, "#explorer")
        open_dialog_is_sound(page)
        overflow = page.evaluate("document.getElementById('explorer').scrollWidth")
        assert overflow <= width, f"the explorer scrolls sideways at {width} pixels: {overflow}"
        # Back: one level up, to the very card it came from.
        tab_to(page, tree["back"])
        page.keyboard.press("Enter")
        node = until(page, lambda n: n.role == "button", "the card's button")
        assert node.name == said(listed[0])
        page.keyboard.press("Escape")
        node = until(page, lambda n: n.role == "button" and n.name == tree["open"], "the opener")
        assert page.evaluate("window.explorerOpen()") is False
        assert not page.get_by_role("dialog").is_visible()
        # E in a text field is a letter of the team's name, not the explorer.
        team = page.get_by_label("Your team's name")
        team.focus()
        page.keyboard.press("End")
        page.keyboard.press("e")
        assert page.evaluate("window.explorerOpen()") is False
        assert team.input_value() == "Hawkse"
    assert errors == []


@ON_LINUX
@pytest.mark.timeout(300)
def test_e_during_a_game_opens_it_and_escape_returns_to_the_same_checkbox_untouched(
        served: Server) -> None:
    with browser_page(1280, 900) as page:
        errors = complaints(page)
        page.goto(served.page)
        tree = json.loads(explorer_json("en-US"))
        page.get_by_role("button", name="Play the computer").click()
        first = next_decision(page)
        while first.role == "radio":  # the toss or the side: ours to call
            page.keyboard.press("Enter")
            first = next_decision(page)
        box = until(page, lambda n: n.role == "checkbox", "a card's checkbox")
        page.keyboard.press("Space")
        box = until(page, lambda n: n.role == "checkbox" and n.states.get("checked") == "true",
                    "the checked box")
        game = aria_snapshot(page, "#game")
        count = heard(page, "#count")
        page.keyboard.press("e")
        home = tree["levels"][HOME]
        until(page, lambda n: (n.role, n.name) == ("heading", home["title"]), "the explorer")
        open_dialog_is_sound(page)
        defense = home["parts"][0]["lines"][1]
        enter_level(page, defense["label"], defense["label"])
        page.keyboard.press("e")  # already open: E is nothing more here
        assert page.evaluate("window.explorerOpen()") is True
        page.keyboard.press("Escape")
        back = until(page, lambda n: n.role == "checkbox", "the checkbox")
        assert (back.name, back.states.get("checked")) == (box.name, "true")
        assert aria_snapshot(page, "#game") == game  # the game is as it was
        assert heard(page, "#count") == count
        # Close does the same as Escape, to the same card's box when the page drew it anew
        # meanwhile (as a new view would).
        page.keyboard.press("e")
        until(page, lambda n: n.role == "heading", "the explorer")
        page.evaluate("""() => {
            const box = document.querySelector("#decision input:checked");
            box.replaceWith(box.cloneNode(true));
        }""")
        tab_to(page, tree["close"])
        page.keyboard.press("Enter")
        back = until(page, lambda n: n.role == "checkbox", "the checkbox")
        assert (back.name, back.states.get("checked")) == (box.name, "true")
    assert errors == []

