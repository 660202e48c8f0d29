"""A game against the computer (the rules' random one or the coach) behind the session's
one seam (`play.Play`): the engine's `Match`, whose steps are queued as soon as they are
played, with what rebuilds it (its seed, its opponent, and every action of the player's that
applied, for the save)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import events as ev
from ..engine.actions import Action
from ..engine.card_model import Role
from ..engine.computers import COACH, RANDOM
from ..engine.match import Decision, Match
from ..engine.series import Series
from ..engine.snapshot import action_from_dict, action_to_dict
from ..engine.state import GameState, Team
from ..language import _
from ..storage.game_file import SavedGame
from ..storage.record import Opponent
from .play import Refusal, Step, StepQueue
from .words.phrases import Names


class ComputerGame:
    def __init__(self, match: Match, seed: int, computer: str = RANDOM) -> None:
        self.match = match
        self.seed = seed
        self.computer = computer
        self.actions: list[dict[str, Any]] = []
        self._steps = StepQueue()

    @classmethod
    def new(cls, seed: int, computer: str = RANDOM, overtime: bool = False) -> ComputerGame:
        """The game of the rules from `seed`, against `computer`; what happens before the
        player's first decision is queued."""
        game = cls(Match.against_computer(seed, computer=computer, overtime=overtime), seed,
                   computer)
        game._steps.put(game.match.advance())
        return game

    @property
    def state(self) -> GameState:
        return self.match.state

    @property
    def human(self) -> Team | None:
        return self.match.human

    @property
    def is_over(self) -> bool:
        return self.match.is_over

    @property
    def opponent(self) -> Opponent:
        return Opponent.COACH if self.computer == COACH else Opponent.COMPUTER

    @property
    def waiting(self) -> bool:
        return False

    @property
    def table_series(self) -> Series | None:
        return None

    @property
    def keeps_here(self) -> bool:
        return True

    def pending(self) -> Decision | None:
        return self.match.pending()

    def role_of(self, team: Team) -> Role | None:
        return self.match.role_of(team)

    def legal_actions(self) -> tuple[Action, ...]:
        return self.match.legal_actions()

    def submit(self, actions: Sequence[Action]) -> None:
        """Each action in turn; a refused one stops the rest, and what went before it still
        counts. Each that applied is kept for the save."""
        events: list[ev.Event] = []
        for action in actions:
            played, refused = self.match.play([action])
            events += played
            if refused is not None:
                # Translators: {reason} is the rules' reason, which is in English.
                words = _("Not allowed: {reason}.").format(reason=refused)
                self._steps.put(events, Refusal(words))
                return
            self.actions.append(action_to_dict(action))
        self._steps.put(events)

    def replay(self, data: dict[str, Any]) -> list[ev.Event]:
        """A saved action played again (resuming a save), told by the caller, never queued.
        Raises RulesError when the rules refuse it."""
        played, refused = self.match.play([action_from_dict(data)])
        if refused is not None:
            raise refused
        self.actions.append(data)
        return played

    def concede(self, team: Team) -> None:
        self._steps.put(self.match.concede(team))

    def drain(self) -> list[Step]:
        return self._steps.drain()

    def saved(self, names: Names) -> SavedGame | None:
        if self.match.is_over:
            return None
        return SavedGame(self.seed, self.computer, names.home, names.away, list(self.actions),
                         self.match.to_json(), self.match.state.overtime)

