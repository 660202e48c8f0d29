"""A browser spectator through a clean stop (issues 69 and 70): the process its page watches
from is sent SIGTERM mid-game and started again on its port, and the page watches the same
table again by itself (from the last step it heard) and hears the game to its end, the
focus resting on what it watches and then on the result.

Real processes on a real PostgreSQL and Valkey, real bots in the seats, Debian's Chromium.
"""

from __future__ import annotations

import asyncio
import random
import sys
import threading
import time
from pathlib import Path

import pytest
from browser import browser_page, complaints, focused
from cluster_node import Node
from page_ear import listen, news, wait_for_news
from postgres_places import new_database, postgres_server  # noqa: F401 (a fixture)
from postgres_server import PostgresCluster
from table_bots import BotTable, Stats
from table_driver import free_port
from valkey_server import ValkeyServer

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="real engines"),
    pytest.mark.timeout(300),
]


def test_a_browser_spectator_watches_on_through_a_clean_stop(
        postgres_server: PostgresCluster, valkey: ValkeyServer,  # noqa: F811
        tmp_path: Path) -> None:
    common = ("--postgres", new_database(postgres_server), "--valkey", valkey.url,
              "--per-address", "1000")
    stats = Stats()
    a = Node("a", free_port(), common, tmp_path / "a.log")
    b = Node("b", free_port(), common, tmp_path / "b.log")
    try:
        table = BotTable(a.url, random.Random(3), stats,
                         think=lambda rng: rng.uniform(0.2, 0.6), comeback_s=60.0,
                         comeback_urls=[b.url, a.url], guest_url=b.url)
        seated = threading.Event()

        async def play() -> None:
            await table.sit()
            seated.set()
            await table.run()

        game = threading.Thread(target=asyncio.run, args=(play(),), daemon=True)
        game.start()
        assert seated.wait(60), stats.errors
        with browser_page(1280, 900) as page:
            errors = complaints(page)
            page.goto(f"http://127.0.0.1:{a.port}/")
            listen(page)
            page.evaluate(f"sit({{type: 'watch', version: PROTOCOL_VERSION, "
                          f"code: {table.code!r}, name: ''}})")
            deadline = time.monotonic() + 20
            while (node := focused(page)) is None or not node.text.startswith("Watching"):
                assert time.monotonic() < deadline, node
                time.sleep(0.05)
            code, _took = a.terminate()
            assert code == 0
            a.start()
            wait_for_news(page, "Connected again.", timeout_s=60)
            deadline = time.monotonic() + 120
            while "Final score" not in page.locator("#decision .note").inner_text():
                if time.monotonic() > deadline:
                    pytest.fail("\n".join([
                        "the spectator never heard the end", f"news: {news(page)}",
                        f"bots: {stats.errors}, last step {max(table.played, default=-1)}",
                        f"note: {page.locator('#decision .note').inner_text()}",
                        f"a: {a.log.read_text()[-4000:]}", f"b: {b.log.read_text()[-4000:]}"]))
                time.sleep(0.2)
            node = focused(page)
            assert node is not None and node.text.startswith("Final score"), node
            said = news(page)
            assert "dropped" not in said and "No open table" not in said, said
            assert said.count("Watching the") <= 1, said  # watched again from where it was
        game.join(60)
        # The browser's own line for each try while the process was down; nothing else.
        assert [error for error in errors if "ERR_CONNECTION_REFUSED" not in error] == []
        assert not stats.errors, stats.errors
        assert not [fault for node in (a, b) for fault in node.faults()]
    finally:
        for node in (a, b):
            if node.proc is not None and node.proc.poll() is None:
                node.terminate()
