"""The decisions of a game that are one choice each: the coin, the side, fourth down, the final
call, and game over."""

from __future__ import annotations

from collections.abc import Callable

from ...engine.actions import Action, CallCoin, ChooseSide, ChooseSnap, PickFinal
from ...engine.card_model import Role
from ...engine.cards import card_name
from ...engine.state import CoinFace, Hand, Side, SnapChoice
from ...language import _
from ..words.kicks import KickOption
from .base import ConfirmScreen, Host, Screen, buttons
from .menu import Group, Item, ItemKind, Menu


def acting(host: Host, *actions: Action) -> Callable[[], None]:
    """What a button that plays `actions` does when pressed."""
    return lambda: host.act(*actions)


def concede_group(host: Host) -> Group:
    return Group(_("Concede"), [Item(_("Concede the game"), ItemKind.BUTTON,
                                     press=host.ask_concede)], drawn_last=True)


class CoinScreen(Screen):
    help_key = "coin"

    def __init__(self, host: Host) -> None:
        menu = Menu(_("Coin toss"), [Group(_("Call the coin"), buttons(
            [(_("Heads"), acting(host, CallCoin(CoinFace.HEADS))),
             (_("Tails"), acting(host, CallCoin(CoinFace.TAILS)))]))])
        super().__init__(host, menu)

    def prompt(self) -> str:
        return _("Coin toss: heads or tails?")

    def focus_words(self) -> str:
        return self.menu.describe(entering=True)

class SideScreen(Screen):
    help_key = "side"

    def __init__(self, host: Host) -> None:
        menu = Menu(_("Offense or defense"), [Group(_("Start on"), buttons(
            [(_("Offense: take the ball first"), acting(host, ChooseSide(Side.OFFENSE))),
             (_("Defense: defend first"), acting(host, ChooseSide(Side.DEFENSE)))]))])
        super().__init__(host, menu)

    def prompt(self) -> str:
        return _("Take the ball first, or defend first?")

    def focus_words(self) -> str:
        return self.menu.describe(entering=True)

class DecisionScreen(Screen):
    """A decision during play: Concede comes first, focus starts on the real choice.

    `full` asks for the whole explanation (the first time in a game, or with explanations on);
    otherwise the prompt is a few words and the focus, since the player has heard it before.
    """

    def __init__(self, host: Host, menu: Menu, full: bool = True) -> None:
        menu.groups.insert(0, concede_group(host))
        menu.focus_group(1)
        self.full = full
        super().__init__(host, menu)


Kicks = dict[SnapChoice, KickOption]


def kick_items(host: Host, kicks: Kicks) -> list[Item]:
    """The punt and the field goal, each labelled with what it would do."""
    return [Item(option.label, ItemKind.BUTTON, enabled=option.available, reason=option.reason,
                 press=_kicking(host, kicks, choice)) for choice, option in kicks.items()]


def _kicking(host: Host, kicks: Kicks, choice: SnapChoice) -> Callable[[], None]:
    return lambda: kick(host, kicks, choice)


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
        items = [Item(_("Go for it"), ItemKind.BUTTON,
                      press=acting(host, ChooseSnap(SnapChoice.PLAY))),
                 *kick_items(host, kicks)]
        self.fourth = fourth  # the field goal in one clause
        super().__init__(host, Menu(_("Fourth down"), [Group(_("Fourth down"), items)]), full)

    def prompt(self) -> str:
        if self.full:
            # Translators: {field_goal} is one clause: "a 35 yard field goal is likely" or
            # "too far for a field goal"; {next_item} is a key, as "Down".
            words = self.host.keys.fill(_(
                "Fourth down: go for it with your cards, punt, or try a field goal. "
                "{next_item} reaches a kick, to hear where it lands or its chance; {field_goal}."),
                field_goal=self.fourth)
            return words
        else:
            # Translators: {field_goal} is one clause: "a 35 yard field goal is likely" or
            # "too far for a field goal".
            words = _("Fourth down, {field_goal}.")
        return words.format(field_goal=self.fourth)

    def focus_words(self) -> str:
        return self.menu.describe(entering=True)


class FinalCallScreen(DecisionScreen):
    help_key = "final"

    def __init__(self, host: Host, role: Role, hand: Hand, full: bool = True,
                 odds: str = "") -> None:
        """`odds`: on 3rd and 4th down, each call's chance of making the line to gain."""
        items = [Item(_(card_name(call)), ItemKind.BUTTON, card=call,
                      press=acting(host, PickFinal(call))) for call in hand.calls]
        self.odds = odds
        super().__init__(host, Menu(_("Final call"), [Group(_("Your final call"), items)]), full)

    def prompt(self) -> str:
        question = (_("Final call: which of your three calls is the play?") if self.full
                    else _("Final call?"))
        return f"{question} {self.odds}" if self.odds else question

    def focus_words(self) -> str:
        return self.menu.describe(entering=True)


class GameOverScreen(Screen):
    help_key = "game_over"

    def __init__(self, host: Host, summary: str, next_in_series: bool = False,
                 watched: bool = False, online: bool = False) -> None:
        """`next_in_series`: the game was one of a series that goes on: Enter plays the
        next. `watched`: a spectator's game: Enter goes back to the lobby. `online`: a game
        reached from the lobby: Back to the lobby is a choice, and Escape takes it."""
        self.summary = summary
        self.next_in_series = next_in_series
        self.watched = watched
        self.online = online or watched
        again = _("Next game of the series") if next_in_series else _("Play again")
        lobby = (_("Back to the lobby"), host.friends.back_to_lobby)
        choices = [(again, host.play_again)]
        if watched:
            choices = [lobby]
        elif self.online:
            choices.append(lobby)
        menu = Menu(_("Game over"), [Group(_("What next"), buttons(
            [*choices, (_("Quit"), host.quit)]))])  # nothing to lose
        if self.online:
            self.help_key = "game_over_watched" if watched else "game_over_online"
        super().__init__(host, menu)

    def prompt(self) -> str:
        if self.watched:
            return _("Back to the lobby, or quit?")
        if self.online:
            return _("Play again, back to the lobby, or quit?")
        if self.next_in_series:
            return _("The next game of the series, or quit?")
        return _("Play again or quit?")

    def on_escape(self) -> bool:
        """Online, Escape is the way back to the lobby (not Quit's question)."""
        if not self.online:
            return False
        self.host.friends.back_to_lobby()
        return True

    def focus_words(self) -> str:
        return self.menu.describe(entering=True)

