"""The story of a finished game, told after the final score and kept in the record: how each
drive went (its plays, yards and end) and the play the game turned on."""

from __future__ import annotations

from ...engine.card_model import PlayResult
from ...engine.cards import card_name
from ...engine.field import Down
from ...engine.state import DriveEnd
from ...engine.summary import DrivePlay, DriveSummary, GameSummary
from ...language import _, down_ordinal, n_, p_
from .phrases import Names
from .verbosity import Telling

# At most this many drives are told one by one; a longer overtime is told as a count.
TOLD_DRIVES = 4


def _ending(end: DriveEnd | None) -> str:
    """How a drive ended, as the end of "the Hawks went 40 yards in 7 plays ..."."""
    endings = {
        DriveEnd.TOUCHDOWN: p_("drive ending", "for a touchdown"),
        DriveEnd.FIELD_GOAL_MADE: p_("drive ending", "and kicked a field goal"),
        DriveEnd.FIELD_GOAL_MISSED: p_("drive ending", "and missed a field goal"),
        DriveEnd.PUNT: p_("drive ending", "and punted"),
        DriveEnd.INTERCEPTION: p_("drive ending", "and threw an interception"),
        DriveEnd.FUMBLE_LOST: p_("drive ending", "and lost a fumble"),
        DriveEnd.DOWNS: p_("drive ending", "and were stopped on downs"),
        DriveEnd.SAFETY: p_("drive ending", "and gave up a safety"),
    }
    return endings[end] if end is not None else p_("drive ending", "before conceding")


def drive_words(drive: DriveSummary, names: Names) -> str:
    """ "the Hawks went 40 yards in 7 plays and punted" (lower case: it is joined)."""
    team, ending = names.of(drive.offense), _ending(drive.end)
    plays = n_("{count} play", "{count} plays", drive.plays).format(count=drive.plays)
    if drive.plays == 0:
        # Translators: a drive with no snap; {ending} is "and punted", "before conceding"...
        return _("the {team} ran no play {ending}").format(team=team, ending=ending)
    if drive.yards > 0:
        yards = n_("{count} yard", "{count} yards", drive.yards).format(count=drive.yards)
        # Translators: "the Hawks went 40 yards in 7 plays and punted"; {ending} is how the
        # drive ended ("for a touchdown", "and punted"...).
        words = _("the {team} went {yards} in {plays} {ending}")
    elif drive.yards < 0:
        yards = n_("{count} yard", "{count} yards", -drive.yards).format(count=-drive.yards)
        # Translators: "the Hawks lost 3 yards in 3 plays and punted".
        words = _("the {team} lost {yards} in {plays} {ending}")
    else:
        yards = ""
        # Translators: "the Hawks gained nothing in 3 plays and punted".
        words = _("the {team} gained nothing in {plays} {ending}")
    return words.format(team=team, yards=yards, plays=plays, ending=ending)


def _down(down: Down) -> str:
    if down.goal_to_go:
        # Translators: the down a play was run on: "3rd and goal".
        return _("{down} and goal").format(down=down_ordinal(down.number))
    # Translators: the down a play was run on: "3rd and 9" (9 yards to go).
    return _("{down} and {distance}").format(down=down_ordinal(down.number),
                                             distance=down.distance)


def turning_words(play: DrivePlay, names: Names) -> str:
    """ "The game turned on the Deep Pass for 38 yards by the Hawks on 3rd and 9." """
    team, call, down = names.of(play.offense), _(card_name(play.call)), _down(play.down)
    if play.result is PlayResult.INTERCEPTION:
        # Translators: {call} is the pass picked off ("Deep Pass"); {down} is "3rd and 9".
        return _("The game turned on an interception: the {call} the {team} threw on "
                 "{down}.").format(team=team, call=call, down=down)
    # Translators: "The game turned on the Deep Pass for 38 yards by the Hawks on 3rd and 9."
    return _("The game turned on the {call} for {yards} yards by the {team} on "
             "{down}.").format(
        team=team, yards=play.yards, call=call, down=down)


def told_story(summary: GameSummary, names: Names, telling: Telling) -> str:
    """What is said after the final score: each drive was told as it ended, so normal says
    only the play the game turned on, short nothing, and detailed the whole story."""
    if telling.explanations:
        return story_words(summary, names)
    turn = summary.turning_play()
    return turning_words(turn, names) if turn is not None and not telling.brief else ""


def story_words(summary: GameSummary, names: Names) -> str:
    """The whole story, as the record keeps it: the drives, then the play it turned on."""
    turn = summary.turning_play()
    drives = summary.drives
    told = "; ".join(drive_words(drive, names) for drive in drives[:TOLD_DRIVES])
    sentence = told[:1].upper() + told[1:]
    if len(drives) > TOLD_DRIVES:
        more = len(drives) - TOLD_DRIVES
        # Translators: after the first drives are told, how many more overtime took.
        sentence += "; " + n_("then {count} more drive", "then {count} more drives",
                              more).format(count=more)
    words = [sentence + "." if sentence else ""]
    if turn is not None:
        words.append(turning_words(turn, names))
    return " ".join(word for word in words if word)
