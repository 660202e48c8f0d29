"""Both hands as the window shows them after the reveal, until the play's result.

The ear hears each reveal once; a sighted helper (or a player with some sight) looking at the
window should see the same cards for as long as they matter: the player's hand and the other
team's, with a card they brought in marked. Each line is given in pieces (a card's name is
one), so the window never breaks a name across two lines.
"""

from __future__ import annotations

from collections.abc import Mapping

from ...engine.actions import held_hand
from ...engine.card_model import Card
from ...engine.cards import card_name
from ...engine.state import GameState, Hand, Phase, Team
from ...language import _
from .phrases import Names

SHOWN_IN = (Phase.SUBSTITUTION, Phase.FINAL_CALL)  # keep or replace, bring in, final call


def shown_hands(state: GameState, names: Names,
                brought_in: Mapping[Team, Card]) -> list[tuple[str, ...]]:
    """The lines of both hands, the player's first; [] when no hand is on the table."""
    if state.phase not in SHOWN_IN:
        return []
    lines = []
    for team, heading in ((names.you, _("Your hand:")),
                          # Translators: the other team's hand, shown in the window after
                          # the reveal: {team} is its name ("Bears:").
                          (names.you.other, _("{team}:").format(team=names.of(names.you.other)))):
        hand = held_hand(state, team)
        if hand is not None:
            lines.append((heading, *_pieces(hand, brought_in.get(team))))
    return lines


def _pieces(hand: Hand, new: Card | None) -> list[str]:
    """ "Power Back," "Scatback;" "Inside Run," ... with the card brought in marked."""
    def named(card: Card) -> str:
        text = _(card_name(card))
        # Translators: a card the team brought in at the substitution, in the window's hands.
        return _("{card} (brought in)").format(card=text) if card == new else text

    players = [named(card) for card in hand.players]
    calls = [named(card) for card in hand.calls]
    return ([f"{name}," for name in players[:-1]] + [f"{players[-1]};"]
            + [f"{name}," for name in calls[:-1]] + [calls[-1]])
