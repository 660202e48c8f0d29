"""The review sections H and Shift+H step through: each a read-only list to arrow through.

Section 0 is the current decision itself; the others are built fresh from what the player may
know (only revealed computer cards), so they never leak the computer's committed choice.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.card_model import Role
from ..engine.cards import calls_for, players_for
from .menu import Group, Item, ItemKind, Menu
from .narration import card_label

SECTION_NAMES = ("Current decision", "Computer calls", "Rosters", "Game log")


def _text_items(lines: Sequence[str], empty: str) -> list[Item]:
    return [Item(line, ItemKind.TEXT) for line in lines] or [Item(empty, ItemKind.TEXT)]


def computer_calls_menu(lines: Sequence[str]) -> Menu:
    group = Group("Computer calls", _text_items(lines, "Nothing revealed yet"))
    group.focus = len(group.items) - 1
    return Menu("Computer calls", [group])


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
