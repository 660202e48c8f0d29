"""The browser page when its seat's resume is refused for now (issue 70): the server's Valkey
or database is away, so it answers `refused` `busy`, not fatal, and closes the line with 1013.
The page says once that the server is busy and trying again, asks again within a second each
time (never the drop's 2, 4, 8 s), never says the line is lost, and is back on its seat with
"Connected again." once the server answers. Chromium, a real server, and the page's own line
routed by Playwright: the first resumes hear the server's exact refusal, the rest reach it.
And a choice the server lost (issue 73: a server killed before it wrote a held choice) is sent
again once the page is back on its seat, as the desktop game's link sends it."""

from __future__ import annotations

import itertools
import json
import random
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import browser_page, focused
from page_ear import KeyPlayer, decision_focus
from playwright.sync_api import WebSocketRoute
from table_driver import Server
from test_web_browser import heard

from sudden_death.net.link import FOR_NOW_MAX_S
from sudden_death.server.lines.try_again import TRY_AGAIN
from sudden_death.ui.words.table import busy_words, restored_words
from sudden_death.wire import protocol as p

pytestmark = [pytest.mark.skipif(not sys.platform.startswith("linux"),
                                 reason="Debian's Chromium is Linux's"),
              pytest.mark.timeout(120)]

REFUSALS = 3


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Server]:
    with Server("--seed", "3") as server:
        yield server


def test_a_resume_refused_for_now_is_said_busy_once_and_the_seat_comes_back(
        served: Server) -> None:
    resumes: list[float] = []

    def route(line: WebSocketRoute) -> None:
        def heard_from_page(message: str | bytes) -> None:
            if json.loads(message).get("type") == "resume" and len(resumes) < REFUSALS:
                resumes.append(time.monotonic())
                line.send(p.encode(p.Refused(p.BUSY, "Valkey away; try again", False)))
                line.close(code=TRY_AGAIN, reason="try again")
                return
            if json.loads(message).get("type") == "resume":
                resumes.append(time.monotonic())
            server.send(message)

        server = line.connect_to_server()
        line.on_message(heard_from_page)

    with browser_page(1280, 900) as page:
        page.route_web_socket(re.compile(r".*/play.*"), route)
        page.goto(served.page)
        page.get_by_role("button", name="Play the computer").click()
        decision_focus(page, 20)
        page.evaluate("line.close()")  # not the page's doing: its close is a drop
        deadline = time.monotonic() + 20
        while restored_words() not in heard(page, "#news") and time.monotonic() < deadline:
            time.sleep(0.05)
        news, urgent = heard(page, "#news"), heard(page, "#urgent")
        assert restored_words() in news, news
        assert news.count(busy_words()) == 1, news
        assert news.count("Connecting to the table server.") == 2, news  # not at every try
        assert "dropped" not in news + urgent, (news, urgent)
        assert len(resumes) == REFUSALS + 1, resumes
        gaps = [later - earlier for earlier, later in itertools.pairwise(resumes)]
        assert max(gaps) < FOR_NOW_MAX_S + 0.5, gaps
        assert focused(page) is not None  # back on its decision


def test_a_choice_the_server_lost_is_sent_again_once_the_page_is_back(
        served: Server) -> None:
    """The page's first act never reaches the server (as a server SIGKILLed before it wrote a
    held choice loses it) and its line closes (as the kill closes it): back on its seat, the
    server's start holds nothing at that step, so the page sends the same act again, once,
    with nothing for the player to do, and the game goes on past that step."""
    acts: list[dict[str, object]] = []

    def route(line: WebSocketRoute) -> None:
        def heard_from_page(message: str | bytes) -> None:
            sent = json.loads(message)
            if sent.get("type") == "act":
                acts.append(sent)
                if len(acts) == 1:  # lost with the server, and the line with it
                    line.close()
                    return
            server.send(message)

        server = line.connect_to_server()
        line.on_message(heard_from_page)

    with browser_page(1280, 900) as page:
        page.route_web_socket(re.compile(r".*/play.*"), route)
        page.goto(served.page)
        page.get_by_role("button", name="Play the computer").click()
        first = decision_focus(page, 20)
        step = page.evaluate("view.step")
        player = KeyPlayer(page, random.Random(7))
        if first.role == "radio":
            player.choice()
        else:
            player.hand()
        deadline = time.monotonic() + 20
        while page.evaluate("lastStep") <= step and time.monotonic() < deadline:
            time.sleep(0.05)
        assert page.evaluate("lastStep") > step, (acts, heard(page, "#news"))
        time.sleep(0.3)  # a refusal of a repeat would be said by now
        urgent = heard(page, "#urgent")
        assert [act["step"] for act in acts] == [step, step] and acts[0] == acts[1], acts
        assert restored_words() in heard(page, "#news")
        assert "already in" not in urgent and "dropped" not in urgent, urgent
