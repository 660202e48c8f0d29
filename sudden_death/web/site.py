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
catalogs as the game's. A line opened on `/play` is a browser seat: the server tells it what
it may see in words too (`view.Viewer`).
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

from ..language import _, n_, using
from ..ui.words.table import said_words
from .explorer_words import explorer_json
from .view import CALLS_PER_HAND, PLAYERS_PER_HAND, Viewer, language_of

LOG = logging.getLogger("sudden_death.server")
PLAY_PATH = "/play"  # a browser seat's WebSocket
TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
         ".css": "text/css; charset=utf-8", ".json": "application/json; charset=utf-8",
         ".svg": "image/svg+xml"}
# Nothing but the page's own files and its own line: no inline script or style, no other
# origin, not framed by another site.
POLICY = ("default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
          "img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


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
            "help_text": _("Tab and Shift+Tab move between the controls; Space checks a card "
                           "or picks an option, and Enter confirms. Heading navigation "
                           "reaches the current decision, the other team's calls, the cards "
                           "on the table and the game log. Each new decision takes the focus, "
                           "and results are read as they come. On a touchscreen, your screen "
                           "reader's usual swipes and double taps do the same."),
            "reconnecting": _("Connection lost; trying again."),
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
            "details": _("What it does"),
            "connecting": _("Connecting to the table server."),
            "lost": _("The line to the table server dropped. Reload the page to play again."),
            "waiting": _("Waiting for the other team."),
            # Translators: a count as cards are checked in the browser page: "1 of 2 players".
            "players_count": n_("{count} of {limit} player", "{count} of {limit} players",
                                PLAYERS_PER_HAND),
            # Translators: a count as cards are checked in the browser page: "2 of 3 calls".
            "calls_count": n_("{count} of {limit} call", "{count} of {limit} calls",
                              CALLS_PER_HAND),
            "players": _("Players"),
            "calls": _("Calls"),
            "kick": _("Or kick instead"),
        }
    return json.dumps(words, ensure_ascii=False).encode()


def response(status: HTTPStatus, body: bytes, kind: str) -> Response:
    headers = Headers([
        ("Content-Type", kind), ("Content-Length", str(len(body))),
        ("Content-Security-Policy", POLICY), ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"), ("Cache-Control", "no-cache"),
        ("Connection", "close")])
    return Response(status.value, status.phrase, headers, body)


@dataclass
class Site:
    """The page's files by their path ("/", "/page.js"), read once."""

    folder: Path = field(default_factory=page_folder)
    files: dict[str, tuple[bytes, str]] = field(init=False)

    def __post_init__(self) -> None:
        try:
            self.files = {f"/{path.name}": (path.read_bytes(), TYPES[path.suffix])
                          for path in sorted(self.folder.iterdir())
                          if path.is_file() and path.suffix in TYPES}
        except OSError as error:  # a damaged install: the tables are served all the same
            LOG.error("the browser page cannot be served: %s", error)
            self.files = {}
        if "/index.html" in self.files:
            self.files["/"] = self.files["/index.html"]

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
        found = self.files.get(parts.path)
        if found is None:
            return response(HTTPStatus.NOT_FOUND, b"Not found.\n", "text/plain; charset=utf-8")
        return response(HTTPStatus.OK, *found)
