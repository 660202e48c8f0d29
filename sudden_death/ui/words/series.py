"""A series in words: its score after each game, and on the title screen."""

from __future__ import annotations

from ...engine.series import Series
from ...engine.state import Team
from ...language import _, n_
from .phrases import Names


def series_score_words(series: Series, names: Names) -> str:
    """ "The Hawks lead the series 2 games to 1." or the series' end."""
    mine, theirs = series.wins(names.you), series.wins(names.you.other)
    leader = names.mine if mine > theirs else names.theirs
    high, low = max(mine, theirs), min(mine, theirs)
    words = []
    if series.replay_ties and series.results and series.results[-1] is None:
        words.append(_("A tied game does not count: it is played again."))
    if series.winner is not None:
        # Translators: the series is won: "The Hawks win the series 2 games to 1!"
        words.append(n_("The {team} win the series {won} game to {lost}!",
                        "The {team} win the series {won} games to {lost}!", high).format(
            team=names.of(series.winner), won=high, lost=low))
    elif series.over:
        words.append(n_("The series ends level, {count} game each.",
                        "The series ends level, {count} games each.", mine).format(count=mine))
    elif mine == theirs:
        words.append(n_("The series is level at {count} game each.",
                        "The series is level at {count} games each.", mine).format(count=mine))
    else:
        # Translators: "The Hawks lead the series 2 games to 1."
        words.append(n_("The {team} lead the series {won} game to {lost}.",
                        "The {team} lead the series {won} games to {lost}.", high).format(
            team=leader, won=high, lost=low))
    return " ".join(words)


def series_title_words(series: Series) -> str:
    """ "Hawks 1, Bears 0, best of 3": the series to resume, for the title screen."""
    # Translators: a series to resume: "Hawks 1, Bears 0, best of 3" (games won).
    return _("{home} {home_wins}, {away} {away_wins}, best of {count}").format(
        home=series.home, away=series.away, home_wins=series.wins(Team.HOME),
        away_wins=series.wins(Team.AWAY), count=series.best_of)


def table_series_words(series: Series) -> str:
    """At a table, as a game of its series begins: "A series, best of 3; a tied game is
    played again." for the first, "Game 2 of the series." after."""
    if series.results:
        return _("Game {number} of the series.").format(number=series.next_game)
    if series.replay_ties:
        return _("A series, best of {count}; a tied game is played again.").format(
            count=series.best_of)
    return _("A series, best of {count}; a tied game counts.").format(count=series.best_of)
