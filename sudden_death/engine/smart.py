"""A player who knows the tables: the simulator's yardstick for "choices matter".

It scores a play by its expected gain, its chance to move the chains and its turnover risk, read
from the same band tables the dice use, and it assumes its opponent chooses uniformly among what it
has revealed (true of the rules' computer). It sees only revealed cards, like any policy.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from functools import lru_cache
from typing import cast

from .card_model import Call, DefCall, OffCall, Player, PlayKind, Role
from .cards import MATCHUPS, OFFENSIVE_CALLS, PLAYERS, calls_for, players_for
from .dice import choose
from .field import field_goal_distance, field_goal_needs
from .resolve import MAX_BAND, MIN_BAND
from .state import CoinFace, GameState, Hand, Side, SnapChoice, Swap, SwapKind, Team
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

    def call_coin(self, state: GameState) -> CoinFace:
        return choose(self.rng, tuple(CoinFace))

    def choose_side(self, state: GameState, team: Team) -> Side:
        """Defend first: knowing the first drive's result tells the second drive how to kick."""
        return Side.DEFENSE

    def choose_snap(self, state: GameState, legal: tuple[SnapChoice, ...]) -> SnapChoice:
        down = state.down
        assert down is not None and state.offense is not None
        if down.number < 4:
            return SnapChoice.PLAY
        margin = state.scores[state.offense] - state.scores[state.offense.other]
        if state.drive == 2 and margin < -ONE_SCORE:
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
        if state.drive == 2 and margin < 0:
            return SnapChoice.PLAY
        return SnapChoice.PUNT

    def choose_hand(self, state: GameState, role: Role) -> Hand:
        """The hand with the best value against every call the opponent might hold, on average."""
        distance = state.down.distance if state.down is not None else 10
        return best_hand(role, max(1, min(MAX_DISTANCE, distance)))

    def choose_swap(self, state: GameState, role: Role, hand: Hand) -> Swap:
        """Try every substitution against the opponent's revealed hand (assuming it keeps it)."""
        theirs = state.defense_hand if role is Role.OFFENSE else state.offense_hand
        assert theirs is not None and state.down is not None
        distance = state.down.distance
        best_swap, best_worth = Swap.keep(), self._final_value(role, hand, theirs, distance)
        for kind, held, pool in (
            (SwapKind.PLAYER, hand.players, players_for(role)),
            (SwapKind.CALL, hand.calls, calls_for(role)),
        ):
            for out in held:
                for into in pool:
                    if into in held:
                        continue
                    new = tuple(into if card == out else card for card in held)
                    trial = (  # `new` holds the same kind of card as `held`
                        Hand(cast("tuple[Player, ...]", new), hand.calls)
                        if kind is SwapKind.PLAYER
                        else Hand(hand.players, cast("tuple[Call, ...]", new))
                    )
                    worth = self._final_value(role, trial, theirs, distance)
                    if worth > best_worth + 1e-9:
                        best_swap, best_worth = Swap(kind, out, into), worth
        return best_swap

    def choose_final(self, state: GameState, role: Role, hand: Hand) -> Call:
        theirs = state.defense_hand if role is Role.OFFENSE else state.offense_hand
        assert theirs is not None and state.down is not None
        distance = state.down.distance
        best_call, best_worth = hand.calls[0], None
        for call in hand.calls:
            worth = self._final_value(role, Hand(hand.players, (call,)), theirs, distance)
            if best_worth is None or worth > best_worth:
                best_call, best_worth = call, worth
        return best_call


@lru_cache(maxsize=64)
def best_hand(role: Role, distance: int) -> Hand:
    """The selection with the best average value against all six opposing calls (memoised:
    it depends only on the fixed card data)."""
    judge = SmartPolicy(random.Random(0))
    opponent = Role.DEFENSE if role is Role.OFFENSE else Role.OFFENSE
    every_call = Hand((), calls_for(opponent))
    best, best_worth = None, None
    own_calls: tuple[Call, ...] = calls_for(role)
    for players in itertools.combinations(players_for(role), 2):
        for calls in itertools.combinations(own_calls, 3):
            hand = Hand(players, calls)
            worth = judge._final_value(role, hand, every_call, distance)
            if best_worth is None or worth > best_worth:
                best, best_worth = hand, worth
    assert best is not None
    return best
