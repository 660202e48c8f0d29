"""The computers a player can meet, as said after "Opponent: ": one table for the desktop's
settings and the browser page's start form, so both name them alike; and the coach as a game
against it begins."""

from __future__ import annotations

from ...language import N_, _

# The choices as spoken after "Opponent: " (N_: translated where spoken); keyed by the engine's
# computer names (engine/computers.py).
COMPUTER_WORDS = {
    "random": N_("the rules' computer, picking at random"),
    "coach": N_("the coach, who knows the tables"),
}


def coached_words(away: str, explained: bool) -> str:
    """Said as a game against the coach begins: what "coached" means the first time in a
    session (until `explained`), and from then on only who is coached."""
    if explained:
        # Translators: {away} is the computer team's name ("the Bears"): its computer
        # plays like a coach today rather than at random.
        return _("The {away} are coached today.").format(away=away)
    # Translators: {away} is the computer team's name ("the Bears"); said the first
    # time the coach plays in a session.
    return _("The {away} are coached today: their coach knows the card tables and picks what "
             "they favour, where the rules' computer picks at random.").format(away=away)
