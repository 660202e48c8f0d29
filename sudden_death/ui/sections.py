"""The review sections H and Shift+H step through: each a read-only list to arrow through.

Section 0 is the current decision itself; the others are built fresh from what the player may
know (only revealed computer cards), so they never leak the computer's committed choice.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import events as ev
from ..engine.card_model import DefCall, OffCall, Player, Role
from ..engine.cards import calls_for, card_name, players_for
from ..engine.state import Hand, Swap, SwapKind, Team
from .game_words import HUMAN, hand_words
from .menu import Group, Item, ItemKind, Menu
from .narration import card_label

SECTION_NAMES = ("Current decision", "Computer calls", "Rosters", "Game log")

Card = OffCall | DefCall | Player


class ComputerCalls:
    """What the computer has shown this game: its latest cards (each one a card, so D reads
    it) and every reveal, swap and final call in order."""

    def __init__(self) -> None:
        self.cards: list[tuple[Card, str]] = []  # (card, "player" / "call" / "final call")
        self.moves: list[str] = []

    def note(self, events: Sequence[ev.Event], offense: Team | None, away: str) -> None:
        """Record only what the events reveal of the computer's cards."""
        for event in events:
            if isinstance(event, ev.DriveStarted):
                offense = event.offense
            computer_offense = offense is not HUMAN
            if isinstance(event, ev.HandsRevealed):
                hand = event.offense if computer_offense else event.defense
                swap = event.offense_swap if computer_offense else event.defense_swap
                self._show(hand)
                if event.step == 1:
                    self.moves.append(f"{away} show {hand_words(hand)}")
                else:
                    self.moves.append(_swap_move(swap, away))
            elif isinstance(event, ev.FinalCallsRevealed):
                call = event.offense_call if computer_offense else event.defense_call
                self.cards = [(card, note) for card, note in self.cards if card != call]
                self.cards.append((call, "final call"))
                self.moves.append(f"{away} final call: {card_name(call)}")

    def _show(self, hand: Hand) -> None:
        self.cards = [(card, card_label(card)[1]) for card in (*hand.players, *hand.calls)]


def _swap_move(swap: Swap | None, away: str) -> str:
    if swap is None or swap.kind is SwapKind.KEEP or swap.out is None or swap.into is None:
        return f"{away} keep their cards"
    return f"{away} bring in {card_name(swap.into)} for {card_name(swap.out)}"


def _text_items(lines: Sequence[str], empty: str) -> list[Item]:
    return [Item(line, ItemKind.TEXT) for line in lines] or [Item(empty, ItemKind.TEXT)]


def computer_calls_menu(computer: ComputerCalls) -> Menu:
    """Their latest cards first (D works on each), then their moves, newest focused."""
    cards = [Item(card_name(card), ItemKind.TEXT, card, note=note)
             for card, note in computer.cards] or [Item("Nothing revealed yet", ItemKind.TEXT)]
    moves = Group("Their moves", _text_items(computer.moves, "No moves yet"))
    moves.focus = len(moves.items) - 1
    return Menu("Computer calls", [Group("Their cards", cards), moves])


def game_log_menu(lines: Sequence[str]) -> Menu:
    group = Group("Game log", _text_items(lines, "Nothing has happened yet"))
    group.focus = len(group.items) - 1
    return Menu("Game log", [group])


def rosters_menu(your_role: Role | None, home: str, away: str) -> Menu:
    """Both teams' cards for this down's sides (offense cards first before the kickoff)."""
    mine = your_role or Role.OFFENSE
    theirs = Role.DEFENSE if mine is Role.OFFENSE else Role.OFFENSE
    groups = []
    for team, role in ((home, mine), (away, theirs)):
        items = []
        for card in (*players_for(role), *calls_for(role)):
            label, kind = card_label(card)
            items.append(Item(label, ItemKind.TEXT, card, note=f"{role.value} {kind}"))
        groups.append(Group(f"{team}, {role.value}", items))
    return Menu("Rosters", groups)


def intro(name: str, menu: Menu) -> str:
    """What H says on arriving: the section's name and the focus, with no menu chatter. A one-list
    section says how many entries it holds; a section of several lists names the focused one."""
    if len(menu.groups) == 1:
        count = len(menu.group.items)
        return f"{name}, {count} {'entry' if count == 1 else 'entries'}: {menu.describe()}"
    return f"{name}. {menu.describe_group()}"
