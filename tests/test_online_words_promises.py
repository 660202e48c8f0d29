"""The game's side of the online promises (issue 59): a player muted for the session stays
muted however the name is written again (case, accents, spaces: docs/protocol.md folds names
so), and the computer taking the other seat is said for the reason the server gave (its
player's line dropped, they did not come back, or they left). The `computer` messages are the
frames a real server sent; the app is the real one, its speech recorded."""

from __future__ import annotations

import asyncio
import json
import unicodedata
from pathlib import Path

import pytest
from app_driver import started_app
from hypothesis import given
from hypothesis import strategies as st
from recording import RecordingSpeaker
from server_lab import run, seated_pair, server
from websockets.asyncio.client import ClientConnection

from sudden_death.ui.table import TablePlay
from sudden_death.wire import protocol as p

URL = "ws://127.0.0.1:1"
ACCENTS = ("\u0301", "\u0300", "\u0308", "\u0302", "\u030a")  # acute, grave, diaeresis...


def said(speaker: RecordingSpeaker, since: int = 0) -> list[str]:
    return [message.text for message in speaker.spoken[since:]]


@st.composite
def written_otherwise(draw: st.DrawFn, name: str) -> str:
    """`name` as another player may type it: each letter in either case, with or without an
    accent (composed or not), and spaces dropped, doubled or put between letters."""
    out = []
    for char in name:
        if char == " ":
            out.append(" " * draw(st.integers(0, 3)))
            continue
        char = char.upper() if draw(st.booleans()) else char.lower()
        if draw(st.booleans()):
            accented = char + draw(st.sampled_from(ACCENTS))
            char = unicodedata.normalize("NFC" if draw(st.booleans()) else "NFD", accented)
        out.append(char + " " * draw(st.sampled_from((0, 0, 0, 1, 2))))
    return "".join(out)


NAMES = st.text(alphabet="abcdefghijklmnopqrstuvwxyz ", min_size=1, max_size=16).filter(
    lambda name: bool(name.strip()))


def test_a_muted_player_stays_muted_written_with_other_case_accents_or_spaces(
        tmp_path: Path) -> None:
    """Protocol: names are "folded for case, accents and spaces, so 'Anna' and 'ÁNNA' are one
    name": a player muted as "Anna Lee" is muted as "ÁNNA  LEE" or "annalee" too (a
    spectator's chat line carries the name its sender typed), and the lobby says so."""
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    app.online.url, app.online.name = URL, "Ben"
    app.online.lobby_heard(p.LobbyList([], [], ["Ánna  Lee", "Ben", "Cleo"]))
    app.online.mute("Anna Lee")
    heard = len(speaker.spoken)
    for written in ("ÁNNA  LEE", "annalee", "Anna Lée", " a n n a l e e ", "Ånnä Lêe"):
        app.friends.chat_heard(written, "buy my stuff")
    app.friends.chat_heard("Anna Leo", "not her")
    assert said(speaker, heard) == ["Anna Leo: not her"]
    assert app.online.is_muted("Ánna  Lee")  # the lobby's entry says "chat muted"
    app.online.mute("ANNALEE")  # Enter again, on the name as written elsewhere: heard again
    heard = len(speaker.spoken)
    app.friends.chat_heard("Anna Lee", "hello again")
    assert said(speaker, heard) == ["Anna Lee: hello again"]

    @given(data=st.data(), name=NAMES)
    def any_name(data: st.DataObject, name: str) -> None:
        app.online.muted.clear()
        app.online.mute(name)
        written = data.draw(written_otherwise(name))
        heard = len(speaker.spoken)
        app.friends.chat_heard(written, "psst")
        assert said(speaker, heard) == [], (name, written)
        app.friends.chat_heard(f"{written}q", "another player")
        assert len(said(speaker, heard)) == 1

    any_name()


async def computer_frames() -> dict[str, str]:
    """The `computer` frames a real server sends the seat that stayed, for each reason: the
    other player's line dropped (then they are gone past a short seat wait), or they left."""
    frames: dict[str, str] = {}

    async def next_computer(guest: ClientConnection) -> None:
        while True:
            frame = str(await asyncio.wait_for(guest.recv(), 10))
            message = p.decode_server(frame)
            if isinstance(message, p.StandIn):
                frames[message.reason] = frame
                return

    async with server() as lab:
        host, guest, host_seat, _ = await seated_pair(lab)
        lab.service.tables[host_seat["code"]].seat_wait_s = 1  # the computer at half of it
        await host.close()
        await next_computer(guest)
        await next_computer(guest)
        leaver, stayer, _, _ = await seated_pair(lab)
        await leaver.send(p.encode(p.Leave()))
        await next_computer(stayer)
        hawks = await lab.connect()  # a guest's seated and start, and a spectator's start
        await hawks.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
        code = json.loads(await hawks.recv())["code"]
        bears = await lab.connect()
        await bears.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
        frames["seated"], frames["start"] = str(await bears.recv()), str(await bears.recv())
        cleo = await lab.connect()
        await cleo.send(p.encode(p.Watch(p.PROTOCOL_VERSION, code, "Cleo")))
        frames["watch_start"] = str(await cleo.recv())
    return frames


@pytest.fixture(scope="module")
def frames() -> dict[str, str]:
    found: dict[str, str] = run(computer_frames)
    return found


def test_the_computer_in_the_other_seat_is_said_for_the_reason_the_server_gave(
        tmp_path: Path, frames: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Protocol: `computer` `away` ("the seat is its player's again the moment they
    resume"), `gone` (past the seat wait: it finishes the game) and `left` (the player left
    mid-game: it finishes the game at once) each have their own words."""
    assert {"away", "gone", "left"} <= set(frames)
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    expected = {
        "away": "The computer plays for the Hawks until they are back.",
        "gone": "The Hawks did not come back. The computer finishes the game for them.",
        "left": "The Hawks left. The computer finishes the game for them.",
    }
    for reason, words in expected.items():
        line = TablePlay(app.friends, URL, p.Join(p.PROTOCOL_VERSION, "123456", "Bears"))
        monkeypatch.setattr(line.link, "poll", lambda reason=reason: [  # as the line hands
            p.decode_server(frames[reason])])  # the server's frame to the game
        heard = len(speaker.spoken)
        line.tick()
        assert said(speaker, heard) == [words], reason


def test_the_other_seats_choice_is_said_as_made_and_never_ones_own_nor_to_a_spectator(
        tmp_path: Path, frames: dict[str, str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Protocol: `committed`: "Both seats hear it: the one that chose, and the other, whose
    game says 'The Hawks have chosen' (never what)"; a spectator's game is told the reveal."""
    greetings: dict[str, p.Join | p.Watch] = {
        "seat": p.Join(p.PROTOCOL_VERSION, "123456", "Bears"),
        "spectator": p.Watch(p.PROTOCOL_VERSION, "123456")}
    starts = {"seat": [frames["seated"], frames["start"]], "spectator": [frames["watch_start"]]}
    for who, greeting in greetings.items():
        speaker = RecordingSpeaker()
        app = started_app(tmp_path / who, speaker)
        line = TablePlay(app.friends, URL, greeting)
        app.friends.table = line
        inbox: list[object] = [p.decode_server(frame) for frame in starts[who]]

        def poll(inbox: list[object] = inbox) -> list[object]:
            out = list(inbox)
            inbox.clear()
            return out

        monkeypatch.setattr(line.link, "poll", poll)  # as the line hands the game its news
        line.tick()
        assert line.match is not None, who
        heard = {}
        for seat in (0, 1):  # the Bears (home, this seat) and the Hawks choose
            inbox.append(p.Committed(line.match.step, seat))
            count = len(speaker.spoken)
            line.tick()
            heard[seat] = said(speaker, count)
        if who == "seat":
            assert heard == {0: [], 1: ["The Hawks have chosen."]}
        else:
            assert heard == {0: [], 1: []}, heard
