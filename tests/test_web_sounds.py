"""The browser page's sound cues (issue 69): the table server serves the desktop game's cue
files and nothing else under /sounds/."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import pytest
from server_lab import run, server
from test_web_view import fetch, page_url
from websockets.datastructures import Headers
from websockets.http11 import Request

from sudden_death.resources import sounds_dir
from sudden_death.server.limits import Limits
from sudden_death.web.site import POLICY, CueFiles, Site, page_words


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
