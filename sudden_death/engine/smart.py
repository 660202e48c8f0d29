"""A player who knows the tables: the simulator's yardstick for "choices matter".

It scores a play by its expected gain, its chance to move the chains and its turnover risk, read
from the same band tables the dice use, and it assumes its opponent chooses uniformly among what it
has revealed (true of the rules' computer). It sees only revealed cards, like any policy.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import lru_cache

from .actions import (
    Action,
    ChooseSide,
    ChooseSnap,
    PickFinal,
    PickHand,
    PickSwap,
    hand_actions,
    held_hand,
    role_of,
    swapped,
)
from .card_model import DefCall, OffCall, Player, PlayKind, Role
from .cards import MATCHUPS, OFFENSIVE_CALLS, PLAYERS, calls_for
from .dice import choose
from .field import field_goal_distance, field_goal_needs, is_last_drive
from .policy import snaps
from .resolve import MAX_BAND, MIN_BAND
from .state import GameState, Hand, Side, SnapChoice, Team
from .stats import TURNOVER_COST_YARDS, band_stats

FIRST_DOWN_WORTH_YARDS = 8  # a fresh set of downs is worth about this many yards
MAX_DISTANCE = 25  # beyond this, every distance is valued alike
GO_FOR_IT_CHANCE = 0.6
SHORT_YARDAGE = 3
MIDFIELD_ZONE = (35, 70)  # lines where going for it on fourth and short makes sense
ONE_SCORE = 3


def conversion_chance(call: OffCall, band: int, distance: int) -> float:
    """Chance that one play of `call` at `band` gains at least `distance` yards."""
    card = OFFENSIVE_CALLS[call]
    table = card.bands[band]
    reach = Fraction(sum(w for yards, w in table.yards if yards >= distance), 100)
    if card.kind is PlayKind.PASS:
        reach *= Fraction(100 - table.sack - table.interception - table.incomplete, 100)
    return float(reach)


@lru_cache(maxsize=4096)
def play_worth(call: OffCall, band: int, distance: int) -> float:
    """The offense's worth of one play, in yards. A pure function of the fixed card data, so
    one memo serves every policy in the process (thousands are made per simulation)."""
    stats = band_stats(call, band)
    return (
        float(stats.mean_yards)
        + FIRST_DOWN_WORTH_YARDS * conversion_chance(call, band, distance)
        - TURNOVER_COST_YARDS * float(stats.turnover)
    )


@lru_cache(maxsize=4096)
def matchup_worth(
    off_call: OffCall, def_call: DefCall, off_bonus: bool, def_bonus: bool, distance: int
) -> float:
    """The offense's worth of one matchup, with or without each side's player bonus."""
    band = max(MIN_BAND, min(MAX_BAND, MATCHUPS[off_call][def_call] + off_bonus - def_bonus))
    return play_worth(off_call, band, distance)


def _backed(players: tuple[Player, ...]) -> frozenset[OffCall]:
    """The offensive calls these featured players add to or take from."""
    return frozenset(PLAYERS[p].call for p in players)


@lru_cache(maxsize=65536)
def final_worth(role: Role, mine: Hand, theirs: Hand, distance: int) -> float:
    """What `mine` is worth to its owner when both pick a final call and theirs is uniform.

    Pure in the fixed card data, so it is memoised: a simulation asks the same questions
    millions of times."""
    on_offense = role is Role.OFFENSE
    off_backing = _backed(mine.players if on_offense else theirs.players)
    def_backing = _backed(theirs.players if on_offense else mine.players)
    best = None
    for call in mine.calls:
        total = 0.0
        for other in theirs.calls:
            off, dfn = (call, other) if on_offense else (other, call)
            assert isinstance(off, OffCall) and isinstance(dfn, DefCall)
            worth = matchup_worth(off, dfn, off in off_backing, off in def_backing, distance)
            total += worth if on_offense else -worth
        worth = total / len(theirs.calls)
        if best is None or worth > best:
            best = worth
    assert best is not None
    return best


class SmartPolicy:
    """Best expected result against an opponent who picks uniformly among its revealed cards."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    # -- values ----------------------------------------------------------------------------

    def _final_value(self, role: Role, mine: Hand, theirs: Hand, distance: int) -> float:
        return final_worth(role, mine, theirs, max(1, min(MAX_DISTANCE, distance)))

    # -- decisions -------------------------------------------------------------------------

    def choose(self, state: GameState, team: Team, legal: tuple[Action, ...]) -> Action:
        first = legal[0]
        if isinstance(first, ChooseSide):
            # Defend first: knowing the first drive's result tells the second how to kick.
            return ChooseSide(Side.DEFENSE)
        if isinstance(first, ChooseSnap):
            return ChooseSnap(self.choose_snap(state, snaps(legal)))
        if isinstance(first, PickHand):
            role = role_of(state, team)
            assert role is not None
            distance = state.down.distance if state.down is not None else 10
            return PickHand(best_hand(role, max(1, min(MAX_DISTANCE, distance))))
        if isinstance(first, (PickSwap, PickFinal)):
            return self._best_card_action(state, team, legal)
        return choose(self.rng, legal)  # the coin

    def choose_snap(self, state: GameState, legal: tuple[SnapChoice, ...]) -> SnapChoice:
        down = state.down
        assert down is not None and state.offense is not None
        if down.number < 4:
            return SnapChoice.PLAY
        margin = state.scores[state.offense] - state.scores[state.offense.other]
        # The last drive of regulation, or the second of an overtime pair: no ball comes back.
        last = is_last_drive(state.drive, state.overtime)
        if last and margin < -ONE_SCORE:
            return SnapChoice.PLAY  # a field goal or a punt cannot win or tie now
        best_chance = max(conversion_chance(c, 0, down.distance) for c in OffCall)
        low, high = MIDFIELD_ZONE
        if (
            down.distance <= SHORT_YARDAGE
            and low <= down.line <= high
            and best_chance >= GO_FOR_IT_CHANCE
        ):
            return SnapChoice.PLAY
        needed = field_goal_needs(field_goal_distance(down.line))
        if SnapChoice.FIELD_GOAL in legal and needed is not None:
            return SnapChoice.FIELD_GOAL
        if last and margin < 0:
            return SnapChoice.PLAY
        return SnapChoice.PUNT

    def _best_card_action(self, state: GameState, team: Team, legal: tuple[Action, ...]
                          ) -> Action:
        """Every legal swap (or final call) against the opponent's revealed hand, assuming it
        keeps it; the first best wins ties, so keeping beats an equal swap."""
        role, hand = role_of(state, team), held_hand(state, team)
        theirs = held_hand(state, team.other)
        assert role is not None and hand is not None and theirs is not None
        assert state.down is not None
        distance = state.down.distance
        best, best_worth = legal[0], None
        for action in legal:
            if isinstance(action, PickSwap):
                trial = swapped(hand, action.swap)
            else:
                assert isinstance(action, PickFinal)
                trial = Hand(hand.players, (action.call,))
            worth = self._final_value(role, trial, theirs, distance)
            if best_worth is None or worth > best_worth + 1e-9:
                best, best_worth = action, worth
        return best


@lru_cache(maxsize=64)
def best_hand(role: Role, distance: int) -> Hand:
    """The selection with the best average value against all six opposing calls (memoised:
    it depends only on the fixed card data)."""
    judge = SmartPolicy(random.Random(0))
    opponent = Role.DEFENSE if role is Role.OFFENSE else Role.OFFENSE
    every_call = Hand((), calls_for(opponent))
    best, best_worth = None, None
    for action in hand_actions(role):
        assert isinstance(action, PickHand)
        worth = judge._final_value(role, action.hand, every_call, distance)
        if best_worth is None or worth > best_worth:
            best, best_worth = action.hand, worth
    assert best is not None
    return best
