"""What each command is called where keys are chosen (the Keys screen, its refusals and the
notice about saved keys): short, and each unlike the others, so "R is already Repeat" says
which command has it."""

from __future__ import annotations

from ...language import N_, _
from ..keys.keymap import Command

COMMAND_NAMES: dict[Command, str] = {
    # Translators: commands, as the Keys screen lists them ("Repeat: R").
    Command.NEXT_CONTROL: N_("Next control"),
    Command.PREVIOUS_CONTROL: N_("Previous control"),
    Command.PREVIOUS_ITEM: N_("Previous item in a list"),
    Command.NEXT_ITEM: N_("Next item in a list"),
    Command.FIRST_ITEM: N_("First item"),
    Command.LAST_ITEM: N_("Last item"),
    Command.PICK_1: N_("Pick item 1"),
    Command.PICK_2: N_("Pick item 2"),
    Command.PICK_3: N_("Pick item 3"),
    Command.PICK_4: N_("Pick item 4"),
    Command.PICK_5: N_("Pick item 5"),
    Command.PICK_6: N_("Pick item 6"),
    Command.PICK_7: N_("Pick item 7"),
    Command.PICK_8: N_("Pick item 8"),
    Command.PICK_9: N_("Pick item 9"),
    Command.TOGGLE: N_("Check or select"),
    Command.ACTIVATE: N_("Press or confirm"),
    Command.BACK: N_("Back or quit"),
    Command.NEXT_SECTION: N_("Next section"),
    Command.PREVIOUS_SECTION: N_("Previous section"),
    Command.SITUATION: N_("Score and situation"),
    Command.REPEAT: N_("Repeat"),
    Command.WHERE: N_("Where the focus is"),
    Command.LAST_PLAY: N_("Last play in full"),
    Command.LESSON: N_("Pause or resume the lesson"),
    Command.DETAILS: N_("Card details"),
    Command.EXPLORER: N_("Card explorer"),
    Command.MATCHUPS: N_("Matchups"),
    Command.SILENCE: N_("Silence speech"),
    Command.CHAT: N_("Chat at a table"),
    Command.MORE_TIME: N_("More time at a table"),
    Command.HELP: N_("Help"),
    Command.HISTORY_BACK: N_("History: the message before"),
    Command.HISTORY_FORWARD: N_("History: the message after"),
    Command.HISTORY_FIRST: N_("History: the first message"),
    Command.HISTORY_LAST: N_("History: the last message"),
    Command.HISTORY_FILTER: N_("History: next filter"),
    Command.HISTORY_FILTER_BACK: N_("History: previous filter"),
    Command.FIELD_TONE: N_("Field tone"),
    Command.SETTINGS: N_("Settings"),
    Command.SCROLL_UP: N_("Scroll the window's text up"),
    Command.SCROLL_DOWN: N_("Scroll the window's text down"),
    Command.SETTING_LESS: N_("In settings: less"),
    Command.SETTING_MORE: N_("In settings: more"),
    Command.SETTING_LESS_BIG: N_("In settings: much less"),
    Command.SETTING_MORE_BIG: N_("In settings: much more"),
    Command.ERASE: N_("Typing: remove the last letter"),
    Command.RESET_KEY: N_("In Keys: put back a command's own keys"),
}


def command_name(command: Command) -> str:
    """A command's name in the player's language."""
    return _(COMMAND_NAMES[command])


def command_names() -> dict[Command, str]:
    """Every command's name, in the player's language."""
    return {command: _(name) for command, name in COMMAND_NAMES.items()}
