"""A game at a table, seen from one seat: the questions `engine.Match` answers (the state, the
decision waiting for the player, playing it), answered from the server's updates.

The session and the screens cannot tell it from a game against the computer, except that
playing returns no events at once: they come later, in `receive`, when the server has played
the step (for the card steps, once the other seat has committed too). Until then `pending`
is None and `waiting` is True.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..engine import events as ev
from ..engine.actions import Action, Concede, actors, legal_actions, role_of
from ..engine.card_model import Role
from ..engine.errors import RulesError, SnapshotError
from ..engine.match import Decision
from ..engine.series import LENGTHS, Series
from ..engine.state import GameState, Phase, Team
from ..wire import protocol as p
from ..wire.values import action_to_wire, events_from_wire, state_from_wire


class ServerRefusal(RulesError):
    """The server did not play what this seat sent; `code` is the protocol's refusal code."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


class RemoteMatch:
    def __init__(self, send: Callable[[p.Message], None], seat: Team | None,
                 start: p.Start) -> None:
        """`seat` None: a spectator's game, which hears every step and never acts."""
        self._send = send
        self.seat = seat
        self.names = tuple(start.names)
        self.state: GameState = state_from_wire(start.state)
        self.step = start.step
        # The step this seat's last sent action is for (a resumed seat's held choice counts).
        self._sent_at: int | None = self.step if start.held else None
        self.left: str | None = None  # the other team's name, once it has left the table
        self._last: p.Act | None = None  # what this seat sent last
        self.series = _series(start)  # the table's series, as it stood before this game

    @property
    def human(self) -> Team | None:
        return self.seat

    @property
    def is_over(self) -> bool:
        return self.state.phase is Phase.GAME_OVER or self.left is not None

    @property
    def waiting(self) -> bool:
        """True while the game waits on the other seat (or on the server's answer)."""
        return not self.is_over and self.pending() is None

    def role_of(self, team: Team) -> Role | None:
        return role_of(self.state, team)

    def pending(self) -> Decision | None:
        sent = self._sent_at is not None and self._sent_at >= self.step
        if self.seat is None or self.is_over or sent or self.seat not in actors(self.state):
            return None
        return Decision(self.state.phase, self.seat, self.role_of(self.seat))

    def legal_actions(self) -> tuple[Action, ...]:
        if self.seat is None or self.pending() is None:
            return ()
        return legal_actions(self.state, self.seat)

    def advance(self) -> list[ev.Event]:
        return []

    def play(self, actions: Sequence[Action]) -> tuple[list[ev.Event], RulesError | None]:
        """Send this seat's actions for the step; what they cause arrives in `receive`."""
        if self.pending() is None:
            return [], RulesError("it is not your turn")
        self._last = p.Act(self.step, [action_to_wire(action) for action in actions])
        self._send(self._last)
        # Each action but the last plays a step of its own (the snap before the cards), so
        # the last is held for a later step: the decision is not ours again until that one.
        self._sent_at = self.step + len(actions) - 1
        return [], None

    def concede(self, team: Team) -> list[ev.Event]:
        if not self.is_over and self.seat is not None:
            self._send(p.Act(self.step, [action_to_wire(Concede())]))
            self._sent_at = self.step
        return []

    def resync(self, start: p.Start) -> tuple[list[ev.Event], RulesError | None]:
        """Back at the table after the line dropped: what happened meanwhile, and the step as
        the server has it. Actions this seat sent for this step still stand: the server holds
        them, they are on their way on the new line, or the link sends them again (it alone
        knows which line they went out on: `TableLink`)."""
        events, refusal = self._take(start)
        if refusal is not None:
            return [], refusal
        last = self._last
        if start.held:
            self._sent_at = self.step
        elif last is None or last.step != self.step or self._sent_at is None:
            self._sent_at = None  # nothing of this seat's stands for this step
        return events, None

    def receive(self, message: p.ServerMessage) -> tuple[list[ev.Event], RulesError | None]:
        """A server message for this game: the events to tell, and a refusal to say."""
        if isinstance(message, p.Update):
            events, refusal = self._take(message)
            if refusal is not None:
                return [], refusal
            if self._sent_at is not None and self._sent_at < self.step:
                self._sent_at = None  # what this seat sent has been played
            return events, None
        if isinstance(message, p.Refused):
            self._sent_at = None  # the decision is the player's again
            return [], ServerRefusal(message.code, message.text)
        if isinstance(message, p.Left):
            self.left = message.name
        return [], None

    def _take(self, message: p.Start | p.Update) -> tuple[list[ev.Event], RulesError | None]:
        """The server's events and new state and step, as this seat now has them; a message
        that does not decode changes nothing and is a refusal to say."""
        try:
            events = events_from_wire(message.events)
            state = state_from_wire(message.state)
        except SnapshotError as error:
            return [], ServerRefusal(p.BAD_MESSAGE, str(error))
        self.state, self.step = state, message.step
        return events, None


def _series(start: p.Start) -> Series | None:
    """The series a table's Start tells of; None for single games (or a length or a result
    this version does not know)."""
    if start.best_of not in LENGTHS or len(start.names) != 2:
        return None
    try:
        results = tuple(None if winner is None else Team(winner) for winner in start.results)
    except ValueError:
        return None
    series = Series(start.best_of, start.replay_ties, start.names[0], start.names[1], "friend",
                    results)
    return None if series.over else series
