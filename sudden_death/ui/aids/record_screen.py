"""Your record, from the title screen: the standing against each opponent, an export to a
spreadsheet, and every past game, whose story and play-by-play can be heard again."""

from __future__ import annotations

import logging
from functools import partial
from pathlib import Path

from ...audio.protocols import Category
from ...language import _, n_
from ...storage.record import Record, RecordError, standings
from ..keys.keymap import Command
from ..screens.base import Host, Screen
from ..screens.menu import Group, Item, ItemKind, Menu
from ..words.narration import Narrator
from ..words.phrases import Names
from ..words.record import past_game_words, standing_words

LOG = logging.getLogger("sudden_death.record")
EXPORT_NAME = "sudden-death-record.csv"
# The history keys step through a past game's plays as the arrows do.
HISTORY_MOVES = {Command.HISTORY_BACK: -1, Command.HISTORY_FORWARD: 1}


class RecordScreen(Screen):
    """The standings first, then Export, then the games, newest first."""

    help_key = "record"

    def __init__(self, host: Host, record: Record, exports: Path) -> None:
        self.record, self.exports = record, exports
        self.problem = ""
        try:
            games = record.games()
        except RecordError as error:
            LOG.warning("the record could not be read: %s", error)
            games = []
            self.problem = _("Your record could not be read; it is left as it is.")
        self.count = len(games)
        items = [Item(standing_words(standing), ItemKind.TEXT) for standing in standings(games)]
        if games:
            items.append(Item(_("Export the record as a spreadsheet file (CSV)"),
                              press=self.export))
        items += [Item(past_game_words(game).rstrip("."), press=partial(self.open, game.id))
                  for game in games]
        if not items:
            items = [Item(self.problem or _("No games yet. Every game you finish is kept "
                                            "here."), ItemKind.TEXT)]
        self.games = {game.id: game for game in games}
        super().__init__(host, Menu(_("Your record"), [Group(_("Your record"), items)]))

    def intro(self) -> str:
        if not self.count:
            # Translators: the record with no game in it yet; {line} says so.
            return _("Your record. {line}").format(line=self.menu.groups[0].items[0].label)
        return self.host.keys.fill(
            # Translators: {first} is the first line of the record, read after this; names in
            # braces like {activate} are keys: {previous_item}, {next_item} and {activate} as
            # "Up", "Down" and "Enter".
            n_("Your record, {count} game. {previous_item} and {next_item} go through it; "
               "{activate} on a game tells it again. {first}",
               "Your record, {count} games. {previous_item} and {next_item} go through it; "
               "{activate} on a game tells it again. {first}", self.count),
            count=self.count, first=self.menu.describe(entering=True))

    def export(self) -> None:
        target = self.exports / EXPORT_NAME
        try:
            count = self.record.export_csv(target)
        except RecordError as error:
            LOG.warning("the record could not be exported: %s", error)
            self.host.cue("menu_error")
            # Translators: {reason} is the system's reason, which may be in English.
            self.host.say(_("The record could not be exported: {reason}.").format(
                reason=error), category=Category.INFO)
            return
        # Translators: {path} is the whole path of the file written.
        self.host.say(n_("{count} game exported to {path}.", "{count} games exported to "
                         "{path}.", count).format(count=count, path=target),
                      category=Category.INFO)

    def open(self, game_id: int) -> None:
        game = self.games[game_id]
        names = Names(game.home, game.away, game.you)
        lines: list[str] = []
        try:
            narrator = Narrator(names)
            for step in self.record.steps(game_id):
                lines += [line.text for line in narrator.lines(step) if line.text]
        except RecordError as error:
            LOG.warning("a past game's plays do not read: %s", error)
            lines = [_("This game's plays cannot be read by this version of the game.")]
        self.host.push(PastGameScreen(self.host, past_game_words(game), game.story, lines))

    def confirm(self) -> None:
        """Enter on a standing reads it again."""
        self.host.say(self.menu.describe())

    def on_escape(self) -> bool:
        self.host.pop()
        return True


class PastGameScreen(Screen):
    """One past game: its story, then its play-by-play, a line an item."""

    help_key = "past_game"

    def __init__(self, host: Host, title: str, story: str, lines: list[str]) -> None:
        self.title = title
        items = [Item(text, ItemKind.TEXT) for text in [story, *lines] if text]
        super().__init__(host, Menu(title, [Group(_("The game"), items)]))

    def intro(self) -> str:
        # Translators: {game} is "December 1, 21:40: Hawks 14, Bears 7, a win against the
        # coach."; {first} is the story, read after this; names in braces like {back} are
        # keys: {previous_item}, {next_item} and {back} as "Up", "Down" and "Escape".
        return self.host.keys.fill(_("{game} {previous_item} and {next_item}, or the history "
                                     "keys, go through its story and its plays; {back} "
                                     "returns. {first}"),
                                   game=self.title, first=self.menu.describe(entering=True))

    def on_command(self, command: Command) -> bool:
        if command in HISTORY_MOVES:
            feedback = self.menu.move(HISTORY_MOVES[command])
        elif command is Command.HISTORY_FIRST:
            feedback = self.menu.home()
        elif command is Command.HISTORY_LAST:
            feedback = self.menu.end()
        else:
            return False
        if feedback.cue:
            self.host.cue(feedback.cue)
        self.host.say(feedback.text or self.menu.describe())
        return True

    def confirm(self) -> None:
        """Enter reads the focused line again."""
        self.host.say(self.menu.describe())

    def on_escape(self) -> bool:
        self.host.pop()
        return True
