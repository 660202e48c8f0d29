"""Typing a table server's address for the settings: checked before it is kept, so a game
never tries to reach an address that cannot be one."""

from __future__ import annotations

from collections.abc import Callable

from ...audio.protocols import Category
from ...language import _
from ...settings import server_address
from ..screens.base import Host
from ..screens.menu import Group, Item, ItemKind, Menu
from ..screens.welcome import TypingScreen


class ServerAddressScreen(TypingScreen):
    """The address line: Enter keeps what is typed (nothing typed: no server, so Host a table
    serves on this computer again); Escape keeps the address as it was."""

    help_key = "table_server"
    limit = 200

    def __init__(self, host: Host, current: str, on_typed: Callable[[str], None]) -> None:
        self.current = current
        self.on_typed = on_typed
        super().__init__(host)

    def accepts(self, char: str) -> bool:
        return char.isprintable() and not char.isspace()

    def _build(self) -> Menu:
        return Menu(_("Table server"), [Group(_("Address"), [Item(self.text, ItemKind.TEXT)])])

    def prompt(self) -> str:
        if self.current:
            # Translators: {address} is the table server set now.
            kept = _("Escape keeps {address}.").format(address=self.current)
        else:
            kept = _("Escape keeps none.")
        # Translators: {kept} says what Escape keeps ("Escape keeps wss://example.org.").
        return _("A table server's address, such as wss://tables.example.org or "
                 "192.168.1.20:8765: type it and press Enter. Enter with nothing typed sets "
                 "none, and Host a table serves on this computer. {kept}").format(kept=kept)

    def empty_words(self) -> str:
        return _("Nothing to remove; nothing is typed.")

    def confirm(self) -> None:
        if not self.text:
            self.host.pop(announce=False)
            self.on_typed("")
            return
        address = server_address(self.text)
        if address is None:
            self.host.cue("menu_error")
            # Translators: {typed} is what the player typed for a table server's address.
            self.host.say(_("{typed} is not a table server's address; it looks like "
                            "wss://tables.example.org or 192.168.1.20:8765. Type it again, or "
                            "press Escape.").format(typed=self.text), category=Category.MENU)
            return
        self.host.pop(announce=False)
        self.on_typed(address)

    def on_escape(self) -> bool:
        self.host.pop(announce=False)
        self.host.say(_("The table server is unchanged."), category=Category.MENU)
        return True
