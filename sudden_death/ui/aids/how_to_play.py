"""How to play: the rules read aloud, one short section at a time."""

from __future__ import annotations

from ...language import _, n_
from ..keys.keymap import Command
from ..screens.base import Host, Screen
from ..screens.menu import Group, Item, ItemKind, Menu
from ..words.rules import rules_sections


class RulesScreen(Screen):
    """How to play: one section per item; arrows step through, Enter reads again."""

    help_key = "rules"

    def __init__(self, host: Host) -> None:
        items = [Item(title, ItemKind.TEXT, note=text)
                 for title, text in rules_sections(host.keys)]
        super().__init__(host, Menu(_("How to play"), [Group(_("Sections"), items)]))

    def section_words(self) -> str:
        """ "Title. Text 3 of 12." for the focused section."""
        group = self.menu.group
        item = group.items[group.focus]
        # Translators: a section of the rules: its title, its text, then "3 of 12".
        return _("{title}. {text} {number} of {count}.").format(
            title=item.label, text=item.note, number=group.focus + 1, count=len(group.items))

    def intro(self) -> str:
        count = len(self.menu.group.items)
        return self.host.keys.fill(
            # Translators: {section} is the first section, read after this introduction; names
            # in braces like {activate} are keys: {next_item}, {previous_item}, {activate} and
            # {back} as "Down", "Up", "Enter" and "Escape".
            n_("How to play, {count} short section. {next_item} reads the next, {previous_item} "
               "the one before, {activate} reads it again, {back} returns. {section}",
               "How to play, {count} short sections. {next_item} reads the next, "
               "{previous_item} the one before, {activate} reads it again, {back} returns. "
               "{section}", count), count=count, section=self.section_words())

    def on_command(self, command: Command) -> bool:
        """Every move reads the section it lands on; Enter and Space read it again."""
        if command is Command.PREVIOUS_ITEM:
            cue = self.menu.move(-1).cue
        elif command is Command.NEXT_ITEM:
            cue = self.menu.move(1).cue
        elif command is Command.FIRST_ITEM:
            cue = self.menu.home().cue
        elif command is Command.LAST_ITEM:
            cue = self.menu.end().cue
        elif command in (Command.ACTIVATE, Command.TOGGLE):
            cue = None
        else:
            return False
        if cue == "menu_edge":  # at an end: the edge, and where, not the whole section again
            self.host.cue(cue)
            group = self.menu.group
            # Translators: at the first or last section of the rules: its title and "12 of 12".
            self.host.say(_("{title}, {number} of {count}").format(
                title=group.items[group.focus].label, number=group.focus + 1,
                count=len(group.items)))
            return True
        if cue:
            self.host.cue(cue)
        self.host.say(self.section_words())
        return True

    def on_escape(self) -> bool:
        self.host.pop()
        return True

