"""Playing a friend, on the app's side: opening, leaving and ending a table, what the table's
news does to the screens, chat, and the words and pulse while the friend chooses.

Kept out of `app.py`, which holds what every game shares; the app hands the screens' table
requests here, and `TablePlay` (the line's news) reports the table's comings and goings here.
The game's steps do not come this way: they reach the app through the game itself
(`TableGame`), as a game against the computer's do.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from ..audio.protocols import Category, Priority
from ..language import _
from ..net.news import Alarm, TableFinder
from ..storage.seat_file import SavedSeat, forget_seat, load_seat, save_seat
from ..wire import protocol as p
from .aids.comfort import Comfort
from .online import Online
from .play import Play
from .screens.base import Host, Screen
from .screens.friend import (
    ChatScreen,
    CodeScreen,
    FriendScreen,
    NearbyScreen,
    PasswordScreen,
    TableWaitScreen,
)
from .session import Session
from .table import Greeting, TablePlay
from .table_game import TableGame
from .words.phrases import Names
from .words.seats import paired_words, waiting_words, watching_screen_words
from .words.series import table_series_words
from .words.situation import situation_words
from .words.table import rematch_asked_words, said_words, turn_limit_words


class FriendsHost(Host, Protocol):
    """What playing a friend asks of the app, besides what any screen asks of it."""

    names: Names
    session: Session
    comfort: Comfort
    config_folder: Path | None
    dirty: bool
    record: Callable[..., None]

    @property
    def match(self) -> Play | None: ...

    @property
    def stack(self) -> list[Screen]: ...

    @property
    def opponent(self) -> str | None: ...

    def say(self, text: str, *, interrupt: bool = True, category: Category = Category.MENU,
            priority: Priority = Priority.INFO,
            on_start: Callable[[], None] | None = None) -> None: ...

    def show(self, screen: Screen, interrupt: bool = True, speak: bool = True) -> None: ...

    def show_decision(self, interrupt: bool = True) -> None: ...

    def take_steps(self) -> None: ...


WAIT_WORDS_DELAY_S = 0.4  # a friend who has already chosen reveals within milliseconds
RESUMED_FRESH = 2**31 - 1  # "the last step heard" of a game that starts again: none to retell
WAIT_SOUND_S = 4.0  # while the friend chooses, a soft pulse this often (a setting)


class Friends:
    """The table the app plays at (at most one), the search for tables nearby, and the
    waiting words and pulse."""

    def __init__(self, app: FriendsHost) -> None:
        self.app = app
        self.table: TablePlay | None = None  # the table being played at, if any
        self.server_url: str | None = None  # --server; None: the saved setting
        self.finder: TableFinder | None = None  # looking for tables on the home network
        self.wait_words_at: float | None = None  # when "Waiting for the Bears" is due
        self.wait_sound_at: float | None = None  # when the next waiting pulse is due
        self.joining: tuple[str, str, str | None] = ("", "", None)  # name, code, address
        # Set by the loop: raised by a table's link when its news arrives, so the loop sleeps
        # until then instead of polling the link.
        self.wake: Alarm | None = None
        self.online = Online(app, self)  # the lobby's line is this table's too
        # The game being played (or just over) was reached from the lobby: its end goes back
        # there, even once its table is gone (the other player left).
        self.online_game = False

    # -- what TablePlay asks of its host -------------------------------------------------------

    def say(self, text: str, *, interrupt: bool = True,
            category: Category = Category.MENU) -> None:
        self.app.say(text, interrupt=interrupt, category=category)

    def cue(self, name: str) -> None:
        self.app.cue(name)

    def record(self, kind: str, **fields: object) -> None:
        self.app.record(kind, **fields)

    def take_steps(self) -> None:
        self.app.take_steps()

    def signed_in(self, name: str, token: str) -> None:
        self.online.signed_in(name, token)

    def lobby_heard(self, listing: p.LobbyList) -> None:
        self.online.lobby_heard(listing)

    def standing_heard(self, standing: p.Standing) -> None:
        self.online.standing_heard(standing)

    def lobby_refused(self, code: str, words: str) -> None:
        self.online.refused(code, words)

    def keys_filled(self, text: str) -> str:
        return self.app.keys.fill(text)

    # -- opening and leaving -------------------------------------------------------------------

    def server(self) -> str | None:
        return self.server_url or self.app.comfort.settings.table_server or None

    def needs_address(self) -> bool:
        """Joining with no table server set: the host's own game serves the table."""
        return self.server() is None

    def host_table(self, name: str, best_of: int = 1, replay_ties: bool = False) -> None:
        """Open a table as `name`; `best_of` 3, 5 or 7 makes its games a series."""
        self.app.names = Names(name, name)
        settings = self.app.comfort.settings
        wait_s = settings.seat_wait * 60  # the host says how long a dropped seat is kept
        self._open(self.server(), p.Host(p.PROTOCOL_VERSION, name, seat_wait_s=wait_s,
                                         password=settings.table_password, best_of=best_of,
                                         replay_ties=replay_ties,
                                         turn_s=settings.turn_limit * 60))

    def join_table(self, name: str, code: str, address: str | None, password: str = "") -> None:
        self.app.names = Names(name, name)
        self.joining = (name, code, address)
        url = self.server() or f"ws://{address}"
        self._open(url, p.Join(p.PROTOCOL_VERSION, code, name, password=password))

    def resume_table(self) -> None:
        """Back to the table this game was at when it ended without leaving it."""
        saved = load_seat(self.app.config_folder)
        if saved is None:
            self.app.cue("menu_error")
            self.app.say(_("There is no table to go back to."))
            self.app.start()
            return
        self._open(saved.url, p.Resume(p.PROTOCOL_VERSION, saved.code, saved.token,
                                       RESUMED_FRESH))

    def look_nearby(self, name: str) -> None:
        """Join a table: list the tables announced on the home network as they are found."""
        from ..net.discovery import Finder

        self.stop_looking()
        self.finder = Finder()
        self.finder.start()
        self.app.push(NearbyScreen(self.app, name))

    def stop_looking(self) -> None:
        if self.finder is not None:
            self.finder.close()
            self.finder = None

    def _open(self, url: str | None, greeting: p.Host | p.Join | p.Resume) -> None:
        self.online_game = False  # a friend's table: not the lobby's
        self.open_line(url, greeting, (), _("Connecting to the table."))

    def open_line(self, url: str | None, greeting: Greeting, before: tuple[p.Message, ...],
                  words: str) -> None:
        """A new line (the old one left), `before` sent ahead of its greeting; `words` are
        said while it connects."""
        self.stop_looking()
        self.close_table()
        self.table = TablePlay(self, url, greeting, self.wake, before)
        self.table.start()
        self.app.show(TableWaitScreen(self.app, words))

    def close_table(self) -> None:
        """Leave the table (the friend hears it); nothing is left to go back to."""
        if self.table is not None:
            self.table.close()
            self.table = None
            forget_seat(self.app.config_folder)

    def leave(self) -> None:
        """Leave the table from its waiting screen: back to the title screen (or, online,
        the lobby)."""
        online = self.table is not None and self.table.online
        self.close_table()
        if online:
            self.online.back_to_lobby()
        else:
            self.app.start()

    def back_to_lobby(self) -> None:
        """After an online game (a player's or a spectator's): the lobby again, whatever the
        table did meanwhile (the players gone, a rematch begun)."""
        self.close_table()
        self.online.back_to_lobby()

    def play_again(self) -> None:
        """Game over at a table: a rematch once both ask, or (the friend gone) Play a friend."""
        table = self.table
        if table is not None and table.watching:  # the players choose; the spectator goes
            self.close_table()
            self.online.back_to_lobby()
            return
        if table is not None and not table.closed:
            table.link.send(p.Rematch())
            self.app.say(rematch_asked_words(self.app.names.theirs), category=Category.DECISION)
            return
        online = self.online_game or (table is not None and table.online)
        self.close_table()
        if online:
            self.online.back_to_lobby()
        else:
            self.app.show(FriendScreen(self.app))

    # -- chat ----------------------------------------------------------------------------------

    def open_chat(self) -> None:
        """T: a line to the friend, over whatever screen is up (the decision waits below)."""
        table = self.table
        if table is not None and table.in_lobby and not table.closed:
            self.online.chat()
            return
        if table is not None and table.watching and not table.closed:
            if not self.online.name:
                self.app.cue("menu_error")
                self.app.say(_("Chat while watching is for players with a name. Sign in "
                               "first."))
                return
            self.app.push(ChatScreen(self.app, gallery=True))
            return
        if table is None or table.match is None or table.closed:
            self.app.cue("menu_error")
            self.app.say(_("Chat is for a game with a friend at a table."))
            return
        self.app.push(ChatScreen(self.app, mute=self.app.names.theirs))

    def more_time(self) -> None:
        """X: the whole turn again, at a table with a turn limit (the server says how many
        times are left, or why not)."""
        table = self.table
        if table is None or table.closed or table.match is None or not table.turn_s:
            self.app.cue("menu_error")
            self.app.say(_("There is no turn limit here."))
        elif table.match.pending() is None:
            self.app.cue("menu_error")
            self.app.say(_("More time is for a choice of your own, when it is your turn."))
        elif not table.extensions:
            self.app.cue("menu_error")
            self.app.say(_("No more time can be given this game."))
        else:
            table.link.send(p.MoreTime())

    def send_chat(self, text: str) -> None:
        if self.table is None or self.table.closed:
            self.app.cue("menu_error")
            self.app.say(_("The table is gone; the message was not sent."),
                         category=Category.NOTICE)
            return
        self.table.link.send(p.Chat(text))
        # Translators: {text} is the player's own chat line, just sent to the friend.
        self.app.say(_("You: {text}").format(text=text), category=Category.CHAT)

    def chat_heard(self, name: str, text: str) -> None:
        if self.online.is_muted(name):
            return  # muted in the lobby, for this session
        self.app.cue("chat")
        self.app.say(said_words(name, text), interrupt=False,
                     category=Category.CHAT, priority=Priority.ALERT)

    # -- the table's news ----------------------------------------------------------------------

    def table_waiting(self, words: str) -> None:
        self.app.show(TableWaitScreen(self.app, words), interrupt=False)

    def table_started(self, match: TableGame, names: Names) -> None:
        app, table = self.app, self.table
        watching = table is not None and table.watching
        if table is not None and table.url is not None and not watching:  # a crash can come
            save_seat(app.config_folder, SavedSeat(table.url, table.code, table.token,  # back
                                                   names.theirs))
        app.session.join_table(match, names)
        self.online_game = table is not None and table.online
        app.names = app.session.names
        app.comfort.history.opponent = app.opponent
        if watching:
            self._watch_started(match)
            return
        if table is not None and table.online:  # an announcement: R says it again
            app.say(paired_words(app.names.mine, app.names.theirs, table.their_player),
                    interrupt=False, category=Category.NOTICE)
        else:
            # Translators: {mine} is the player's team, {theirs} the friend's team.
            words = _("You are the {mine}; your friend plays the {theirs}.")
            app.say(words.format(mine=app.names.mine, theirs=app.names.theirs),
                    interrupt=False, category=Category.DECISION)
        if table is not None and table.turn_s:  # announced at the start, as WCAG asks
            app.say(app.keys.fill(turn_limit_words(table.turn_s)), interrupt=False,
                    category=Category.DECISION)
        if match.table_series is not None:
            app.say(table_series_words(match.table_series), interrupt=False,
                    category=Category.DECISION)
        if match.step > 0:  # back at a game under way: where it stands first
            app.say(situation_words(match.state, app.names), interrupt=False,
                    category=Category.INFO)
        app.show_decision(interrupt=False)

    def _watch_started(self, match: TableGame) -> None:
        """A spectator's game: both teams named, where it stands, then the watching screen."""
        app = self.app
        names = app.names
        app.say(watching_screen_words(names), interrupt=False, category=Category.DECISION)
        if match.step > 0:
            app.say(situation_words(match.state, names), interrupt=False, category=Category.INFO)
        app.show(TableWaitScreen(app, watching_screen_words(names), watching=True),
                 interrupt=False, speak=False)

    def table_closed(self, words: str, retry: bool, password: bool = False,
                     rename: str = "") -> None:
        """The table cannot be used (or no longer): said, then back to somewhere useful: the
        code again after a wrong one, the password after a missing or wrong one, or (`rename`,
        the host's team having the player's name) the same table joined again as `rename`."""
        app, table = self.app, self.table
        self.table = None
        if table is not None:
            table.close()
            forget_seat(app.config_folder)
        app.cue("menu_error")
        app.say(words, category=Category.NOTICE)
        game = None if table is None else table.game
        if game is not None and game.state.outcome is not None:
            return  # the game is over already: its screen stays
        if table is not None and table.online:  # the lobby's line lost: the title screen;
            if table.in_lobby:                  # a table's from the lobby: the lobby again
                app.start()
            else:
                self.online.back_to_lobby()
            return
        if rename and table is not None and isinstance(table.greeting, p.Join):
            _name, code, address = self.joining
            self.join_table(rename, code, address, table.greeting.password)
            return
        if password and table is not None and isinstance(table.greeting, p.Join):
            name, code, address = self.joining
            app.show(PasswordScreen(app, lambda typed: self.join_table(name, code, address,
                                                                       typed)),
                     interrupt=False)
            return
        if retry and table is not None and isinstance(table.greeting, p.Join):
            app.show(CodeScreen(app, table.greeting.name), interrupt=False)
            return
        app.show(FriendScreen(app), interrupt=False)

    # -- the friend's turn ---------------------------------------------------------------------

    def turn(self, match: Play) -> bool:
        """A decision at a table: its `{"kind": "turn"}` record for key scripts, and, while
        the friend chooses, the waiting screen (its words said only if the friend is still
        choosing a moment later: when both have committed, the reveal comes first and
        "Waiting" would be a word too many). Returns whether it is the friend's turn; with
        no table, nothing is recorded and it never is."""
        if self.table is None or self.table.game is not match:
            return False
        if self.table.watching:  # a spectator never decides: the watching screen stays
            if not match.is_over and not isinstance(self.app.stack[0], TableWaitScreen):
                self.app.show(TableWaitScreen(self.app, watching_screen_words(self.app.names),
                                              watching=True), speak=False)
            return not match.is_over
        decision, down = match.pending(), match.state.down
        if decision is None:
            self.app.record("turn", mine=False, over=match.is_over)
        else:
            self.app.record("turn", mine=True, phase=decision.phase.value,
                            role=None if decision.role is None else decision.role.value,
                            down=None if down is None else down.number)
        if not match.waiting:
            return False
        self.app.show(TableWaitScreen(self.app, waiting_words(self.app.names.theirs),
                                      in_game=True), speak=False)
        now = time.perf_counter()
        self.wait_words_at = now + WAIT_WORDS_DELAY_S
        self.wait_sound_at = now + WAIT_SOUND_S
        return True

    def shown(self) -> None:
        """A new screen: no waiting words or pulse are due any more."""
        self.wait_words_at = self.wait_sound_at = None

    def due(self) -> float | None:
        """When (time.perf_counter()) the waiting words or pulse are next due, if ever: the
        loop need not turn before then for them."""
        times = [at for at in (self.wait_words_at, self.wait_sound_at) if at is not None]
        return min(times, default=None)

    def tick(self) -> None:
        """Once every turn of the loop: the line's news, the tables found nearby, and the
        waiting words and pulse when due."""
        app = self.app
        if self.table is not None:
            self.table.tick()
        if self.finder is not None:
            nearby = [screen for screen in app.stack if isinstance(screen, NearbyScreen)]
            if not nearby:
                self.stop_looking()  # the list was left: stop looking
            elif (tables := self.finder.tables()) != nearby[0].tables:
                nearby[0].found(tables)
                app.dirty = True
        now = time.perf_counter()
        if self.wait_words_at is not None and now >= self.wait_words_at:
            self.wait_words_at = None
            app.say(app.stack[0].prompt(), interrupt=False, category=Category.DECISION)
        if self.wait_sound_at is not None and now >= self.wait_sound_at:
            self.wait_sound_at = now + WAIT_SOUND_S
            if app.comfort.settings.waiting_sound:
                app.cue("waiting")
