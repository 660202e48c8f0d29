"""Playing online: the server's address, your name and password, the lobby, your rating."""

from __future__ import annotations

from collections.abc import Callable

from ...audio.protocols import Category
from ...language import _
from ...wire import protocol as p
from ...wire.names import spaced
from ..keys.keymap import Command
from ..words.online import game_played_words, here_words, open_table_words, person_words
from .base import Host, Screen, buttons
from .menu import Group, Item, ItemKind, Menu
from .welcome import TypingScreen

MIN_PASSWORD = 6  # as the server asks (server/stores/accounts.py), said before a line is used


class ServerScreen(TypingScreen):
    """No table server set: type its address (kept in Settings for next time)."""

    help_key = "online_server"
    limit = 300

    def accepts(self, char: str) -> bool:
        return char.isprintable() and not char.isspace()

    def _build(self) -> Menu:
        return Menu(_("Play online"), [Group(_("The server's address"),
                                             [Item(self.text, ItemKind.TEXT)])])

    def prompt(self) -> str:
        # Translators: {activate} and {back} are keys, as "Enter" and "Escape"; the command
        # "sudden-death --serve" is typed as it is.
        return self.fill(_("No server for playing online is set. Type its address, such as "
                           "example.org:8765, and press {activate}; {back} goes back. "
                           "Anyone can run one with the command sudden-death --serve."))

    def empty_words(self) -> str:
        return _("Nothing to remove; nothing is typed.")

    def confirm(self) -> None:
        self.host.online.server_typed(self.text)

    def on_escape(self) -> bool:
        self.host.start()
        return True


class AccountScreen(Screen):
    """The first time on a server: a new name, one the player has, or none (unrated)."""

    help_key = "online_account"

    def __init__(self, host: Host) -> None:
        online = host.online
        menu = Menu(_("Your name"), [Group(_("Your name on this server"), buttons(
            [(_("A new name"), lambda: host.push(AccountNameScreen(host, new=True))),
             (_("A name I have"), lambda: host.push(AccountNameScreen(host, new=False))),
             (_("Play without a name"), online.without_name),
             (_("Back"), online.leave)]))])
        super().__init__(host, menu)

    def prompt(self) -> str:
        return _("Your name on this server: choose a new one, or sign in with yours. Without "
                 "a name, games are not rated.")

    def on_escape(self) -> bool:
        self.host.online.leave()
        return True


class AccountNameScreen(TypingScreen):
    """The player's name on the server: then the password."""

    help_key = "online_name"

    def __init__(self, host: Host, new: bool, name: str = "") -> None:
        self.new = new
        super().__init__(host)
        self.text = name
        self._refresh()

    def _build(self) -> Menu:
        return Menu(_("Your name"), [Group(_("Your name"), [Item(self.text, ItemKind.TEXT)])])

    def prompt(self) -> str:
        if self.new:
            # Translators: {activate} is a key, as "Enter".
            return self.fill(_("Your new name, as other players will hear it, up to 24 "
                               "characters: type it and press {activate}."))
        # Translators: {activate} is a key, as "Enter".
        return self.fill(_("Your name on this server: type it and press {activate}."))

    def confirm(self) -> None:
        name = spaced(self.text)
        if not name or not name.isprintable():
            self.host.cue("menu_error")
            self.host.say(_("Type your name first."), category=Category.MENU)
            return
        self.host.push(AccountPasswordScreen(self.host, self.new, name))

    def on_escape(self) -> bool:
        self.host.pop()
        return True


class AccountPasswordScreen(TypingScreen):
    """The password: each character is said as it is typed (the player's ear checks it), and
    the window shows only dots, for whoever looks over a shoulder. A new one is typed twice."""

    help_key = "online_password"
    limit = p.MAX_PASSWORD

    def __init__(self, host: Host, new: bool, name: str, first: str = "") -> None:
        self.new, self.name = new, name
        self.first = first  # a new password, typed once already: this is the check
        super().__init__(host)

    def _build(self) -> Menu:
        title = _("The password again") if self.first else _("Password")
        return Menu(_("Your name"), [Group(title, [Item("•" * len(self.text), ItemKind.TEXT)])])

    def prompt(self) -> str:
        if self.first:
            # Translators: {activate} is a key, as "Enter".
            return self.fill(_("Type the same password again and press {activate}."))
        if self.new:
            # Translators: {name} is the new name; {activate} is a key, as "Enter".
            return self.fill(_("A password for {name}, 6 characters or more: type it and "
                               "press {activate}."), name=self.name)
        # Translators: {name} is the player's name; {activate} is a key, as "Enter".
        return self.fill(_("The password for {name}: type it and press {activate}."),
                         name=self.name)

    def empty_words(self) -> str:
        return _("Nothing to remove; nothing is typed.")

    def confirm(self) -> None:
        password = self.text
        if self.new and not self.first and len(password) < MIN_PASSWORD:
            self.host.cue("menu_error")
            # Translators: {count} is the least number of characters a password has (6).
            self.host.say(_("A password has {count} characters or more; type a longer one.")
                          .format(count=MIN_PASSWORD), category=Category.MENU)
            return
        if self.new and not self.first:
            self.host.push(AccountPasswordScreen(self.host, True, self.name, first=password))
            return
        if self.first and password != self.first:
            self.host.cue("menu_error")
            self.host.say(_("The two passwords differ. Type the password again, twice."),
                          category=Category.MENU)
            self.host.pop(announce=False)  # this check, and the first password: both again
            self.host.pop(announce=False)
            self.host.push(AccountPasswordScreen(self.host, True, self.name))
            return
        self.host.online.sign(self.new, self.name, password)

    def on_escape(self) -> bool:
        self.host.pop()
        return True


class LobbyScreen(Screen):
    """The lobby, read aloud: a quick game, a table of your own, the open tables (Enter joins),
    the games being played and who is here. A letter jumps to the next entry that begins
    with it; the list changes as the server tells, keeping the focus where it was."""

    help_key = "lobby"
    takes_text = True  # letters jump

    def __init__(self, host: Host, listing: p.LobbyList, me: str) -> None:
        self.listing, self.me = listing, me
        self.jumps: list[str] = []  # what a letter matches, entry by entry: a team's name
        self.host = host
        super().__init__(host, self._build())

    def _build(self) -> Menu:
        online = self.host.online
        quick, own, leave = _("Quick game"), _("Open a table in the lobby"), _("Leave the lobby")
        chat, computer = _("Chat in the lobby"), _("Play the computer, for all to watch")
        items = buttons([(quick, online.quick), (own, online.open_table),
                         (computer, online.play_computer), (chat, online.chat)])
        jumps = [quick, own, computer, chat]
        for table in self.listing.tables:
            items.append(Item(open_table_words(table), ItemKind.BUTTON,
                              press=self._joiner(table)))
            jumps.append(table.host)
        watch_key = self.host.keys.names(Command.ACTIVATE, typing=True)
        for game in self.listing.games:
            items.append(Item(game_played_words(game, watch_key), ItemKind.BUTTON,
                              press=self._watcher(game)))
            jumps.append(game.players[0] if game.players and game.players[0]
                         else game.names[0])  # the first word heard
        others = [name for name in self.listing.here if name != self.me]
        for name in others:
            items.append(Item(person_words(name, online.is_muted(name)), ItemKind.BUTTON,
                              press=self._muter(name)))
            jumps.append(name)
        if not others:
            items.append(Item(here_words([], self.me), ItemKind.TEXT))
            jumps.append("")
        items += buttons([(leave, online.leave)])
        jumps.append(leave)
        self.jumps = [jump.casefold() for jump in jumps]
        return Menu(_("Lobby"), [Group(_("Lobby"), items)])

    def focus_words(self) -> str:
        return self.menu.describe(entering=True)

    def _joiner(self, table: p.OpenTable) -> Callable[[], None]:
        return lambda: self.host.online.join(table)

    def _watcher(self, game: p.GamePlayed) -> Callable[[], None]:
        return lambda: self.host.online.watch(game)

    def _muter(self, name: str) -> Callable[[], None]:
        def toggle() -> None:
            self.host.online.mute(name)
            self.update(self.listing)  # the entry says muted or not
        return toggle

    def prompt(self) -> str:
        # A busy lobby lists only some of them (protocol.MAX_LISTED_TABLES); the counts are all.
        tables = max(len(self.listing.tables), self.listing.open)
        games = max(len(self.listing.games), self.listing.playing)
        # Translators: the lobby's first words: how many tables wait for a player and how many
        # games are being played.
        return _("Lobby: {tables} open, {games} playing.").format(tables=tables, games=games)

    def update(self, listing: p.LobbyList) -> None:
        """A new list from the server: the focus stays on the entry it was on, if it is
        still there, else at the same place."""
        focused = self.menu.item
        label = focused.label if focused is not None else ""
        index = self.menu.group.focus
        self.listing = listing
        self.menu = self._build()
        labels = [item.label for item in self.menu.group.items]
        # Its entry gone: the same place, but never onto Leave the lobby, the last entry (an
        # Enter meant for a table would leave).
        self.menu.group.focus = labels.index(label) if label in labels else min(
            index, len(labels) - 2)

    def handle_text(self, text: str) -> bool:
        letter = text[:1].casefold()
        if not letter.isalnum():
            return False
        items = self.menu.group.items
        start = self.menu.group.focus
        for step in range(1, len(items) + 1):
            index = (start + step) % len(items)
            if self.jumps[index].startswith(letter):
                feedback = self.menu.pick(index + 1)
                self.host.cue(feedback.cue or "menu_move")
                self.host.say(feedback.text, category=Category.MENU)
                return True
        self.host.cue("menu_edge")
        # Translators: a letter pressed in the lobby that no entry begins with.
        self.host.say(_("Nothing begins with {letter}.").format(letter=text[:1]),
                      category=Category.MENU)
        return True

    def on_command(self, command: Command) -> bool:
        return False

    def confirm(self) -> None:
        """Enter on the one entry that is not a button, "Nobody else is in the lobby.": what
        the list will do, not a hint about buttons."""
        self.host.cue("menu_edge")
        self.host.say(_("Nobody to choose yet: players are listed here as they come, and you "
                        "hear when a table opens or a game begins."), category=Category.MENU)

    def on_escape(self) -> bool:
        self.host.online.leave()
        return True


class RatingScreen(Screen):
    """Your rating: the lines the server's standing makes, one by one; Escape goes back."""

    help_key = "rating"

    def __init__(self, host: Host, lines: list[str]) -> None:
        self.lines = lines
        menu = Menu(_("Your rating"), [Group(_("Your rating"), [
            *(Item(line, ItemKind.TEXT) for line in lines),
            *buttons([(_("Back"), host.start)])])])
        super().__init__(host, menu)

    def prompt(self) -> str:
        return self.lines[0]

    def focus_words(self) -> str:
        return " ".join(self.lines[1:])

    def on_escape(self) -> bool:
        self.host.start()
        return True
