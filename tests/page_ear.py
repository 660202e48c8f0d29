"""The browser page as a screen reader hears it (issue 69): what its live regions held and for
how long, where the focus was, and a player who plays whole games by keys alone.

A screen reader reads a live region's text when it changes and lets it stand; text replaced
within a frame or two is never read. So `LISTEN` records, inside the page (a MutationObserver,
performance.now()), every entry added to the news logs (#news, #urgent) with the time it
came and the time it went, every change of the count (#count), and any moment the focus
fell to the page's body during a game: a test then asserts what stayed readable, not what
was written. `KeyPlayer` plays by the desktop game's keys (digits, arrows, Enter) and
counts them, a down at a time; the tests (test_web_ear.py) and benchmarks/browser_seat.py
share it.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from browser import AriaNode, aria_snapshot, focused
from playwright.sync_api import Page

LISTEN = """() => {
    const heard = window.heard = {news: [], count: [], lost: 0, focus: []};
    const now = () => performance.now();
    const watch = (id) => {
        const region = document.getElementById(id);
        const open = new Map();
        new MutationObserver((changes) => {
            for (const change of changes) {
                for (const node of change.addedNodes) {
                    if (node.nodeType !== 1) continue;
                    const entry = {region: id, text: node.textContent, at: now(), gone: null,
                                   step: node.dataset.step || ""};
                    heard.news.push(entry);
                    open.set(node, entry);
                }
                for (const node of change.removedNodes) {
                    const entry = open.get(node);
                    if (entry) entry.gone = now();
                }
            }
        }).observe(region, {childList: true});
    };
    watch("news");
    watch("urgent");
    const count = document.getElementById("count");
    new MutationObserver(() => heard.count.push({text: count.textContent, at: now()}))
        .observe(count, {childList: true, characterData: true, subtree: true});
    document.addEventListener("focusin", (event) => {
        const target = event.target;
        heard.focus.push({at: now(), tag: target.tagName, type: target.type || "",
                          text: (target.labels && target.labels[0]
                                 ? target.labels[0].textContent : target.textContent)
                                .slice(0, 200)});
    }, true);
    window.setInterval(() => {
        if (!document.getElementById("game").hidden && document.activeElement === document.body)
            heard.lost += 1;
    }, 50);
}"""


def listen(page: Page) -> None:
    """Start recording what the page's live regions hold (call after each navigation)."""
    page.evaluate(LISTEN)


def heard(page: Page) -> dict[str, Any]:
    """What the page recorded since `listen`, with each entry's time on screen in ms (the
    entries still shown have stood from their arrival until now)."""
    found: dict[str, Any] = page.evaluate("""() => {
        const at = performance.now();
        for (const entry of window.heard.news) entry.stood = (entry.gone ?? at) - entry.at;
        return window.heard;
    }""")
    return found


def news(page: Page) -> str:
    """Every word the news logs have held, in order."""
    return " ".join(entry["text"] for entry in heard(page)["news"])


def wait_for_news(page: Page, words: str, timeout_s: float = 15) -> str:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        said = news(page)
        if words in said:
            return said
        time.sleep(0.05)
    raise AssertionError(f"never said {words!r}; said: {news(page)!r}")


DECISION_ROLES = ("radio", "checkbox")


def decision_focus(page: Page, timeout_s: float = 20) -> AriaNode:
    """The control the next decision gives the focus to (a radio button, a checkbox, or Play
    again once the game is over)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        node = focused(page)
        if node is not None and (node.role in DECISION_ROLES
                                 or (node.role, node.name) == ("button", "Play again")) \
                and node.name != "Show what each card does":
            return node
        time.sleep(0.03)
    raise AssertionError(f"no decision took the focus:\n{aria_snapshot(page)}")


@dataclass
class Player:
    """Answers every decision that takes the focus until the game is over: `choice` for a
    radio group, `hand` for a down's cards (each player's own way)."""

    page: Page
    rng: random.Random
    downs: int = 0  # the hands played: each down has one (a kick's down too)
    decisions: int = 0

    def choice(self) -> None:
        raise NotImplementedError

    def hand(self) -> None:
        raise NotImplementedError

    def play_out(self) -> str:
        """Every decision until the game is over; the final words."""
        while True:
            node = decision_focus(self.page)
            if node.role == "button":
                return " ".join(self.page.locator("#decision").all_inner_texts())
            self.decisions += 1
            assert self.decisions < 400
            if node.role == "radio":
                self.choice()
            else:
                self.downs += 1
                self.hand()


@dataclass
class KeyPlayer(Player):
    """Plays decisions by the keys a careful keyboard player would press, and counts them:
    for a hand, a digit for each card it wants (a full list moves the focus on by itself) or,
    with last down's cards checked again, often just Enter; for a choice, a digit or an
    arrow now and then, and Enter."""

    keys: int = 0
    focus_after_enter: list[str] = field(default_factory=list)

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.keys += 1

    def hand(self) -> None:
        """Choose the cards for a down by digits: 2 players, then 3 calls."""
        groups = self.page.evaluate("""() => [
            ...document.querySelectorAll('#decision fieldset.cards')].map(
                (set) => [...set.querySelectorAll('input')].map((input) => input.checked))""")
        players, calls = groups
        if sum(players) == 2 and sum(calls) == 3 and self.rng.random() < 0.6:
            self.enter()  # last down's cards again
            return
        if sum(players) == 2 and sum(calls) == 3:  # change one player: two digits
            out = self.rng.choice([i for i, on in enumerate(players) if on])
            into = self.rng.choice([i for i, on in enumerate(players) if not on])
            self.press(str(out + 1))
            self.press(str(into + 1))
            self.enter()
            return
        assert sum(players) == 0 and sum(calls) == 0, groups
        for index in self.rng.sample(range(len(players)), 2):
            self.press(str(index + 1))
        self.wait_for_group("call")
        for index in self.rng.sample(range(len(calls)), 3):
            self.press(str(index + 1))
        self.enter()

    def wait_for_group(self, name: str) -> None:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            if self.page.evaluate(f"document.activeElement.name === {name!r}"):
                return
            time.sleep(0.02)
        raise AssertionError(f"the focus did not move on to the {name}s")

    def choice(self) -> None:
        options = self.page.locator("#decision input[type=radio]").count()
        if options > 1 and self.rng.random() < 0.3:
            self.press(str(self.rng.randrange(min(options, 9)) + 1))
        self.enter()

    def enter(self) -> None:
        self.press("Enter")
        time.sleep(0.05)
        node = focused(self.page)
        self.focus_after_enter.append("" if node is None else f"{node.role}: {node.name}")


@dataclass
class TapPlayer(Player):
    """Plays decisions as a phone's player does, one tap (a click: the same events) a control:
    the cards wanted and Confirm (Confirm alone when last down's cards will do), an option
    if not the first and Choose; counts the taps."""

    taps: int = 0

    def tap(self, selector: str, index: int = 0) -> None:
        self.page.locator(selector).nth(index).click()
        self.taps += 1

    def choice(self) -> None:
        options = self.page.locator("#decision input[type=radio]").count()
        pick = self.rng.randrange(options) if self.rng.random() < 0.3 else 0
        if pick:
            self.tap("#decision input[type=radio]", pick)
        self.tap("#decision button[type=submit]")

    def hand(self) -> None:
        checked = self.page.locator("#decision fieldset.cards input:checked").count()
        if checked == 0 or self.rng.random() >= 0.6:
            for name, wanted in (("player", 2), ("call", 3)):
                boxes = f"#decision input[name={name}]"
                for index in range(self.page.locator(boxes).count()):
                    if self.page.locator(boxes).nth(index).is_checked():
                        self.tap(boxes, index)  # a fresh pick
                for index in self.rng.sample(range(self.page.locator(boxes).count()), wanted):
                    self.tap(boxes, index)
        self.tap("#decision button[type=submit]")
