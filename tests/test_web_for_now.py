"""The browser page when its seat's resume is refused for now (issue 70): the server's Valkey
or database is away, so it answers `refused` `busy`, not fatal, and closes the line with 1013.
The page says once that the server is busy and trying again, asks again within a second each
time (never the drop's 2, 4, 8 s), never says the line is lost, and is back on its seat with
"Connected again." once the server answers. Chromium, a real server, and the page's own line
routed by Playwright: the first resumes hear the server's exact refusal, the rest reach it."""

from __future__ import annotations

import itertools
import json
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import browser_page, focused
from page_ear import decision_focus
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
