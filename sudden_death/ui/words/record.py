"""Your record in words: the standing against each opponent, and each past game in a line."""

from __future__ import annotations

from datetime import datetime

from ...engine.state import Team
from ...language import N_, _, n_
from ...storage.record import Opponent, PastGame, Result, Standing
from .phrases import Names, score_words

MONTHS = (N_("January"), N_("February"), N_("March"), N_("April"), N_("May"), N_("June"),
          N_("July"), N_("August"), N_("September"), N_("October"), N_("November"),
          N_("December"))


def _against(opponent: Opponent, team: str) -> str:
    if opponent is Opponent.COACH:
        # Translators: a record's heading; {team} is the computer's team, coached ("Bears").
        return _("Against the coached {team}").format(team=team)
    if opponent is Opponent.FRIEND:
        # Translators: a record's heading; {team} is a friend's team at a table ("Eagles").
        return _("Against your friend's {team}").format(team=team)
    # Translators: a record's heading; {team} is the rules' computer's team ("Bears").
    return _("Against the computer's {team}").format(team=team)


def _streak(result: Result, count: int) -> str:
    if result is Result.WIN:
        return n_("won the last game", "won the last {count} in a row", count).format(
            count=count)
    if result is Result.LOSS:
        return n_("lost the last game", "lost the last {count} in a row", count).format(
            count=count)
    return n_("tied the last game", "tied the last {count} in a row", count).format(
        count=count)


def standing_words(standing: Standing) -> str:
    """ "Against the coached Bears: 3 wins, 1 loss, 0 ties; won the last 2 in a row. Biggest
    win 21 to 7. Your longest play: 38 yards." """
    counts = ", ".join((
        n_("{count} win", "{count} wins", standing.wins).format(count=standing.wins),
        n_("{count} loss", "{count} losses", standing.losses).format(count=standing.losses),
        n_("{count} tie", "{count} ties", standing.ties).format(count=standing.ties)))
    # Translators: {against} is "Against the coached Bears"; {counts} "3 wins, 1 loss, 0
    # ties"; {streak} "won the last 2 in a row".
    words = [_("{against}: {counts}; {streak}.").format(
        against=_against(standing.opponent, standing.team), counts=counts,
        streak=_streak(standing.streak, standing.streak_length))]
    if standing.biggest_win is not None:
        won = standing.biggest_win
        # Translators: the biggest win's score, the player's points first: "21 to 7".
        words.append(_("Biggest win {mine} to {theirs}.").format(
            mine=won.your_score, theirs=won.their_score))
    if standing.longest > 0:
        words.append(n_("Your longest play: {count} yard.", "Your longest play: {count} yards.",
                        standing.longest).format(count=standing.longest))
    return " ".join(words)


def when_words(played_at: str) -> str:
    """ "December 1, 21:40" from the ISO time kept; the text itself if it does not read."""
    try:
        moment = datetime.fromisoformat(played_at)
    except ValueError:
        return played_at
    # Translators: when a game was played: {month} is the month's name, {day} its number,
    # {time} as 21:40.
    return _("{month} {day}, {time}").format(month=_(MONTHS[moment.month - 1]),
                                             day=moment.day, time=moment.strftime("%H:%M"))


def past_game_words(game: PastGame) -> str:
    """ "December 1, 21:40: Hawks 14, Bears 7, a win against the coach." """
    score = score_words((game.your_score, game.their_score) if game.you is Team.HOME
                        else (game.their_score, game.your_score),
                        Names(game.home, game.away, game.you))
    results = {
        (Result.WIN, Opponent.COMPUTER): _("a win against the computer"),
        (Result.WIN, Opponent.COACH): _("a win against the coach"),
        (Result.WIN, Opponent.FRIEND): _("a win against a friend"),
        (Result.LOSS, Opponent.COMPUTER): _("a loss to the computer"),
        (Result.LOSS, Opponent.COACH): _("a loss to the coach"),
        (Result.LOSS, Opponent.FRIEND): _("a loss to a friend"),
        (Result.TIE, Opponent.COMPUTER): _("a tie with the computer"),
        (Result.TIE, Opponent.COACH): _("a tie with the coach"),
        (Result.TIE, Opponent.FRIEND): _("a tie with a friend"),
    }
    # Translators: {when} is "December 1, 21:40"; {score} "Hawks 14, Bears 7"; {result} "a
    # win against the coach".
    return _("{when}: {score}, {result}.").format(
        when=when_words(game.played_at), score=score, result=results[game.result,
                                                                      game.opponent])


def games_count_words(count: int) -> str:
    return n_("{count} game", "{count} games", count).format(count=count)
