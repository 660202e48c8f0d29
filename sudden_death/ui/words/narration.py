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

from ...audio.protocols import Category, Priority
from ...engine import events as ev
from ...engine.card_model import PlayResult
from ...engine.cards import card_name
from ...engine.field import GOAL_LINE, OPENING_SPOT, TOUCHBACK_SPOT, Down
from ...engine.game import SAFETY_POINTS
from ...engine.resolve import MAX_BAND, MIN_BAND, RECOVERY_SIDES
from ...engine.state import CoinFace, DriveEnd, Hand, Side, SnapChoice, Swap, SwapKind, Team
from ...language import _, n_
from .numbers import signed
from .phrases import (
    HUMAN,
    LAST_DRIVE,
    Names,
    dice_words,
    down_words,
    gain_words,
    hand_words,
    score_words,
    spot_words,
)
from .situation import outcome_words
from .verbosity import Verbosity

BIG_PLAY_YARDS = 15  # a gain this long gets its own cue and call


@dataclass(frozen=True)
class Line:
    """One spoken line and the sounds that open it: the dice first, then the cue.

    `field_tone` asks for the short field tone with the line (the new spot after a play);
    `sweep` for the play's sweep from one spot to another (from the player's own goal).
    """

    text: str
    cue: str | None = None
    priority: Priority = Priority.ALERT
    category: Category = Category.RESULT
    dice: tuple[int, ...] = ()
    field_tone: bool = False
    sweep: tuple[int, int] | None = None


def _next_start_why(after: DriveEnd, touchback: bool) -> str:
    """Detailed: why the new drive starts where it does, as a sentence ("" if not known)."""
    if touchback:
        # Translators: {yards} is a spot counted from the team's own goal line ("the 20").
        return _("The spot: a touchback puts the ball at the {yards}.").format(
            yards=TOUCHBACK_SPOT)
    if after in (DriveEnd.TOUCHDOWN, DriveEnd.FIELD_GOAL_MADE):
        # Translators: {yards} is a spot counted from the team's own goal line ("the 25").
        return _("The spot: after a score the next drive starts at the {yards}.").format(
            yards=OPENING_SPOT)
    if after is DriveEnd.FIELD_GOAL_MISSED:
        # Translators: {yards} is a spot counted from the team's own goal line ("the 20").
        return _("The spot: at the kicking spot, or the {yards} if that is farther "
                 "out.").format(yards=TOUCHBACK_SPOT)
    reasons = {
        DriveEnd.PUNT: _("The spot: where the punt came down."),
        DriveEnd.INTERCEPTION: _("The spot: where the pass was thrown."),
        DriveEnd.FUMBLE_LOST: _("The spot: where the ball came loose."),
        DriveEnd.DOWNS: _("The spot: where the fourth down was stopped."),
    }
    return reasons.get(after, "")


class Narrator:
    """Turns engine events into `Line`s for one game, from the player's side."""

    def __init__(self, names: Names, offense: Team | None = None) -> None:
        self.names = names
        self.offense = offense  # who has the ball, followed through DriveStarted events
        self.verbosity = Verbosity.NORMAL

    def lines(self, events: Sequence[ev.Event],
              verbosity: Verbosity = Verbosity.NORMAL) -> list[Line]:
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
        return self.verbosity is Verbosity.SHORT

    @property
    def detailed(self) -> bool:
        return self.verbosity is Verbosity.DETAILED

    def line(self, event: ev.Event, previous: ev.Event | None = None) -> list[Line]:
        """The lines for one event at the current verbosity (`previous`: the event before)."""
        n = self.names
        if isinstance(event, ev.CoinTossed):
            return [Line(self._coin(event), cue="coin")]
        if isinstance(event, ev.SideChosen):
            if event.team is HUMAN:
                return []  # the drive's first line says who has the ball
            if event.side is Side.OFFENSE:
                text = _("The {team} take the ball first.").format(team=n.away)
            else:
                text = _("The {team} defend first.").format(team=n.away)
            return [Line(text, category=Category.COMPUTER)]
        if isinstance(event, ev.DriveStarted):
            return [self._drive_start(event)]
        if isinstance(event, ev.DownStarted):
            return [self._down(event.down, event.offense, after=previous)]
        if isinstance(event, ev.SnapChosen):
            return self._snap(event)
        if isinstance(event, ev.HandsRevealed):
            return [self._reveal(event)]
        if isinstance(event, ev.FinalCallsRevealed):
            offense, defense = _(card_name(event.offense_call)), _(card_name(event.defense_call))
            if self.detailed:
                # Translators: the two calls played, the offense's first: "Final calls: Inside
                # Run against Blitz."
                text = _("Final calls: {offense} against {defense}.")
            else:
                # Translators: the two calls played, the offense's first: "Inside Run against
                # Blitz."
                text = _("{offense} against {defense}.")
            return [Line(text.format(offense=offense, defense=defense), cue="reveal",
                         category=Category.COMPUTER)]
        if isinstance(event, ev.BandSet):
            return [Line(self._band(event))]
        if isinstance(event, ev.PlayResolved):
            return [self._play(event)]
        if isinstance(event, ev.Fumble):
            return self._fumble(event)
        if isinstance(event, ev.FirstDown):
            return []  # the next down's line says it: "First down at their 32."
        if isinstance(event, ev.Touchdown):
            return [Line(_("Touchdown, {team}!").format(team=n.of(event.team)), cue="touchdown")]
        if isinstance(event, ev.ExtraPoint):
            return [self._extra_point(event)]
        if isinstance(event, ev.Safety):
            text = n_("Safety! {count} point to the {team}.",
                      "Safety! {count} points to the {team}.",
                      SAFETY_POINTS).format(count=SAFETY_POINTS, team=n.of(event.team))
            return [Line(text, cue="safety")]
        if isinstance(event, ev.FieldGoal):
            return [self._field_goal(event)]
        if isinstance(event, ev.Punt):
            return [self._punt(event)]
        if isinstance(event, ev.TurnoverOnDowns):
            text = (_("Turnover on downs.") if self.short else
                    _("Stopped on fourth down! The {team} take over.").format(
                        team=n.of(event.team.other)))
            return [Line(text, cue="turnover")]
        if isinstance(event, ev.ScoreChanged):
            if self.short:
                # Translators: the score on its own, the player's team first: "Hawks 7, Bears 3."
                text = _("{home} {home_points}, {away} {away_points}.").format(
                    home=n.home, home_points=event.scores[0], away=n.away,
                    away_points=event.scores[1])
            else:
                # Translators: {score} is the score, the player's team first: "Hawks 7, Bears 3".
                text = _("Score: {score}.").format(score=score_words(event.scores, n))
            return [Line(text)]
        if isinstance(event, ev.DriveEnded):
            return self._drive_end(event)
        if isinstance(event, ev.Conceded):
            return [Line(_("The {team} concede.").format(team=n.of(event.team)))]
        if isinstance(event, ev.GameOver):
            winner = event.outcome.winner
            cue = "game_tied" if winner is None else ("game_won" if winner is HUMAN
                                                      else "game_lost")
            return [Line(outcome_words(event.outcome, n), cue=cue, category=Category.GAME_OVER)]
        return []

    def _coin(self, event: ev.CoinTossed) -> str:
        """ "The coin shows heads: you win the toss." ("Heads: ..." when short)."""
        heads = event.face is CoinFace.HEADS
        you = event.winner is HUMAN
        team = self.names.away
        if self.short:
            if heads:
                if you:
                    return _("Heads: you win the toss.")
                return _("Heads: the {team} win the toss.").format(team=team)
            if you:
                return _("Tails: you win the toss.")
            return _("Tails: the {team} win the toss.").format(team=team)
        if heads:
            if you:
                return _("The coin shows heads: you win the toss.")
            return _("The coin shows heads: the {team} win the toss.").format(team=team)
        if you:
            return _("The coin shows tails: you win the toss.")
        return _("The coin shows tails: the {team} win the toss.").format(team=team)

    # -- drives and downs --------------------------------------------------------------------

    def _drive_start(self, event: ev.DriveStarted) -> Line:
        self.offense = event.offense
        team = self.names.of(event.offense)
        down = down_words(Down.first(event.spot), event.offense)
        if self.short:
            # Translators: a new drive: "Drive 2: Hawks ball, 1st and 10 at your own 25."
            text = _("Drive {drive}: {team} ball, {down}.").format(
                drive=event.drive, team=team, down=down)
        else:
            # Translators: a new drive: "Drive 2 of 2: Hawks ball, 1st and 10 at your own 25."
            text = _("Drive {drive} of {drives}: {team} ball, {down}.").format(
                drive=event.drive, drives=LAST_DRIVE, team=team, down=down)
        if self.detailed and event.after is not None:
            why = _next_start_why(event.after, event.touchback)
            text += " " + why if why else ""
        if self.detailed:
            text += " " + _to_goal(GOAL_LINE - event.spot)
        return Line(text, cue="whistle")

    def _down(self, down: Down, offense: Team, after: ev.Event | None = None) -> Line:
        # Translators: the down as a sentence: "2nd and 7 at your own 31." ("2nd and 7, your own
        # 31." when short).
        text = _("{down}.").format(down=down_words(down, offense, short=self.short))
        if isinstance(after, ev.FirstDown) and not self.short:  # a new set of downs: cheer it
            where = spot_words(down.line, offense)
            if down.goal_to_go:
                # Translators: a new set of downs with the goal line to gain; {spot} is a spot
                # such as "their 6".
                text = _("First and goal at {spot}!").format(spot=where)
            else:
                # Translators: a new set of downs; {spot} is a spot such as "their 32".
                text = _("First down at {spot}!").format(spot=where)
        if self.detailed:
            text += " " + _to_goal(GOAL_LINE - down.line)
        return Line(_capital(text), field_tone=True)

    def _drive_end(self, event: ev.DriveEnded) -> list[Line]:
        """The reason was just heard and the next drive's line follows, so only detailed says it."""
        if not self.detailed:
            return []
        return [Line(_("End of drive {drive}.").format(drive=event.drive))]

    def _snap(self, event: ev.SnapChosen) -> list[Line]:
        if event.choice is SnapChoice.PLAY or event.team is HUMAN:
            return []  # a play is just the cards that follow; your own kick is its result line
        if event.choice is SnapChoice.PUNT:
            text = _("The {team} punt.").format(team=self.names.away)
        else:
            text = _("The {team} try a field goal.").format(team=self.names.away)
        return [Line(text, category=Category.COMPUTER)]

    # -- the cards ---------------------------------------------------------------------------

    def _mine_theirs(self, offense: object, defense: object) -> tuple[object, object]:
        return (offense, defense) if self.offense is HUMAN else (defense, offense)

    def _reveal(self, event: ev.HandsRevealed) -> Line:
        away = self.names.away
        mine, theirs = self._mine_theirs(event.offense, event.defense)
        assert isinstance(mine, Hand) and isinstance(theirs, Hand)
        if event.step == 1:
            if self.short:
                # Translators: the other team's cards, short: "Bears: Power Back, Scatback;
                # Inside Run, Draw Play, Deep Pass."
                text = _("{team}: {hand}.").format(team=away, hand=hand_words(theirs))
            elif self.detailed:
                # Translators: {mine} and {theirs} are hands of cards: "Power Back, Scatback;
                # Inside Run, Draw Play, Deep Pass".
                text = _("Cards revealed. You: {mine}. The {team}: {theirs}.").format(
                    mine=hand_words(mine), team=away, theirs=hand_words(theirs))
            else:
                # Translators: {hand} is a hand of cards: "Power Back, Scatback; Inside Run,
                # Draw Play, Deep Pass".
                text = _("The {team} show {hand}.").format(team=away, hand=hand_words(theirs))
            return Line(text, cue="reveal", category=Category.COMPUTER)
        my_swap, their_swap = self._mine_theirs(event.offense_swap, event.defense_swap)
        theirs_said = _swap_words(their_swap, away, short=self.short)
        if not self.detailed:  # your own swap was your last key; theirs is the news
            return Line(theirs_said, cue="reveal", category=Category.COMPUTER)
        mine_said = _swap_words(my_swap, "", short=False)
        # Translators: {mine} and {theirs} are hands of cards: "Power Back, Scatback; Inside
        # Run, Draw Play, Deep Pass".
        hands = _("You hold {mine}. The {team} hold {theirs}.").format(
            mine=hand_words(mine), team=away, theirs=hand_words(theirs))
        text = " ".join(said for said in (mine_said, theirs_said, hands) if said)
        return Line(text, cue="reveal", category=Category.COMPUTER)

    def _band(self, event: ev.BandSet) -> str:
        plain = event.offense_player is None and event.defense_player is None
        band = signed(event.band)
        if self.short or (plain and event.raw == event.band and not self.detailed):
            # Translators: the band of the play (how the dice lean): "Band plus 2."
            return _("Band {band}.").format(band=band)  # no players: the band is the matchup
        # Translators: part of the band's sum: "matchup plus 1" (how the two calls meet).
        parts = [_("matchup {value}").format(value=signed(event.matchup))]
        if event.offense_player is not None:
            # Translators: part of the band's sum: a featured player adds 1.
            parts.append(_("{card} plus 1").format(card=_(card_name(event.offense_player))))
        if event.defense_player is not None:
            # Translators: part of the band's sum: a featured player takes 1 away.
            parts.append(_("{card} minus 1").format(card=_(card_name(event.defense_player))))
        if event.raw != event.band:
            # Translators: how the band was made; {parts} is a list such as "matchup plus 2,
            # Power Back plus 1, Nose Tackle minus 1", and the sum is capped at {band}.
            words = _("Band {band}: {parts}, capped at {band}.")
        else:
            # Translators: how the band was made; {parts} is a list such as "matchup plus 2,
            # Power Back plus 1, Nose Tackle minus 1".
            words = _("Band {band}: {parts}.")
        words = words.format(band=band, parts=", ".join(parts))
        if self.detailed:
            low, high = signed(MIN_BAND), signed(MAX_BAND)
            if event.band > 0:
                lean = _("Bands run from {low} to {high}; this one favours the offense.")
            elif event.band < 0:
                lean = _("Bands run from {low} to {high}; this one favours the defense.")
            else:
                lean = _("Bands run from {low} to {high}; this one is even.")
            words += " " + lean.format(low=low, high=high)
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
        return Line(f"{rolls} {text}" if rolls else text, cue=cue, dice=dice, sweep=sweep)

    def _play_words(self, event: ev.PlayResolved) -> tuple[str | None, str]:
        """The result cue (or None) and the words; yards are what the ball really moved."""
        yards, short = event.yards, self.short
        if event.result is PlayResult.INTERCEPTION:
            return "interception", _("Intercepted by the {team}!").format(
                team=self.names.of(event.offense.other))
        if event.result is PlayResult.INCOMPLETE:
            return None, _("Incomplete.")
        sacked = event.result is PlayResult.SACK
        complete = event.result is PlayResult.COMPLETE
        cue = "sack" if sacked else None
        if event.spot >= GOAL_LINE:
            if complete:
                told = n_("Complete, {count} yard, into the end zone!",
                          "Complete, {count} yards, into the end zone!", yards)
            else:
                told = n_("{count} yard, into the end zone!",
                          "{count} yards, into the end zone!", yards)
            told = told.format(count=yards)
        elif event.spot <= 0:
            # Translators: {gain} is "a loss of 3 yards" or "no gain".
            told = (_("Sacked in the end zone, {gain}!") if sacked
                    else _("Tackled in the end zone, {gain}!"))
            return cue, told.format(gain=gain_words(yards))
        elif yards >= BIG_PLAY_YARDS:  # the cue at every verbosity; the call unless short
            if short:
                # Translators: a long gain, short verbosity.
                told = n_("{count} yard!", "{count} yards!", yards)
            elif event.result is PlayResult.RUN:
                told = n_("Breaks loose for {count} yard!", "Breaks loose for {count} yards!",
                          yards)
            else:
                told = n_("Big play! Complete for {count} yard!",
                          "Big play! Complete for {count} yards!", yards)
            return "big_play", told.format(count=yards)
        elif complete:
            # Translators: a pass caught; {gain} is "a gain of 5 yards", "a loss of 3 yards" or
            # "no gain" (short verbosity: "5 yards", "loss of 3", "no gain").
            told = _("Complete, {gain}.").format(
                gain=_short_gain(yards) if short else gain_words(yards))
        else:
            told = _gain_sentence(yards, short)
        if sacked:
            # Translators: {result} is a whole sentence: "A loss of 7 yards."
            return cue, _("Sacked! {result}").format(result=told)
        return cue, told

    @staticmethod
    def _rolls(event: ev.PlayResolved) -> str:
        """Detailed only: the raw rolls, with what they are out of."""
        outcome, yardage = event.outcome_roll, event.yardage_roll
        sack = event.result is PlayResult.SACK
        if outcome is not None:
            if yardage is None:
                # Translators: the roll that decides a pass, out of 100.
                return _("Pass roll {roll} of 100.").format(roll=outcome.total)
            if sack:
                # Translators: {dice} are the sack dice: "2, 3, total 5".
                return _("Pass roll {roll} of 100, sack dice {dice}.").format(
                    roll=outcome.total, dice=dice_words(yardage.dice))
            return _("Pass roll {roll} of 100, yardage roll {yardage} of 100.").format(
                roll=outcome.total, yardage=yardage.total)
        if yardage is None:
            return ""
        if sack:
            # Translators: {dice} are the sack dice: "2, 3, total 5".
            return _("Sack dice {dice}.").format(dice=dice_words(yardage.dice))
        return _("Yardage roll {yardage} of 100.").format(yardage=yardage.total)

    def _fumble(self, event: ev.Fumble) -> list[Line]:
        """ "Fumble!" with its sound, then the recovery die and who has the ball, by name."""
        keeper = event.offense.other if event.lost else event.offense
        name = self.names.of(keeper)
        if self.short:
            # Translators: who has the ball after a fumble: "Bears ball."
            text = _("{team} ball.").format(team=name)
        elif event.lost:
            text = _("The {team} recover it!").format(team=name)
        else:
            text = _("The {team} fall on it and keep the ball.").format(team=name)
        if self.detailed:
            half = RECOVERY_SIDES // 2
            # Translators: {dice} is the recovery die's roll: "1 to {half}" and "{lost} to
            # {sides}" are ranges of the die.
            text += " " + _("Recovery die {dice}: 1 to {half} stays with the offense, {lost} to "
                            "{sides} goes to the defense.").format(
                dice=dice_words(event.recovery_roll.dice), half=half, lost=half + 1,
                sides=RECOVERY_SIDES)
        return [Line(_("Fumble!"), cue="fumble"),
                Line(text, cue="turnover" if event.lost else None,
                     dice=event.recovery_roll.dice)]

    # -- kicks -------------------------------------------------------------------------------

    def _extra_point(self, event: ev.ExtraPoint) -> Line:
        dice = dice_words(event.roll.dice)
        if self.short:
            text = _("Extra point good.") if event.good else _("Extra point no good.")
        elif self.detailed:
            # Translators: {dice} is the roll: "4, 5, total 9"; {needed} the total it needed.
            text = (_("Extra point: dice {dice}, needs {needed}: good.") if event.good else
                    _("Extra point: dice {dice}, needs {needed}: no good."))
            text = text.format(dice=dice, needed=event.needed)
        else:
            text = (_("The extra point is good.") if event.good else
                    _("The extra point is no good."))
        return Line(text, dice=event.roll.dice,
                    cue="field_goal_good" if event.good else "field_goal_no_good")

    def _field_goal(self, event: ev.FieldGoal) -> Line:
        cue = "field_goal_good" if event.good else "field_goal_no_good"
        if self.short:
            text = _("Field goal good.") if event.good else _("Field goal no good.")
            return Line(text, dice=event.roll.dice, cue=cue)
        if event.team is HUMAN:
            # Translators: a field goal try; the result follows: "... it's good!"
            kick = n_("You kick from {count} yard...", "You kick from {count} yards...",
                      event.distance)
        else:
            # Translators: a field goal try; the result follows: "... it's good!"
            kick = n_("The {team} kick from {count} yard...", "The {team} kick from {count} "
                      "yards...", event.distance)
        kick = kick.format(count=event.distance, team=self.names.of(event.team))
        if self.detailed:
            # Translators: the end of "You kick from 35 yards... Dice 4, 5, total 9, needs 7:
            # it's good!" ({dice} is the roll, {needed} the total it needed).
            verdict = (_("Dice {dice}, needs {needed}: it's good!") if event.good
                       else _("Dice {dice}, needs {needed}: no good."))
            verdict = verdict.format(dice=dice_words(event.roll.dice), needed=event.needed)
        else:
            # Translators: the end of "You kick from 35 yards... it's good!"
            verdict = _("it's good!") if event.good else _("no good.")
        return Line(f"{kick} {verdict}", dice=event.roll.dice, cue=cue)

    def _punt(self, event: ev.Punt) -> Line:
        if event.touchback:
            # Translators: where a punt ended, as in "Punt, a touchback." or "You punt: a
            # touchback."
            landing = _("a touchback")
        else:
            # Translators: how far a punt went, as in "Punt, 40 yards." or "You punt: 40 yards."
            landing = n_("{count} yard", "{count} yards", event.net).format(count=event.net)
        you, team = event.team is HUMAN, self.names.of(event.team)
        if self.short:
            text = _("Punt, {landing}.").format(landing=landing)
        elif self.detailed:
            # Translators: {dice} is the roll: "3, 4, total 7"; {landing} is "40 yards" or "a
            # touchback".
            text = (_("You punt: Dice {dice}. {landing}.") if you else
                    _("The {team} punt: Dice {dice}. {landing}."))
            text = text.format(team=team, dice=dice_words(event.roll.dice), landing=landing)
        else:
            # Translators: {landing} is "40 yards" or "a touchback".
            text = _("You punt: {landing}.") if you else _("The {team} punt: {landing}.")
            text = text.format(team=team, landing=landing)
        return Line(text, dice=event.roll.dice, cue="punt")


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _to_goal(yards: int) -> str:
    """Detailed: "25 yards to the goal line." """
    return n_("{count} yard to the goal line.", "{count} yards to the goal line.",
              yards).format(count=yards)


def _short_gain(yards: int) -> str:
    """Short verbosity: "5 yards", "loss of 2", "no gain"."""
    if yards > 0:
        # Translators: part of a sentence, short verbosity: "Complete, 5 yards."
        return n_("{count} yard", "{count} yards", yards).format(count=yards)
    if yards < 0:
        # Translators: part of a sentence, short verbosity: "Complete, loss of 2."
        return _("loss of {yards}").format(yards=-yards)
    # Translators: part of a sentence, as in "Complete, no gain."
    return _("no gain")


def _gain_sentence(yards: int, short: bool) -> str:
    """A play's gain as a sentence: "A gain of 5 yards." (short: "5 yards.")."""
    if yards > 0:
        if short:
            return n_("{count} yard.", "{count} yards.", yards).format(count=yards)
        return n_("A gain of {count} yard.", "A gain of {count} yards.", yards).format(
            count=yards)
    if yards < 0:
        if short:
            return _("Loss of {yards}.").format(yards=-yards)
        return n_("A loss of {count} yard.", "A loss of {count} yards.", -yards).format(
            count=-yards)
    return _("No gain.")


def _swap_words(swap: object, who: str, short: bool) -> str:
    """ "The Bears bring in Nose Tackle for Edge Setter." / "You keep your cards." ("" for your
    own keep: nothing changed, so nothing is said)."""
    kept = not isinstance(swap, Swap) or swap.kind is SwapKind.KEEP
    if not who:  # the player's own swap
        if kept:
            return ""
        assert isinstance(swap, Swap) and swap.out is not None and swap.into is not None
        # Translators: a swap of cards: {into} comes into the hand, {out} goes out.
        return _("You bring in {into} for {out}.").format(
            into=_(card_name(swap.into)), out=_(card_name(swap.out)))
    if kept:
        if short:
            return _("{team} keep.").format(team=who)
        return _("The {team} keep their cards.").format(team=who)
    assert isinstance(swap, Swap) and swap.out is not None and swap.into is not None
    into, out = _(card_name(swap.into)), _(card_name(swap.out))
    if short:
        # Translators: a swap of cards, short: "Bears: Nose Tackle for Edge Setter" ({into}
        # comes into the hand, {out} goes out).
        return _("{team}: {into} for {out}.").format(team=who, into=into, out=out)
    # Translators: a swap of cards: {into} comes into the hand, {out} goes out.
    return _("The {team} bring in {into} for {out}.").format(team=who, into=into, out=out)
