"""Words about playing online: the lobby's tables, games and players, what changed in it,
signing in, and a player's place on the ladder."""

from __future__ import annotations

from ...language import _, join_words, n_, p_
from ...wire import protocol as p


def open_table_words(table: p.OpenTable) -> str:
    """'The Hawks' table, waiting for a player, best of 3'."""
    if table.best_of > 1:
        # Translators: a lobby table: {team} is the host's team, {games} the series' length.
        return _("The {team}' table, waiting for a player, best of {games}").format(
            team=table.host, games=table.best_of)
    # Translators: a lobby table: {team} is the host's team ("The Hawks' table, waiting...").
    return _("The {team}' table, waiting for a player").format(team=table.host)


def game_players_words(game: p.GamePlayed) -> str:
    """Who plays a lobby game: "Anna against Ben" by the players' names where they have one
    (else the team's), so two quick games of the Hawks and the Bears sound apart."""
    home, away = (game.players if len(game.players) == 2 else ["", ""])
    # Translators: who plays a game in the lobby: players' names, or teams ("Anna against Ben").
    return _("{home} against {away}").format(home=home or game.names[0],
                                             away=away or game.names[1])


def game_played_words(game: p.GamePlayed, watch_key: str = "") -> str:
    """'Anna against Ben: Hawks 7, Bears 3, drive 2; 2 watching. Enter watches.': who plays
    and what both seats have heard already; before the kick-off, no drive 0. `watch_key`:
    the key that watches it, said last."""
    home, away = game.names
    if game.drive:
        # Translators: a game in the lobby: both teams and their scores, and which drive it is
        # in.
        words = _("{home} {home_score}, {away} {away_score}, drive {drive}").format(
            home=home, away=away, home_score=game.scores[0], away_score=game.scores[1],
            drive=game.drive)
    else:
        # Translators: a game in the lobby that has not reached its kick-off yet.
        words = _("{home} and {away}, before the kick-off").format(home=home, away=away)
    if any(game.players):
        # Translators: a game in the lobby: {players} is who plays it ("Anna against Ben"),
        # {game} its teams and score.
        words = _("{players}: {game}").format(players=game_players_words(game), game=words)
    if game.watching:
        # Translators: after a lobby game: how many people watch it.
        words += "; " + n_("{count} watching", "{count} watching",
                           game.watching).format(count=game.watching)
    if watch_key:
        # Translators: after a game in the lobby: {key} (as "Enter") watches it.
        words += ". " + _("{key} watches.").format(key=watch_key)
    return words


def here_words(names: list[str], me: str) -> str:
    """Who else is in the lobby, by name; the player's own name left out."""
    others = [name for name in names if name != me]
    if not others:
        return _("Nobody else is in the lobby.")
    # Translators: the players in the lobby besides you: {names} is "Anna, Ben and Cleo".
    return n_("Here: {names}.", "Here: {names}.", len(others)).format(
        names=join_words(others))


def person_words(name: str, muted: bool) -> str:
    """A player in the lobby, as the list reads them ("Ben", or "Ben, chat muted")."""
    if muted:
        # Translators: a player in the lobby whose chat lines the player has muted.
        return _("{name}, chat muted").format(name=name)
    return name


def muted_words(name: str, muted: bool, team: bool = False) -> str:
    if team and muted:
        # Translators: the other team's chat at a table is no longer read.
        return _("The {team}' chat is muted for this session.").format(team=name)
    if team:
        return _("The {team}' chat is heard again.").format(team=name)
    if muted:
        # Translators: Enter on a player in the lobby: their chat is no longer read.
        return _("{name}'s chat muted for this session.").format(name=name)
    # Translators: Enter again on a muted player in the lobby.
    return _("{name}'s chat is heard again.").format(name=name)


def lobby_news_words(before: p.LobbyList, now: p.LobbyList) -> str:
    """What changed in the lobby, in one short line ('' for nothing worth a word): a game
    begun, a table opened or gone. Who came and went is left to the list: a busy lobby's
    comings would be a stream."""
    was = {table.code for table in before.tables}
    opened = [table for table in now.tables if table.code not in was]
    played = {game.code for game in before.games}
    begun = [game for game in now.games if game.code not in played]
    # A table that filled is a game begun, not a table gone.
    gone = len(was - {table.code for table in now.tables} - {game.code for game in begun})
    parts = []
    if len(begun) == 1:
        # Translators: a game just began in the lobby: {players} is who plays it ("Anna
        # against Ben").
        parts.append(_("A game began: {players}.").format(players=game_players_words(begun[0])))
    elif begun:
        parts.append(n_("{count} game began.", "{count} games began.",
                        len(begun)).format(count=len(begun)))
    if len(opened) == 1:
        # Translators: a table just opened in the lobby: {team} is its host's team.
        parts.append(_("New table: the {team}'.").format(team=opened[0].host))
    elif opened:
        parts.append(n_("{count} new table.", "{count} new tables.",
                        len(opened)).format(count=len(opened)))
    if gone:
        parts.append(n_("{count} table gone.", "{count} tables gone.",
                        gone).format(count=gone))
    return " ".join(parts)


def signed_in_words(name: str) -> str:
    # Translators: the server took the player's name ({name}).
    return _("Signed in as {name}.").format(name=name)


def standing_words(standing: p.Standing) -> list[str]:
    """Your rating, as lines to read one by one: the rating and rank, the last results, the
    neighbours on the ladder."""
    if not standing.of:
        return [_("No rated game yet. Finish a game against another signed-in player to be "
                  "rated.")]
    # Translators: {rating} is a number such as 1540; {rank} is an ordinal ("12th"), {of}
    # how many players are rated.
    lines = [_("Your rating: {rating}, {rank} of {of}.").format(
        rating=standing.rating, rank=rank_words(standing.rank), of=standing.of)]
    if standing.recent:
        results = [_result_words(opponent, score) for opponent, score in standing.recent]
        # Translators: the player's last results, newest first: "a win against Ben, ...".
        lines.append(_("Last games, newest first: {results}.").format(
            results=join_words(results)))
    if standing.above:
        # Translators: the player just above the player on the ladder.
        lines.append(_("Just above you: {name}.").format(name=standing.above))
    if standing.below:
        # Translators: the player just below the player on the ladder.
        lines.append(_("Just below you: {name}.").format(name=standing.below))
    return lines


def _result_words(opponent: str, score: float) -> str:
    if score >= 1:
        # Translators: one of the last results: a win against {name}.
        return _("a win against {name}").format(name=opponent)
    if score <= 0:
        # Translators: one of the last results: a loss to {name}.
        return _("a loss to {name}").format(name=opponent)
    # Translators: one of the last results: a tie with {name}.
    return _("a tie with {name}").format(name=opponent)


def rank_words(number: int) -> str:
    """A place on the ladder: "1st", "12th", "23rd" (the suffix by English's rule; another
    language gives each of the four its own form, such as "12.º")."""
    if number % 100 in (11, 12, 13) or number % 10 not in (1, 2, 3):
        # Translators: a place on the ladder ending in th: "12th", "25th".
        form = p_("rank", "{number}th")
    elif number % 10 == 1:
        # Translators: a place on the ladder ending in st: "1st", "21st".
        form = p_("rank", "{number}st")
    elif number % 10 == 2:
        # Translators: a place on the ladder ending in nd: "2nd", "22nd".
        form = p_("rank", "{number}nd")
    else:
        # Translators: a place on the ladder ending in rd: "3rd", "23rd".
        form = p_("rank", "{number}rd")
    return form.format(number=number)
