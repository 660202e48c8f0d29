"""The game's side of `busy` and `steady` (protocol version 6, issue 61): when the table
server cannot keep steps (its database is away), each seat hears once that it is busy and
trying again, and once that it is back; in English and in Spanish. The frames are decoded as
the line hands them to the game; the app is the real one, its speech recorded."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_driver import started_app
from recording import RecordingSpeaker

from sudden_death import language
from sudden_death.audio.protocols import Category
from sudden_death.ui.table import TablePlay
from sudden_death.wire import protocol as p

URL = "ws://127.0.0.1:1"


@pytest.mark.parametrize(("code", "busy", "back"), [
    ("en", "The table server is busy; trying again.", "The table server is back."),
    ("es", "El servidor de mesas está ocupado; volviendo a intentar.",
     "El servidor de mesas ha vuelto."),
])
def test_busy_then_steady_are_each_said_once_as_a_notice(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, code: str, busy: str,
        back: str) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    line = TablePlay(app.friends, URL, p.Join(p.PROTOCOL_VERSION, "123456", "Bears"))
    for message, words in ((p.Busy(), busy), (p.Steady(), back)):
        frame = p.encode(message)
        monkeypatch.setattr(line.link, "poll", lambda frame=frame: [p.decode_server(frame)])
        heard = len(speaker.spoken)
        with language.using(language.load(code)):
            line.tick()
        spoken = speaker.spoken[heard:]
        assert [each.text for each in spoken] == [words]
        assert spoken[0].category == Category.NOTICE  # kept in the history, like `away`
