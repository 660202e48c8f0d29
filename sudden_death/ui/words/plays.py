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
from .variety import Variety, choose
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


def play_line(event: ev.PlayResolved, names: Names, telling: Telling,
              variety: Variety | None = None) -> Line:
    """The play's result, with its dice, its cue and the sweep of the ball from the player's
    side of the field; `variety` picks among its phrasings (None: the plain one)."""
    dice: tuple[int, ...] = ()
    for roll in (event.outcome_roll, event.yardage_roll):
        if roll is not None:
            dice += roll.dice
    cue, text = _play_words(event, names, telling.brief, variety)
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

def _play_words(event: ev.PlayResolved, names: Names, short: bool,
                variety: Variety | None) -> tuple[str | None, str]:
    """The result cue (or None) and the words; yards are what the ball really moved."""
    yards = event.yards
    if event.result is PlayResult.INTERCEPTION:
        team = names.of(event.offense.other)
        return "interception", choose(variety, short, "interception", [
            _("Intercepted by the {team}!"),
            # Translators: an interception, said another way ({team} caught the pass).
            _("Picked off by the {team}!"),
            _("The {team} pick it off!"),
            _("Intercepted! The {team} have it!"),
        ]).format(team=team)
    if event.result is PlayResult.INCOMPLETE:
        return None, choose(variety, short, "incomplete", [
            _("Incomplete."),
            # Translators: an incomplete pass, said other ways.
            _("Falls incomplete."),
            _("Broken up, incomplete."),
            _("Off the fingertips, incomplete."),
        ])
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
            told = choose(variety, short, "big_run", [
                n_("Breaks loose for {count} yard!", "Breaks loose for {count} yards!",
                   yards),
                # Translators: a run of 15 yards or more, called like a radio broadcast.
                n_("Into the open field, {count} yard!", "Into the open field, {count} yards!",
                   yards),
                n_("Off to the races, {count} yard!", "Off to the races, {count} yards!",
                   yards),
                n_("What a run! {count} yard!", "What a run! {count} yards!", yards),
            ])
        else:
            told = choose(variety, short, "big_pass", [
                n_("Big play! Complete for {count} yard!",
                   "Big play! Complete for {count} yards!", yards),
                # Translators: a pass of 15 yards or more, called like a radio broadcast.
                n_("Caught in stride for {count} yard!", "Caught in stride for {count} yards!",
                   yards),
                n_("Downfield and complete, {count} yard!",
                   "Downfield and complete, {count} yards!", yards),
                n_("What a catch! {count} yard!", "What a catch! {count} yards!", yards),
            ])
        return "big_play", told.format(count=yards)
    elif complete:
        gain = _short_gain(yards) if short else gain_words(yards)
        told = choose(variety, short, "complete", [
            # Translators: a pass caught; {gain} is "a gain of 5 yards", "a loss of 3 yards"
            # or "no gain" (short verbosity: "5 yards", "loss of 3", "no gain").
            _("Complete, {gain}."),
            # Translators: a pass caught, said other ways; {gain} as in "Complete, {gain}."
            _("Caught, {gain}."),
            _("Pass complete, {gain}."),
            _("Hauled in, {gain}."),
        ]).format(gain=gain)
    else:
        told = _gain_sentence(yards, short, variety)
    if sacked:
        return cue, choose(variety, short, "sack", [
            # Translators: {result} is a whole sentence: "A loss of 7 yards."
            _("Sacked! {result}"),
            # Translators: a sack, said other ways; {result} is a whole sentence.
            _("Brought down behind the line! {result}"),
            _("The quarterback goes down! {result}"),
            _("Sacked in the backfield! {result}"),
        ]).format(result=told)
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

def fumble_lines(event: ev.Fumble, names: Names, telling: Telling,
                 variety: Variety | None = None) -> list[Line]:
    """ "Fumble!" with its sound, then the recovery die and who has the ball, by name."""
    keeper = event.offense.other if event.lost else event.offense
    name = names.of(keeper)
    brief = telling.brief
    if brief:
        # Translators: who has the ball after a fumble: "Bears ball."
        text = _("{team} ball.").format(team=name)
    elif event.lost:
        text = choose(variety, brief, "fumble_lost", [
            _("The {team} recover it!"),
            # Translators: the other side recovers a fumble, said other ways.
            _("Recovered by the {team}!"),
            _("The {team} come up with it!"),
            _("The {team} pounce on it!"),
        ]).format(team=name)
    else:
        text = choose(variety, brief, "fumble_kept", [
            _("The {team} fall on it and keep the ball."),
            # Translators: the offense recovers its own fumble, said other ways.
            _("The {team} get it back and keep the ball."),
            _("The {team} hang on to it and keep the ball."),
            _("The {team} smother it and keep the ball."),
        ]).format(team=name)
    if telling.dice:
        half = RECOVERY_SIDES // 2
        # Translators: {dice} is the recovery die's roll: "1 to {half}" and "{lost} to
        # {sides}" are ranges of the die.
        text += " " + _("Recovery die {dice}: 1 to {half} stays with the offense, {lost} to "
                        "{sides} goes to the defense.").format(
            dice=dice_words(event.recovery_roll.dice), half=half, lost=half + 1,
            sides=RECOVERY_SIDES)
    loose = choose(variety, brief, "fumble", [
        _("Fumble!"),
        # Translators: the ball comes loose, said other ways (the word for fumble stays).
        _("Fumble! The ball is loose!"),
        _("It's on the ground, fumble!"),
        _("Fumble! It squirts free!"),
    ])
    return [Line(loose, cue="fumble"),
            Line(text, cue=takeaway_cue(event.offense, names) if event.lost else None,
                 dice=event.recovery_roll.dice)]

def extra_point_line(event: ev.ExtraPoint, names: Names, telling: Telling,
                     variety: Variety | None = None) -> Line:
    dice = dice_words(event.roll.dice)
    if telling.brief:
        text = _("Extra point good.") if event.good else _("Extra point no good.")
    elif telling.dice:
        # Translators: {dice} is the roll: "4, 5, total 9"; {needed} the total it needed.
        text = (_("Extra point: dice {dice}, needs {needed}: good.") if event.good else
                _("Extra point: dice {dice}, needs {needed}: no good."))
        text = text.format(dice=dice, needed=event.needed)
    elif event.good:
        text = choose(variety, False, "extra_point_good", [
            _("The extra point is good."),
            # Translators: an extra point kicked through, said other ways.
            _("The extra point is through."),
            _("Extra point: right through, good."),
            _("And the extra point is good."),
        ])
    else:
        text = choose(variety, False, "extra_point_missed", [
            _("The extra point is no good."),
            # Translators: an extra point missed, said other ways.
            _("The extra point misses: no good."),
            _("Extra point: off target, no good."),
            _("And the extra point is no good."),
        ])
    return Line(text, dice=event.roll.dice,
                cue=side_cue("field_goal_good", event.team, names) if event.good
                else "field_goal_no_good")

def field_goal_line(event: ev.FieldGoal, names: Names, telling: Telling,
                    variety: Variety | None = None) -> Line:
    cue = side_cue("field_goal_good", event.team, names) if event.good else "field_goal_no_good"
    if telling.brief:
        text = _("Field goal good.") if event.good else _("Field goal no good.")
        return Line(text, dice=event.roll.dice, cue=cue)
    if names.is_mine(event.team):
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
    elif event.good:
        verdict = choose(variety, False, "kick_good", [
            # Translators: the end of "You kick from 35 yards... it's good!"
            _("it's good!"),
            # Translators: the end of "You kick from 35 yards... it's good!", said other ways.
            _("right down the middle, it's good!"),
            _("through the uprights, it's good!"),
            _("it splits the posts, it's good!"),
        ])
    else:
        verdict = choose(variety, False, "kick_missed", [
            # Translators: the end of "You kick from 35 yards... no good."
            _("no good."),
            # Translators: the end of "You kick from 35 yards... no good.", said other ways.
            _("it misses, no good."),
            _("off target, no good."),
            _("not this time, no good."),
        ])
    return Line(f"{kick} {verdict}", dice=event.roll.dice, cue=cue)

def punt_line(event: ev.Punt, names: Names, telling: Telling,
              variety: Variety | None = None) -> Line:
    if event.touchback:
        # Translators: where a punt ended, as in "Punt, a touchback." or "You punt: a
        # touchback."
        landing = _("a touchback")
    else:
        # Translators: how far a punt went, as in "Punt, 40 yards." or "You punt: 40 yards."
        landing = n_("{count} yard", "{count} yards", event.net).format(count=event.net)
    you, team = names.is_mine(event.team), names.of(event.team)
    if telling.brief:
        text = _("Punt, {landing}.").format(landing=landing)
    elif telling.dice:
        # Translators: {dice} is the roll: "3, 4, total 7"; {landing} is "40 yards" or "a
        # touchback".
        text = (_("You punt: Dice {dice}. {landing}.") if you else
                _("The {team} punt: Dice {dice}. {landing}."))
        text = text.format(team=team, dice=dice_words(event.roll.dice), landing=landing)
    elif you:
        text = choose(variety, False, "punt_yours", [
            # Translators: {landing} is "40 yards" or "a touchback".
            _("You punt: {landing}."),
            # Translators: the player's punt, said other ways; {landing} is "40 yards" or "a
            # touchback".
            _("Your punt: {landing}."),
            _("You punt it away: {landing}."),
            _("You boom the punt: {landing}."),
        ]).format(landing=landing)
    else:
        text = choose(variety, False, "punt_theirs", [
            # Translators: {landing} is "40 yards" or "a touchback".
            _("The {team} punt: {landing}."),
            # Translators: the other team's punt, said other ways; {landing} is "40 yards" or
            # "a touchback".
            _("The {team} punt it away: {landing}."),
            _("A {team} punt: {landing}."),
            _("The {team} boom the punt: {landing}."),
        ]).format(team=team, landing=landing)
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


def _gain_sentence(yards: int, short: bool, variety: Variety | None = None) -> str:
    """A play's gain as a sentence: "A gain of 5 yards." (short: "5 yards.")."""
    if yards > 0:
        if short:
            return n_("{count} yard.", "{count} yards.", yards).format(count=yards)
        return choose(variety, short, "gain", [
            n_("A gain of {count} yard.", "A gain of {count} yards.", yards),
            # Translators: a run's gain, said other ways.
            n_("Picks up {count} yard.", "Picks up {count} yards.", yards),
            n_("Good for {count} yard.", "Good for {count} yards.", yards),
            n_("Gains {count} yard.", "Gains {count} yards.", yards),
        ]).format(count=yards)
    if yards < 0:
        if short:
            return _("Loss of {yards}.").format(yards=-yards)
        return choose(variety, short, "loss", [
            n_("A loss of {count} yard.", "A loss of {count} yards.", -yards),
            # Translators: a loss of yards, said other ways.
            n_("Loses {count} yard.", "Loses {count} yards.", -yards),
            n_("Thrown back {count} yard.", "Thrown back {count} yards.", -yards),
            n_("Dropped for a loss of {count} yard.", "Dropped for a loss of {count} yards.",
               -yards),
        ]).format(count=-yards)
    return choose(variety, short, "no_gain", [
        _("No gain."),
        # Translators: a play that gained nothing, said other ways.
        _("Stopped at the line, no gain."),
        _("Held to no gain."),
        _("Nowhere to go: no gain."),
    ])
