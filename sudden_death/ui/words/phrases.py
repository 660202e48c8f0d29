"""The small phrases everything else is built from: spots, downs, yards, dice, scores and hands,
always from the human player's side ("your own 25", "their 30").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ...engine.cards import card_name
from ...engine.field import GOAL_LINE, Down
from ...engine.state import Hand, Team
from ...language import _, down_ordinal, n_

MIDFIELD = GOAL_LINE // 2


@dataclass(frozen=True)
class Names:
    """The two team names, and which team is the player's (`you`: the match's human team, set
    by the session), so every phrase can be said from the player's side."""

    home: str
    away: str
    you: Team = Team.HOME
    # A spectator's game (watching a table): no team is "you"; every line names its team,
    # and where a side must lead (the score, the hands) it is the home team's.
    watching: bool = False

    def of(self, team: Team) -> str:
        return self.home if team is Team.HOME else self.away

    def is_mine(self, team: Team | None) -> bool:
        """Whether `team` is the player's: never for a spectator."""
        return not self.watching and team is self.you

    @property
    def viewer(self) -> Team | None:
        """The side a spot is counted from: the player's team, or None for a spectator."""
        return None if self.watching else self.you

    @property
    def mine(self) -> str:
        """The player's team's name."""
        return self.of(self.you)

    @property
    def theirs(self) -> str:
        """The other team's name (the computer's, today)."""
        return self.of(self.you.other)


def spot_words(spot: int, offense: Team, you: Team | None) -> str:
    """A spot (yards from the offense's goal line) as the player hears it; `you` None, as a
    spectator hears it, from the offense's side ("their own 25", "the defense's 30")."""
    if spot == MIDFIELD:
        # Translators: the spot on the field halfway between the goal lines, as in
        # "1st and 10 at midfield".
        return _("midfield")
    if you is None:
        if spot < MIDFIELD:
            return _("their own {yards}").format(yards=spot)
        # Translators: a spectator's spot in the defending team's half, counted from their
        # goal line, as in "Hawks ball, 2nd and 4 at the defense's 30".
        return _("the defense's {yards}").format(yards=GOAL_LINE - spot)
    mine = offense is you
    if spot < MIDFIELD:
        if mine:
            # Translators: a spot on the field in the player's own half, counted from the
            # player's own goal line, as in "1st and 10 at your own 25".
            return _("your own {yards}").format(yards=spot)
        # Translators: a spot on the field in the computer team's own half (they have the ball),
        # counted from their own goal line, as in "1st and 10 at their own 25".
        return _("their own {yards}").format(yards=spot)
    if mine:
        # Translators: a spot on the field in the other team's half, counted from their goal
        # line, as in "1st and 10 at their 30" (the player has the ball).
        return _("their {yards}").format(yards=GOAL_LINE - spot)
    # Translators: a spot on the field in the player's half, counted from the player's goal
    # line, as in "1st and 10 at your 30" (the other team has the ball).
    return _("your {yards}").format(yards=GOAL_LINE - spot)


def down_words(down: Down, offense: Team, you: Team | None, short: bool = False) -> str:
    """ "2nd and 7 at your own 31", "1st and goal at their 6"; short: "2nd and 7, your own 31"."""
    number, spot = down_ordinal(down.number), spot_words(down.line, offense, you)
    if down.goal_to_go:
        if short:
            # Translators: the down, short form: "1st and goal, their 6" (the goal line is the
            # line to gain; {spot} is a spot such as "their 6").
            return _("{down} and goal, {spot}").format(down=number, spot=spot)
        # Translators: the down: "1st and goal at their 6" (the goal line is the line to
        # gain; {spot} is a spot such as "their 6").
        return _("{down} and goal at {spot}").format(down=number, spot=spot)
    if short:
        # Translators: the down, short form: "2nd and 7, your own 31" (7 yards to go for a
        # first down; {spot} is a spot such as "your own 31").
        return _("{down} and {distance}, {spot}").format(
            down=number, distance=down.distance, spot=spot)
    # Translators: the down: "2nd and 7 at your own 31" (7 yards to go for a first down;
    # {spot} is a spot such as "your own 31").
    return _("{down} and {distance} at {spot}").format(
        down=number, distance=down.distance, spot=spot)


def gain_words(yards: int) -> str:
    """ "a gain of 5 yards", "a loss of 3 yards", "no gain"."""
    if yards > 0:
        # Translators: part of a sentence, as in "Complete, a gain of 5 yards."
        return n_("a gain of {count} yard", "a gain of {count} yards", yards).format(count=yards)
    if yards < 0:
        # Translators: part of a sentence, as in "Complete, a loss of 3 yards."
        return n_("a loss of {count} yard", "a loss of {count} yards", -yards).format(
            count=-yards)
    # Translators: part of a sentence, as in "Complete, no gain."
    return _("no gain")


def dice_words(dice: Sequence[int]) -> str:
    if len(dice) == 1:
        return str(dice[0])
    # Translators: the dice of a roll and their sum: "3, 5, 2, total 10".
    return _("{dice}, total {total}").format(dice=", ".join(str(d) for d in dice),
                                             total=sum(dice))


def score_words(scores: tuple[int, int], names: Names) -> str:
    """ "Hawks 7, Bears 3": the player's team first."""
    # Translators: the score, the player's team first: "Hawks 7, Bears 3".
    return _("{home} {home_points}, {away} {away_points}").format(
        home=names.mine, home_points=scores[names.you], away=names.theirs,
        away_points=scores[names.you.other])


def hand_words(hand: Hand) -> str:
    """ "Power Back, Scatback; Inside Run, Draw Play, Deep Pass"."""
    players = ", ".join(_(card_name(p)) for p in hand.players)
    calls = ", ".join(_(card_name(c)) for c in hand.calls)
    # Translators: a hand of cards: the players, then the calls, each a list of card names:
    # "Power Back, Scatback; Inside Run, Draw Play, Deep Pass".
    return _("{players}; {calls}").format(players=players, calls=calls)

