"""Helpers for rules tests: a generator that yields chosen dice, and games set at chosen spots."""

from __future__ import annotations

import random
from collections.abc import Iterable

from sudden_death.engine import (
    DefCall,
    Down,
    Game,
    GameState,
    Hand,
    OffCall,
    Phase,
    Player,
    Team,
)
from sudden_death.engine.cards import MATCHUPS, OFFENSIVE_CALLS


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


def kinds(events: Iterable[object]) -> list[str]:
    return [type(e).__name__ for e in events]
