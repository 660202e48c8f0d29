"""A seat's words at a game of two teams: whom it plays, whom it waits for, and what a
spectator watches. Apart from the table's other words (table.py, which reads the table
protocol) because the page's game in the browser says them too, where nothing of the wire is
(web/seat_view.py, issue 74)."""

from __future__ import annotations

from ...language import _
from .phrases import Names


def waiting_words(name: str) -> str:
    # Translators: {name} is the friend's team ("the Bears"), still choosing.
    return _("Waiting for the {name}.").format(name=name)


def paired_words(mine: str, theirs: str, player: str) -> str:
    """Online, as the game begins: the player's team and whom they play, by their name on the
    server when they have one."""
    if player:
        # Translators: online: {mine} is the player's team, {player} the other player's name
        # on the server and {theirs} their team ("You are the Hawks; Ben plays the Bears.").
        return _("You are the {mine}; {player} plays the {theirs}.").format(
            mine=mine, player=player, theirs=theirs)
    # Translators: online: {mine} is the player's team, {theirs} the other player's.
    return _("You are the {mine}, against the {theirs}.").format(mine=mine, theirs=theirs)


def watching_screen_words(names: Names) -> str:
    # Translators: the spectator's screen: {home} and {away} are the teams being watched.
    return _("Watching the {home} and the {away}.").format(home=names.home, away=names.away)
