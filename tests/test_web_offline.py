"""The page's own game in a real Chromium (issue 74): the web build's Pyodide runs the game's
Python in a Web Worker (page/offline.js) from nothing but the build's folder, and plays the
same games as the desktop engine, event for event, for the same seeds."""

from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from browser import browser_page

from sudden_death.web.offline import games

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import web_build  # noqa: E402

pytestmark = [pytest.mark.skipif(not sys.platform.startswith("linux"),
                                 reason="Debian's Chromium is Linux's"),
              pytest.mark.browser, pytest.mark.timeout(300)]

SEEDS = list(range(1, 21))
# What a static host says of the build's files (Python's own table lacks .mjs before 3.12).
TYPES = {".mjs": "text/javascript", ".js": "text/javascript", ".wasm": "application/wasm",
         ".json": "application/json", ".zip": "application/zip"}


class Quiet(SimpleHTTPRequestHandler):
    extensions_map: ClassVar[dict[str, str]] = {**SimpleHTTPRequestHandler.extensions_map,
                                                **TYPES}

    def log_message(self, format: str, *args: Any) -> None:
        """Nothing on the test's output for each file served."""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The web build, served by a plain static server: the address of its folder."""
    folder = tmp_path_factory.mktemp("web")
    web_build.build(folder)
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=folder))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


ASK_GAMES = """async (seeds) => {
  const worker = new Worker('offline.js', {type: 'module'});
  const loading = [];
  try {
    return await new Promise((resolve) => {
      worker.onerror = (event) => resolve({error: 'the worker failed: ' + event.message});
      worker.onmessage = (event) => {
        const said = event.data;
        if (said.loading) {
          loading.push([said.loading, said.done, said.of]);
          if (said.loading === 'failed') resolve({error: said.error, loading});
          if (said.loading === 'ready') worker.postMessage({ask: 'games', id: 1, seeds});
          return;
        }
        resolve({loading, ...said});
      };
    });
  } finally {
    worker.terminate();
  }
}"""


def test_the_browser_plays_the_desktop_engines_games_event_for_event(site: str) -> None:
    with browser_page() as page:
        page.goto(site + "contents.json")  # any page of the build's origin starts its worker
        played = page.evaluate(ASK_GAMES, SEEDS)
    assert "error" not in played, played
    assert [step[0] for step in played["loading"]] == ["runtime", "game", "modules", "ready"]
    assert [step[1] for step in played["loading"]] == [0, 1, 2, 3]  # a progress to read
    desktop = games(SEEDS)
    assert played["answer"] == desktop
    assert len({str(game["events"]) for game in desktop}) == len(SEEDS)  # not one game twenty times


def test_the_worker_says_what_it_cannot_do(site: str) -> None:
    with browser_page() as page:
        page.goto(site + "contents.json")
        said = page.evaluate("""async () => {
          const worker = new Worker('offline.js', {type: 'module'});
          const answer = await new Promise((resolve) => {
            worker.onmessage = (event) => { if (!event.data.loading) resolve(event.data); };
            worker.postMessage({ask: 'fly', id: 7});
          });
          worker.terminate();
          return answer;
        }""")
    assert said == {"id": 7, "error": 'nothing is done for "fly"'}
