"""The rules as a state machine.

Each public method is one legal action. It checks everything first (raising a `RulesError`
subclass and changing nothing), then rolls what dice it needs from the injected generator,
replaces the frozen state whole and returns the events it caused. Simultaneous steps take both
sides' choices in one call, so the state never holds one side's secret while it waits for the other.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from enum import Enum
from typing import TypeVar

from . import events as ev
from .actions import (
    ACTION_PHASE,
    CALLS_PER_HAND,
    PHASE_ACTION,
    PLAYERS_PER_HAND,
    Action,
    CallCoin,
    CardAction,
    ChooseSide,
    ChooseSnap,
    Concede,
    PickFinal,
    PickHand,
    PickSwap,
    actors,
    held_hand,
    legal_actions,
    legal_snaps,
    role_of,
    swapped,
)
from .card_model import Call, DefCall, OffCall, Player, PlayResult, Role
from .cards import calls_for, card_name, players_for
from .dice import index, roll
from .errors import (
    GameOverError,
    IllegalCallError,
    IllegalChoiceError,
    IllegalSelectionError,
    IllegalSubstitutionError,
    KickUnavailableError,
    NotYourTurnError,
    SnapshotError,
    WrongPhaseError,
)
from .field import (
    EXTRA_POINT_NEEDS,
    GOAL_LINE,
    KICK_DICE,
    LAST_DOWN,
    LAST_DRIVE,
    LAST_OVERTIME_DRIVE,
    LONGEST_FIELD_GOAL,
    OPENING_SPOT,
    OVERTIME_SPOT,
    Down,
    field_goal_distance,
    field_goal_needs,
    flip,
    is_last_drive,
    last_possible_drive,
    missed_field_goal_spot,
    punt_net,
    punt_receiving_spot,
)
from .resolve import compute_band, resolve_play
from .snapshot import (
    SNAPSHOT_FORMAT,
    load_snapshot,
    rng_from_list,
    rng_to_list,
    state_from_dict,
    state_to_dict,
)
from .state import (
    CoinFace,
    DriveEnd,
    GameEnd,
    GameState,
    Hand,
    Outcome,
    Phase,
    Side,
    SnapChoice,
    Swap,
    SwapKind,
    Team,
    evolve,
)

E = TypeVar("E", bound=Enum)
A = TypeVar("A", bound=CardAction)
TOUCHDOWN_POINTS = 6
EXTRA_POINT_POINTS = 1
FIELD_GOAL_POINTS = 3
SAFETY_POINTS = 2


class Game:
    """One game of Sudden Death. `rng` supplies every die; nothing else is random.

    `overtime` turns on the house rule (a tie after drive 2 is played off: `field.py`) for a
    new game; a given `state` already carries its own rule."""

    def __init__(self, rng: random.Random, state: GameState | None = None, *,
                 overtime: bool = False) -> None:
        if state is not None and overtime and not state.overtime:
            raise ValueError("a given state carries its own overtime rule")
        self.rng = rng
        self.state = state or GameState(overtime=overtime)
        self.log: list[ev.Event] = []

    @classmethod
    def from_kickoff(cls, rng: random.Random, first_offense: Team, *,
                     overtime: bool = False) -> Game:
        """A game that skips the coin toss: `first_offense` starts drive 1 at its own 25."""
        game = cls(rng, overtime=overtime)
        events: list[ev.Event] = []
        game.state = _start_drive(game.state, events, 1, first_offense, OPENING_SPOT)
        game.log.extend(events)
        return game

    # -- queries -----------------------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def is_over(self) -> bool:
        return self.state.phase is Phase.GAME_OVER

    def field_goal_distance(self) -> int | None:
        """The distance of a field goal from the current line, or None between downs."""
        down = self.state.down
        return None if down is None else field_goal_distance(down.line)

    def legal_snaps(self) -> tuple[SnapChoice, ...]:
        return legal_snaps(self.state)

    def legal_actions(self, team: Team) -> tuple[Action, ...]:
        """What `team` may do now (see `actions.legal_actions`); conceding is always allowed."""
        return legal_actions(self.state, team)

    # -- the one way in ----------------------------------------------------------------------

    def apply(self, actions: Mapping[Team, Action]) -> list[ev.Event]:
        """One step of the game: the action of each team that acts now (both teams at the three
        simultaneous steps, offense first), or one team's `Concede` at any step.

        A refused step raises a `RulesError` and changes nothing, dice included."""
        if self.is_over:
            raise GameOverError("the game is already over")
        teams = actors(self.state)
        kind = PHASE_ACTION[self.state.phase]
        given: list[Action] = []
        if (type(actions) is dict or isinstance(actions, Mapping)) and len(actions) == len(teams):
            for team in actions:
                action = actions[team]
                if type(team) is not Team or type(action) is not kind:
                    break
                given.append(action)
        if len(given) != len(teams) or set(actions) != set(teams):
            return self._irregular(actions, teams)
        if len(teams) == 2 and given[0] is not actions[teams[0]]:
            given.reverse()  # the offense's first
        for team, action in zip(teams, given, strict=True):
            self._check_own(team, action)
        first = given[0]
        if isinstance(first, PickHand):
            return self._select(first.hand, _same(given[1], PickHand).hand)
        if isinstance(first, PickSwap):
            return self._substitute(first.swap, _same(given[1], PickSwap).swap)
        if isinstance(first, PickFinal):
            offense, defense = first.call, _same(given[1], PickFinal).call
            assert isinstance(offense, OffCall) and isinstance(defense, DefCall)  # _check_own
            return self._final_calls(offense, defense)
        if isinstance(first, CallCoin):
            return self._call_coin(first.face)
        if isinstance(first, ChooseSide):
            return self._choose_side(first.side)
        assert isinstance(first, ChooseSnap)
        return self._choose_snap(first.choice)

    def check(self, team: Team, action: Action) -> None:
        """Whether the rules take `team`'s `action` now, as `apply` would: a `RulesError`
        naming what is wrong, else nothing. The one legality check, for a choice held until
        the other team's comes (`engine.hold.Hold`) as for a step played at once."""
        if self.is_over:
            raise GameOverError("the game is already over")
        if isinstance(action, Concede):
            return
        if team not in actors(self.state):
            raise NotYourTurnError("it is the other team's turn")
        if type(action) is not PHASE_ACTION[self.state.phase]:
            self._irregular({team: action}, (team,))
        self._check_own(team, action)

    def _check_own(self, team: Team, action: Action) -> None:
        """One team's action of the step's kind, against the rules and its own cards."""
        state = self.state
        if isinstance(action, CallCoin):
            _as(CoinFace, action.face)
        elif isinstance(action, ChooseSide):
            _as(Side, action.side)
        elif isinstance(action, ChooseSnap):
            if _as(SnapChoice, action.choice) is SnapChoice.FIELD_GOAL:
                distance = field_goal_distance(_down(state).line)
                if field_goal_needs(distance) is None:
                    raise KickUnavailableError(f"a field goal from {distance} yards is too "
                                               f"long; the limit is {LONGEST_FIELD_GOAL}")
        elif isinstance(action, PickHand):
            if not isinstance(action.hand, Hand):
                raise IllegalSelectionError(f"a selection must be a Hand, not {action.hand!r}")
            _check_hand(action.hand, _role(state, team))
        elif isinstance(action, PickSwap):
            if not isinstance(action.swap, Swap):
                raise IllegalSubstitutionError(
                    f"a substitution must be a Swap, not {action.swap!r}")
            role = _role(state, team)
            apply_swap(_hand(held_hand(state, team)), action.swap, role)
        elif isinstance(action, PickFinal):
            hand = _hand(held_hand(state, team))
            if type(action.call) not in (OffCall, DefCall) or action.call not in hand.calls:
                side = _role(state, team).value
                raise IllegalCallError(f"the {side}'s final call must be one of its three calls")

    def _irregular(self, actions: object, teams: tuple[Team, ...]) -> list[ev.Event]:
        """A concession, or the refusal that names what is wrong with this step."""
        if not isinstance(actions, Mapping) or any(type(team) is not Team for team in actions):
            raise IllegalChoiceError(f"a step maps teams to actions, not {actions!r}")
        for team, action in actions.items():
            if isinstance(action, Concede):
                if len(actions) != 1:
                    raise IllegalChoiceError("a concession is made on its own")
                return self._concede(team)
        phase = self.state.phase
        for action in actions.values():
            step = ACTION_PHASE.get(type(action))
            if step is None:
                raise IllegalChoiceError(f"{action!r} is not an action")
            if step is not phase:
                raise WrongPhaseError(
                    f"this action belongs to the {step.value} step, but the game is at "
                    f"{phase.value}"
                )
        who = " and ".join(team.name.lower() for team in teams)
        raise IllegalChoiceError(f"the {phase.value} step takes one action each from {who}")

    # -- saving ------------------------------------------------------------------------------

    def to_json(self) -> str:
        """The state and the dice's own state: a game restored from this rolls what this one
        would have rolled. The event log is history, not state, so it is left out."""
        return json.dumps(
            {"format": SNAPSHOT_FORMAT, "state": state_to_dict(self.state),
             "dice": rng_to_list(self.rng)}
        )

    @classmethod
    def from_json(cls, text: str) -> Game:
        """A game from `to_json`; `SnapshotError` (a `RulesError`) for anything else."""
        data = load_snapshot(text)
        state = state_from_dict(data.get("state"))
        _check_position(state)
        return cls(rng_from_list(data.get("dice")), state)

    # -- one method per action, each checked before anything changes --------------------------

    def _call_coin(self, call: CoinFace) -> list[ev.Event]:
        """The home team calls the toss; the coin is one die from the generator."""
        call = _as(CoinFace, call)
        face = CoinFace.HEADS if index(self.rng, 2) == 0 else CoinFace.TAILS
        winner = Team.HOME if face is call else Team.AWAY
        state = evolve(self.state, phase=Phase.SIDE_CHOICE, coin_winner=winner)
        return self._commit(state, [ev.CoinTossed(call, face, winner)])

    def _choose_side(self, side: Side) -> list[ev.Event]:
        side = _as(Side, side)
        winner = self.state.coin_winner
        assert winner is not None
        events: list[ev.Event] = [ev.SideChosen(winner, side)]
        first = winner if side is Side.OFFENSE else winner.other
        return self._commit(_start_drive(self.state, events, 1, first, OPENING_SPOT), events)

    def _choose_snap(self, choice: SnapChoice) -> list[ev.Event]:
        choice = _as(SnapChoice, choice)
        state = self.state
        down, offense = _down(state), _offense(state)
        distance = field_goal_distance(down.line)
        needed = field_goal_needs(distance)  # in range for a field goal: checked (_check_own)
        events: list[ev.Event] = [ev.SnapChosen(offense, choice)]
        if choice is SnapChoice.PLAY:
            return self._commit(evolve(state, phase=Phase.SELECTION), events)
        kick = roll(self.rng, KICK_DICE)
        if choice is SnapChoice.PUNT:
            net = punt_net(kick.total)
            spot, touchback = punt_receiving_spot(down.line, net)
            events.append(ev.Punt(offense, down.line, kick, net, touchback, spot))
            return self._commit(_end_drive(state, events, DriveEnd.PUNT, spot, touchback), events)
        assert needed is not None
        good = kick.total >= needed
        events.append(ev.FieldGoal(offense, down.line, distance, needed, kick, good))
        if good:
            state = _score(state, events, offense, FIELD_GOAL_POINTS)
            state = _end_drive(state, events, DriveEnd.FIELD_GOAL_MADE, OPENING_SPOT)
        else:
            spot = missed_field_goal_spot(down.line)
            state = _end_drive(state, events, DriveEnd.FIELD_GOAL_MISSED, spot)
        return self._commit(state, events)

    def _select(self, offense: Hand, defense: Hand) -> list[ev.Event]:
        """Step 1: both sides' 2 players and 3 calls (checked), revealed together."""
        state = evolve(
            self.state, phase=Phase.SUBSTITUTION, offense_hand=offense, defense_hand=defense
        )
        return self._commit(state, [ev.HandsRevealed(1, offense, defense)])

    def _substitute(self, offense: Swap, defense: Swap) -> list[ev.Event]:
        """Step 2: each side keeps all, replaces one player or replaces one call (checked)."""
        new_offense = apply_swap(_hand(self.state.offense_hand), offense, Role.OFFENSE)
        new_defense = apply_swap(_hand(self.state.defense_hand), defense, Role.DEFENSE)
        state = evolve(
            self.state, phase=Phase.FINAL_CALL, offense_hand=new_offense, defense_hand=new_defense
        )
        return self._commit(
            state, [ev.HandsRevealed(2, new_offense, new_defense, offense, defense)]
        )

    def _final_calls(self, offense: OffCall, defense: DefCall) -> list[ev.Event]:
        """Step 3: both final calls (checked) are revealed and the play is resolved."""
        return self._commit(*self._play(offense, defense))

    def _concede(self, team: Team) -> list[ev.Event]:
        """`team` gives up the game; the other team wins whatever the score."""
        team = _as(Team, team)
        outcome = Outcome(self.state.scores, team.other, GameEnd.CONCEDED)
        state = evolve(self.state, phase=Phase.GAME_OVER, outcome=outcome)
        return self._commit(state, [ev.Conceded(team), ev.GameOver(outcome)])

    # -- internals ---------------------------------------------------------------------------

    def _commit(self, state: GameState, events: list[ev.Event]) -> list[ev.Event]:
        self.state = state
        self.log.extend(events)
        return events

    def _play(self, off_call: OffCall, def_call: DefCall) -> tuple[GameState, list[ev.Event]]:
        state = self.state
        down, offense = _down(state), _offense(state)
        off_hand, def_hand = _hand(state.offense_hand), _hand(state.defense_hand)
        band = compute_band(off_call, def_call, off_hand.players, def_hand.players)
        play = resolve_play(off_call, band.value, down.line, self.rng)
        spot = down.line + play.yards
        # The ball stops at a goal line: a 30-yard row from the 98 is a 2-yard touchdown, and a
        # 9-yard sack from the 4 a 4-yard safety. The event carries the yards really gained.
        gained = max(-down.line, min(GOAL_LINE - down.line, play.yards))
        events: list[ev.Event] = [
            ev.FinalCallsRevealed(off_call, def_call),
            ev.BandSet(
                band.matchup,
                band.offense_bonus,
                band.defense_bonus,
                band.value,
                band.offense_player,
                band.defense_player,
            ),
            ev.PlayResolved(
                offense,
                off_call,
                band.value,
                play.result,
                down.line,
                gained,
                down.line + gained,
                play.outcome_roll,
                play.yardage_roll,
            ),
        ]
        state = evolve(state, offense_hand=None, defense_hand=None)
        if play.result is PlayResult.INTERCEPTION:
            return _end_drive(state, events, DriveEnd.INTERCEPTION, flip(down.line)), events
        if spot >= GOAL_LINE:
            return self._touchdown(state, events, offense), events
        if spot <= 0:
            events.append(ev.Safety(offense.other))
            state = _score(state, events, offense.other, SAFETY_POINTS)
            return _end_drive(state, events, DriveEnd.SAFETY, None), events
        if play.fumbled:
            assert play.fumble_roll is not None and play.recovery_roll is not None
            events.append(
                ev.Fumble(offense, spot, play.fumble_roll, play.recovery_roll, play.fumble_lost)
            )
            if play.fumble_lost:
                return _end_drive(state, events, DriveEnd.FUMBLE_LOST, flip(spot)), events
        return _next_down(state, events, down, spot), events

    def _touchdown(self, state: GameState, events: list[ev.Event], team: Team) -> GameState:
        events.append(ev.Touchdown(team))
        state = _score(state, events, team, TOUCHDOWN_POINTS)
        kick = roll(self.rng, KICK_DICE)
        good = kick.total >= EXTRA_POINT_NEEDS
        events.append(ev.ExtraPoint(team, kick, EXTRA_POINT_NEEDS, good))
        if good:
            state = _score(state, events, team, EXTRA_POINT_POINTS)
        return _end_drive(state, events, DriveEnd.TOUCHDOWN, OPENING_SPOT)


# -- pure helpers on states ------------------------------------------------------------------


def _down(state: GameState) -> Down:
    assert state.down is not None
    return state.down


def _offense(state: GameState) -> Team:
    assert state.offense is not None
    return state.offense


def _hand(hand: Hand | None) -> Hand:
    assert hand is not None
    return hand


def _start_drive(
    state: GameState,
    events: list[ev.Event],
    drive: int,
    offense: Team,
    spot: int,
    after: DriveEnd | None = None,
    touchback: bool = False,
) -> GameState:
    down = Down.first(spot)
    events.append(ev.DriveStarted(drive, offense, spot, after, touchback))
    events.append(ev.DownStarted(offense, down))
    return evolve(state, phase=Phase.SNAP_CHOICE, drive=drive, offense=offense, down=down)


def _end_drive(
    state: GameState,
    events: list[ev.Event],
    reason: DriveEnd,
    next_spot: int | None,
    touchback: bool = False,
) -> GameState:
    """Close the drive; start the next one (the other team's), or end the game after any
    safety or after the last drive. With overtime on, a tie after drive 2 or any later even
    drive goes on, from the opponent's 25 whatever ended the drive, until the cap."""
    offense = _offense(state)
    home, away = state.scores
    game_ends = reason is DriveEnd.SAFETY or _last_drive_played(state, home == away)
    if not game_ends and state.drive >= LAST_DRIVE:
        next_spot, touchback = OVERTIME_SPOT, False
    events.append(
        ev.DriveEnded(state.drive, offense, reason, None if game_ends else next_spot, touchback)
    )
    if not game_ends:
        assert next_spot is not None
        drive = state.drive + 1 if state.overtime else LAST_DRIVE
        return _start_drive(state, events, drive, offense.other, next_spot, reason, touchback)
    winner = None if home == away else (Team.HOME if home > away else Team.AWAY)
    end = GameEnd.SAFETY if reason is DriveEnd.SAFETY else GameEnd.BOTH_DRIVES
    outcome = Outcome(state.scores, winner, end)
    events.append(ev.GameOver(outcome))
    return evolve(state, phase=Phase.GAME_OVER, down=None, outcome=outcome)


def _last_drive_played(state: GameState, tied: bool) -> bool:
    """Whether the drive now ending is the game's last (a safety aside)."""
    if not state.overtime:
        return state.drive >= LAST_DRIVE
    if state.drive >= LAST_OVERTIME_DRIVE:
        return True  # the cap: a tie stands
    return is_last_drive(state.drive, overtime=True) and not tied


def _score(state: GameState, events: list[ev.Event], team: Team, points: int) -> GameState:
    scores = list(state.scores)
    scores[team] += points
    new_scores = (scores[0], scores[1])
    events.append(ev.ScoreChanged(team, points, new_scores))
    return evolve(state, scores=new_scores)


def _next_down(state: GameState, events: list[ev.Event], down: Down, spot: int) -> GameState:
    offense = _offense(state)
    if spot >= down.marker:
        new_down = Down.first(spot)
        events.append(ev.FirstDown(offense, spot))
    elif down.number == LAST_DOWN:
        events.append(ev.TurnoverOnDowns(offense, spot))
        return _end_drive(state, events, DriveEnd.DOWNS, flip(spot))
    else:
        new_down = Down(down.number + 1, spot, down.marker)
    events.append(ev.DownStarted(offense, new_down))
    return evolve(state, phase=Phase.SNAP_CHOICE, down=new_down)


# What each step needs in the state before the rules can go on from it.
NEEDS_DOWN = (Phase.SNAP_CHOICE, Phase.SELECTION, Phase.SUBSTITUTION, Phase.FINAL_CALL)
NEEDS_HANDS = (Phase.SUBSTITUTION, Phase.FINAL_CALL)


def _check_position(state: GameState) -> None:
    """A restored state the rules can go on from: each step's parts present, hands legal,
    scores and the drive in range. Anything else is a `SnapshotError`, not a crash later."""
    phase, problem = state.phase, ""
    if min(state.scores) < 0 or state.drive not in range(
            last_possible_drive(state.overtime) + 1):
        problem = "the scores or the drive are out of range"
    elif phase is Phase.SIDE_CHOICE and state.coin_winner is None:
        problem = "the side choice needs the toss's winner"
    elif phase in NEEDS_DOWN and (state.offense is None or state.down is None):
        problem = f"the {phase.value} step needs the offense and the down"
    elif phase in NEEDS_HANDS and (state.offense_hand is None or state.defense_hand is None):
        problem = f"the {phase.value} step needs both hands"
    elif phase is Phase.GAME_OVER and state.outcome is None:
        problem = "a finished game needs its outcome"
    elif state.down is not None and not (
        1 <= state.down.number <= LAST_DOWN and 0 < state.down.line < GOAL_LINE
        and state.down.line < state.down.marker
    ):
        problem = "the down is not one the rules can reach"
    if problem:
        raise SnapshotError(f"the saved game cannot go on: {problem}")
    for hand, role in ((state.offense_hand, Role.OFFENSE), (state.defense_hand, Role.DEFENSE)):
        if hand is not None:
            try:
                _check_hand(hand, role)
            except IllegalSelectionError as error:
                raise SnapshotError(f"the saved game cannot go on: {error}") from None


def _role(state: GameState, team: Team) -> Role:
    role = role_of(state, team)
    assert role is not None  # the card steps come after the first drive began
    return role


def _call_kind(role: Role) -> type[OffCall] | type[DefCall]:
    return OffCall if role is Role.OFFENSE else DefCall


def _check_hand(hand: Hand, role: Role) -> None:
    side = role.value
    players, calls = hand.players, hand.calls
    if type(players) is not tuple or type(calls) is not tuple:
        raise IllegalSelectionError(f"the {side}'s players and calls must each be a tuple")
    call_kind = _call_kind(role)
    for cards, kind in ((players, Player), (calls, call_kind)):
        for card in cards:
            if type(card) is not kind:  # a card's bare name would compare equal: not a card
                raise IllegalSelectionError(f"{card!r} is not a card of the {side}'s")
    if len(players) != PLAYERS_PER_HAND:
        raise IllegalSelectionError(
            f"the {side} must pick exactly {PLAYERS_PER_HAND} players, not {len(players)}"
        )
    if len(calls) != CALLS_PER_HAND:
        raise IllegalSelectionError(
            f"the {side} must pick exactly {CALLS_PER_HAND} calls, not {len(calls)}"
        )
    if len(set(players)) != len(players) or len(set(calls)) != len(calls):
        raise IllegalSelectionError(f"the {side} picked the same card twice")
    pool_players, pool_calls = players_for(role), calls_for(role)
    for card in players:
        if card not in pool_players:
            raise IllegalSelectionError(f"{_name(card)} is not one of the {side}'s players")
    for call in calls:
        if call not in pool_calls:
            raise IllegalSelectionError(f"{_name(call)} is not one of the {side}'s calls")


def apply_swap(hand: Hand, swap: Swap, role: Role) -> Hand:
    """The hand after `swap`, or `IllegalSubstitutionError` naming what is wrong."""
    side = role.value
    if swap.kind is SwapKind.KEEP:
        if swap.out is not None or swap.into is not None:
            raise IllegalSubstitutionError("keeping the hand replaces nothing")
        return hand
    cards: tuple[Player | Call, ...]
    pool: tuple[Player | Call, ...]
    kind: type[Player] | type[OffCall] | type[DefCall]
    if swap.kind is SwapKind.PLAYER:
        cards, pool, noun, kind = hand.players, players_for(role), "player", Player
    else:
        cards, pool, noun, kind = hand.calls, calls_for(role), "call", _call_kind(role)
    if type(swap.out) is not kind or type(swap.into) is not kind:
        article = "an" if side == "offense" else "a"
        raise IllegalSubstitutionError(
            f"{article} {side} {noun} swap takes two {side} {noun} cards")
    if swap.out not in cards:
        raise IllegalSubstitutionError(f"the {side} can only replace a {noun} it holds")
    if swap.into not in pool:
        raise IllegalSubstitutionError(f"the incoming card is not one of the {side}'s {noun}s")
    if swap.into in cards:
        raise IllegalSubstitutionError(f"{_name(swap.into)} is already in the {side}'s hand")
    return swapped(hand, swap)


def _same(action: Action, kind: type[A]) -> A:
    """The defense's action, already checked to be of the step's kind."""
    assert isinstance(action, kind)
    return action


def _as(kind: type[E], value: object) -> E:
    """`value` as a member of `kind`, or a RulesError naming the bad value (never a bare crash)."""
    if isinstance(value, kind):
        return value
    try:
        return kind(value)
    except ValueError:
        raise IllegalChoiceError(f"{value!r} is not a valid {kind.__name__}") from None


def _name(card: object) -> str:
    if not isinstance(card, (OffCall, DefCall, Player)):
        return repr(card)
    try:
        return card_name(card)
    except KeyError:
        return repr(card)
