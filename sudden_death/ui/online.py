"""Playing online, on the app's side: the server to use, signing in (the token kept, never the
password), the lobby as the server tells it, a quick game, a table of one's own, your rating.

One line does it all: it signs in, listens to the lobby, and then sits at a table (`TablePlay`
with the greeting `Lobby`, then `greet`), so the seat is the signed-in player's and the game
is rated. From there the table is played as a friend's is (`ui/friends.py`), and when it ends
the player is back in the lobby on a new line.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from ..audio.protocols import Category
from ..language import _
from ..storage.settings import server_address
from ..storage.sign_in_file import SignIn, forget_sign_in, load_sign_in, save_sign_in
from ..wire import protocol as p
from ..wire.names import folded, same_name
from .aids.comfort import Comfort
from .screens.base import Host, Screen
from .screens.friend import ChatScreen
from .screens.online import (
    AccountNameScreen,
    AccountPasswordScreen,
    AccountScreen,
    LobbyScreen,
    RatingScreen,
    ServerScreen,
)
from .screens.welcome import DEFAULT_HOME, other_default
from .table import Greeting, TablePlay
from .words.online import lobby_news_words, muted_words, signed_in_words, standing_words


class OnlineHost(Host, Protocol):
    comfort: Comfort
    config_folder: Path | None

    @property
    def stack(self) -> list[Screen]: ...

    def show(self, screen: Screen, interrupt: bool = True, speak: bool = True) -> None: ...


class Lines(Protocol):
    """What online play asks of `Friends`: the server set, and the one line to it."""

    table: TablePlay | None

    def server(self) -> str | None: ...

    def open_line(self, url: str, greeting: Greeting, before: tuple[p.Message, ...],
                  words: str) -> None: ...

    def close_table(self) -> None: ...


class Online:
    """The online line's state on the game's side: which server, signed in as whom, the
    lobby as last heard, and what a sign-in being typed is for."""

    def __init__(self, app: OnlineHost, lines: Lines) -> None:
        self.app, self.lines = app, lines
        self.url = ""
        self.name = ""  # signed in as ("": not signed in)
        self.listing: p.LobbyList | None = None
        self.without = False  # the player chose to play without a name this time
        self.signing: tuple[bool, str] | None = None  # (new, name) sent, not yet answered
        self.muted: set[str] = set()  # players whose chat is not read, folded (this session)

    # -- opening -------------------------------------------------------------------------------

    def open(self) -> None:
        """Play online: the lobby of the server set (--server or Settings), or its address
        asked for first."""
        url = self.lines.server()
        if url is None:
            self.app.show(ServerScreen(self.app))
            return
        self.connect(url)

    def server_typed(self, typed: str) -> None:
        url = server_address(typed)
        if url is None:
            self.app.cue("menu_error")
            self.app.say(_("That is not a server's address. Type it as host:port, such as "
                           "example.org:8765."), category=Category.MENU)
            return
        comfort = self.app.comfort
        comfort.change(comfort.settings.changed(table_server=url))  # kept for next time
        self.connect(url)

    def connect(self, url: str, greeting: Greeting | None = None) -> None:
        """A new line to `url`, signed in with the kept token if there is one."""
        self.url, self.name, self.listing, self.signing = url, "", None, None
        kept = load_sign_in(self.app.config_folder, url)
        before: tuple[p.Message, ...] = () if kept is None else (
            p.SignIn(p.PROTOCOL_VERSION, kept.name, token=kept.token),)
        if greeting is None:
            greeting, words = p.Lobby(), _("Connecting to the lobby.")
        else:
            words = _("Asking the server for your rating.")
        self.lines.open_line(url, greeting, before, words)

    def leave(self) -> None:
        """Out of the lobby, to the title screen."""
        self.lines.close_table()
        self.listing = None
        self.app.start()

    def back_to_lobby(self) -> None:
        """A table begun online has ended or was left: the lobby again, on a new line."""
        if self.url:
            self.connect(self.url)
        else:
            self.app.start()

    # -- signing in ----------------------------------------------------------------------------

    def sign(self, new: bool, name: str, password: str) -> None:
        table = self.lines.table
        if table is None or table.closed:
            self.back_to_lobby()
            return
        self.signing = (new, name)
        message: p.Message = (p.SignUp(p.PROTOCOL_VERSION, name, password) if new
                              else p.SignIn(p.PROTOCOL_VERSION, name, password))
        table.link.send(message)

    def without_name(self) -> None:
        self.without = True
        self._show_lobby()

    def signed_in(self, name: str, token: str) -> None:
        save_sign_in(self.app.config_folder, self.url, SignIn(name, token))
        self.name, self.signing = name, None
        table = self.lines.table
        if table is not None and isinstance(table.greeting, p.Lobby):  # not for a rating
            self.app.say(signed_in_words(name), interrupt=False, category=Category.NOTICE)
        if self.listing is not None and not self._lobby_shown():
            self._show_lobby()

    def refused(self, code: str, words: str) -> None:
        """A refusal before any table: a name, a password, a kept token, or a rating asked
        for without a name. Said, then the screen where it can be put right."""
        signing, self.signing = self.signing, None
        self.app.cue("menu_error")
        if signing is None and code == p.BAD_SIGN_IN:  # the kept token no longer works
            forget_sign_in(self.app.config_folder, self.url)
            words = _("Your saved sign-in no longer works here. Sign in again.")
        self.app.say(words, category=Category.NOTICE)
        table = self.lines.table
        if table is not None and isinstance(table.greeting, p.AskRating):
            self.lines.close_table()
            self.app.start()
            return
        if signing is None:
            return  # the lobby's list comes next, and asks for the name
        new, name = signing
        if code in (p.NAME_TAKEN, p.BAD_NAME, p.BAD_SIGN_IN):
            self.app.show(AccountScreen(self.app), interrupt=False, speak=False)
            self.app.push(AccountNameScreen(self.app, new))
        elif code == p.WEAK_PASSWORD:
            self.app.show(AccountScreen(self.app), interrupt=False, speak=False)
            self.app.push(AccountPasswordScreen(self.app, new, name))
        else:  # slow down, no room: the choices again
            self.app.show(AccountScreen(self.app), interrupt=False)

    # -- the lobby -----------------------------------------------------------------------------

    def lobby_heard(self, listing: p.LobbyList) -> None:
        before, self.listing = self.listing, listing
        lobby = self._lobby_shown()
        if lobby is not None:
            lobby.update(listing)
            words = lobby_news_words(before, listing) if before is not None else ""
            if words and self.app.comfort.settings.lobby_news:
                self.app.cue("chat")
                self.app.say(words, interrupt=False, category=Category.NOTICE)
            return
        if before is None and self.signing is None:
            if self.name or self.without:
                self._show_lobby()
            else:  # the first time on this server: a name first
                self.app.show(AccountScreen(self.app), interrupt=False)

    def _lobby_shown(self) -> LobbyScreen | None:
        return next((screen for screen in self.app.stack if isinstance(screen, LobbyScreen)),
                    None)

    def _show_lobby(self) -> None:
        listing = self.listing or p.LobbyList([], [], [])
        self.app.show(LobbyScreen(self.app, listing, self.name), interrupt=False)

    @staticmethod
    def _team(against: str = "") -> str:
        """The team's name online: the default, or the other default when the other team
        has it. A player's own name is not a team's: the game says "the Hawks take the
        ball", never "the Anna"; the lobby and the ladder name the players."""
        name = _(DEFAULT_HOME)
        return other_default(against) if against and same_name(name, against) else name

    def quick(self) -> None:
        name = self._team()
        self._greet(p.Quick(p.PROTOCOL_VERSION, name, other=other_default(name)))

    def join(self, table: p.OpenTable) -> None:
        self._greet(p.Join(p.PROTOCOL_VERSION, table.code, self._team(table.host)))

    def open_table(self) -> None:
        settings = self.app.comfort.settings
        self._greet(p.Host(p.PROTOCOL_VERSION, self._team(), seat_wait_s=settings.seat_wait * 60,
                           public=True, turn_s=settings.turn_limit * 60))

    def play_computer(self) -> None:
        """A public table with the coach in the other seat: others may watch; not rated."""
        settings = self.app.comfort.settings
        team = self._team()
        self._greet(p.Host(p.PROTOCOL_VERSION, team, seat_wait_s=settings.seat_wait * 60,
                           public=True, computer=other_default(team),
                           turn_s=settings.turn_limit * 60))

    def watch(self, game: p.GamePlayed) -> None:
        """Enter on a game in the lobby: watch it (the players hear who watches)."""
        self._greet(p.Watch(p.PROTOCOL_VERSION, game.code))

    def _greet(self, message: p.Host | p.Join | p.Quick | p.Watch) -> None:
        table = self.lines.table
        if table is None or table.closed:
            self.back_to_lobby()
            return
        table.greet(message)

    # -- chat ----------------------------------------------------------------------------------

    def chat(self) -> None:
        """A line to everyone in the lobby: for a signed-in player (the server's rule too)."""
        if not self.name:
            self.app.cue("menu_error")
            self.app.say(_("Chat in the lobby is for players with a name. Sign in first."),
                         category=Category.MENU)
            return
        self.app.push(ChatScreen(self.app, lobby=True))

    def mute(self, name: str, team: bool = False) -> None:
        """Enter on a player in the lobby, or the chat line's mute choice at a table (`team`):
        their chat lines are not read (or are again), for the session."""
        key = folded(name)
        muted = key not in self.muted
        if muted:
            self.muted.add(key)
        else:
            self.muted.discard(key)
        self.app.say(muted_words(name, muted, team), category=Category.MENU)

    def is_muted(self, name: str) -> bool:
        return folded(name) in self.muted

    # -- your rating ---------------------------------------------------------------------------

    def rating(self) -> None:
        """Your rating: asked of the server on a line of its own, signed in by the kept token."""
        url = self.lines.server()
        if url is None or load_sign_in(self.app.config_folder, url) is None:
            self.app.cue("menu_error")
            self.app.say(_("Your rating is kept by the server you play on. Sign in through "
                           "Play online first."), category=Category.MENU)
            return
        self.connect(url, p.AskRating())

    def standing_heard(self, standing: p.Standing) -> None:
        self.lines.close_table()
        self.app.show(RatingScreen(self.app, standing_words(standing)))
