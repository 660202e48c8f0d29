"""The one commit hold: a step's choices as they come in, one team at a time.

The rules play a step with every acting team's choice at once (`Game.apply`), so a choice made
first must wait somewhere, unseen, for the other. That somewhere is here, for every kind of
game: the computer's choice in a game against it (made as the step begins) and a table's seat
that commits before its friend. Each choice is checked by the rules when it arrives
(`Game.check`), so a held choice is always one the step will take.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import events as ev
from .actions import Action, Concede, actors
from .errors import RulesError
from .game import Game
from .state import Team


class AlreadyChosenError(RulesError):
    """This team's choice for the step is already held."""


@dataclass
class Hold:
    game: Game
    held: dict[Team, Action] = field(default_factory=dict)
    played: dict[Team, Action] = field(default_factory=dict)  # the last step's, as played

    def choose(self, team: Team, action: Action) -> list[ev.Event] | None:
        """`team`'s action for this step: the step's events once every acting team has
        chosen, None while it waits for another (the action held). A `RulesError` (the rules'
        own, or `AlreadyChosenError`) changes nothing. A concession plays at once and drops
        what was held, whoever held it."""
        if isinstance(action, Concede):
            events = self.game.apply({team: action})
            self.held, self.played = {}, {team: action}
            return events
        if team in self.held:
            raise AlreadyChosenError("your choice for this step is already in")
        self.game.check(team, action)
        self.held[team] = action
        if set(self.held) != set(actors(self.game.state)):
            return None
        held, self.held = self.held, {}
        try:
            events = self.game.apply(held)
        except RulesError:
            self.held = held  # the rules refused the pair: nothing changed, nothing lost
            del self.held[team]
            raise
        self.played = held
        return events
