"""The game's voice: engine events turned into short spoken lines at the player's verbosity.

The engine emits data, never prose; this module is the one place that tells a down. Each thing is
said once: the down and spot once per down, the score once per scoring drive, the player's own
cards never read back to them at normal verbosity (they just chose them). Short keeps only what
changed; detailed adds the rolls and the reasons. Cues and dice sounds are the same at every
verbosity and belong to the line they introduce, so they are heard with its words, never before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..audio.protocols import Priority
from ..engine import events as ev
from ..engine.card_model import DefCall, OffCall, Player, PlayResult
from ..engine.cards import card_name
from ..engine.field import GOAL_LINE, OPENING_SPOT, TOUCHBACK_SPOT, Down
from ..engine.game import SAFETY_POINTS
from ..engine.resolve import MAX_BAND, MIN_BAND, RECOVERY_SIDES
from ..engine.state import DriveEnd, Hand, Side, SnapChoice, Swap, SwapKind, Team
from . import explorer_words
from .explorer_words import signed
from .game_words import (
    HUMAN,
    LAST_DRIVE,
    Names,
    dice_words,
    down_words,
    gain_words,
    hand_words,
    outcome_words,
    plural,
    score_words,
    spot_words,
)
from .verbosity import DETAILED, NORMAL, SHORT

BIG_PLAY_YARDS = 15  # a gain this long gets its own cue and call

__all__ = ["HUMAN", "Line", "Names", "Narrator", "card_details", "card_label"]


@dataclass(frozen=True)
class Line:
    """One spoken line and the sounds that open it: the dice first, then the cue.

    `field_tone` asks for the short field tone with the line (the new spot after a play);
    `sweep` for the play's sweep from one spot to another (from the player's own goal).
    """

    text: str
    cue: str | None = None
    priority: Priority = Priority.ALERT
    category: str = "result"
    dice: tuple[int, ...] = ()
    field_tone: bool = False
    sweep: tuple[int, int] | None = None


_NEXT_START_WHY = {
    DriveEnd.TOUCHDOWN: f"after a score the next drive starts at the {OPENING_SPOT}",
    DriveEnd.FIELD_GOAL_MADE: f"after a score the next drive starts at the {OPENING_SPOT}",
    DriveEnd.FIELD_GOAL_MISSED: (
        f"at the kicking spot, or the {TOUCHBACK_SPOT} if that is farther out"
    ),
    DriveEnd.PUNT: "where the punt came down",
    DriveEnd.INTERCEPTION: "where the pass was thrown",
    DriveEnd.FUMBLE_LOST: "where the ball came loose",
    DriveEnd.DOWNS: "where the fourth down was stopped",
}


class Narrator:
    """Turns engine events into `Line`s for one game, from the player's side."""

    def __init__(self, names: Names, offense: Team | None = None) -> None:
        self.names = names
        self.offense = offense  # who has the ball, followed through DriveStarted events
        self.verbosity = NORMAL

    def lines(self, events: Sequence[ev.Event], verbosity: str = NORMAL) -> list[Line]:
        """The lines for one batch of events (one player action and what followed)."""
        self.verbosity = verbosity
        game_over = any(isinstance(event, ev.GameOver) for event in events)
        last_score = max(
            (i for i, event in enumerate(events) if isinstance(event, ev.ScoreChanged)),
            default=-1,
        )
        out: list[Line] = []
        previous: ev.Event | None = None
        for index, event in enumerate(events):
            said_with_previous = (
                # A new drive's line already gives its first down and spot.
                (isinstance(event, ev.DownStarted) and isinstance(previous, ev.DriveStarted))
                # The score is said once, after the last points; the final score says it last.
                or (isinstance(event, ev.ScoreChanged) and (index != last_score or game_over))
            )
            if not said_with_previous:
                out.extend(self.line(event, previous))
            previous = event
        return out

    @property
    def short(self) -> bool:
        return self.verbosity == SHORT

    @property
    def detailed(self) -> bool:
        return self.verbosity == DETAILED

    def line(self, event: ev.Event, previous: ev.Event | None = None) -> list[Line]:
        """The lines for one event at the current verbosity (`previous`: the event before)."""
        n = self.names
        if isinstance(event, ev.CoinTossed):
            who = "you win the toss" if event.winner is HUMAN else f"the {n.away} win the toss"
            face = event.face.value.capitalize()
            text = f"{face}: {who}." if self.short else f"The coin shows {event.face.value}: {who}."
            return [Line(text, cue="coin")]
        if isinstance(event, ev.SideChosen):
            if event.team is HUMAN:
                return []  # the drive's first line says who has the ball
            first = "take the ball first" if event.side is Side.OFFENSE else "defend first"
            return [Line(f"The {n.away} {first}.", category="computer")]
        if isinstance(event, ev.DriveStarted):
            return [self._drive_start(event)]
        if isinstance(event, ev.DownStarted):
            return [self._down(event.down, event.offense, after=previous)]
        if isinstance(event, ev.SnapChosen):
            return self._snap(event)
        if isinstance(event, ev.HandsRevealed):
            return [self._reveal(event)]
        if isinstance(event, ev.FinalCallsRevealed):
            prefix = "Final calls: " if self.detailed else ""
            return [Line(f"{prefix}{card_name(event.offense_call)} against "
                         f"{card_name(event.defense_call)}.", cue="reveal", category="computer")]
        if isinstance(event, ev.BandSet):
            return [Line(self._band(event))]
        if isinstance(event, ev.PlayResolved):
            return [self._play(event)]
        if isinstance(event, ev.Fumble):
            return self._fumble(event)
        if isinstance(event, ev.FirstDown):
            return []  # the next down's line says it: "First down at their 32."
        if isinstance(event, ev.Touchdown):
            return [Line(f"Touchdown, {n.of(event.team)}!", cue="touchdown")]
        if isinstance(event, ev.ExtraPoint):
            return [self._extra_point(event)]
        if isinstance(event, ev.Safety):
            points = plural(SAFETY_POINTS, "point")
            return [Line(f"Safety! {points} to the {n.of(event.team)}.", cue="safety")]
        if isinstance(event, ev.FieldGoal):
            return [self._field_goal(event)]
        if isinstance(event, ev.Punt):
            return [self._punt(event)]
        if isinstance(event, ev.TurnoverOnDowns):
            text = ("Turnover on downs." if self.short else
                    f"Stopped on fourth down! The {n.of(event.team.other)} take over.")
            return [Line(text, cue="turnover")]
        if isinstance(event, ev.ScoreChanged):
            prefix = "" if self.short else "Score: "
            return [Line(f"{prefix}{score_words(event.scores, n)}.")]
        if isinstance(event, ev.DriveEnded):
            return self._drive_end(event)
        if isinstance(event, ev.Conceded):
            return [Line(f"The {n.of(event.team)} concede.")]
        if isinstance(event, ev.GameOver):
            winner = event.outcome.winner
            cue = "game_tied" if winner is None else ("game_won" if winner is HUMAN
                                                      else "game_lost")
            return [Line(outcome_words(event.outcome, n), cue=cue, category="game_over")]
        return []

    # -- drives and downs --------------------------------------------------------------------

    def _drive_start(self, event: ev.DriveStarted) -> Line:
        self.offense = event.offense
        team = self.names.of(event.offense)
        down = down_words(Down.first(event.spot), event.offense)
        if self.short:
            text = f"Drive {event.drive}: {team} ball, {down}."
        else:
            text = f"Drive {event.drive} of {LAST_DRIVE}: {team} ball, {down}."
        if self.detailed and event.after is not None:
            why = (f"a touchback puts the ball at the {TOUCHBACK_SPOT}" if event.touchback
                   else _NEXT_START_WHY.get(event.after, ""))
            text += f" The spot: {why}." if why else ""
        if self.detailed:
            text += f" {plural(GOAL_LINE - event.spot, 'yard')} to the goal line."
        return Line(text, cue="whistle")

    def _down(self, down: Down, offense: Team, after: ev.Event | None = None) -> Line:
        text = down_words(down, offense) + "."
        if self.short:  # "2nd and 4, their 26."
            text = text.replace(" at ", ", ", 1)
        if isinstance(after, ev.FirstDown) and not self.short:  # a new set of downs: cheer it
            where = spot_words(down.line, offense)
            text = (f"First and goal at {where}!" if down.goal_to_go
                    else f"First down at {where}!")
        if self.detailed:
            text += f" {plural(GOAL_LINE - down.line, 'yard')} to the goal line."
        return Line(text[0].upper() + text[1:], field_tone=True)

    def _drive_end(self, event: ev.DriveEnded) -> list[Line]:
        """The reason was just heard and the next drive's line follows, so only detailed says it."""
        if not self.detailed:
            return []
        return [Line(f"End of drive {event.drive}.")]

    def _snap(self, event: ev.SnapChosen) -> list[Line]:
        if event.choice is SnapChoice.PLAY or event.team is HUMAN:
            return []  # a play is just the cards that follow; your own kick is its result line
        kick = "punt" if event.choice is SnapChoice.PUNT else "try a field goal"
        return [Line(f"The {self.names.away} {kick}.", category="computer")]

    # -- the cards ---------------------------------------------------------------------------

    def _mine_theirs(self, offense: object, defense: object) -> tuple[object, object]:
        return (offense, defense) if self.offense is HUMAN else (defense, offense)

    def _reveal(self, event: ev.HandsRevealed) -> Line:
        away = self.names.away
        mine, theirs = self._mine_theirs(event.offense, event.defense)
        assert isinstance(mine, Hand) and isinstance(theirs, Hand)
        if event.step == 1:
            if self.short:
                text = f"{away}: {hand_words(theirs)}."
            elif self.detailed:
                text = f"Cards revealed. You: {hand_words(mine)}. The {away}: {hand_words(theirs)}."
            else:
                text = f"The {away} show {hand_words(theirs)}."
            return Line(text, cue="reveal", category="computer")
        my_swap, their_swap = self._mine_theirs(event.offense_swap, event.defense_swap)
        theirs_said = _swap_words(their_swap, away, short=self.short)
        if not self.detailed:  # your own swap was your last key; theirs is the news
            return Line(theirs_said, cue="reveal", category="computer")
        mine_said = _swap_words(my_swap, "", short=False)
        text = theirs_said if not mine_said else f"{mine_said} {theirs_said}"
        text += f" You hold {hand_words(mine)}. The {away} hold {hand_words(theirs)}."
        return Line(text, cue="reveal", category="computer")

    def _band(self, event: ev.BandSet) -> str:
        plain = event.offense_player is None and event.defense_player is None
        if self.short or (plain and event.raw == event.band and not self.detailed):
            return f"Band {signed(event.band)}."  # no players: the band is the matchup
        parts = [f"matchup {signed(event.matchup)}"]
        if event.offense_player is not None:
            parts.append(f"{card_name(event.offense_player)} plus 1")
        if event.defense_player is not None:
            parts.append(f"{card_name(event.defense_player)} minus 1")
        words = f"Band {signed(event.band)}: " + ", ".join(parts)
        if event.raw != event.band:
            words += f", capped at {signed(event.band)}"
        words += "."
        if self.detailed:
            lean = ("favours the offense" if event.band > 0 else
                    "favours the defense" if event.band < 0 else "is even")
            words += (f" Bands run from {signed(MIN_BAND)} to {signed(MAX_BAND)}; this one "
                      f"{lean}.")
        return words

    # -- the play ----------------------------------------------------------------------------

    def _play(self, event: ev.PlayResolved) -> Line:
        dice: tuple[int, ...] = ()
        for roll in (event.outcome_roll, event.yardage_roll):
            if roll is not None:
                dice += roll.dice
        cue, text = self._play_words(event)
        rolls = self._rolls(event) if self.detailed else ""
        sweep = None
        if event.yards:  # the ball moved: heard from the player's side of the field
            line, spot = event.line, event.spot
            if event.offense is not HUMAN:
                line, spot = GOAL_LINE - line, GOAL_LINE - spot
            sweep = (line, spot)
        return Line(f"{rolls}{text}", cue=cue, dice=dice, sweep=sweep)

    def _play_words(self, event: ev.PlayResolved) -> tuple[str | None, str]:
        """The result cue (or None) and the words; yards are what the ball really moved."""
        yards, short = event.yards, self.short
        if event.result is PlayResult.INTERCEPTION:
            return "interception", f"Intercepted by the {self.names.of(event.offense.other)}!"
        if event.result is PlayResult.INCOMPLETE:
            return None, "Incomplete."
        lead = {PlayResult.SACK: "Sacked", PlayResult.COMPLETE: "Complete"}.get(event.result, "")
        cue = "sack" if event.result is PlayResult.SACK else None
        if event.spot >= GOAL_LINE:
            told = f"{plural(yards, 'yard')}, into the end zone!"
        elif event.spot <= 0:
            where = "Sacked" if event.result is PlayResult.SACK else "Tackled"
            told = f"{where} in the end zone, {gain_words(yards)}!"
            lead = ""
        elif yards >= BIG_PLAY_YARDS:  # the cue at every verbosity; the call unless short
            run = event.result is PlayResult.RUN
            if short:
                return "big_play", f"{_short_gain(yards)}!"
            return "big_play", (f"Breaks loose for {yards} yards!" if run
                                else f"Big play! Complete for {yards} yards!")
        elif short:
            told = f"{_short_gain(yards)}."
        else:
            told = f"{gain_words(yards)}."
        if not lead:
            return cue, _capital(told)
        if lead == "Complete":
            return cue, f"Complete, {told}"
        return cue, f"{lead}! {_capital(told)}"  # "Sacked! A loss of 7 yards."

    @staticmethod
    def _rolls(event: ev.PlayResolved) -> str:
        """Detailed only: the raw rolls, with what they are out of."""
        parts = []
        if event.outcome_roll is not None:
            parts.append(f"pass roll {event.outcome_roll.total} of 100")
        if event.yardage_roll is not None:
            if event.result is PlayResult.SACK:
                parts.append(f"sack dice {dice_words(event.yardage_roll.dice)}")
            else:
                parts.append(f"yardage roll {event.yardage_roll.total} of 100")
        return (", ".join(parts).capitalize() + ". ") if parts else ""

    def _fumble(self, event: ev.Fumble) -> list[Line]:
        """ "Fumble!" with its sound, then the recovery die and who has the ball, by name."""
        keeper = event.offense.other if event.lost else event.offense
        name = self.names.of(keeper)
        if self.short:
            text = f"{name} ball."
        elif event.lost:
            text = f"The {name} recover it!"
        else:
            text = f"The {name} fall on it and keep the ball."
        if self.detailed:
            half = RECOVERY_SIDES // 2
            text += (f" Recovery die {dice_words(event.recovery_roll.dice)}: 1 to {half} stays "
                     f"with the offense, {half + 1} to {RECOVERY_SIDES} goes to the defense.")
        return [Line("Fumble!", cue="fumble"),
                Line(text, cue="turnover" if event.lost else None,
                     dice=event.recovery_roll.dice)]

    # -- kicks -------------------------------------------------------------------------------

    def _kicker(self, team: Team) -> str:
        return "You" if team is HUMAN else f"The {self.names.of(team)}"

    def _extra_point(self, event: ev.ExtraPoint) -> Line:
        verdict = "good" if event.good else "no good"
        if self.short:
            text = f"Extra point {verdict}."
        elif self.detailed:
            text = (f"Extra point: dice {dice_words(event.roll.dice)}, needs {event.needed}: "
                    f"{verdict}.")
        else:
            text = f"The extra point is {verdict}."
        return Line(text, dice=event.roll.dice,
                    cue="field_goal_good" if event.good else "field_goal_no_good")

    def _field_goal(self, event: ev.FieldGoal) -> Line:
        cue = "field_goal_good" if event.good else "field_goal_no_good"
        if self.short:
            text = "Field goal good." if event.good else "Field goal no good."
        else:
            verdict = "it's good!" if event.good else "no good."
            roll = (f" Dice {dice_words(event.roll.dice)}, needs {event.needed}:"
                    if self.detailed else "")
            text = f"{self._kicker(event.team)} kick from {event.distance} yards...{roll} {verdict}"
        return Line(text, dice=event.roll.dice, cue=cue)

    def _punt(self, event: ev.Punt) -> Line:
        landing = "a touchback" if event.touchback else f"{event.net} yards"
        if self.short:
            text = f"Punt, {landing}."
        else:
            roll = f" Dice {dice_words(event.roll.dice)}." if self.detailed else ""
            text = f"{self._kicker(event.team)} punt:{roll} {landing}."
        return Line(text, dice=event.roll.dice, cue="punt")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _short_gain(yards: int) -> str:
    """Short verbosity: "5 yards", "loss of 2", "no gain"."""
    if yards > 0:
        return plural(yards, "yard")
    return f"loss of {-yards}" if yards < 0 else "no gain"


def _swap_words(swap: object, who: str, short: bool) -> str:
    """ "The Bears bring in Nose Tackle for Edge Setter." / "You keep your cards." ("" for your
    own keep: nothing changed, so nothing is said)."""
    kept = not isinstance(swap, Swap) or swap.kind is SwapKind.KEEP
    if not who:  # the player's own swap
        if kept:
            return ""
        assert isinstance(swap, Swap) and swap.out is not None and swap.into is not None
        return f"You bring in {card_name(swap.into)} for {card_name(swap.out)}."
    if kept:
        return f"{who} keep." if short else f"The {who} keep their cards."
    assert isinstance(swap, Swap) and swap.out is not None and swap.into is not None
    if short:
        return f"{who}: {card_name(swap.into)} for {card_name(swap.out)}."
    return f"The {who} bring in {card_name(swap.into)} for {card_name(swap.out)}."


# -- card details (D) --------------------------------------------------------------------------


def card_details(card: OffCall | DefCall | Player) -> str:
    """Band 0 statistics and matchups of a card: the explorer's own words, so they always agree."""
    return explorer_words.card_details(card)


def card_label(card: OffCall | DefCall | Player) -> tuple[str, str]:
    """A card's name and kind ("player" or "call") for menus."""
    return card_name(card), ("player" if isinstance(card, Player) else "call")
