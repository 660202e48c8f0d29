"""Playing a friend: hosting or joining a table, typing its code, and waiting for the friend."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from ...audio.protocols import Category
from ...language import N_, _, n_
from ...net.news import NearbyTable
from ...wire.protocol import CODE_DIGITS, MAX_CHAT, MAX_PASSWORD
from ..keys.keymap import Command
from ..words.table import mute_choice_words, table_words
from .base import Host, Screen, buttons
from .menu import Group, Item, ItemKind, Menu
from .series_setup import SeriesScreen
from .welcome import NamingScreen, TypingScreen


class FriendScreen(Screen):
    """Host a table, or join one; Escape goes back to the title screen."""

    help_key = "friend"

    def __init__(self, host: Host) -> None:
        menu = Menu(_("Play a friend"), [Group(_("Play a friend"), buttons(
            [(_("Host a table"), self.host_one), (_("Join a table"), self.join_one),
             (_("Host a series"), self.host_series),
             (_("Back"), self.back)]))])
        super().__init__(host, menu)

    def prompt(self) -> str:
        return _("Play a friend on another computer: host a table and tell them its code, or "
                 "join theirs.")

    def host_one(self) -> None:
        self.host.push(NamingScreen(self.host, on_named=self.host.friends.host_table))

    def host_series(self) -> None:
        def chosen(best_of: int, replay_ties: bool) -> None:
            self.host.push(NamingScreen(self.host, on_named=partial(
                self.host.friends.host_table, best_of=best_of, replay_ties=replay_ties)))

        self.host.push(SeriesScreen(self.host, at_table=chosen))

    def join_one(self) -> None:
        def named(name: str) -> None:
            if self.host.friends.needs_address():  # the home network: list what is announced there
                self.host.friends.look_nearby(name)
            else:
                self.host.push(CodeScreen(self.host, name))

        self.host.push(NamingScreen(self.host, on_named=named))

    def back(self) -> None:
        self.host.start()

    def on_escape(self) -> bool:
        self.back()
        return True


class CodeScreen(TypingScreen):
    """Typing the table's code (and, with no table server set, the host's address)."""

    help_key = "table_code"
    limit = 64

    def __init__(self, host: Host, name: str, code: str | None = None) -> None:
        self.name = name
        self.code = code  # typed already: now the address is being typed
        super().__init__(host)

    @property
    def asks_address(self) -> bool:
        return self.code is not None

    def accepts(self, char: str) -> bool:
        if self.asks_address:
            return char.isprintable() and not char.isspace()
        return char.isdigit() or char == " "

    def _build(self) -> Menu:
        title = _("The host's address") if self.asks_address else _("Table code")
        return Menu(_("Join a table"), [Group(title, [Item(self.text or "", ItemKind.TEXT)])])

    def prompt(self) -> str:
        if self.asks_address:
            # Translators: {activate} is a key, as "Enter".
            return self.fill(_("The host's address, as their game says it, such as "
                                         "192.168.1.20:8765: type it and press {activate}."))
        # Translators: {digits} is how many digits a table code has (6); {activate} is a key,
        # as "Enter".
        return self.fill(n_("The table code, {digits} digit: type it and press "
                                      "{activate}.",
                                      "The table code, {digits} digits: type it and press "
                                      "{activate}.", CODE_DIGITS), digits=CODE_DIGITS)

    def empty_words(self) -> str:
        return _("Nothing to remove; nothing is typed.")

    def on_escape(self) -> bool:
        """The address goes back to its code; the code to Play a friend (below it, the name
        it was opened with has been taken already)."""
        if self.asks_address:
            self.host.pop()
        else:
            self.host.play_friend()
        return True

    def confirm(self) -> None:
        typed = "".join(self.text.split())
        if self.asks_address:
            if not typed:
                self.host.cue("menu_error")
                self.host.say(_("Type the host's address first."), category=Category.MENU)
                return
            assert self.code is not None
            self.host.friends.join_table(self.name, self.code, typed)
            return
        if len(typed) != CODE_DIGITS:
            self.host.cue("menu_error")
            # Translators: {digits} is the code's length (6), {typed} how many were typed.
            self.host.say(n_("A table code has {digits} digits; you typed {typed}.",
                             "A table code has {digits} digits; you typed {typed}.",
                             len(typed)).format(digits=CODE_DIGITS, typed=len(typed)),
                          category=Category.MENU)
            return
        if self.host.friends.needs_address():
            self.host.push(CodeScreen(self.host, self.name, typed))
            return
        self.host.friends.join_table(self.name, typed, None)


class PasswordScreen(TypingScreen):
    """Joining a table that has a password: type it, and Enter joins again with it."""

    help_key = "join_password"
    limit = MAX_PASSWORD

    def __init__(self, host: Host, on_typed: Callable[[str], None]) -> None:
        self.on_typed = on_typed
        super().__init__(host)

    def _build(self) -> Menu:
        return Menu(_("Join a table"), [Group(_("Table password"),
                                              [Item(self.text, ItemKind.TEXT)])])

    def prompt(self) -> str:
        # Translators: {activate} and {back} are keys, as "Enter" and "Escape".
        return self.fill(_("The table's password: type it and press {activate}. "
                                     "{back} goes back."))

    def empty_words(self) -> str:
        return _("Nothing to remove; nothing is typed.")

    def confirm(self) -> None:
        if not self.text.strip():
            self.host.cue("menu_error")
            # Translators: {back} is a key, as "Escape".
            self.host.say(self.fill(_("Type the password first, or press {back}.")),
                          category=Category.MENU)
            return
        self.on_typed(self.text.strip())

    def on_escape(self) -> bool:
        self.host.play_friend()
        return True


class TableWaitScreen(Screen):
    """Waiting at a table: for the server, for the friend to join, or for the friend's choice
    during a game. Review keys work as on any screen; before the game Escape leaves the
    table, as its button does (docs/playing.md); in the game it asks to quit, as on every
    decision (the SPEC's keys)."""

    help_key = "table_wait"

    def __init__(self, host: Host, words: str, in_game: bool = False,
                 watching: bool = False) -> None:
        """`watching`: a spectator's screen, for the whole game: Escape stops watching."""
        self.words = words
        self.in_game = in_game and not watching
        label = _("Concede the game") if self.in_game else _("Leave the table")
        if watching:
            label = _("Stop watching")
            self.help_key = "watching"  # a spectator's own F1, not a seat's
        action = host.ask_concede if self.in_game else host.friends.leave
        menu = Menu(words, [Group(_("Waiting"), [Item(words, ItemKind.TEXT),
                                                 *buttons([(label, action)])])])
        super().__init__(host, menu)

    def prompt(self) -> str:
        return self.words

    def focus_words(self) -> str:
        return ""

    def confirm(self) -> None:
        self.host.say(self.words, category=Category.MENU)

    def on_escape(self) -> bool:
        if self.in_game:
            return False  # the quit question
        self.host.friends.leave()  # it used to ask to quit the whole game instead
        return True


# Translators: the quick chat lines, offered with Up and Down on the chat line.
QUICK_LINES = (N_("Good luck!"), N_("Nice play!"), N_("Give me a minute."), N_("Good game!"))


class ChatScreen(TypingScreen):
    """A line to the friend: type it, or step through the quick lines with Up and Down;
    Enter sends it, Escape goes back without sending."""

    help_key = "chat"
    limit = MAX_CHAT

    def __init__(self, host: Host, lobby: bool = False, gallery: bool = False,
                 mute: str = "") -> None:
        """`lobby`: to everyone in the online lobby; `gallery`: to the others watching a
        game; else to the other seat, whose team `mute` names: after the quick lines, Up and
        Down offer to mute its chat (or hear it again) for the session."""
        self.quick = -1  # the quick line shown, or -1 for typed text
        self.lobby, self.gallery, self.mute = lobby, gallery, mute
        super().__init__(host)

    def _choices(self) -> list[str]:
        lines = [_(line) for line in QUICK_LINES]
        if self.mute:
            lines.append(mute_choice_words(self.mute, self.host.online.is_muted(self.mute)))
        return lines

    def _build(self) -> Menu:
        return Menu(_("Chat"), [Group(_("Your message"), [Item(self.text, ItemKind.TEXT)])])

    def prompt(self) -> str:
        if self.gallery:
            # Translators: names in braces are keys: {activate} and {back} as "Enter" and
            # "Escape".
            return self.fill(_("Message to the others watching: type it and press "
                               "{activate}. {back} goes back."))
        if self.lobby:
            # Translators: names in braces are keys: {activate} and {back} as "Enter" and
            # "Escape".
            return self.fill(_("Message to everyone in the lobby: type it and press "
                               "{activate}. {back} goes back."))
        # Translators: names in braces are keys: {previous_item}, {next_item}, {activate} and
        # {back} as "Up", "Down", "Enter" and "Escape".
        return self.fill(_("Message to your friend: type it, or {previous_item} and "
                                     "{next_item} for a quick one, and press {activate}. "
                                     "{back} goes back."))

    def empty_words(self) -> str:
        return _("Nothing to remove; nothing is typed.")

    def on_command(self, command: Command) -> bool:
        steps = {Command.PREVIOUS_ITEM: -1, Command.NEXT_ITEM: 1}
        if command in steps:
            choices, step = self._choices(), steps[command]
            if self.quick < 0:  # from the typed line: Down to the first, Up to the last
                self.quick = 0 if step > 0 else len(choices) - 1
            else:
                self.quick = (self.quick + step) % len(choices)
            self.text = choices[self.quick]
            self._refresh()
            self.host.say(self.text, category=Category.ECHO)
            return True
        return super().on_command(command)

    def confirm(self) -> None:
        text = " ".join(self.text.split())
        if self.mute and self.quick == len(QUICK_LINES) and text == self._choices()[-1]:
            self.host.pop(announce=False)  # the mute entry: not a line to send
            self.host.online.mute(self.mute, team=True)
            return
        if not text:
            self.host.cue("menu_error")
            # Translators: {back} is a key, as "Escape".
            self.host.say(self.fill(_("Type a message first, or press {back}.")),
                          category=Category.MENU)
            return
        self.host.pop(announce=False)
        self.host.friends.send_chat(text)

    def on_escape(self) -> bool:
        self.host.pop(announce=False)
        self.host.say(_("Not sent."), category=Category.MENU)
        return True


class NearbyScreen(Screen):
    """Joining with no table server set: the tables open on the home network, found as they
    are announced, and a way to type a code and an address instead."""

    help_key = "nearby"

    def __init__(self, host: Host, name: str) -> None:
        self.name = name
        self.tables: list[NearbyTable] = []
        super().__init__(host, self._build())

    def _build(self) -> Menu:
        items = [Item(table_words(table), ItemKind.BUTTON, press=self._joiner(table))
                 for table in self.tables]
        if not items:
            items = [Item(_("Looking for tables nearby..."), ItemKind.TEXT)]
        items += buttons([(_("Type a code and an address"), self.type_one)])
        return Menu(_("Join a table"), [Group(_("Tables nearby"), items)])

    def _joiner(self, table: NearbyTable) -> Callable[[], None]:
        return lambda: self.host.friends.join_table(self.name, table.code, table.address)

    def prompt(self) -> str:
        return _("Tables open on your home network are listed here as they are found; choose "
                 "one, or type a code and an address.")

    def type_one(self) -> None:
        self.host.push(CodeScreen(self.host, self.name))

    def on_escape(self) -> bool:
        """Back to Play a friend (the looking stops once the list is gone: `Friends.tick`)."""
        self.host.play_friend()
        return True

    def found(self, tables: list[NearbyTable]) -> None:
        """The tables found so far: new ones are said, and the list keeps its focus."""
        new = [table for table in tables if table not in self.tables]
        focus = self.menu.group.focus
        self.tables = tables
        self.menu = self._build()
        self.menu.group.focus = min(focus, len(self.menu.group.items) - 1)
        for table in new:
            # Translators: {table} is a table found nearby ("the Hawks' table, 47 29 31").
            self.host.say(_("Found {table}.").format(table=table_words(table)),
                          interrupt=False, category=Category.NOTICE)
