"""The decisions of a game that are one choice each: the coin, the side, fourth down, the final
call, and game over."""

from __future__ import annotations

from typing import cast

from ...engine.actions import Action, CallCoin, ChooseSide, ChooseSnap, PickFinal
from ...engine.card_model import DefCall, OffCall, Role
from ...engine.cards import card_name
from ...engine.state import CoinFace, Hand, Side, SnapChoice
from ...language import _
from ..words.kicks import KickOption
from .base import ConfirmScreen, Host, Screen, buttons
from .menu import Group, Item, ItemKind, Menu


def concede_group() -> Group:
    return Group(_("Concede"), [Item(_("Concede the game"), ItemKind.BUTTON, "concede")])


class CoinScreen(Screen):
    help_key = "coin"

    def __init__(self, host: Host) -> None:
        menu = Menu(_("Coin toss"), [Group(_("Call the coin"), buttons(
            [(_("Heads"), CallCoin(CoinFace.HEADS)), (_("Tails"), CallCoin(CoinFace.TAILS))]))])
        super().__init__(host, menu)

    def prompt(self) -> str:
        return _("Coin toss: heads or tails?")

    def focus_words(self) -> str:
        return self.menu.describe(entering=True)

    def on_button(self, item: Item) -> None:
        self.host.act(cast("Action", item.value))  # the button holds its action


class SideScreen(Screen):
    help_key = "side"

    def __init__(self, host: Host) -> None:
        menu = Menu(_("Offense or defense"), [Group(_("Start on"), buttons(
            [(_("Offense: take the ball first"), ChooseSide(Side.OFFENSE)),
             (_("Defense: defend first"), ChooseSide(Side.DEFENSE))]))])
        super().__init__(host, menu)

    def prompt(self) -> str:
        return _("Take the ball first, or defend first?")

    def focus_words(self) -> str:
        return self.menu.describe(entering=True)

    def on_button(self, item: Item) -> None:
        self.host.act(cast("Action", item.value))  # the button holds its action


class DecisionScreen(Screen):
    """A decision during play: Concede comes first, focus starts on the real choice.

    `full` asks for the whole explanation (the first time in a drive, or at detailed verbosity);
    otherwise the prompt is a few words and the focus, since the player has heard it before.
    """

    def __init__(self, host: Host, menu: Menu, full: bool = True) -> None:
        menu.groups.insert(0, concede_group())
        menu.focus_group(1)
        self.full = full
        super().__init__(host, menu)

    def on_button(self, item: Item) -> None:
        if item.value == "concede":
            self.host.ask_concede()
            return
        self.choose(item)

    def choose(self, item: Item) -> None:
        self.host.act(cast("Action", item.value))  # the button holds its action


Kicks = dict[SnapChoice, KickOption]


def kick_items(kicks: Kicks) -> list[Item]:
    """The punt and the field goal, each labelled with what it would do."""
    return [Item(kick.label, ItemKind.BUTTON, choice, enabled=kick.available,
                 reason=kick.reason) for choice, kick in kicks.items()]


def kick(host: Host, kicks: Kicks, choice: SnapChoice) -> None:
    """Kick now, or first ask when the kick would end the game with the player sure to lose."""
    kick = kicks[choice]
    if kick.confirm:
        host.push(ConfirmScreen(host, kick.confirm, lambda: host.act(ChooseSnap(choice)),
                                yes=_("Yes, kick")))
    else:
        host.act(ChooseSnap(choice))


class SnapScreen(DecisionScreen):
    """Fourth down on offense: go for it, or a kick whose label says what it would do. (On the
    other downs the kicks wait at the end of the card screen, so no key is spent on them.)"""

    help_key = "snap"

    def __init__(self, host: Host, kicks: Kicks, fourth: str, full: bool = True) -> None:
        self.kicks = kicks
        items = [Item(_("Go for it"), ItemKind.BUTTON, ChooseSnap(SnapChoice.PLAY)),
                 *kick_items(kicks)]
        self.fourth = fourth  # the field goal in one clause
        super().__init__(host, Menu(_("Fourth down"), [Group(_("Fourth down"), items)]), full)

    def prompt(self) -> str:
        if self.full:
            # Translators: {field_goal} is one clause: "a 35 yard field goal is likely" or
            # "too far for a field goal".
            words = _("Fourth down: go for it with your cards, punt, or try a field goal. Down "
                      "arrow to a kick to hear where it lands or its chance; {field_goal}.")
        else:
            # Translators: {field_goal} is one clause: "a 35 yard field goal is likely" or
            # "too far for a field goal".
            words = _("Fourth down, {field_goal}.")
        return words.format(field_goal=self.fourth)

    def focus_words(self) -> str:
        return self.menu.describe(entering=True)

    def choose(self, item: Item) -> None:
        if item.value in self.kicks:
            kick(self.host, self.kicks, item.value)  # type: ignore[arg-type]
        else:
            self.host.act(cast("Action", item.value))  # the button holds its action


class FinalCallScreen(DecisionScreen):
    help_key = "final"

    def __init__(self, host: Host, role: Role, hand: Hand, full: bool = True) -> None:
        items = [Item(_(card_name(call)), ItemKind.BUTTON, call) for call in hand.calls]
        super().__init__(host, Menu(_("Final call"), [Group(_("Your final call"), items)]), full)

    def choose(self, item: Item) -> None:
        self.host.act(PickFinal(cast("OffCall | DefCall", item.value)))

    def prompt(self) -> str:
        if self.full:
            return _("Final call: which of your three calls is the play?")
        return _("Final call?")

    def focus_words(self) -> str:
        return self.menu.describe(entering=True)


class GameOverScreen(Screen):
    help_key = "game_over"

    def __init__(self, host: Host, summary: str) -> None:
        self.summary = summary
        menu = Menu(_("Game over"), [Group(_("What next"), buttons(
            [(_("Play again"), "again"), (_("Quit"), "quit")]))])
        super().__init__(host, menu)

    def prompt(self) -> str:
        return _("Play again or quit?")

    def focus_words(self) -> str:
        return self.menu.describe(entering=True)

    def on_button(self, item: Item) -> None:
        if item.value == "again":
            self.host.play_again()
        else:
            self.host.ask_quit()

