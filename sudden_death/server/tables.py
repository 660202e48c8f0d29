"""Tables: games between two seats, held by the server, with no network in sight.

A table holds the authoritative `Game` and its dice. A seat's action for one of the three card
steps (pick, swap, final call) is held here until the other seat commits that step too; only
then does the step play, and both seats get the same update. So nothing one seat committed can
reach the other before the reveal: it is not in any message until the step has been played.
Each method returns the messages to send, as (seat, message) pairs, and the service sends them.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..engine import events as ev
from ..engine.actions import SIMULTANEOUS, Action, Concede, PickHand, actors, legal_actions
from ..engine.errors import RulesError, SnapshotError
from ..engine.event_codec import events_to_list
from ..engine.game import Game
from ..engine.snapshot import action_from_dict, action_to_dict, state_to_dict
from ..engine.state import GameState, Team
from ..net import protocol as p

Outgoing = list[tuple[Team, p.Message]]
HOST_SEAT = Team.AWAY  # the guest calls the toss, as the home team does in the rules


@dataclass
class Seat:
    name: str
    token: str = field(default_factory=lambda: secrets.token_urlsafe(18))


@dataclass
class Table:
    """One game between two seats. `log` holds every step's actions, for a replay."""

    code: str
    game: Game
    seats: dict[Team, Seat] = field(default_factory=dict)
    held: dict[Team, Action] = field(default_factory=dict)  # this card step's commits so far
    step: int = 0
    log: list[dict[str, object]] = field(default_factory=list)
    left: bool = False

    @property
    def full(self) -> bool:
        return len(self.seats) == 2

    @property
    def over(self) -> bool:
        return self.left or self.game.is_over

    def names(self) -> list[str]:
        return [self.seats[team].name for team in Team]

    def start(self) -> Outgoing:
        message = p.Start(self.names(), self.step, state_to_dict(self.game.state), [])
        return [(team, message) for team in Team]

    def act(self, team: Team, step: int, actions: Iterable[object]) -> Outgoing:
        """A seat's actions for `step`, in order; a refusal stops the rest (what went before it
        still counts) and is sent to that seat alone."""
        if not self.full or self.over:
            return [(team, p.Refused(p.NOT_NOW, "the game is not being played"))]
        if step != self.step:
            return [(team, p.Refused(p.NOT_NOW, f"that was for step {step}; this is step "
                                                f"{self.step}"))]
        out: Outgoing = []
        for data in actions:
            try:
                action = action_from_dict(data)
            except SnapshotError as error:
                return [*out, (team, p.Refused(p.BAD_MESSAGE, str(error)))]
            refusal = self._commit(team, action, out)
            if refusal is not None:
                return [*out, (team, refusal)]
        return out

    def leave(self, team: Team) -> Outgoing:
        """A seat left the table for good: the other hears who left, and the table is over."""
        if self.left or team not in self.seats:
            return []
        self.left = True
        return [(other, p.Left(self.seats[team].name)) for other in self.seats if other != team]

    # -- internals ---------------------------------------------------------------------------

    def _commit(self, team: Team, action: Action, out: Outgoing) -> p.Refused | None:
        state = self.game.state
        if isinstance(action, Concede):
            self.held.clear()
            self._play({team: action}, out)
            return None
        if team not in actors(state):
            return p.Refused(p.NOT_NOW, "it is the other team's turn")
        if team in self.held:
            return p.Refused(p.NOT_NOW, "your choice for this step is already in")
        if not _legal(state, team, action):
            return p.Refused(p.NOT_ALLOWED, f"{_name(action)} is not allowed now")
        if state.phase not in SIMULTANEOUS:
            self._play({team: action}, out)
            return None
        self.held[team] = action
        if set(self.held) == set(actors(state)):
            held, self.held = self.held, {}
            self._play(held, out)
        else:
            out.append((team, p.Committed(self.step)))
        return None

    def _play(self, actions: dict[Team, Action], out: Outgoing) -> None:
        try:
            events = self.game.apply(actions)
        except RulesError as error:  # checked above; the rules have the last word all the same
            out.extend((team, p.Refused(p.NOT_ALLOWED, str(error))) for team in actions)
            return
        self.log.append({team.name: action_to_dict(action) for team, action in actions.items()})
        self.step += 1
        update = p.Update(self.step, state_to_dict(self.game.state), events_to_list(events))
        out.extend((team, update) for team in Team)


def _legal(state: GameState, team: Team, action: Action) -> bool:
    """Whether the rules allow `action` now; a hand's cards may come in any order."""
    legal = legal_actions(state, team)
    if isinstance(action, PickHand):
        wanted = (frozenset(action.hand.players), frozenset(action.hand.calls))
        return any(isinstance(other, PickHand) and wanted == (
            frozenset(other.hand.players), frozenset(other.hand.calls)) for other in legal)
    return action in legal


def _name(action: Action) -> str:
    return type(action).__name__


def new_game(seed: int | None) -> Game:
    """The table's dice: from `seed` (a test's or a replay's), else from the system's entropy."""
    return Game(random.Random(secrets.randbits(64) if seed is None else seed))


def replay(seed: int, log: Iterable[dict[str, object]]) -> tuple[Game, list[ev.Event]]:
    """The game a table with `seed` and `log` played, rebuilt locally (for tests and checks)."""
    game = Game(random.Random(seed))
    events: list[ev.Event] = []
    for step in log:
        events += game.apply({Team[name]: action_from_dict(data) for name, data in step.items()})
    return game, events
