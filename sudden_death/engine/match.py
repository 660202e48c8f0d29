"""A game between policies and at most one human, with the computer committing first.

At the start of every step the computer's choice for that step is drawn and fixed before the
human's choice is read; an illegal human choice is refused without redrawing it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from . import events as ev
from .card_model import DefCall, OffCall, Role
from .game import Game
from .policy import Policy, RandomComputer
from .state import CoinFace, GameState, Hand, Phase, Side, SnapChoice, Swap, Team

SIMULTANEOUS = (Phase.SELECTION, Phase.SUBSTITUTION, Phase.FINAL_CALL)


@dataclass(frozen=True)
class Decision:
    """What the human must decide now: the step, their team and their side of the ball."""

    phase: Phase
    team: Team
    role: Role | None


Choice = CoinFace | Side | SnapChoice | Hand | Swap | OffCall | DefCall


class Match:
    def __init__(self, game: Game, policies: Mapping[Team, Policy]) -> None:
        self.game = game
        self.policies = dict(policies)
        self._committed: dict[Team, Choice] = {}
        self._committed_phase: Phase | None = None

    @classmethod
    def against_computer(cls, seed: int, human: Team = Team.HOME) -> Match:
        """The game of the rules: dice from `seed`, the computer from its own stream of `seed`."""
        computer = RandomComputer(random.Random(f"computer:{seed}"))
        return cls(Game(random.Random(seed)), {human.other: computer})

    @property
    def state(self) -> GameState:
        return self.game.state

    def role_of(self, team: Team) -> Role | None:
        offense = self.game.state.offense
        if offense is None:
            return None
        return Role.OFFENSE if team is offense else Role.DEFENSE

    def pending(self) -> Decision | None:
        """The human's decision the game waits for, or None when over or no human plays."""
        state = self.game.state
        if state.phase is Phase.GAME_OVER:
            return None
        for team in self._actors():
            if team not in self.policies:
                return Decision(state.phase, team, self.role_of(team))
        return None

    def committed(self, team: Team) -> Choice | None:
        """The computer's fixed choice for the current simultaneous step (for tests and logs)."""
        return self._committed.get(team)

    def advance(self) -> list[ev.Event]:
        """Let the policies act until the human must decide or the game is over."""
        events: list[ev.Event] = []
        while not self.game.is_over:
            actors = self._actors()
            if any(team not in self.policies for team in actors):
                self._commit_computer(actors)
                break
            events.extend(self._apply(self._policy_choices(actors)))
        return events

    def act(self, choice: Choice) -> list[ev.Event]:
        """Apply the human's choice for the pending decision, then let the policies go on."""
        decision = self.pending()
        if decision is None:
            raise RuntimeError("no decision is waiting for a human")
        events = self._apply({decision.team: choice})
        return events + self.advance()

    def concede(self, team: Team) -> list[ev.Event]:
        self._committed.clear()
        return self.game.concede(team)

    # -- internals ---------------------------------------------------------------------------

    def _actors(self) -> tuple[Team, ...]:
        state = self.game.state
        if state.phase is Phase.COIN_TOSS:
            return (Team.HOME,)
        if state.phase is Phase.SIDE_CHOICE:
            assert state.coin_winner is not None
            return (state.coin_winner,)
        assert state.offense is not None
        if state.phase is Phase.SNAP_CHOICE:
            return (state.offense,)
        return (state.offense, state.offense.other)

    def _commit_computer(self, actors: tuple[Team, ...]) -> None:
        """Fix each policy's choice for a simultaneous step as soon as the step begins."""
        phase = self.game.state.phase
        if phase not in SIMULTANEOUS or self._committed_phase is phase:
            return
        self._committed = self._policy_choices(actors)
        self._committed_phase = phase

    def _policy_choices(self, actors: tuple[Team, ...]) -> dict[Team, Choice]:
        state = self.game.state
        choices: dict[Team, Choice] = {}
        for team in actors:
            policy = self.policies.get(team)
            if policy is None:
                continue
            phase = state.phase
            if phase is Phase.COIN_TOSS:
                choices[team] = policy.call_coin(state)
                continue
            if phase is Phase.SIDE_CHOICE:
                choices[team] = policy.choose_side(state, team)
                continue
            if phase is Phase.SNAP_CHOICE:
                choices[team] = policy.choose_snap(state, self.game.legal_snaps())
                continue
            role = Role.OFFENSE if team is state.offense else Role.DEFENSE
            hand = state.offense_hand if role is Role.OFFENSE else state.defense_hand
            if phase is Phase.SELECTION:
                choices[team] = policy.choose_hand(state, role)
            elif phase is Phase.SUBSTITUTION:
                assert hand is not None
                choices[team] = policy.choose_swap(state, role, hand)
            else:
                assert hand is not None
                choices[team] = policy.choose_final(state, role, hand)
        return choices

    def _apply(self, given: Mapping[Team, Choice]) -> list[ev.Event]:
        """Apply one step from the committed computer choices plus `given` ones."""
        game, state = self.game, self.game.state
        choices = {**self._committed, **given} if self._committed else given
        if state.phase in SIMULTANEOUS:
            assert state.offense is not None
            offense, defense = choices[state.offense], choices[state.offense.other]
            if state.phase is Phase.SELECTION:
                events = game.select(offense, defense)  # type: ignore[arg-type]
            elif state.phase is Phase.SUBSTITUTION:
                events = game.substitute(offense, defense)  # type: ignore[arg-type]
            else:
                events = game.final_calls(offense, defense)  # type: ignore[arg-type]
            self._committed = {}
            self._committed_phase = None
            return events
        (choice,) = choices.values()
        if state.phase is Phase.COIN_TOSS:
            return game.call_coin(choice)  # type: ignore[arg-type]
        if state.phase is Phase.SIDE_CHOICE:
            return game.choose_side(choice)  # type: ignore[arg-type]
        return game.choose_snap(choice)  # type: ignore[arg-type]
