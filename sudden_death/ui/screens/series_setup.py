"""Choosing a series against the computer: its length, and whether a tied game is replayed."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from ...engine.series import LENGTHS
from ...language import _
from .base import Host, Screen
from .menu import Group, Item, ItemKind, Menu


class SeriesScreen(Screen):
    """Replay a tied game (a checkbox, off), then one button for each length: Enter on one
    starts the series (the team names come next, as for a game)."""

    help_key = "series"

    def __init__(self, host: Host,
                 at_table: Callable[[int, bool], None] | None = None) -> None:
        """`at_table`: a series hosted at a table, with a friend: what the choice is handed
        to (the host's team name comes next); otherwise against the computer."""
        self.at_table = at_table
        self.replay = Item(_("Replay a tied game"), ItemKind.CHECKBOX)
        lengths = [Item(_("Best of {count}").format(count=count),
                        press=partial(self.start, count)) for count in LENGTHS]
        group = Group(_("Play a series"), [self.replay, *lengths], focus=1)
        super().__init__(host, Menu(_("Play a series"), [group]))

    def prompt(self) -> str:
        if self.at_table is not None:
            return _("A series with your friend at a table: the team that wins most of its "
                     "games wins it. Choose its length; above them, Replay a tied game.")
        return _("A series against the computer: the team that wins most of its games wins "
                 "it. Choose its length; above them, Replay a tied game.")

    def focus_words(self) -> str:
        return self.menu.describe(entering=True)

    def start(self, best_of: int) -> None:
        if self.at_table is not None:
            self.at_table(best_of, self.replay.checked)
            return
        self.host.keeper.start_series(best_of, self.replay.checked)

    def on_escape(self) -> bool:
        if self.at_table is not None:
            self.host.pop()
            return True
        self.host.start()
        return True
