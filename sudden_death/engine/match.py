"""A game between policies and at most one human, with the computer committing first.

At the start of every step the computer's choice for that step is drawn and fixed before the
human's choice is read; an illegal human choice is refused without redrawing it.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from . import events as ev
from .actions import (
    PHASE_ACTION,
    SIMULTANEOUS,
    Action,
    Concede,
    actors,
    legal_actions,
    legal_for_actor,
    role_of,
)
from .card_model import Role
from .computers import COMPUTERS, RANDOM, make_computer
from .errors import RulesError, SnapshotError
from .game import Game
from .hold import Hold
from .policy import Policy
from .snapshot import (
    SNAPSHOT_FORMAT,
    action_from_dict,
    action_to_dict,
    load_snapshot,
    rng_from_list,
    rng_to_list,
)
from .state import GameState, Phase, Team

# The computers a saved match can name, by class name.
POLICY_KINDS: dict[str, Callable[[random.Random], Policy]] = {
    factory.__name__: factory for factory in COMPUTERS.values()
}


@dataclass(frozen=True)
class Decision:
    """What the human must decide now: the step, their team and their side of the ball."""

    phase: Phase
    team: Team
    role: Role | None


class Match:
    def __init__(self, game: Game, policies: Mapping[Team, Policy]) -> None:
        self.game = game
        self.policies = dict(policies)
        self._hold = Hold(game)  # the computer's choice for a card step, until the human's

    @classmethod
    def against_computer(cls, seed: int, human: Team = Team.HOME,
                         computer: str = RANDOM, *, overtime: bool = False) -> Match:
        """The game of the rules: dice from `seed`, the computer (the rules' random one, or the
        coach) choosing from its own stream of `seed`; `overtime` turns on the house rule that
        plays off a tie (the game's state keeps it, snapshots included)."""
        policy = make_computer(computer, random.Random(f"computer:{seed}"))
        return cls(Game(random.Random(seed), overtime=overtime), {human.other: policy})

    @property
    def state(self) -> GameState:
        return self.game.state

    @property
    def human(self) -> Team | None:
        """The team a person plays (the one without a policy); None when none or both do."""
        free = [team for team in Team if team not in self.policies]
        return free[0] if len(free) == 1 else None

    def role_of(self, team: Team) -> Role | None:
        return role_of(self.game.state, team)

    def legal_actions(self) -> tuple[Action, ...]:
        """What the human may do now; empty when nothing waits for them."""
        decision = self.pending()
        return () if decision is None else legal_actions(self.state, decision.team)

    def pending(self) -> Decision | None:
        """The human's decision the game waits for, or None when over or no human plays."""
        state = self.game.state
        for team in actors(state):
            if team not in self.policies:
                return Decision(state.phase, team, self.role_of(team))
        return None

    def committed(self, team: Team) -> Action | None:
        """The computer's fixed choice for the current simultaneous step (for tests and logs)."""
        return self._hold.held.get(team)

    def advance(self) -> list[ev.Event]:
        """Let the policies act until the human must decide or the game is over."""
        events: list[ev.Event] = []
        while not self.game.is_over:
            teams = actors(self.game.state)
            if any(team not in self.policies for team in teams):
                self._commit_computer(teams)
                break
            events.extend(self.game.apply(self._policy_choices(teams)))
        return events

    def act(self, action: Action) -> list[ev.Event]:
        """Apply the human's action for the pending decision, then let the policies go on."""
        decision = self.pending()
        if decision is None:
            raise RuntimeError("no decision is waiting for a human")
        if isinstance(action, Concede):
            return self.concede(decision.team)
        events = self._hold.choose(decision.team, action)
        assert events is not None, "the computer chooses first, so the human's choice plays"
        return events + self.advance()

    def play(self, actions: Sequence[Action]) -> tuple[list[ev.Event], RulesError | None]:
        """The human's actions in order; a refused one stops the rest, and what went before it
        still counts. Returns the events and the refusal, if any."""
        events: list[ev.Event] = []
        for action in actions:
            try:
                events += self.act(action)
            except RulesError as error:
                return events, error
        return events, None

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    def concede(self, team: Team) -> list[ev.Event]:
        return self._hold.choose(team, Concede()) or []

    # -- saving ------------------------------------------------------------------------------

    def to_json(self) -> str:
        """The game, each computer's kind and generator, and any choice it has already fixed
        for this step: a restored match continues exactly as this one would."""
        return json.dumps({
            "format": SNAPSHOT_FORMAT,
            "game": json.loads(self.game.to_json()),
            "computers": {
                team.name: {"kind": type(policy).__name__, "rng": rng_to_list(policy.rng)}
                for team, policy in self.policies.items()
            },
            "committed": {team.name: action_to_dict(action)
                          for team, action in self._hold.held.items()},
        })

    @classmethod
    def from_json(cls, text: str) -> Match:
        data = load_snapshot(text)
        game = Game.from_json(json.dumps(data.get("game")))
        try:
            computers = {Team[name]: POLICY_KINDS[saved["kind"]](rng_from_list(saved["rng"]))
                         for name, saved in data["computers"].items()}
            committed = {Team[name]: action_from_dict(saved)
                         for name, saved in data["committed"].items()}
        except (KeyError, TypeError, AttributeError):
            error = SnapshotError("the saved computers or their fixed choices do not decode")
            raise error from None
        match = cls(game, computers)
        phase, teams = game.state.phase, actors(game.state)
        for team, action in committed.items():
            fits = phase in SIMULTANEOUS and team in teams and team in computers
            if not fits or type(action) is not PHASE_ACTION[phase]:
                raise SnapshotError("a saved computer choice does not belong to this step")
        if committed:
            match._hold.held = committed
        elif match.pending() is not None:
            match._commit_computer(teams)  # a snapshot made before the computer chose
        return match

    # -- internals ---------------------------------------------------------------------------

    def _commit_computer(self, teams: tuple[Team, ...]) -> None:
        """Fix each policy's choice for a simultaneous step as soon as the step begins."""
        if self.game.state.phase not in SIMULTANEOUS or self._hold.held:
            return
        for team, action in self._policy_choices(teams).items():
            self._hold.choose(team, action)

    def _policy_choices(self, teams: tuple[Team, ...]) -> dict[Team, Action]:
        state = self.game.state
        return {
            team: policy.choose(state, team, legal_for_actor(state, team))
            for team in teams
            if (policy := self.policies.get(team)) is not None
        }
