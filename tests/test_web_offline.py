"""The page's own game in a real Chromium (issue 74): the web build's Pyodide runs the game's
Python in a Web Worker (page/offline.js) from nothing but the build's folder, and plays the
same games as the desktop engine, event for event, for the same seeds."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser import browser_page
from page_ear import KeyPlayer, decision_focus, listen, news
from server_process import Running
from static_site import static_site
from test_web_browser import small_targets, violations
from test_web_offline_table import play

from sudden_death.language import available
from sudden_death.resources import sounds_dir
from sudden_death.web.offline import games
from sudden_death.web.offline_table import OfflineTable
from sudden_death.web.site import POLICY

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import web_build  # noqa: E402

pytestmark = [pytest.mark.skipif(not sys.platform.startswith("linux"),
                                 reason="Debian's Chromium is Linux's"),
              pytest.mark.browser, pytest.mark.timeout(300)]

SEEDS = list(range(1, 21))
@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The web build, made once for the module."""
    folder = tmp_path_factory.mktemp("web")
    web_build.build(folder)
    return folder


@pytest.fixture(scope="module")
def site(built: Path) -> Iterator[str]:
    """The web build, served by a plain static server: the address of its folder."""
    with static_site(built) as address:
        yield address


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
            page.wait_for_function("() => document.getElementById('news').textContent"
                                   ".includes('The game is kept on this device')")
            version = (built / "sw.js").read_text().split('const VERSION = "', 1)[1][:16]
            assert [f"sudden-death-{version}", len(listed) + 1] in kept["kept"], kept
            page.context.set_offline(True)
            page.reload()
            page.get_by_role("heading", name="Sudden Death").wait_for()
            assert page.get_by_role("button", name="Play the computer", exact=True).is_visible()
            played = page.evaluate(ASK_GAMES, SEEDS[:3])
        server.stopped()
    assert "error" not in played, played
    assert played["answer"] == games(SEEDS[:3])


def test_the_build_holds_the_pages_words_in_every_language_and_its_cues(built: Path) -> None:
    """With the licences of what it holds: some cues are GPL-2.0-or-later recordings."""
    listed = json.loads((built / "contents.json").read_text())["files"]
    assert {"LICENSE.txt", "sounds/LICENSES.md", "sounds/GPL-2.txt"} <= set(listed)
    assert (built / "sounds" / "GPL-2.txt").read_bytes() == \
        (sounds_dir() / "GPL-2.txt").read_bytes()
    for code in available():
        assert json.loads((built / "words" / f"{code}.json").read_text())["lang"] == code
        assert f"explorer/{code}.json" in listed
    assert json.loads((built / "words" / "es.json").read_text())["play_computer"] != \
        json.loads((built / "words" / "en.json").read_text())["play_computer"]
    assert {f"sounds/{cue.name}" for cue in sounds_dir().glob("*.wav")} <= set(listed)
    assert "sw.js" not in listed and 'const VERSION = "dev"' not in (built / "sw.js").read_text()
    kept = (built / "index.html").read_text()
    assert 'rel="manifest"' in kept and 'src="install.js"' in kept
    assert 'rel="apple-touch-icon" href="icon-180.png"' in kept  # an iPhone takes no SVG
    icons = json.loads((built / "manifest.webmanifest").read_text())["icons"]
    assert {icon["sizes"] for icon in icons} == {"any", "192x192", "512x512"}
    for size in (180, 192, 512):
        png = (built / f"icon-{size}.png").read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n" and f"icon-{size}.png" in listed
        width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
        assert (width, height) == (size, size)
    own = (ROOT / "sudden_death" / "web" / "page" / "index.html").read_text()
    assert 'rel="manifest"' not in own and "install.js" not in own  # five requests a load


def test_a_server_told_to_serve_no_build_says_so_and_does_not_start(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "sudden_death.server", "--port", "0",
                           "--web", str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2, done.stderr
    assert f"--web {tmp_path}: no web build there" in done.stderr
    assert "build-web" in done.stderr and "Traceback" not in done.stderr


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


# Whether the page's network is cut: the browser says it is offline, and a file no one kept
# (sw.js answers the build's own from its cache) cannot be fetched.
CUT = """() => navigator.onLine ? 'online' : fetch('not-kept.txt?' + Math.random())
  .then((answer) => answer.ok ? 'reached' : 'cut', () => 'cut')"""


KEEP_WHAT_IS_SENT = """() => {
  const send = DeviceLine.prototype.send;
  window.sentHere = [];
  DeviceLine.prototype.send = function (text) {
    window.sentHere.push(text);
    return send.call(this, text);
  };
}"""


@pytest.mark.parametrize(("tag", "lang", "button", "loading", "first"), [
    ("en-US", "en", "Play the computer on this device", "step {} of 3", "Heads"),
    ("es-MX", "es", "Jugar contra la computadora en este dispositivo", "paso {} de 3",
     "Águila")])
def test_the_page_plays_the_computer_on_the_device_by_keys_with_the_network_cut(
        site: str, tag: str, lang: str, button: str, loading: str, first: str) -> None:
    """From the start form's own button, in the browser's language (the build's words, no
    server to ask): the load said step by step, the toss's decision focused, then the network
    cut (Playwright's offline mode) and downs played by the keys alone; the game log is the
    table's in CPython for the seed and what the page sent."""
    errors: list[str] = []
    with browser_page() as page:
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.add_init_script(f"Object.defineProperty(navigator, 'languages', "
                             f"{{get: () => [{tag!r}]}})")
        page.goto(site + "?seed=41")
        listen(page)
        page.evaluate(KEEP_WHAT_IS_SENT)
        page.wait_for_function(f"document.documentElement.lang === {lang!r}")
        explorer = page.evaluate("fetchWords('explorer', navigator.languages[0])"
                                 ".then((tree) => tree.lang)")
        assert explorer == lang  # the card explorer's words beside the page too
        page.get_by_role("button", name=button).focus()
        page.keyboard.press("Enter")
        toss = decision_focus(page, timeout_s=120)  # the runtime loads first
        assert (toss.role, toss.name) == ("radio", first), toss
        page.context.set_offline(True)
        assert page.evaluate(CUT) == "cut"
        player = KeyPlayer(page, random.Random(41))
        while player.downs < 4:
            node = decision_focus(page)
            assert node.role != "button", "the game ended before four downs"
            if node.role == "radio":
                player.choice()
            else:
                player.downs += 1
                player.hand()
        decision_focus(page)  # the fourth down's answer, drawn
        said = news(page)
        logged = page.locator("#log li").all_inner_texts()
        sent = page.evaluate("window.sentHere")
    assert errors == []
    table = OfflineTable.open(41, lang, "Hawks", "Bears", "random")
    frames = table.start()
    assert [loading.format(step) in said for step in (1, 2, 3)] == [True] * 3
    assert said.index(loading.format(1)) < said.index(frames[1]["lines"][0])
    greeting = json.loads(sent[0])
    assert greeting["type"] == "host" and greeting["computer"] == "Bears"
    for text in sent[1:]:
        frames += table.answer(text)
    assert not [frame for frame in frames if frame["type"] == "refused"]
    assert logged == [line for frame in frames if frame["type"] == "view"
                      for line in frame["lines"]]
    assert sum(1 for text in sent if "PickHand" in text) == 4 and len(logged) > 10


def test_with_no_server_to_answer_a_whole_game_is_played_here_by_keys_offline(
        site: str) -> None:
    """Play the computer on the build's page, which no table server serves: the page says so
    and plays it on the device instead (nothing said of a line dropped); with the network
    cut once the runtime is in, a whole game by keys to its final score, every line as
    CPython's table has it; axe finds nothing serious on the game's page."""
    errors: list[str] = []
    with browser_page() as page:
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(site + "?seed=43")
        listen(page)
        page.evaluate(KEEP_WHAT_IS_SENT)
        page.wait_for_function("document.documentElement.lang === 'en'")
        assert violations(page) == [] and small_targets(page) == []
        page.get_by_role("button", name="Play the computer", exact=True).click()
        toss = decision_focus(page, timeout_s=120)
        assert (toss.role, toss.name) == ("radio", "Heads"), toss
        page.context.set_offline(True)
        assert page.evaluate(CUT) == "cut"
        assert violations(page) == []
        player = KeyPlayer(page, random.Random(43))
        over = player.play_out()
        said = news(page)
        urgent = page.locator("#urgent").inner_text()
        logged = page.locator("#log li").all_inner_texts()
        sent = page.evaluate("window.sentHere")
    assert errors == []
    assert "Final score" in over and player.downs >= 8
    assert "No table server answers: you play the computer on this device." in said
    assert urgent == ""  # no line dropped, nothing failed
    table = OfflineTable.open(43, "en", "Hawks", "Bears", "random")
    frames = table.start()
    for text in sent[1:]:
        frames += table.answer(text)
    assert table.game.is_over and not [f for f in frames if f["type"] == "refused"]
    assert logged == [line for frame in frames if frame["type"] == "view"
                      for line in frame["lines"]]


def test_a_page_without_the_runtime_offers_no_game_on_the_device_and_a_failed_load_is_said(
        built: Path, tmp_path: Path) -> None:
    """The table server's own page (no device.js, no runtime beside it): no button for a game
    it could not load. A build whose runtime is missing: asked, the page says at once,
    urgently and in words, that the game could not be loaded, and stays at its start."""
    own = (ROOT / "sudden_death" / "web" / "page" / "index.html").read_text()
    assert "device.js" not in own and "device.js" in (built / "index.html").read_text()
    broken = tmp_path / "broken"
    shutil.copytree(built, broken, ignore=shutil.ignore_patterns("pyodide", "sw.js"))
    (broken / "index.html").write_text(own)  # the server's page first, then the build's
    with static_site(broken) as address, browser_page() as page:
        page.goto(address + "index.html")
        page.wait_for_function("document.documentElement.lang === 'en'")
        assert page.locator("#computer-here").is_hidden()
        assert page.get_by_role("button", name="Play the computer").count() == 1
        (broken / "index.html").write_text(
            (built / "index.html").read_text().replace('<script src="install.js" defer>'
                                                       '</script>\n', ""))
        page.reload()
        page.get_by_role("button", name="Play the computer on this device").click()
        page.wait_for_function("document.getElementById('urgent').textContent.includes("
                               "'could not be loaded on this device')", timeout=30_000)
        assert page.locator("#start").is_visible()


def test_a_runtime_file_refused_for_now_is_asked_again_and_the_game_loads(site: str) -> None:
    """A table server refuses a first visit's files for a few seconds once its service worker
    has spent the address's new lines (429): the game's archive refused once, the page loads
    it again after a pause and plays, says each step of the load once, and says no failure.
    (No service worker here: the refusal is the worker's own.)"""
    refused: list[str] = []

    def once(route: Any) -> None:
        if refused:
            route.continue_()
        else:
            refused.append(route.request.url)
            route.fulfill(status=429, body="Too many new lines.")

    with browser_page(service_workers="block") as page:
        page.context.route("**/game.zip", once)
        page.goto(site + "?seed=41")
        listen(page)
        page.wait_for_function("document.documentElement.lang === 'en'")
        page.get_by_role("button", name="Play the computer on this device").click()
        toss = decision_focus(page, timeout_s=120)
        said = news(page)
        urgent = page.locator("#urgent").inner_text()
    assert refused and (toss.role, toss.name) == ("radio", "Heads"), (refused, toss)
    assert urgent == ""
    assert [said.count(f"step {step} of 3") for step in (1, 2, 3)] == [1, 1, 1], said
