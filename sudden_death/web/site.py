"""The browser page, served by the table server on its own port (`Site`).

Why the WebSocket's own port and not a second one: a player is given one address, a proxy or
a firewall opens one port, and the page's line goes back to where the page came from (the
Content-Security-Policy's `connect-src 'self'`). `websockets` hands every request to
`process_request` before its handshake; a request that is not a WebSocket upgrade is answered
here with one of the page's own files and the connection closes, so each file costs a line
like any other and every per-address limit applies to the page unchanged.

Only the files in `page/` are served, by their names, read once at start: a path is looked up
in that table and never joined to a folder, so nothing outside it (and no listing) can be
reached. `/words.json?lang=es` is the page's own words in a language, from the same gettext
catalogs as the game's; `/sounds/dice.wav` is one of the desktop game's cue files (`CueFiles`),
which the page plays through Web Audio (page/sounds.js). A line opened on `/play` is a browser
seat: the server tells it what it may see in words too (`view.Viewer`).
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from functools import lru_cache
from http import HTTPStatus
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from ..language import _, using
from ..resources import sounds_dir
from ..ui.words.picking import full_words, missing_words, picked_words
from ..ui.words.table import busy_words, said_words
from .device_words import device_words
from .explorer_words import explorer_json
from .seat_view import CALLS_PER_HAND, PLAYERS_PER_HAND, language_of
from .seat_words import seat_words
from .view import Viewer

LOG = logging.getLogger("sudden_death.server")
PLAY_PATH = "/play"  # a browser seat's WebSocket
SOUNDS_PATH = "/sounds/"  # the cue files' (CueFiles)
WAV = "audio/wav"
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".mjs": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".json": "application/json; charset=utf-8", ".svg": "image/svg+xml",
         ".webmanifest": "application/manifest+json", ".wasm": "application/wasm",
         ".zip": "application/zip", ".wav": WAV, ".txt": "text/plain; charset=utf-8",
         ".md": "text/markdown; charset=utf-8",  # a build's licences (LICENSE.txt)
         ".png": "image/png"}  # a build's icons for a phone's home screen
# Nothing but the page's own files and its own line: no inline script or style, no other
# origin, not framed by another site. What the game on the device needs besides (a web
# build, issue 74): its worker and service worker from this origin, its manifest, and
# WebAssembly compiled from the runtime's own file ('wasm-unsafe-eval' allows that and no
# eval of text).
POLICY = ("default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; "
          "connect-src 'self'; img-src 'self'; worker-src 'self'; manifest-src 'self'; "
          "base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


def page_folder() -> Path:
    """Beside this module, so a wheel or a bundle finds it."""
    return Path(__file__).resolve().parent / "page"


@lru_cache(maxsize=8)
def page_words(tag: str) -> bytes:
    """The page's own words in the language of `tag` (its headings, buttons and counts), as
    JSON; the game's words come in each `view`."""
    with using(language_of(tag)) as choice:
        words = {
            "lang": choice.language.code,
            "title": _("Sudden Death"),
            "play_computer": _("Play the computer"),
            "play": _("Play"),
            "play_friend": _("Play a friend"),
            "host_friend": _("Host a table"),
            "join_friend": _("Join a table"),
            "code": _("Table code"),
            "online": _("Play online"),
            "player": _("Your name"),
            "password": _("Password"),
            "sign_in": _("Sign in"),
            "sign_up": _("A new name"),
            "no_name": _("Play without a name"),
            "lobby": _("Lobby"),
            "quick": _("Quick game"),
            "open_tables": _("Open tables"),
            "games": _("Games being played"),
            "join": _("Join"),
            "watch": _("Watch"),
            "more_time": _("More time"),
            "chat": _("Chat"),
            "lobby_chat": _("Chat in the lobby"),
            "said": said_words("{name}", "{text}"),  # the player's own line, as others hear it
            "lobby_chat_name": _("Chat in the lobby is for players with a name. Sign in first."),
            "send": _("Send"),
            "back": _("Connected again."),
            "help": _("How to play here"),
            # Translators: the browser page's help, as its heading-and-focus design works.
            "help_text": _("Tab and Shift+Tab move between the controls; a list of cards or "
                           "options is one control: the arrows move in it, a digit picks that "
                           "item, Space checks a card, D says what the focused card does, and "
                           "Enter confirms from anywhere in the decision. A full list moves "
                           "you on to the next, and last down's cards come checked again, so "
                           "Enter plays them again. Heading navigation reaches the current "
                           "decision, the other team's calls, the cards on the table and the "
                           "game log. Each new decision takes the focus; while the other team "
                           "decides, the focus rests on words that say so. Results are read "
                           "as they come and kept in the game log. On a touchscreen, your "
                           "screen reader's usual swipes and double taps do the same, and Show "
                           "what each card does shows every card's details."),
            "reconnecting": _("Connection lost; trying again."),
            "busy": busy_words(),  # a resume refused for now: asked again by itself
            "team_name": _("Your team's name"),
            "decision": _("Current decision"),
            "theirs": _("The other team's calls"),
            "rosters": _("Cards on the table"),
            "log": _("Game log"),
            "situation": _("Read score and situation"),
            "confirm": _("Confirm these cards"),
            "choose": _("Choose"),
            "concede": _("Concede the game"),
            "yes_concede": _("Yes, concede"),
            "no": _("No"),
            "again": _("Play again"),
            "leave": _("Leave the table"),
            "stop_watching": _("Stop watching"),
            "rating": _("Your rating"),
            "yours": _("Your cards"),
            "their_cards": _("Their cards"),
            "none_yet": _("None yet."),
            "connecting": _("Connecting to the table server."),
            "lost": _("The line to the table server dropped. Reload the page to play again."),
            "waiting": _("Waiting for the other team."),
            # The desktop game's counting phrases, ready for each count: what a list says as
            # a card is checked ("1 picked, 1 to go", "players full"), a card past the limit,
            # and a hand confirmed short, keyed "players,calls" as checked.
            "players_picked": [picked_words(count, PLAYERS_PER_HAND, "players")
                               for count in range(PLAYERS_PER_HAND + 1)],
            "calls_picked": [picked_words(count, CALLS_PER_HAND, "calls")
                             for count in range(CALLS_PER_HAND + 1)],
            "players_over": full_words(PLAYERS_PER_HAND, "players"),
            "calls_over": full_words(CALLS_PER_HAND, "calls"),
            "not_yet": {f"{players},{calls}": missing_words(PLAYERS_PER_HAND - players,
                                                            CALLS_PER_HAND - calls)
                        for players in range(PLAYERS_PER_HAND + 1)
                        for calls in range(CALLS_PER_HAND + 1)
                        if (players, calls) != (PLAYERS_PER_HAND, CALLS_PER_HAND)},
            "players": _("Players"),
            "calls": _("Calls"),
            "kick": _("Or kick instead"),
            **seat_words(),
            **device_words(),
            "sound": _("Sound"),
            "sound_on": _("Sound cues"),
            "sound_volume": _("Cue volume"),
            # Translators: the browser page's cue volume as a screen reader reads it: "50 percent".
            "percent": _("{percent} percent"),
        }
    return json.dumps(words, ensure_ascii=False).encode()


def response(status: HTTPStatus, body: bytes, kind: str) -> Response:
    headers = Headers([
        ("Content-Type", kind), ("Content-Length", str(len(body))),
        ("Content-Security-Policy", POLICY), ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"), ("Cache-Control", "no-cache"),
        ("Connection", "close")])
    return Response(status.value, status.phrase, headers, body)


def not_found() -> Response:
    return response(HTTPStatus.NOT_FOUND, b"Not found.\n", "text/plain; charset=utf-8")


@dataclass
class CueFiles:
    """The desktop game's cue WAVs by their path ("/sounds/dice.wav"), for the page's sounds.

    The names are listed at start (a folder listing: cheap, and the only paths answered); each
    file is read the first time a page asks for it and kept. Why not all at start: the folder
    is about 4 MB, a server process may never serve a page, and a page fetches a cue only when
    it first plays it, so most processes would hold files no one asks for. A missing folder or
    a file that cannot be read is logged and answered 404: the page plays on without it."""

    folder: Path | None = None  # None: the game's own (resources.sounds_dir())
    paths: dict[str, Path] = field(init=False)
    kept: dict[str, bytes] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        try:
            folder = sounds_dir() if self.folder is None else self.folder
            self.paths = {f"{SOUNDS_PATH}{path.name}": path for path in sorted(folder.iterdir())
                          if path.suffix == ".wav" and path.is_file()}
        except OSError as error:  # a damaged install: the page is served without sounds
            LOG.error("the browser page's sounds cannot be served: %s", error)
            self.paths = {}

    def answer(self, path: str) -> Response:
        body = self.kept.get(path)
        if body is None:
            found = self.paths.get(path)
            if found is None:
                return not_found()
            try:
                body = found.read_bytes()
            except OSError as error:
                LOG.error("a sound of the browser page cannot be served: %s", error)
                del self.paths[path]  # said once; the page skips the cue
                return not_found()
            self.kept[path] = body
        return response(HTTPStatus.OK, body, WAV)


@dataclass
class Site:
    """The page's files by their path ("/", "/page.js", "/pyodide/pyodide.asm.wasm").

    `folder` is the package's page, or a web build (`--web`, tools/web_build.py: the page
    with the runtime and the game's Python for playing on the device). Its files are listed
    at start, every folder down, and each is read the first time it is asked for and kept:
    a build is about 20 MB, and a process that never serves the game on the device never
    reads its runtime."""

    folder: Path = field(default_factory=page_folder)
    cues: CueFiles = field(default_factory=CueFiles)
    paths: dict[str, Path] = field(init=False)
    files: dict[str, tuple[bytes, str]] = field(init=False, default_factory=dict)

    def __post_init__(self) -> None:
        try:
            self.paths = {f"/{path.relative_to(self.folder).as_posix()}": path
                          for path in sorted(self.folder.rglob("*"))
                          if path.is_file() and path.suffix in TYPES}
        except OSError as error:  # a damaged install: the tables are served all the same
            LOG.error("the browser page cannot be served: %s", error)
            self.paths = {}
        if "/index.html" in self.paths:
            self.paths["/"] = self.paths["/index.html"]

    def file(self, path: str) -> tuple[bytes, str] | None:
        """The file at `path` with its type, read once; None when there is none (or it can
        no longer be read: logged once, then answered as missing)."""
        found = self.files.get(path)
        if found is None and path in self.paths:
            where = self.paths[path]
            try:
                found = self.files[path] = (where.read_bytes(), TYPES[where.suffix])
            except OSError as error:
                LOG.error("a file of the browser page cannot be served: %s", error)
                del self.paths[path]
        return found

    def answer(self, line: object, request: Request) -> Response | None:
        """A file for a plain request; None lets a WebSocket upgrade go on to its handshake
        (a line on PLAY_PATH is given its viewer first)."""
        parts = urlsplit(request.path)
        tag = parse_qs(parts.query).get("lang", [""])[0][:16]  # the page's language
        if request.headers.get("Upgrade", "").lower() == "websocket":
            if parts.path == PLAY_PATH:
                line.viewer = Viewer(tag)  # type: ignore[attr-defined]
            return None
        if parts.path == "/words.json":
            return response(HTTPStatus.OK, page_words(tag), TYPES[".json"])
        if parts.path == "/explorer.json":  # the explorer of play cards (explorer_words)
            return response(HTTPStatus.OK, explorer_json(tag), TYPES[".json"])
        found = self.file(parts.path)  # a build's sounds/ holds the cues' licences too
        if found is None:
            if parts.path.startswith(SOUNDS_PATH):
                return self.cues.answer(parts.path)
            return not_found()
        return response(HTTPStatus.OK, *found)
