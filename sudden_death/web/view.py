"""What a browser seat sees, told from what its line is sent (`Viewer`).

For each message the server sends a browser seat's line, the viewer adds one `view` message
(`seat_view.SeatView`: the events in words, the score and situation, the cards on the table,
the decision owed as a form) or a `told` one (a table's code, a refusal, the lobby's chat).
This is the wire's side of it: it reads only the frames that line is sent, so it can never
tell the page more than the seat may know (docs/protocol.md, "What a seat may know"), and
turns them into the engine's values for the seat's view, which needs no wire at all.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..engine.state import Team
from ..language import _, using
from ..ui.words.online import (
    game_played_words,
    here_words,
    open_table_words,
    signed_in_words,
    standing_words,
)
from ..ui.words.phrases import Names
from ..ui.words.seats import paired_words, watching_screen_words
from ..ui.words.table import (
    away_words,
    back_words,
    busy_words,
    chosen_words,
    left_words,
    refusal_words,
    rematch_asked_words,
    said_words,
    stand_in_words,
    steady_words,
    table_code_words,
    time_added_words,
    time_up_words,
    time_warning_words,
    timeout_words,
    turn_limit_words,
)
from ..wire import protocol as p
from ..wire.values import events_from_wire, state_from_wire
from .seat_view import SeatView, language_of

HOST_SEAT = Team.AWAY  # the seat a table's host takes (docs/protocol.md, "Seats")


@dataclass
class Viewer(SeatView):
    """One browser line's view of its table. `language`: the page's language code."""

    team: Team | None = None
    # The seat the host's own computer plays (`Host.computer`), set by the server as it seats
    # this line (server/roles/seats.py): it chooses at once, so "has chosen" is never said for it,
    # as the desktop game never says it against the computer. None: a friend's seat.
    computer: Team | None = None
    chosen: int | None = None  # the step whose "has chosen" was said: at most once a step

    def seen(self, frame: str) -> str | None:
        """The `view` frame to send after `frame` (None when it changes nothing shown)."""
        try:
            message = p.decode_server(frame)
        except p.ProtocolError:
            return None
        with using(language_of(self.language)):
            if isinstance(message, p.LobbyList):
                return json.dumps(self.lobby(message), ensure_ascii=False)
            self.fresh()
            lines = self.told(message)
            if lines is None:
                return None
            if self.state is None:  # before a game: a table's code, a refusal, a name
                told: dict[str, Any] = {"type": "told", "lines": lines}
                if self.cues:  # a refusal's, a chat line's
                    told["cues"] = self.cues
                if isinstance(message, p.Seated):  # a page playing the computer says none
                    told["code"] = message.code
                elif isinstance(message, p.Said):  # the lobby's chat: kept in its own list
                    told["chat"] = True
                return json.dumps(told, ensure_ascii=False)
            return json.dumps(self.view(lines), ensure_ascii=False)

    def told(self, message: p.ServerMessage) -> list[str] | None:
        """The lines a message adds to the log (None: the page needs no new view)."""
        names = self.names
        if isinstance(message, p.Seated):
            self.team = Team(message.seat)
            if self.team is HOST_SEAT and self.state is None:  # the code to give a friend
                return [table_code_words(message.code, None), _("Waiting for a player.")]
            return None
        if isinstance(message, p.Start):  # a seat's game, or a spectator's (no seat)
            first = self.names is None
            names = Names(message.names[0], message.names[1], you=self.team or Team.HOME,
                          watching=self.team is None)
            self.chosen = None  # a resumed line has heard no "has chosen" yet
            told = self.begin(names, state_from_wire(message.state), message.step,
                              events_from_wire(message.events),
                              message.step if message.held else None)
            self.turn_s = message.turn_s
            if first and self.team is None:
                told.insert(0, watching_screen_words(names))
            elif first and message.step == 0 and len(message.players) == 2:  # not on a resume
                told.insert(0, paired_words(names.mine, names.theirs,
                                            message.players[names.you.other]))
            if first and message.step == 0 and self.turn_s and self.team is not None:
                told.insert(1, keyed(turn_limit_words(self.turn_s)))
            return told
        if isinstance(message, p.SignedIn):
            return [signed_in_words(message.name)]
        if isinstance(message, p.Standing):  # Your rating, asked in the lobby
            return standing_words(message)
        if isinstance(message, p.Update) and self.narrator is not None:
            return self.played(state_from_wire(message.state), message.step,
                               events_from_wire(message.events))
        if isinstance(message, p.Refused) and names is None:
            self.sound("menu_error")
            return [refusal_words(message.code, message.text)]
        if isinstance(message, p.Said):  # the lobby's chat, the other seat's or a spectator's
            self.sound("chat")
            return [said_words(message.name, message.text)]
        if names is None:
            return None
        if isinstance(message, p.Committed):
            return self.committed(message, names)
        return self.table_news(message, names)

    def committed(self, message: p.Committed, names: Names) -> list[str] | None:
        """A seat's choice is in: this seat's own (it now waits), or the other's, said once a
        step and only of a friend (the desktop game's rule: a spectator hears the reveal, and
        the computer has always chosen)."""
        if message.seat == self.team:
            self.held = message.step
            return []
        if self.team is None or message.seat == self.computer or self.chosen == message.step:
            return None
        self.chosen = message.step
        return [chosen_words(names.theirs)]

    def lobby(self, lobby: p.LobbyList) -> dict[str, Any]:
        """The lobby as the page lists it: the tables to join and the games to watch, each
        with the desktop game's words for it, and who is here."""
        return {"type": "lobby_view",
                "summary": _("Lobby: {tables} open, {games} playing.").format(
                    tables=lobby.open, games=lobby.playing),
                "tables": [{"code": table.code, "label": open_table_words(table)}
                           for table in lobby.tables],
                "games": [{"code": game.code, "label": game_played_words(game)}
                          for game in lobby.games],
                "here": here_words(lobby.here, "")}

    def table_news(self, message: p.ServerMessage, names: Names) -> list[str] | None:
        """What the desktop game says for the table's other news, in the same words."""
        if isinstance(message, p.Refused):
            self.sound("menu_error")
            return [refusal_words(message.code, message.text)]
        if isinstance(message, p.Left):
            return [timeout_words(message.name) if message.reason == "timeout"
                    else left_words(message.name)]
        if isinstance(message, p.Away):
            return [away_words(message.name)]
        if isinstance(message, p.Back):
            return [back_words(message.name)]
        if isinstance(message, p.StandIn):
            return [stand_in_words(message.name, message.reason)]
        if isinstance(message, p.RematchAsked):
            self.sound("chat")
            return [rematch_asked_words(message.name)]
        if isinstance(message, p.TimeWarning):
            self.sound("waiting")
            return [keyed(time_warning_words(message.seconds, message.extensions))]
        if isinstance(message, p.TimeAdded):
            return [time_added_words(message.seconds, message.extensions)]
        if isinstance(message, p.TimeUp):
            self.sound("menu_error")
            return [time_up_words(message.name, message.name == names.mine)]
        if isinstance(message, p.Busy):
            return [busy_words()]
        if isinstance(message, p.Steady):
            return [steady_words()]
        return None


def keyed(words: str) -> str:
    """The desktop game's words with its key for more time as the page's button."""
    return words.replace("{more_time}", _("More time"))
