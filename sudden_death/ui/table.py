"""Playing at a table: the line to the server, and what its news means for the player.

The link runs off the loop (`net/link.py`) and raises the loop's wake when news arrives;
`tick` takes what has arrived, once per turn of the loop: the start of a match (the app's
`table_started`), and each step played or refused, queued in the game (`TableGame.tell`)
that the app drains as it drains a game against the computer. Nothing here waits.
"""

from __future__ import annotations

from typing import Protocol

from ..audio.protocols import Category
from ..engine.errors import RulesError
from ..engine.state import Team
from ..language import _
from ..net.news import Alarm, Connected, Lost, Reconnecting, Restored
from ..net.remote_match import RemoteMatch, ServerRefusal
from ..wire import protocol as p
from .screens.welcome import other_default
from .table_game import TableGame
from .words.phrases import Names
from .words.table import (
    away_words,
    back_words,
    busy_words,
    chosen_words,
    joined_words,
    left_words,
    lost_words,
    password_asked_words,
    reconnecting_words,
    refusal_words,
    rematch_words,
    renamed_words,
    restored_words,
    stand_in_words,
    steady_words,
    table_code_words,
    time_added_words,
    time_up_words,
    time_warning_words,
    timeout_words,
    watching_words,
)


class TableHost(Protocol):
    """What the table asks of the app."""

    def say(self, text: str, *, interrupt: bool = True,
            category: Category = Category.MENU) -> None: ...

    def cue(self, name: str) -> None: ...

    def record(self, kind: str, **fields: object) -> None: ...

    def table_waiting(self, words: str) -> None: ...

    def table_started(self, game: TableGame, names: Names) -> None: ...

    def take_steps(self) -> None:
        """Tell what the game has queued (the session's one road for every game's steps)."""
        ...

    def table_closed(self, words: str, retry: bool, password: bool = False,
                     rename: str = "") -> None: ...

    def chat_heard(self, name: str, text: str) -> None: ...

    # Playing online (ui/online.py): what the line hears before it sits at a table.

    def signed_in(self, name: str, token: str) -> None: ...

    def lobby_heard(self, listing: p.LobbyList) -> None: ...

    def standing_heard(self, standing: p.Standing) -> None: ...

    def lobby_refused(self, code: str, words: str) -> None: ...

    def keys_filled(self, text: str) -> str:
        """`text` with its keys named as the player's own keys are ({more_time}...)."""
        ...


Greeting = p.Host | p.Join | p.Resume | p.Quick | p.Watch | p.Lobby | p.AskRating


class TablePlay:
    """One table, from the greeting to the end of its game."""

    def __init__(self, host: TableHost, url: str | None, greeting: Greeting,
                 wake: Alarm | None = None, before: tuple[p.Message, ...] = ()) -> None:
        """`wake`: raised by the link when news arrives (see `Friends.wake`). An online
        line (`greeting` Lobby or AskRating, `before` its sign-in) sits at a table later, on
        the same line, with `greet`."""
        self.host = host
        self.greeting: Greeting = greeting
        self.hosting = isinstance(greeting, p.Host)
        self.url = url  # None: this game serves the table itself
        from ..net.link import TableLink
        from ..server.home import serve_here

        self.link = TableLink(url, greeting, serve_here if url is None else None, wake, before)
        self.address: str | None = None
        self.code = ""
        self.token = ""
        self.seat: int | None = None
        self.match: RemoteMatch | None = None
        self.game: TableGame | None = None  # the game behind the session's seam
        self.closed = False
        self.announcement = ""  # the code, for R and S while waiting for the friend
        self.online = self.in_lobby  # began in the lobby (ui/online.py), at a table or not
        self.turn_s = 0  # the table's turn limit, from its start (0: none)
        self.extensions = p.MAX_EXTENSIONS  # more time that may still be asked for this game
        self.players: list[str] = []  # the seats' signed-in players, home first (from start)

    def start(self) -> None:
        self.link.start()

    @property
    def in_lobby(self) -> bool:
        """An online line not yet at a table: its refusals are about the name, not a table."""
        return isinstance(self.greeting, (p.Lobby, p.AskRating))

    @property
    def against_computer(self) -> bool:
        """A table this game opened with the computer in the other seat."""
        return isinstance(self.greeting, p.Host) and bool(self.greeting.computer)

    @property
    def watching(self) -> bool:
        """A spectator's line: it hears the game, never acts in it."""
        return isinstance(self.greeting, p.Watch)

    @property
    def their_player(self) -> str:
        """The other seat's signed-in player, as they typed their name ("": none known)."""
        if self.seat is None or len(self.players) != 2:
            return ""
        return self.players[1 - self.seat]

    def greet(self, message: p.Host | p.Join | p.Quick | p.Watch) -> None:
        """From the lobby to a table, on the same (signed-in) line."""
        self.greeting = message
        self.hosting = isinstance(message, p.Host)
        self.link.send(message)

    def close(self) -> None:
        """Leave the table (the other seat hears it) and stop the line."""
        self.closed = True
        self.link.close()

    def tick(self) -> None:
        for news in self.link.poll():
            if not self.closed:
                self._news(news)
                # What this news played is told before the next news (a step, then the
                # friend leaving), as it arrived.
                self.host.take_steps()

    def _news(self, news: object) -> None:
        if isinstance(news, Connected):
            self.address = news.address
        elif isinstance(news, p.SignedIn):
            self.host.signed_in(news.name, news.token)
        elif isinstance(news, p.LobbyList):
            self.host.lobby_heard(news)
        elif isinstance(news, p.Standing):
            self.host.standing_heard(news)
        elif isinstance(news, p.Refused) and self.in_lobby and not news.fatal:
            self.host.lobby_refused(news.code, refusal_words(news.code, news.text))
        elif isinstance(news, p.Seated) and isinstance(self.greeting, p.Quick):
            first = not self.code
            self.code, self.seat, self.token = news.code, news.seat, news.token
            self.hosting = news.seat == Team.AWAY  # the host's seat: nobody was waiting
            if self.hosting and first:
                self.announcement = _waiting_for_player()
                self.host.table_waiting(self.announcement)
        elif isinstance(news, Reconnecting):
            self.host.cue("menu_error")
            self.host.say(reconnecting_words(), interrupt=False, category=Category.NOTICE)
        elif isinstance(news, Restored):
            self.host.say(restored_words(), interrupt=False, category=Category.NOTICE)
        elif isinstance(news, p.Seated):
            first = not self.code
            self.code, self.seat, self.token = news.code, news.seat, news.token
            if self.hosting and first and not self.against_computer:  # else: it starts now
                locked = isinstance(self.greeting, p.Host) and bool(self.greeting.password)
                self.announcement = table_code_words(news.code, self.address, locked)
                self.host.record("table", code=news.code)
                self.host.say(self.announcement, category=Category.DECISION)
                self.host.table_waiting(_waiting_for_friend())
        elif isinstance(news, p.Start) and self.match is not None and self.match.is_over:
            self._start(news)  # a rematch: a new game at the same table
        elif isinstance(news, p.Committed) and self.match is not None:
            if self.watching or self.against_computer:
                return  # the reveal says it; who chose first is a race, or the computer
            if news.seat != self.seat and news.seat in (0, 1) and not self.match.is_over:
                name = self.match.names[news.seat]  # the friend's choice is in, not what
                self.host.say(chosen_words(name), interrupt=False, category=Category.NOTICE)
        elif isinstance(news, p.RematchAsked):
            self.host.cue("chat")
            self.host.say(rematch_words(news.name), interrupt=False, category=Category.NOTICE)
        elif isinstance(news, p.Start) and self.match is not None:
            events, refusal = self.match.resync(news)
            if self.game is not None:
                self.game.tell(events, refusal)
        elif isinstance(news, p.Start):
            self.turn_s, self.extensions = news.turn_s, p.MAX_EXTENSIONS
            self._start(news)
        elif isinstance(news, p.TimeWarning):
            self.extensions = news.extensions
            self.host.cue("waiting")
            self.host.say(self.host.keys_filled(time_warning_words(news.seconds,
                                                                   news.extensions)),
                          interrupt=False, category=Category.NOTICE)
        elif isinstance(news, p.TimeAdded):
            self.extensions = news.extensions
            self.host.say(time_added_words(news.seconds, news.extensions),
                          category=Category.NOTICE)
        elif isinstance(news, p.TimeUp) and self.match is not None:
            mine = self.seat is not None and self.match.names[self.seat] == news.name
            self.host.cue("menu_error")
            self.host.say(time_up_words(news.name, mine), interrupt=False,
                          category=Category.NOTICE)
        elif isinstance(news, p.StandIn):
            self.host.say(stand_in_words(news.name, news.reason), interrupt=False,
                          category=Category.NOTICE)
        elif isinstance(news, p.Watching):
            self.host.say(watching_words(news.name), interrupt=False,
                          category=Category.NOTICE)
        elif isinstance(news, p.Busy):
            self.host.say(busy_words(), interrupt=False, category=Category.NOTICE)
        elif isinstance(news, p.Steady):
            self.host.say(steady_words(), interrupt=False, category=Category.NOTICE)
        elif isinstance(news, p.Away):
            self.host.say(away_words(news.name), interrupt=False, category=Category.NOTICE)
        elif isinstance(news, p.Said):
            self.host.chat_heard(news.name, news.text)
        elif isinstance(news, p.Back):
            self.host.say(back_words(news.name), interrupt=False, category=Category.NOTICE)
        elif isinstance(news, Lost):
            self.closed = True
            self.host.table_closed(lost_words(news.ever_connected), retry=False)
        elif (isinstance(news, p.Refused) and self.match is None and news.code == p.SAME_NAME
              and isinstance(self.greeting, p.Join)):
            self.closed = True  # joined again at once, under the other default name
            name = self.greeting.name
            other = other_default(name)
            self.host.table_closed(renamed_words(name, other), retry=False, rename=other)
        elif isinstance(news, p.Refused) and self.match is None:
            self.closed = news.fatal
            asked = isinstance(self.greeting, p.Join) and bool(self.greeting.password)
            words = refusal_words(news.code, news.text)
            if news.code == p.BAD_PASSWORD and not asked:
                words = password_asked_words()  # no password given: one is asked for
            self.host.table_closed(words, retry=news.code == p.NO_TABLE,
                                   password=news.code == p.BAD_PASSWORD)
        elif isinstance(news, p.Refused) and news.fatal:  # in a game: the line closes
            self.closed = True
            self.host.table_closed(refusal_words(news.code, news.text), retry=False)
        elif self.match is not None and isinstance(news, (p.Update, p.Refused, p.Left)):
            self._in_game(news)

    def _start(self, news: p.Start) -> None:
        home, away = news.names
        self.players = list(news.players)
        if self.watching:
            self.match = RemoteMatch(self.link.send, None, news)
            self.game = TableGame(self.match)
            self.host.table_started(self.game, Names(home, away, watching=True))
            return
        assert self.seat is not None
        seat = Team(self.seat)
        self.match = RemoteMatch(self.link.send, seat, news)
        self.game = TableGame(self.match)
        names = Names(home, away, seat)
        if self.hosting and not self.against_computer:
            self.host.cue("menu_select")
            self.host.say(joined_words(names.theirs), category=Category.DECISION)
        self.host.table_started(self.game, names)

    def _in_game(self, news: p.Update | p.Refused | p.Left) -> None:
        assert self.match is not None and self.game is not None
        events, refusal = self.match.receive(news)
        if isinstance(news, p.Left):
            self.closed = True
            words = timeout_words(news.name) if news.reason == "timeout" else left_words(news.name)
            self.host.table_closed(words, retry=False)
            return
        if isinstance(refusal, ServerRefusal):
            refusal = RulesError(refusal_words(refusal.code, str(refusal)))
        self.game.tell(events, refusal)  # the app drains it on this same turn of the loop


def _waiting_for_friend() -> str:
    return _("Waiting for your friend to join.")


def _waiting_for_player() -> str:
    return _("Waiting for a player.")
