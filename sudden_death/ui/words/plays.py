"""How a snap and a kick are told: gains and losses that stop at the goal lines, big plays,
sacks, turnovers, the rolls behind them at detailed verbosity, and each one's cue and dice."""

from __future__ import annotations

from ...engine import events as ev
from ...engine.card_model import PlayResult
from ...engine.field import GOAL_LINE
from ...engine.resolve import RECOVERY_SIDES
from ...language import _, n_
from .line import Line
from .phrases import Names, dice_words, gain_words
from .verbosity import Telling

BIG_PLAY_YARDS = 15  # a gain this long gets its own cue and call
# News that is good for one side and bad for the other has a sound for each side, so whose it
# is is heard before the words say it: the player's own cue, and the other team's.
THEIRS = {"touchdown": "touchdown_theirs", "field_goal_good": "field_goal_theirs",
          "big_play": "big_play_theirs"}


def side_cue(cue: str, team: object, names: Names) -> str:
    """`cue` for news that `team` made: the player's own sound, or the other team's."""
    return cue if team is names.you else THEIRS.get(cue, cue)


def takeaway_cue(lost_by: object, names: Names) -> str:
    """The ball changing hands: `turnover` (a groan) when the player loses it, `turnover_won`
    when the player's side takes it away."""
    return "turnover" if lost_by is names.you else "turnover_won"


def play_line(event: ev.PlayResolved, names: Names, telling: Telling) -> Line:
    """The play's result, with its dice, its cue and the sweep of the ball from the player's
    side of the field."""
    dice: tuple[int, ...] = ()
    for roll in (event.outcome_roll, event.yardage_roll):
        if roll is not None:
            dice += roll.dice
    cue, text = _play_words(event, names, telling.brief)
    if cue == "big_play":
        cue = side_cue(cue, event.offense, names)
    elif cue == "interception" and event.offense is not names.you:
        cue = "turnover_won"  # the player's defense picked it off: good news, its own sound
    rolls = _rolls(event) if telling.dice else ""
    sweep = None
    if event.yards:  # the ball moved: heard from the player's side of the field
        line, spot = event.line, event.spot
        if event.offense is not names.you:
            line, spot = GOAL_LINE - line, GOAL_LINE - spot
        sweep = (line, spot)
    return Line(f"{rolls} {text}" if rolls else text, cue=cue, dice=dice, sweep=sweep)

def _play_words(event: ev.PlayResolved, names: Names,
                short: bool) -> tuple[str | None, str]:
    """The result cue (or None) and the words; yards are what the ball really moved."""
    yards = event.yards
    if event.result is PlayResult.INTERCEPTION:
        return "interception", _("Intercepted by the {team}!").format(
            team=names.of(event.offense.other))
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

def fumble_lines(event: ev.Fumble, names: Names, telling: Telling) -> list[Line]:
    """ "Fumble!" with its sound, then the recovery die and who has the ball, by name."""
    keeper = event.offense.other if event.lost else event.offense
    name = names.of(keeper)
    if telling.brief:
        # Translators: who has the ball after a fumble: "Bears ball."
        text = _("{team} ball.").format(team=name)
    elif event.lost:
        text = _("The {team} recover it!").format(team=name)
    else:
        text = _("The {team} fall on it and keep the ball.").format(team=name)
    if telling.dice:
        half = RECOVERY_SIDES // 2
        # Translators: {dice} is the recovery die's roll: "1 to {half}" and "{lost} to
        # {sides}" are ranges of the die.
        text += " " + _("Recovery die {dice}: 1 to {half} stays with the offense, {lost} to "
                        "{sides} goes to the defense.").format(
            dice=dice_words(event.recovery_roll.dice), half=half, lost=half + 1,
            sides=RECOVERY_SIDES)
    return [Line(_("Fumble!"), cue="fumble"),
            Line(text, cue=takeaway_cue(event.offense, names) if event.lost else None,
                 dice=event.recovery_roll.dice)]

def extra_point_line(event: ev.ExtraPoint, names: Names, telling: Telling) -> Line:
    dice = dice_words(event.roll.dice)
    if telling.brief:
        text = _("Extra point good.") if event.good else _("Extra point no good.")
    elif telling.dice:
        # Translators: {dice} is the roll: "4, 5, total 9"; {needed} the total it needed.
        text = (_("Extra point: dice {dice}, needs {needed}: good.") if event.good else
                _("Extra point: dice {dice}, needs {needed}: no good."))
        text = text.format(dice=dice, needed=event.needed)
    else:
        text = (_("The extra point is good.") if event.good else
                _("The extra point is no good."))
    return Line(text, dice=event.roll.dice,
                cue=side_cue("field_goal_good", event.team, names) if event.good
                else "field_goal_no_good")

def field_goal_line(event: ev.FieldGoal, names: Names, telling: Telling) -> Line:
    cue = side_cue("field_goal_good", event.team, names) if event.good else "field_goal_no_good"
    if telling.brief:
        text = _("Field goal good.") if event.good else _("Field goal no good.")
        return Line(text, dice=event.roll.dice, cue=cue)
    if event.team is names.you:
        # Translators: a field goal try; the result follows: "... it's good!"
        kick = n_("You kick from {count} yard...", "You kick from {count} yards...",
                  event.distance)
    else:
        # Translators: a field goal try; the result follows: "... it's good!"
        kick = n_("The {team} kick from {count} yard...", "The {team} kick from {count} "
                  "yards...", event.distance)
    kick = kick.format(count=event.distance, team=names.of(event.team))
    if telling.dice:
        # Translators: the end of "You kick from 35 yards... Dice 4, 5, total 9, needs 7:
        # it's good!" ({dice} is the roll, {needed} the total it needed).
        verdict = (_("Dice {dice}, needs {needed}: it's good!") if event.good
                   else _("Dice {dice}, needs {needed}: no good."))
        verdict = verdict.format(dice=dice_words(event.roll.dice), needed=event.needed)
    else:
        # Translators: the end of "You kick from 35 yards... it's good!"
        verdict = _("it's good!") if event.good else _("no good.")
    return Line(f"{kick} {verdict}", dice=event.roll.dice, cue=cue)

def punt_line(event: ev.Punt, names: Names, telling: Telling) -> Line:
    if event.touchback:
        # Translators: where a punt ended, as in "Punt, a touchback." or "You punt: a
        # touchback."
        landing = _("a touchback")
    else:
        # Translators: how far a punt went, as in "Punt, 40 yards." or "You punt: 40 yards."
        landing = n_("{count} yard", "{count} yards", event.net).format(count=event.net)
    you, team = event.team is names.you, names.of(event.team)
    if telling.brief:
        text = _("Punt, {landing}.").format(landing=landing)
    elif telling.dice:
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
