"""The browser seat's own words for moving through a decision by keys, as the desktop game
says them (ui/screens/hands.py): the page's counts and prompts come from the same catalog
entries, so a player who knows one hears the other. Merged into `site.page_words`.
"""

from __future__ import annotations

from ..language import _, p_
from ..ui.words.opponents import COMPUTER_WORDS


def seat_words() -> dict[str, str]:
    """Templates the page fills itself: {count} is a list's picked words ("calls full"),
    {hand} the cards checked again from last down."""
    return {
        # The last list just filled: "calls full. Enter confirms."
        "full_confirm": _("{count}. {activate} confirms.").format(
            count="{count}", activate=p_("key", "Enter")),
        "again_checked": _("Checked from last down: {hand}."),
        # Translators: the browser page's switch that shows, under each card, what it does.
        "show_details": _("Show what each card does"),
        # Translators: the browser page's start form: the name of the computer's team.
        "their_team": _("The computer's team"),
        # Translators: the browser page's start form: which computer to play, as in the
        # desktop's setting "Opponent: ...".
        "opponent": _("Opponent"),
        "opponent_random": _(COMPUTER_WORDS["random"]),
        "opponent_coach": _(COMPUTER_WORDS["coach"]),
    }
