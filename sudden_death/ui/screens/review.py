"""The review sections H and Shift+H step through: each a read-only list to arrow through.

Section 0 is the current decision itself; the others are built fresh from what the player may
know (only revealed computer cards), so they never leak the computer's committed choice.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...engine import events as ev
from ...engine.card_model import Card, Player, Role
from ...engine.cards import calls_for, card_name, players_for
from ...engine.state import Hand, Swap, SwapKind, Team
from ...language import N_, _, n_
from ..words.cards import card_label
from ..words.phrases import Names, hand_words
from .menu import Group, Item, ItemKind, Menu

# Marked for the catalog here; spoken with `_()` where they are used.
SECTION_NAMES = (N_("Current decision"), N_("Computer calls"), N_("Rosters"), N_("Game log"))



def section_name(index: int, opponent: str | None = None) -> str:
    """A section's name as said and shown. At a table the second one names the friend's team
    ("Bears calls"); `opponent` is None against the computer."""
    if index == 1 and opponent is not None:
        # Translators: the review section with what a friend at a table has shown: {team} is
        # their team's name ("Bears calls"), as "Computer calls" against the computer.
        return _("{team} calls").format(team=opponent)
    return _(SECTION_NAMES[index])


class ComputerCalls:
    """What the computer has shown this game: its latest cards (each one a card, so D reads
    it) and every reveal, swap and final call in order."""

    def __init__(self) -> None:
        self.cards: list[tuple[Card, str]] = []  # (card, "player" / "call" / "final call")
        self.moves: list[str] = []

    def note(self, events: Sequence[ev.Event], offense: Team | None, names: Names) -> None:
        """Record only what the events reveal of the computer's cards."""
        away = names.theirs
        for event in events:
            if isinstance(event, ev.DriveStarted):
                offense = event.offense
            computer_offense = offense is not names.you
            if isinstance(event, ev.HandsRevealed):
                hand = event.offense if computer_offense else event.defense
                swap = event.offense_swap if computer_offense else event.defense_swap
                self._show(hand)
                if event.step == 1:
                    # Translators: the computer's team shows its cards; {team} is its name,
                    # {cards} "Power Back, Scatback; Inside Run, Draw Play, Deep Pass".
                    self.moves.append(_("{team} show {cards}").format(team=away,
                                                                      cards=hand_words(hand)))
                else:
                    self.moves.append(_swap_move(swap, away))
            elif isinstance(event, ev.FinalCallsRevealed):
                call = event.offense_call if computer_offense else event.defense_call
                self.cards = [(card, note) for card, note in self.cards if card != call]
                # Translators: the note beside the card the computer played as its final call.
                self.cards.append((call, _("final call")))
                # Translators: {team} is the computer's team; {card} the call it played.
                self.moves.append(_("{team} final call: {card}").format(
                    team=away, card=_(card_name(call))))

    def _show(self, hand: Hand) -> None:
        self.cards = [(card, card_label(card)[1]) for card in (*hand.players, *hand.calls)]


def _swap_move(swap: Swap | None, away: str) -> str:
    if swap is None or swap.kind is SwapKind.KEEP or swap.out is None or swap.into is None:
        # Translators: {team} is the computer's team; it swaps no card.
        return _("{team} keep their cards").format(team=away)
    # Translators: {team} is the computer's team; {new} the card it takes, {old} the one it
    # gives up.
    return _("{team} bring in {new} for {old}").format(
        team=away, new=_(card_name(swap.into)), old=_(card_name(swap.out)))


def _text_items(lines: Sequence[str], empty: str) -> list[Item]:
    return [Item(line, ItemKind.TEXT) for line in lines] or [Item(empty, ItemKind.TEXT)]


def computer_calls_menu(computer: ComputerCalls, opponent: str | None = None) -> Menu:
    """Their latest cards first (D works on each), then their moves, newest focused.
    `opponent`: the friend's team at a table, who names the section."""
    cards = [Item(_(card_name(card)), ItemKind.TEXT, note=note, card=card)
             for card, note in computer.cards] or [Item(_("Nothing revealed yet"), ItemKind.TEXT)]
    moves = Group(_("Their moves"), _text_items(computer.moves, _("No moves yet")))
    moves.focus = len(moves.items) - 1
    return Menu(section_name(1, opponent), [Group(_("Their cards"), cards), moves])


def game_log_menu(lines: Sequence[str]) -> Menu:
    group = Group(_("Game log"), _text_items(lines, _("Nothing has happened yet")))
    group.focus = len(group.items) - 1
    return Menu(_("Game log"), [group])


def _roster_note(role: Role, card: Card) -> str:
    """ "offense player", "defense call": the note beside a card in the rosters."""
    if role is Role.OFFENSE:
        return _("offense player") if isinstance(card, Player) else _("offense call")
    return _("defense player") if isinstance(card, Player) else _("defense call")


def _roster_title(team: str, role: Role) -> str:
    """ "Jets, offense": a team's list in the rosters."""
    if role is Role.OFFENSE:
        # Translators: a roster's title: {team} is a team's name, on offense this down.
        return _("{team}, offense").format(team=team)
    # Translators: a roster's title: {team} is a team's name, on defense this down.
    return _("{team}, defense").format(team=team)


def rosters_menu(your_role: Role | None, home: str, away: str) -> Menu:
    """Both teams' cards for this down's sides (offense cards first before the kickoff)."""
    mine = your_role or Role.OFFENSE
    theirs = Role.DEFENSE if mine is Role.OFFENSE else Role.OFFENSE
    groups = []
    for team, role in ((home, mine), (away, theirs)):
        items = []
        for card in (*players_for(role), *calls_for(role)):
            items.append(Item(_(card_name(card)), ItemKind.TEXT, card=card,
                              note=_roster_note(role, card)))
        groups.append(Group(_roster_title(team, role), items))
    return Menu(_("Rosters"), groups)


def intro(name: str, menu: Menu) -> str:
    """What H says on arriving: the section's name and the focus, with no menu chatter. A one-list
    section says how many entries it holds; a section of several lists names the focused one."""
    if len(menu.groups) == 1:
        count = len(menu.group.items)
        # Translators: arriving at a review section: {section} is its name ("Game log"),
        # {count} how many entries it holds, {focus} the focused entry.
        return n_("{section}, {count} entry: {focus}", "{section}, {count} entries: {focus}",
                  count).format(section=name, count=count, focus=menu.describe())
    # Translators: arriving at a review section: {section} is its name ("Computer calls"),
    # {focus} the focused list and entry.
    return _("{section}. {focus}").format(section=name, focus=menu.describe_group())
