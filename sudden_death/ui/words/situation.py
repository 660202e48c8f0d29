"""Where the game stands: what S says, what a side needs on the last drive, and the final result."""

from __future__ import annotations

from ...engine.field import GOAL_LINE, LAST_DRIVE, is_last_drive, is_overtime
from ...engine.game import EXTRA_POINT_POINTS, FIELD_GOAL_POINTS, TOUCHDOWN_POINTS
from ...engine.state import GameEnd, GameState, Outcome, Team
from ...language import N_, _
from .phrases import Names, down_words, score_words
from .variety import Variety, choose

_SCORES = (
    # Translators: what a team needs, as in "You need a field goal to tie, a touchdown to win."
    (FIELD_GOAL_POINTS, N_("a field goal")),
    # Translators: what a team needs, as in "You need a touchdown to win."
    (TOUCHDOWN_POINTS, N_("a touchdown")),
    # Translators: what a team needs, as in "You need a touchdown and the extra point to win."
    (TOUCHDOWN_POINTS + EXTRA_POINT_POINTS, N_("a touchdown and the extra point")),
)


def needs_words(state: GameState, names: Names) -> str:
    """On the last drive: what the team with the ball needs to tie or win ("" otherwise)."""
    if (not is_last_drive(state.drive, state.overtime) or state.offense is None
            or state.outcome is not None):
        return ""
    offense = state.offense
    you = names.is_mine(offense)
    team = names.of(offense)
    behind = state.scores[offense.other] - state.scores[offense]
    if behind < 0:
        if you:
            return _("You need nothing more: a stop or any score still wins.")
        return _("The {team} need nothing more: a stop or any score still wins.").format(
            team=team)
    if behind == 0 and state.overtime:
        if you:
            return _("You need any score to win; without one the game goes on.")
        return _("The {team} need any score to win; without one the game goes on.").format(
            team=team)
    if behind == 0:
        if you:
            return _("You need any score to win; without one it's a tie.")
        return _("The {team} need any score to win; without one it's a tie.").format(team=team)
    tie = next((_(words) for points, words in _SCORES if points == behind), "")
    win = next((_(words) for points, words in _SCORES if points > behind), "")
    if tie and win:
        if you:
            # Translators: {tie} and {win} are scores such as "a field goal" or "a touchdown".
            return _("You need {tie} to tie, {win} to win.").format(tie=tie, win=win)
        # Translators: {tie} and {win} are scores such as "a field goal" or "a touchdown".
        return _("The {team} need {tie} to tie, {win} to win.").format(
            team=team, tie=tie, win=win)
    if win:
        if you:
            # Translators: {win} is a score such as "a field goal" or "a touchdown".
            return _("You need {win} to win.").format(win=win)
        # Translators: {win} is a score such as "a field goal" or "a touchdown".
        return _("The {team} need {win} to win.").format(team=team, win=win)
    if you:
        # Translators: {tie} is a score such as "a touchdown and the extra point".
        return _("You need {tie} just to tie; nothing wins it.").format(tie=tie)
    # Translators: {tie} is a score such as "a touchdown and the extra point".
    return _("The {team} need {tie} just to tie; nothing wins it.").format(team=team, tie=tie)


def situation_words(state: GameState, names: Names) -> str:
    """What S says: the score, the drive, who has the ball, the down, and what is needed."""
    words = [_("Score: {score}.").format(score=score_words(state.scores, names))]
    if state.outcome is not None:
        words.append(_("The game is over."))
        return " ".join(words)
    if state.offense is None:
        words.append(_("The game has not kicked off yet."))
        return " ".join(words)
    if names.watching:
        # Translators: a spectator's S: the drive ({drive} of {drives}) and who has the ball
        # follows ("Hawks ball, ...").
        words.append(_("Drive {drive} of {drives}.").format(drive=state.drive,
                                                             drives=LAST_DRIVE)
                     if not is_overtime(state.drive)
                     else _("Overtime, drive {drive}.").format(drive=state.drive))
    elif is_overtime(state.drive):
        words.append((_("Overtime, drive {drive}, you are on offense.")
                      if state.offense is names.you else
                      _("Overtime, drive {drive}, you are on defense.")).format(
                          drive=state.drive))
    elif state.offense is names.you:
        words.append(_("Drive {drive} of {drives}, you are on offense.").format(
            drive=state.drive, drives=LAST_DRIVE))
    else:
        words.append(_("Drive {drive} of {drives}, you are on defense.").format(
            drive=state.drive, drives=LAST_DRIVE))
    if state.down is not None:
        # Translators: who has the ball and the down: "Hawks ball, 2nd and 7 at your own 31."
        words.append(_("{team} ball, {down}.").format(
            team=names.of(state.offense),
            down=down_words(state.down, state.offense, names.viewer)))
    needs = needs_words(state, names)
    if needs:
        words.append(needs)
    return " ".join(words)


def outcome_words(outcome: Outcome, names: Names, variety: Variety | None = None,
                  brief: bool = False) -> str:
    """The game-over message; it always begins with "Final score". The call on the winner
    varies like a broadcast's when `variety` is given (never at short verbosity)."""
    words = [_("Final score: {score}.").format(score=score_words(outcome.scores, names))]
    if outcome.end is GameEnd.CONCEDED:
        loser = outcome.winner.other if outcome.winner is not None else names.you
        words.append(_("The {team} conceded.").format(team=names.of(loser)))
    elif outcome.end is GameEnd.SAFETY:
        words.append(_("It ended on a safety."))
    if outcome.winner is None:
        words.append(choose(variety, brief, "final_tie", [
            _("It ends in a tie."),
            # Translators: the game ends level, called like a radio broadcast.
            _("Nobody wins this one: it ends in a tie."),
            _("All square at the end: a tie."),
            _("Dead even: it ends in a tie."),
        ]))
    elif names.watching:
        words.append(_("The {team} win it!").format(team=names.of(outcome.winner)))
    elif outcome.winner is names.you:
        words.append(choose(variety, brief, "final_won", [
            _("The {team} win it!"),
            # Translators: the player's team wins, called like a radio broadcast.
            _("That's the ballgame! The {team} win it!"),
            _("The {team} take it!"),
            _("Victory for the {team}!"),
        ]).format(team=names.mine))
    else:
        words.append(choose(variety, brief, "final_lost", [
            _("The {team} hold on and win."),
            # Translators: the other team wins, called like a radio broadcast.
            _("That's the ballgame: the {team} win it."),
            _("The {team} take this one."),
            _("It goes to the {team}."),
        ]).format(team=names.theirs))
    return " ".join(words)


def concede_words(names: Names) -> str:
    """The question before a concession: the desktop game's confirmation, the page's too."""
    return _("Concede the game? The {away} would win.").format(away=names.theirs)


def human_spots(state: GameState, you: Team) -> tuple[int, int, bool] | None:
    """(ball, first-down marker, you have the ball), counted from the player's own goal line
    (`you` is the player's team) as the window and the field tone show them; None when no
    down is being played."""
    if state.down is None or state.offense is None:
        return None
    mine = state.offense is you
    if mine:
        return state.down.line, state.down.marker, True
    return GOAL_LINE - state.down.line, GOAL_LINE - state.down.marker, False



def saved_game_words(state: GameState, names: Names) -> str:
    """A saved game, for the title screen: "Hawks 7, Bears 3; Bears ball, 3rd and 4 at your
    30"."""
    score = score_words(state.scores, names)
    if state.offense is None or state.down is None:
        return score
    # Translators: a saved game: {score} is "Hawks 7, Bears 3", {team} who has the ball and
    # {down} the down ("3rd and 4 at your 30").
    return _("{score}; {team} ball, {down}").format(
        score=score, team=names.of(state.offense),
        down=down_words(state.down, state.offense, names.viewer))


def damaged_save_words(aside: str) -> str:
    # Translators: {file} is the name the unreadable save was given in the settings folder.
    return _("The saved game could not be read, so it cannot go on. It is kept as {file} in "
             "the settings folder.").format(file=aside)
