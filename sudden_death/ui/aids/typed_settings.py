"""Settings that are typed rather than stepped: a table server's address and a table password.
Each is checked before it is kept, so a game never tries an address that cannot be one or
offers a password no friend could type."""

from __future__ import annotations

from collections.abc import Callable

from ...audio.protocols import Category
from ...language import _
from ...storage.settings import server_address, table_password
from ..screens.base import Host
from ..screens.menu import Group, Item, ItemKind, Menu
from ..screens.welcome import TypingScreen


class TypedSetting(TypingScreen):
    """A line to type a setting into: Enter keeps what is typed (checked by `checked`;
    nothing typed sets none), Escape keeps the setting as it was."""

    limit = 200

    def __init__(self, host: Host, current: str, on_typed: Callable[[str], None]) -> None:
        self.current = current
        self.on_typed = on_typed
        super().__init__(host)

    def heading(self) -> str:
        raise NotImplementedError

    def checked(self, typed: str) -> str | None:
        raise NotImplementedError

    def refusal(self, typed: str) -> str:
        raise NotImplementedError

    def unchanged(self) -> str:
        raise NotImplementedError

    def _build(self) -> Menu:
        heading = self.heading()
        return Menu(heading, [Group(heading, [Item(self.text, ItemKind.TEXT)])])

    def kept_words(self) -> str:
        if self.current:
            # Translators: {value} is the setting as it is now (an address or a password);
            # {back} is a key, as "Escape".
            return self.fill(_("{back} keeps {value}."), value=self.current)
        # Translators: {back} is a key, as "Escape".
        return self.fill(_("{back} keeps none."))

    def empty_words(self) -> str:
        return _("Nothing to remove; nothing is typed.")

    def confirm(self) -> None:
        value = self.checked(self.text) if self.text else ""
        if value is None:
            self.host.cue("menu_error")
            self.host.say(self.refusal(self.text), category=Category.MENU)
            return
        self.host.pop(announce=False)
        self.on_typed(value)

    def on_escape(self) -> bool:
        self.host.pop(announce=False)
        self.host.say(self.unchanged(), category=Category.MENU)
        return True


class ServerAddressScreen(TypedSetting):
    """The table server's address: nothing typed means none, and Host a table serves on this
    computer again."""

    help_key = "table_server"

    def heading(self) -> str:
        return _("Table server")

    def accepts(self, char: str) -> bool:
        return char.isprintable() and not char.isspace()

    def checked(self, typed: str) -> str | None:
        return server_address(typed)

    def prompt(self) -> str:
        # Translators: {activate} is a key, as "Enter"; {kept} says what the key that goes
        # back keeps ("Escape keeps wss://example.org.").
        return self.fill(_("A table server's address, such as wss://tables.example.org "
                                     "or 192.168.1.20:8765: type it and press {activate}. "
                                     "{activate} with nothing typed sets none, and Host a table "
                                     "serves on this computer. {kept}"), kept=self.kept_words())

    def refusal(self, typed: str) -> str:
        # Translators: {typed} is what the player typed for a table server's address; {back}
        # is a key, as "Escape".
        return self.fill(_("{typed} is not a table server's address; it looks like "
                                     "wss://tables.example.org or 192.168.1.20:8765. Type it "
                                     "again, or press {back}."), typed=typed)

    def unchanged(self) -> str:
        return _("The table server is unchanged.")


class PasswordSettingScreen(TypedSetting):
    """The password a friend must give to join a table this player hosts (none: anyone with
    the code may join)."""

    help_key = "table_password"
    limit = 64

    def heading(self) -> str:
        return _("Table password")

    def checked(self, typed: str) -> str | None:
        return table_password(typed)

    def prompt(self) -> str:
        # Translators: {activate} is a key, as "Enter"; {kept} says what the key that goes
        # back keeps ("Escape keeps blue 42.").
        return self.fill(_("A password your friend types to join a table you host: "
                                     "type it and press {activate}. {activate} with nothing "
                                     "typed sets none, so the code alone joins. {kept}"),
                                   kept=self.kept_words())

    def refusal(self, typed: str) -> str:
        # Translators: {back} is a key, as "Escape".
        return self.fill(_("A table password is made of characters you can type. "
                                     "Type it again, or press {back}."))

    def unchanged(self) -> str:
        return _("The table password is unchanged.")
