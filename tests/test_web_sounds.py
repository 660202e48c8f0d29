"""The browser page's sound cues (issue 69): the table server serves the desktop game's cue
files and nothing else under /sounds/, and the page (page/sounds.js) plays them through Web
Audio in Debian's Chromium, in order, under its policy, at a kept volume never above 1, and
not at all when switched off.

Headless Chromium has no sound card, but its AudioContext runs all the same once a key has
been pressed (a fake output): the tests press one first, as a player's first key would.
Chromium is needed for those: CI sets SUDDEN_DEATH_REQUIRE_CHROMIUM=1 (tests/browser.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
import time
import wave
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser import browser_page, complaints
from playwright.sync_api import Page
from server_lab import run, server
from table_driver import Server
from test_web_view import fetch, page_url
from websockets.datastructures import Headers
from websockets.http11 import Request

from sudden_death.resources import sounds_dir
from sudden_death.server.lines.limits import Limits
from sudden_death.web.site import POLICY, CueFiles, Site, page_words

KEY = "sudden-death-sound"


def test_each_cue_file_is_served_as_it_is_and_nothing_else_under_sounds() -> None:
    files = sorted(sounds_dir().glob("*.wav"))
    assert len(files) > 20 and Path(sounds_dir(), "reveal.wav") in files

    async def scenario() -> None:
        async with server(page=True, limits=Limits(connects_per_s=1000, connect_burst=1000),
                          ) as lab:
            for path in files:
                status, headers, body = await asyncio.to_thread(
                    fetch, page_url(lab, f"/sounds/{path.name}"))
                assert status == 200, path.name
                assert body == path.read_bytes(), path.name
                assert headers["Content-Type"] == "audio/wav"
                assert headers["Content-Security-Policy"] == POLICY
                assert headers["X-Content-Type-Options"] == "nosniff"
            for name in ("/sounds/../pyproject.toml", "/sounds/x.wav", "/sounds/",
                         "/sounds/dice", "/sounds/%2e%2e/pyproject.toml", "/sounds/__init__.py",
                         "/sounds/LICENSES.md", "/sounds/dice.wav/", "/sounds//dice.wav",
                         "/sounds/DICE.WAV", "/sounds/..%2f..%2fpyproject.toml", "/dice.wav"):
                status, _, body = await asyncio.to_thread(fetch, page_url(lab, name))
                assert status == 404 and b"Not found" in body, name

    run(scenario)


def ask(site: Site, path: str) -> int:
    return site.answer(object(), Request(path, Headers())).status_code


def test_a_missing_or_damaged_sounds_folder_leaves_the_page_served(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Logged once, and the page plays on without the cue."""
    with caplog.at_level(logging.ERROR, "sudden_death.server"):
        site = Site(cues=CueFiles(tmp_path / "nowhere"))
    assert "sounds cannot be served" in caplog.text
    assert ask(site, "/") == 200 and ask(site, "/sounds/dice.wav") == 404
    folder = tmp_path / "sounds"
    folder.mkdir()
    (folder / "dice.wav").write_bytes(b"RIFF")
    (folder / "whistle.wav").write_bytes(b"RIFF....")
    site = Site(cues=CueFiles(folder))
    assert site.cues.kept == {}  # nothing read until asked for
    (folder / "dice.wav").unlink()  # gone after the start: a damaged install
    caplog.clear()
    with caplog.at_level(logging.ERROR, "sudden_death.server"):
        assert [ask(site, "/sounds/dice.wav") for _ in range(3)] == [404, 404, 404]
    assert caplog.text.count("cannot be served") == 1
    assert ask(site, "/sounds/whistle.wav") == 200 and ask(site, "/") == 200
    assert site.cues.kept == {"/sounds/whistle.wav": b"RIFF...."}


def test_the_sound_section_s_words_come_in_spanish_too() -> None:
    words = json.loads(page_words("es"))
    assert words["percent"] == "{percent} por ciento"
    assert {words["sound"], words["sound_on"], words["sound_volume"]}.isdisjoint(
        {"Sound", "Sound cues", "Cue volume"})


# -- in Chromium -------------------------------------------------------------------------------

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="Debian's Chromium is Linux's")

# Before the page's own scripts: what the policy refused (the page cannot see these itself).
REFUSED = """window.refused = [];
document.addEventListener("securitypolicyviolation",
    (event) => window.refused.push(event.violatedDirective + " " + event.blockedURI));"""


@pytest.fixture
def served() -> Iterator[Server]:
    with Server("--seed", "3") as running:
        yield running


def duration(name: str) -> float:
    with wave.open(str(sounds_dir() / f"{name}.wav"), "rb") as wav:
        return wav.getnframes() / wav.getframerate()


def played_after(page: Page, count: int, timeout_s: float = 10) -> list[str]:
    deadline = time.monotonic() + timeout_s
    while True:
        played = list(page.evaluate("cues.played.slice()"))
        if len(played) >= count or time.monotonic() > deadline:
            return played
        time.sleep(0.05)


@linux_only
@pytest.mark.timeout(180)
def test_cues_play_one_after_another_after_a_key_under_the_page_s_policy(
        served: Server) -> None:
    with browser_page(1280, 900) as page:
        errors = complaints(page)
        page.add_init_script(REFUSED)
        page.goto(served.page)
        assert page.evaluate("[cues.on, cues.volume, cues.gain]") == [True, 50, None]
        page.evaluate("cues.play(['reveal'])")  # before any gesture: nothing, never later
        page.keyboard.press("Shift")  # the player's first key: the page may now sound
        assert page.evaluate("cues.gain") == 0.5
        # In the page: when each cue's name was first seen started, in milliseconds.
        starts = page.evaluate("""async () => {
            const seen = [];
            cues.play(["reveal", "dice"]);
            const begun = performance.now();
            while (seen.length < 2 && performance.now() - begun < 10000) {
                if (cues.played.length > seen.length) seen.push(performance.now());
                await new Promise((wake) => setTimeout(wake, 5));
            }
            return seen;
        }""")
        assert page.evaluate("cues.played.slice()") == ["reveal", "dice"]
        assert len(starts) == 2
        # The dice wait for the reveal to end (the poll's own 5 ms aside).
        assert (starts[1] - starts[0]) / 1000 >= duration("reveal") - 0.02, starts
        # A damaged file (the server's, as a test's route gives it) and a name no file could
        # have are skipped without a word; the cues around them play.
        page.route("**/sounds/whistle.wav", lambda route: route.fulfill(
            status=200, content_type="audio/wav", body=b"RIFF, but not a sound"))
        page.evaluate("cues.play(['whistle', '../pyproject', 'touchdown', 42])")
        assert played_after(page, 3) == ["reveal", "dice", "touchdown"]
        # A view's roll, as the desktop plays it: a click a die, pitched by its pips (a 1
        # slower than a 6), and then the result's cue.
        page.evaluate("cues.play(['dice', 'field_goal_good'], [[1, 6, 3]])")
        assert played_after(page, 5) == ["reveal", "dice", "touchdown", "dice",
                                         "field_goal_good"]
        rates = page.evaluate("cues.rolled.slice()")
        assert [[round(rate, 2) for rate in roll] for roll in rates] == [[0.9, 1.4, 1.1]]
        assert page.evaluate("window.refused") == []
    assert errors == []  # the policy refused nothing and no script failed


@linux_only
@pytest.mark.timeout(180)
def test_a_cue_the_server_lacks_is_skipped(served: Server) -> None:
    """The server names only cues it has (view.py), so a 404 means a damaged install: the
    browser's own line about it is the page's only trace, and the next cue plays."""
    with browser_page(1280, 900) as page:
        errors = complaints(page)
        page.goto(served.page)
        page.keyboard.press("Shift")
        page.evaluate("cues.play(['no_such_cue', 'coin'])")
        assert played_after(page, 1) == ["coin"]
        page.evaluate("cues.play(['no_such_cue', 'coin'])")  # remembered: not asked again
        assert played_after(page, 2) == ["coin", "coin"]
    assert errors == ["Failed to load resource: the server responded with a status of 404 "
                      "(Not Found)"]


@linux_only
@pytest.mark.timeout(180)
def test_the_volume_and_the_off_switch_are_kept_and_off_means_silence(served: Server) -> None:
    with browser_page(1280, 900) as page:
        errors = complaints(page)
        asked: list[str] = []
        page.on("request", lambda request: asked.append(request.url)
                if "/sounds/" in request.url else None)
        page.goto(served.page)
        volume = page.get_by_role("slider", name="Cue volume")
        assert volume.get_attribute("aria-valuetext") == "50 percent"
        volume.focus()
        page.keyboard.press("ArrowRight")  # a key: the page may sound, and the new level is heard
        assert volume.get_attribute("aria-valuetext") == "60 percent"
        assert page.evaluate("[cues.volume, cues.gain]") == [60, pytest.approx(0.6)]
        assert played_after(page, 1) == ["menu_move"]
        for _ in range(6):
            page.keyboard.press("ArrowRight")
        assert volume.get_attribute("aria-valuetext") == "100 percent"
        assert page.evaluate("cues.gain") == 1.0
        page.evaluate("cues.setVolume(500)")  # never amplified, whoever asks
        assert page.evaluate("[cues.volume, cues.gain]") == [100, 1.0]
        page.keyboard.press("ArrowLeft")
        page.get_by_role("checkbox", name="Sound cues").uncheck()
        assert page.evaluate("cues.on") is False
        before, heard = len(asked), len(page.evaluate("cues.played"))
        page.evaluate("cues.play(['whistle', 'coin'])")
        volume.focus()
        page.keyboard.press("ArrowLeft")  # a new volume while off: no sample either
        time.sleep(1)
        assert len(page.evaluate("cues.played")) == heard and len(asked) == before
        assert json.loads(page.evaluate(f"localStorage.getItem('{KEY}')")) == {
            "on": False, "volume": 80}
        page.reload()
        assert page.evaluate("[cues.on, cues.volume]") == [False, 80]
        assert not page.get_by_role("checkbox", name="Sound cues").is_checked()
        assert volume.get_attribute("aria-valuetext") == "80 percent"
        assert volume.input_value() == "80"
        page.get_by_role("checkbox", name="Sound cues").check()  # a click: a gesture
        assert page.evaluate("[cues.on, cues.gain]") == [True, pytest.approx(0.8)]
        page.evaluate("cues.play(['coin'])")
        assert played_after(page, 1) == ["coin"]
        page.reload()
        assert page.evaluate("[cues.on, cues.volume]") == [True, 80]
    assert errors == []
