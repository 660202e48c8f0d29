"""The page's own game in a real Chromium (issue 74): the web build's Pyodide runs the game's
Python in a Web Worker (page/offline.js) from nothing but the build's folder, and plays the
same games as the desktop engine, event for event, for the same seeds."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from browser import browser_page
from server_process import Running

from sudden_death.language import available
from sudden_death.resources import sounds_dir
from sudden_death.web.offline import games
from sudden_death.web.site import POLICY

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
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The web build, made once for the module."""
    folder = tmp_path_factory.mktemp("web")
    web_build.build(folder)
    return folder


@pytest.fixture(scope="module")
def site(built: Path) -> Iterator[str]:
    """The web build, served by a plain static server: the address of its folder."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=built))
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


KEPT = """async () => {
  const registration = await navigator.serviceWorker.ready;
  const names = await caches.keys();
  const kept = [];
  for (const name of names) kept.push([name, (await (await caches.open(name)).keys()).length]);
  const controlled = Boolean(navigator.serviceWorker.controller);
  return {active: Boolean(registration.active), controlled, kept};
}"""


def test_a_page_opened_once_opens_and_plays_the_computer_with_the_network_off(
        built: Path) -> None:
    """Served by the table server (`--web`, under its Content-Security-Policy): the page
    keeps every file of the build (sw.js), and with the network cut it opens again in its
    words and its worker plays the same games as the desktop engine."""
    listed = json.loads((built / "contents.json").read_text())["files"]
    with Running("--web", str(built)) as server:
        address = "http://" + server.url.split("//", 1)[1].split("/", 1)[0] + "/"
        with urllib.request.urlopen(address + "pyodide/pyodide.asm.wasm") as answer:
            assert answer.headers["Content-Type"] == "application/wasm"
            assert answer.headers["Content-Security-Policy"] == POLICY
            assert answer.read() == (built / "pyodide" / "pyodide.asm.wasm").read_bytes()
        with browser_page() as page:
            page.goto(address)
            page.wait_for_function("() => navigator.serviceWorker.controller !== null",
                                   timeout=120_000)
            kept = page.evaluate(KEPT)
            assert kept["active"] and kept["controlled"], kept
            version = (built / "sw.js").read_text().split('const VERSION = "', 1)[1][:16]
            assert [f"sudden-death-{version}", len(listed) + 1] in kept["kept"], kept
            page.context.set_offline(True)
            page.reload()
            page.get_by_role("heading", name="Sudden Death").wait_for()
            assert page.get_by_role("button", name="Play the computer").is_visible()
            played = page.evaluate(ASK_GAMES, SEEDS[:3])
        server.stopped()
    assert "error" not in played, played
    assert played["answer"] == games(SEEDS[:3])


def test_the_build_holds_the_pages_words_in_every_language_and_its_cues(built: Path) -> None:
    listed = json.loads((built / "contents.json").read_text())["files"]
    for code in available():
        assert json.loads((built / "words" / f"{code}.json").read_text())["lang"] == code
        assert f"explorer/{code}.json" in listed
    assert json.loads((built / "words" / "es.json").read_text())["play_computer"] != \
        json.loads((built / "words" / "en.json").read_text())["play_computer"]
    assert {f"sounds/{cue.name}" for cue in sounds_dir().glob("*.wav")} <= set(listed)
    assert "sw.js" not in listed and 'const VERSION = "dev"' not in (built / "sw.js").read_text()
    kept = (built / "index.html").read_text()
    assert 'rel="manifest"' in kept and 'src="install.js"' in kept
    own = (ROOT / "sudden_death" / "web" / "page" / "index.html").read_text()
    assert 'rel="manifest"' not in own and "install.js" not in own  # five requests a load


def test_a_server_told_to_serve_no_build_says_so_and_does_not_start(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "sudden_death.server", "--port", "0",
                           "--web", str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2, done.stderr
    assert f"--web {tmp_path}: no web build there" in done.stderr
    assert "build-web" in done.stderr and "Traceback" not in done.stderr
