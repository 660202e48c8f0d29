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
from test_web_offline_table import play

from sudden_death.web.offline import games
from sudden_death.web.offline_table import OfflineTable

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


PLAY_THE_COMPUTER = """async ({seed, lang}) => {
  const worker = new Worker('offline.js', {type: 'module'});
  const waiting = new Map();
  let asked = 0;
  worker.onmessage = (event) => {
    const said = event.data;
    if (said.loading === 'failed') for (const resolve of waiting.values()) resolve(said);
    if (said.loading) return;
    waiting.get(said.id)(said);
    waiting.delete(said.id);
  };
  const ask = (message) => new Promise((resolve) => {
    asked += 1;
    waiting.set(asked, resolve);
    worker.postMessage({...message, id: asked});
  });
  // What a player pressing Enter at every decision sends (test_web_offline_table's
  // first_option): the first option, or the form's first players and calls.
  const firstOption = (decision) => decision.kind === 'choice' ? decision.options[0].actions
    : [...decision.before, {action: 'PickHand', hand: {
        players: decision.players.slice(0, decision.limits[0]).map((card) => card.id),
        calls: decision.calls.slice(0, decision.limits[1]).map((card) => card.id)}}];
  try {
    const before = await ask({ask: 'line', message: '{"type": "rematch"}'});
    let said = await ask({ask: 'start', seed, lang, team: 'Hawks', theirs: 'Bears',
                          opponent: 'random'});
    if (said.error) return {error: said.error};
    const frames = [...said.frames];
    for (let turn = 0; turn < 1000; turn += 1) {
      const view = frames.filter((frame) => frame.type === 'view').pop();
      if (view.decision.kind === 'over') break;
      said = await ask({ask: 'line', message: JSON.stringify(
        {type: 'act', step: view.step, actions: firstOption(view.decision)})});
      if (said.error) return {error: said.error, frames};
      frames.push(...said.frames);
    }
    const refused = await ask({ask: 'line', message: '{not json'});
    return {before, frames, refused: refused.frames};
  } finally {
    worker.terminate();
  }
}"""


@pytest.mark.parametrize(("seed", "lang"), [(31, "en"), (32, "es")])
def test_the_worker_plays_the_computer_frame_for_frame_as_cpython_does(
        site: str, seed: int, lang: str) -> None:
    """The page's table against the computer, driven in the worker as the page will drive it
    (a start, then each act as the JSON text it would send a server): every frame the same as
    the table's in CPython for the same seed and actions, to the end and a refusal after."""
    with browser_page() as page:
        page.goto(site + "contents.json")
        played = page.evaluate(PLAY_THE_COMPUTER, {"seed": seed, "lang": lang})
    assert "error" not in played, played
    assert played["before"] == {"id": 1, "error": "Error: no game has started here"}
    table = OfflineTable.open(seed, lang, "Hawks", "Bears", "random")
    frames, acts = play(table)
    assert played["frames"] == frames
    assert played["refused"] == table.answer("{not json")
    assert len(acts) > 10 and frames[-1]["decision"]["kind"] == "over"
