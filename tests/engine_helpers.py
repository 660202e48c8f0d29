"""Helpers for rules tests: a generator that yields chosen dice, and games set at chosen spots."""

from __future__ import annotations

import random
from collections.abc import Iterable

from sudden_death.engine import (
    Action,
    DefCall,
    Down,
    Game,
    GameState,
    Hand,
    OffCall,
    Phase,
    PickFinal,
    PickHand,
    Player,
    Role,
    Team,
    actors,
)
from sudden_death.engine import events as ev
from sudden_death.engine.actions import ChooseSnap
from sudden_death.engine.cards import MATCHUPS, OFFENSIVE_CALLS, calls_for, players_for
from sudden_death.engine.match import Match
from sudden_death.engine.state import SnapChoice


class ForcedDice(random.Random):
    """Returns exactly the scripted draws, then fails loudly, so a test also proves that no
    unexpected die (say, a fumble check after a touchdown) was rolled."""

    def __new__(cls, draws: Iterable[float] = ()) -> ForcedDice:
        # Python 3.10's Random.__new__ seeds itself from the constructor's argument (a list
        # here, which cannot be hashed); 3.11 dropped that. __init__ seeds it either way.
        return super().__new__(cls)

    def __init__(self, draws: Iterable[float] = ()) -> None:
        super().__init__(0)
        self.draws = list(draws)

    def random(self) -> float:
        if not self.draws:
            raise AssertionError("the engine rolled a die the test did not expect")
        return self.draws.pop(0)

    @property
    def exhausted(self) -> bool:
        return not self.draws


def face(value: int, sides: int) -> float:
    """The draw that makes a `sides`-sided die show `value`."""
    assert 1 <= value <= sides
    return (value - 0.5) / sides


def d6(*values: int) -> list[float]:
    return [face(v, 6) for v in values]


def pct(value: int) -> list[float]:
    return [face(value, 100)]


def three_d6(total: int) -> list[float]:
    """Three dice adding up to `total` (3..18)."""
    dice = [1, 1, 1]
    rest = total - 3
    for i in range(3):
        step = min(5, rest)
        dice[i] += step
        rest -= step
    assert rest == 0 and sum(dice) == total
    return d6(*dice)


def even_defense(call: OffCall) -> DefCall:
    """A defensive call whose matchup with `call` is 0, so the play is rolled at band 0."""
    return next(defense for defense in DefCall if MATCHUPS[call][defense] == 0)


def percent_for_yards(call: OffCall, band: int, yards: int) -> int:
    """A percentile roll that lands on the `yards` row of the call's table at `band`."""
    running = 0
    for row_yards, weight in OFFENSIVE_CALLS[call].bands[band].yards:
        if row_yards == yards and weight > 0:
            return running + 1
        running += weight
    raise AssertionError(f"{call} at band {band} has no row of {yards} yards")


def snap_game(
    line: int,
    *,
    down: int = 1,
    marker: int | None = None,
    drive: int = 1,
    offense: Team = Team.HOME,
    scores: tuple[int, int] = (0, 0),
    dice: Iterable[float] = (),
) -> Game:
    """A game waiting for the offense's snap choice at `line`."""
    state = GameState(
        phase=Phase.SNAP_CHOICE,
        scores=scores,
        drive=drive,
        offense=offense,
        down=Down(down, line, line + 10 if marker is None else marker),
    )
    return Game(ForcedDice(dice), state)


NEUTRAL_OFFENSE = Hand(
    (Player.SLOT_RECEIVER, Player.DEEP_THREAT),
    (OffCall.INSIDE_RUN, OffCall.QUICK_SLANT, OffCall.DEEP_PASS),
)


def final_call_game(
    line: int,
    off_call: OffCall,
    def_call: DefCall,
    dice: Iterable[float],
    *,
    offense_players: tuple[Player, Player] = (Player.SCATBACK, Player.SLOT_RECEIVER),
    defense_players: tuple[Player, Player] = (Player.EDGE_SETTER, Player.SHUTDOWN_CORNER),
    **kwargs: object,
) -> Game:
    """A game at the final-call step whose hands hold `off_call` and `def_call`."""
    game = snap_game(line, dice=dice, **kwargs)  # type: ignore[arg-type]
    other_off = [c for c in OffCall if c is not off_call][:2]
    other_def = [c for c in DefCall if c is not def_call][:2]
    state = game.state
    game.state = GameState(
        phase=Phase.FINAL_CALL,
        scores=state.scores,
        drive=state.drive,
        offense=state.offense,
        down=state.down,
        offense_hand=Hand(offense_players, (off_call, *other_off)),
        defense_hand=Hand(defense_players, (def_call, *other_def)),
    )
    return game


def step_actions(game: Game, first: object, second: object = None) -> dict[Team, object]:
    """The mapping `Game.apply` takes: `first` for the team that acts (the offense at the three
    simultaneous steps) and `second` for the defense there. Leaving out `second` at a
    simultaneous step builds an incomplete step, which the engine must refuse."""
    given = (first,) if second is None else (first, second)
    teams = actors(game.state) or (Team.HOME,)  # after the end, still name somebody
    assert len(given) <= len(teams), f"{len(given)} actions for {teams}"
    return dict(zip(teams, given, strict=False))


def step(game: Game, first: Action, second: Action | None = None) -> list[ev.Event]:
    """One step through `Game.apply` (see `step_actions`)."""
    return game.apply(step_actions(game, first, second))  # type: ignore[arg-type]


def final_calls(game: Game, offense: OffCall, defense: DefCall) -> list[ev.Event]:
    """Step 3 of a down: both final calls, then the play is resolved."""
    return step(game, PickFinal(offense), PickFinal(defense))


def in_card_order(hand: Hand) -> PickHand:
    """The listed form of a hand. The computer keeps its cards in the order it drew them (its
    transcripts depend on that) and the engine accepts a hand in any order, while
    `legal_actions` lists each set of cards once, in card order."""
    role = Role.OFFENSE if isinstance(hand.calls[0], OffCall) else Role.DEFENSE
    players, calls = players_for(role), calls_for(role)
    return PickHand(Hand(tuple(sorted(hand.players, key=players.index)),
                         tuple(sorted(hand.calls, key=calls.index))))


def kinds(events: Iterable[object]) -> list[str]:
    return [type(e).__name__ for e in events]


def fourth_down(line: int, drive: int = 1, scores: tuple[int, int] = (0, 0),
                offense: Team = Team.HOME) -> GameState:
    """A 4th and 5 at `line`: the state the kick choices and S are worded from."""
    return GameState(scores=scores, drive=drive, offense=offense, down=Down(4, line, line + 5))


def only(events: list[ev.Event], kind: type) -> ev.Event:
    found = [e for e in events if isinstance(e, kind)]
    assert len(found) == 1, kinds(events)
    return found[0]


def drive_start(events: list[ev.Event]) -> ev.DriveStarted:
    start = only(events, ev.DriveStarted)
    assert isinstance(start, ev.DriveStarted)
    return start


def human_action(match: Match, rng: random.Random) -> Action:
    """A simple human: plays downs 1-3, kicks on fourth, and picks cards at random."""
    legal = match.legal_actions()
    if isinstance(legal[0], ChooseSnap):
        down = match.state.down
        assert down is not None
        if down.number < 4:
            return ChooseSnap(SnapChoice.PLAY)
        goal = ChooseSnap(SnapChoice.FIELD_GOAL)
        return goal if goal in legal else ChooseSnap(SnapChoice.PUNT)
    return rng.choice(legal)
