"""Before a game: the title screen and naming the teams."""

from __future__ import annotations

from collections.abc import Callable

from ...audio.protocols import Category
from ...language import N_, _, p_
from ...wire.names import same_name
from ..keys.keymap import Command, Context
from ..words.report import report_item
from .base import Extra, Host, Screen, buttons
from .menu import Group, Item, ItemKind, Menu

# The team names Enter takes when none is typed (translated where they are used).
# Translators: the player's team's name when none is typed (a nickname, said "the Hawks").
DEFAULT_HOME = N_("Hawks")
# Translators: the computer team's name when none is typed (a nickname, said "the Bears").
DEFAULT_AWAY = N_("Bears")


def other_default(name: str) -> str:
    """A default name for the other team that is not `name`: the Bears, or the Hawks when
    the first team is already the Bears."""
    return next(other for other in (_(DEFAULT_AWAY), _(DEFAULT_HOME))
                if not same_name(other, name))


class WelcomeScreen(Screen):
    help_key = "welcome"

    def __init__(self, host: Host, back_to: str = "", in_progress: str = "",
                 series: str = "", again: bool = False) -> None:
        """`back_to`: the friend's team at a table this game was playing when it last ended
        without leaving (a crash): then the first choice goes back to that table.
        `in_progress`: a saved game against the computer, in words: the first choice
        resumes it. `series`: a kept series with no game in progress, in words: the first
        choice plays its next game. `again`: the welcome was heard already in this run, so
        the screen is named in two words, not welcomed in full again (F1 still has it)."""
        self.again = again
        back = [(_("Back to your table with the {theirs}").format(theirs=back_to),
                 host.friends.resume_table)] if back_to else []
        if in_progress:
            # Translators: {game} is the saved game: "Hawks 7, Bears 3; Bears ball, 3rd and 4
            # at your 30".
            back.insert(0, (_("Resume your game: {game}").format(game=in_progress),
                            host.keeper.resume_game))
        elif series:
            # Translators: {series} is the kept series: "Hawks 1, Bears 0, best of 3".
            back.insert(0, (_("Resume your series: {series}").format(series=series),
                            host.keeper.go_on_with_series))
        menu = Menu(_("Welcome"), [Group(_("Main menu"), buttons(
            [*back, (_("Start a game"), host.keeper.start_naming),
             (_("Guided first drive"), lambda: host.open_extra(Extra.LESSON)),
             (_("How to play"), lambda: host.open_extra(Extra.RULES)),
             (_("Sounds of the game"), lambda: host.open_extra(Extra.SOUNDS)),
             (_("Settings"), lambda: host.open_extra(Extra.SETTINGS)),
             (_("Play a series"), host.keeper.open_series),
             (_("Your record"), host.keeper.open_record),
             (_("Play online"), host.online.open),
             (_("Your rating"), host.online.rating),
             # Above Play a friend: End, Up is Play a friend, as it always was.
             (report_item(), lambda: host.open_extra(Extra.REPORT)),
             (_("Play a friend"), host.play_friend),
             (_("Quit"), host.ask_quit)]))])
        super().__init__(host, menu)

    def prompt(self) -> str:
        if self.again:
            # Translators: back on the title screen, after the welcome was heard once.
            return _("Title screen.")
        # Translators: {help} is a key, as "F1".
        return self.host.keys.fill(_(
            "Welcome to Sudden Death, an American football card game you play by ear. "
            "You and the computer get one drive each; every down you pick players and calls. "
            "Press {help} for help at any time."
        ))


class TypingScreen(Screen):
    """A line to type into: each character is echoed, Backspace says what it removed, Enter
    confirms. Subclasses say what the line is for (`_build`, `prompt`) and what Enter does."""

    key_context = Context.TYPING
    takes_text = True
    limit = 24

    def __init__(self, host: Host) -> None:
        self.text = ""
        self.host = host  # before `_build`: its words may name a key
        super().__init__(host, self._build())

    def _build(self) -> Menu:
        raise NotImplementedError

    def fill(self, text: str, **values: object) -> str:
        """`text` with its keys named as they work here: a key that types a letter is not
        named for a command, since here it types (keymap.KeyMap.names)."""
        return self.host.keys.fill(text, typing=True, **values)

    def accepts(self, char: str) -> bool:
        return char.isprintable()

    def focus_words(self) -> str:
        return ""  # the prompt says it all; the text line is empty

    def intro(self) -> str:
        return self.prompt()

    def _refresh(self) -> None:
        self.menu = self._build()

    def handle_text(self, text: str) -> bool:
        for char in text:
            if not self.accepts(char) or len(self.text) >= self.limit:
                self.host.cue("menu_error")
                continue
            self.text += char
            self.host.say(_space_or(char), category=Category.ECHO)
        self._refresh()
        return True

    def on_command(self, command: Command) -> bool:
        if command is Command.ERASE:
            if not self.text:
                self.host.say(self.empty_words(), category=Category.ECHO)
                self.host.cue("menu_edge")
            else:
                removed, self.text = self.text[-1], self.text[:-1]
                # Translators: Backspace removed a typed character (or "space").
                self.host.say(_("Removed {character}.").format(character=_space_or(removed)),
                              category=Category.ECHO)
            self._refresh()
            return True
        if command is Command.ACTIVATE:
            self.confirm()
            return True
        return False  # letters arrive as text input: takes_text keeps them from acting

    def empty_words(self) -> str:
        return _("Nothing to remove; the name is empty.")


class NamingScreen(TypingScreen):
    """Typing both team names (or only the player's, for a table: `on_named` then takes it)."""

    help_key = "naming"

    def __init__(self, host: Host, on_named: Callable[[str], None] | None = None) -> None:
        self.names: list[str] = []
        self.on_named = on_named
        super().__init__(host)

    def on_escape(self) -> bool:
        """Back a step, not the quit question (the game has not begun): to the list this was
        opened from (Play a friend, a table's series), or from Start a game to the title."""
        if self.on_named is not None:  # pushed over the list that asked for the name
            self.host.pop()
        else:  # the whole stack (Start a game, a series against the computer)
            self.host.start()
        return True

    def _prompt(self) -> str:
        return _("Your team's name") if not self.names else _("The computer team's name")

    def _default(self) -> str:
        return _(DEFAULT_HOME) if not self.names else other_default(self.names[0])

    def _build(self) -> Menu:
        # Translators: shown in the empty name field; {name} is the default team name;
        # {activate} is a key, as "Enter".
        shown = self.text or self.fill(_("(empty: {activate} takes {name})"),
                                                 name=self._default())
        return Menu(_("Name the teams"), [Group(self._prompt(), [Item(shown, ItemKind.TEXT)])])

    def prompt(self) -> str:
        if not self.names:
            # Translators: {name} is the default team name, taken when nothing is typed;
            # {activate} is a key, as "Enter".
            words = _("Your team's name: type it and press {activate}. Leave it empty for "
                      "{name}.")
        else:
            # Translators: {name} is the default team name, taken when nothing is typed;
            # {activate} is a key, as "Enter".
            words = _("The computer team's name: type it and press {activate}. Leave it empty "
                      "for {name}.")
        return self.fill(words, name=self._default())

    def confirm(self) -> None:
        name = self.text.strip()
        typed = bool(name)
        name = name or self._default()
        if self.names and same_name(name, self.names[0]):
            self.host.cue("menu_error")
            # Translators: the computer team's name would be the player's own ({name}).
            self.host.say(_("{name} is your team's name. Type another for the computer's "
                            "team.").format(name=self.names[0]), category=Category.MENU)
            self.text = ""
            self._refresh()
            return
        if not typed:
            self.host.say(_("No name typed, so the default: {name}.").format(name=name),
                          category=Category.ECHO, interrupt=True)
        else:
            self.host.say(_("Name set: {name}.").format(name=name), category=Category.ECHO)
        self.names.append(name)
        self.text = ""
        if self.on_named is not None:
            self.on_named(name)
            return
        if len(self.names) == 2:
            self.host.names_chosen(self.names[0], self.names[1])
            return
        self._refresh()
        self.host.say(self.prompt(), interrupt=False, category=Category.DECISION)


def _space_or(char: str) -> str:
    """A typed character as it is echoed: the space is said as a word."""
    # Translators: the space bar's character, echoed as the player types a team name.
    return p_("typed character", "space") if char == " " else char

