"""The explorer of play cards and bands: a stack of spoken menus over the game.

Each level is an ordinary `Screen` with a `menu.Menu`, pushed on the app's screen stack, so the
keys, focus and window drawing are the game's own and Escape pops back one level at a time; the
last Escape returns to exactly the control that had focus. Nothing here calls the engine's
game or match: it reads the card tables, `band_stats` and `compute_band` only, so opening,
browsing and closing the explorer can never change the game, its dice or the computer's choice.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

from ...engine.actions import PLAYERS_PER_HAND
from ...engine.card_model import Card, DefCall, OffCall, Player, Role
from ...engine.cards import DEFENSIVE_CALLS, OFFENSIVE_CALLS, PLAYERS, card_name, players_for
from ...engine.resolve import compute_band
from ...language import _, n_
from ..words import cards, numbers
from ..words import explorer as words
from ..words.explorer import Part
from .base import Host, Screen
from .menu import Group, Item, ItemKind, Menu


class ExplorerHost(Host, Protocol):
    """The parts of the app the explorer needs beyond a screen's `Host`."""

    @property
    def stack(self) -> Sequence[Screen]: ...

    def reset_view(self) -> None:
        """Back to the decision itself: no review section, no card details shown."""


def open_explorer(host: ExplorerHost) -> None:
    """E: push the explorer over whatever has focus (a decision, a dialog, the title screen)."""
    if any(isinstance(screen, ExplorerScreen) for screen in host.stack):
        host.cue("menu_edge")
        # Translators: {back} is a key, as "Escape".
        host.say(host.keys.fill(_("The explorer is already open. {back} goes back a level.")))
        return
    host.reset_view()  # leave a review section first: the explorer returns to the decision
    host.push(ExplorerHome(host, host.stack[-1], host))


def _back_item(screen: ExplorerScreen) -> Item:
    return Item(words.back_label(), ItemKind.BUTTON, press=screen.close)


def _back_group(screen: ExplorerScreen) -> Group:
    return Group(words.back_label(), [_back_item(screen)])


def _saying(host: Host, said: Callable[[], str]) -> Callable[[], None]:
    """What Enter on a line with more to say does: say it."""
    return lambda: host.say(said())


def _groups(host: Host, parts: list[Part]) -> list[Group]:
    """A level's lists as menu groups: Enter on a line with more to say says it."""
    return [Group(part.title, [Item(line.label, ItemKind.TEXT, note=line.note, card=line.card,
                                    press=None if line.more is None else _saying(host, line.more))
                               for line in part.lines], focus=part.focus)
            for part in parts]


class ExplorerScreen(Screen):
    """One level of the explorer: Escape and its Back button pop it, nothing else is touched."""

    help_key = "explorer"

    def on_escape(self) -> bool:
        self.close()
        return True

    def close(self) -> None:
        self.host.pop()

    def confirm(self) -> None:
        """Enter on a line: what it has to say in full, else the line again."""
        item = self.menu.item
        if item is not None and item.press is not None:
            item.press()
        else:
            self.host.say(self.menu.describe())


class ExplorerHome(ExplorerScreen):
    """The explorer's main menu; closing it says where the player is back to."""

    def __init__(self, host: Host, origin: Screen, app: ExplorerHost | None = None) -> None:
        self.origin = origin
        self.app = app
        def cards_of(title: str, kind: list[Card]) -> Callable[[], None]:
            return lambda: host.push(CardListScreen(host, title, kind))

        entries: list[tuple[str, Callable[[], None]]] = [
            *((title, cards_of(title, kind)) for title, kind in words.card_lists()),
            (words.rules_title(), lambda: host.push(BandRulesScreen(host))),
            (_("Try a matchup"), lambda: host.push(TryMatchupScreen(host))),
            (_("Close the explorer"), self.close),
        ]
        items = [Item(label, ItemKind.BUTTON, press=press) for label, press in entries]
        super().__init__(host, Menu(_("Explorer"), [Group(_("Explorer"), items)]))

    def intro(self) -> str:
        # Translators: {menu} is the menu's focus as the menu reads it; {back} is a key, as
        # "Escape".
        return self.host.keys.fill(_("Explorer of play cards and bands. Looking here never "
                                     "changes the game; {back} closes it. {menu}"),
                                   menu=self.menu.describe(entering=True))

    def close(self) -> None:
        if self.app is not None:  # details read inside the explorer do not stay on screen
            self.app.reset_view()
        self.host.pop(announce=False)
        # Translators: {focus} is the control the player is back to, as the menu reads it.
        self.host.say(_("Explorer closed. {focus}").format(
            focus=self.origin.menu.describe_group()))



class CardListScreen(ExplorerScreen):
    """A list of cards of one kind; Enter opens a card, D reads its details."""

    help_key = "explorer_list"

    def __init__(self, host: Host, title: str, kind: list[Card]) -> None:
        items = [Item(line.label, ItemKind.BUTTON, note=line.note, card=line.card,
                      press=self._opening(card))
                 for line, card in zip(words.list_lines(kind), kind, strict=True)]
        items.append(_back_item(self))
        super().__init__(host, Menu(title, [Group(title, items)]))

    def _opening(self, card: Card) -> Callable[[], None]:
        return lambda: self.open(card)

    def intro(self) -> str:
        # Translators: {title} is the list's name ("Offensive calls"); {menu} its focus;
        # {activate} is a key, as "Enter".
        return self.host.keys.fill(_("{title}. {activate} opens a card. {menu}"),
                                   title=self.menu.title, menu=self.menu.describe(entering=True))

    def open(self, card: Card) -> None:
        """A card's own level."""
        if isinstance(card, OffCall):
            self.host.push(OffCallScreen(self.host, card))
        elif isinstance(card, DefCall):
            self.host.push(DefCallScreen(self.host, card))
        else:
            self.host.push(PlayerScreen(self.host, card))


class OffCallScreen(ExplorerScreen):
    """One offensive call: its bands (Left / Right), matchups and the players that touch it."""

    help_key = "explorer_call"

    def __init__(self, host: Host, call: OffCall) -> None:
        self.call = call
        groups = [*_groups(host, words.off_call_parts(call)), _back_group(self)]
        super().__init__(host, Menu(_(card_name(call)), groups))

    def intro(self) -> str:
        card = OFFENSIVE_CALLS[self.call]
        return self.host.keys.fill(
            # Translators: {call} is an offensive call's name, {kind} "run play" or "pass
            # play", {blurb} the card's own sentence, {matchups} "Strong against: ...", {focus}
            # the focus; {previous_item}, {next_item} and {activate} are keys, as "Up", "Down"
            # and "Enter".
            _("{call}, {kind}. {blurb} {matchups} {previous_item} and {next_item} step through "
              "the bands; {activate} reads the yardage table. {focus}"),
            call=_(card_name(self.call)), kind=cards.kind_words(card.kind), blurb=_(card.blurb),
            matchups=cards.strengths_words(self.call), focus=self.menu.describe_group())


class DefCallScreen(ExplorerScreen):
    """One defensive call against each offensive call; Enter hears that matchup's figures."""

    help_key = "explorer_defense"

    def __init__(self, host: Host, call: DefCall) -> None:
        self.call = call
        groups = [*_groups(host, words.def_call_parts(call)), _back_group(self)]
        super().__init__(host, Menu(_(card_name(call)), groups))

    def intro(self) -> str:
        card = DEFENSIVE_CALLS[self.call]
        return self.host.keys.fill(
            # Translators: {call} is a defensive call's name, {blurb} the card's own sentence,
            # {matchups} "Strong against: ...", {focus} the focus as the menu reads it;
            # {activate} is a key, as "Enter".
            _("{call}, defensive call. {blurb} {matchups} Bands count for the offense, so "
              "minus is good for the defense. {activate} hears the full figures. {focus}"),
            call=_(card_name(self.call)), blurb=_(card.blurb),
            matchups=cards.strengths_words(self.call), focus=self.menu.describe_group())


class PlayerScreen(ExplorerScreen):
    """One player: the call it touches and how it moves that call's band against each defense."""

    help_key = "explorer_player"

    def __init__(self, host: Host, player: Player) -> None:
        self.player = player
        groups = [*_groups(host, words.player_parts(player)), _back_group(self)]
        super().__init__(host, Menu(_(card_name(player)), groups))

    def intro(self) -> str:
        info = PLAYERS[self.player]
        # Translators: {player} is a player card's name, {role} "offense player" or "defense
        # player", {effect} "adds 1 to the band when ...", {blurb} the card's own sentence.
        return _("{player}, {role}: {effect}. It does nothing for other calls. {blurb} "
                 "{focus}").format(
            player=_(card_name(self.player)), role=cards.role_player_words(info.role),
            effect=cards.player_effect_words(self.player), blurb=_(info.blurb),
            focus=self.menu.describe_group())


class BandRulesScreen(ExplorerScreen):
    """How the band is made, line by line, and the whole matchup table."""

    help_key = "explorer_rules"

    def __init__(self, host: Host) -> None:
        groups = [*_groups(host, words.rules_parts()), _back_group(self)]
        super().__init__(host, Menu(words.rules_title(), groups))


class TryMatchupScreen(ExplorerScreen):
    """Pick both calls and any players; hear the band and figures the engine would use."""

    help_key = "explorer_try"

    def __init__(self, host: Host) -> None:
        def radio(calls: list[OffCall] | list[DefCall]) -> list[Item]:
            items = [Item(_(card_name(card)), ItemKind.RADIO, card=card) for card in calls]
            items[0].checked = True
            return items

        def boxes(role: Role) -> list[Item]:
            return [Item(_(card_name(p)), ItemKind.CHECKBOX, note=words.card_note(p), card=p)
                    for p in players_for(role)]

        groups = [
            Group(_("Offensive call"), radio(list(OffCall))),
            Group(_("Defensive call"), radio(list(DefCall))),
            # Translators: a list of checkboxes; {count} is how many may be checked.
            Group(_("Offensive players, up to {count}").format(count=PLAYERS_PER_HAND),
                  boxes(Role.OFFENSE), limit=PLAYERS_PER_HAND, noun="players"),
            # Translators: a list of checkboxes; {count} is how many may be checked.
            Group(_("Defensive players, up to {count}").format(count=PLAYERS_PER_HAND),
                  boxes(Role.DEFENSE), limit=PLAYERS_PER_HAND, noun="players"),
            Group(_("Result"), [Item(_("Hear the result"), ItemKind.BUTTON,
                                     press=_saying(host, self.result))]),
            _back_group(self),
        ]
        menu = Menu(_("Try a matchup"), groups)
        menu.status = self.short_result
        super().__init__(host, menu)

    def intro(self) -> str:
        return self.host.keys.fill(
            # Translators: {focus} is the focus as the menu reads it; names in braces like
            # {toggle} are keys: {next_control}, {previous_item}, {next_item}, {toggle} and
            # {activate} as "Tab", "Up", "Down", "Space" and "Enter".
            n_("Try a matchup: choose an offensive call, a defensive call and up to {count} "
               "player a side with {next_control}, {previous_item} and {next_item}, and "
               "{toggle}; {activate} hears the band and its figures. {focus}",
               "Try a matchup: choose an offensive call, a defensive call and up to {count} "
               "players a side with {next_control}, {previous_item} and {next_item}, and "
               "{toggle}; {activate} hears the band and its figures. {focus}",
               PLAYERS_PER_HAND),
            count=PLAYERS_PER_HAND, focus=self.menu.describe_group())

    def picked(self) -> tuple[OffCall, DefCall, tuple[Player, ...], tuple[Player, ...]]:
        """The current choice, read from the menu."""
        groups = self.menu.groups
        off = next(i.card for i in groups[0].checked() if isinstance(i.card, OffCall))
        defense = next(i.card for i in groups[1].checked() if isinstance(i.card, DefCall))
        off_players = tuple(i.card for i in groups[2].checked() if isinstance(i.card, Player))
        def_players = tuple(i.card for i in groups[3].checked() if isinstance(i.card, Player))
        return off, defense, off_players, def_players

    def short_result(self) -> str:
        off, defense, off_players, def_players = self.picked()
        band = compute_band(off, defense, off_players, def_players)
        # Translators: {matchup} is "Inside Run against Blitz"; {band} is "band plus 1".
        return _("{matchup}: {band}").format(matchup=words.versus(off, defense),
                                             band=numbers.band_name(band.value))

    def result(self) -> str:
        """The band and its statistics, from the engine's own band calculation."""
        off, defense, off_players, def_players = self.picked()
        band = compute_band(off, defense, off_players, def_players)
        # Translators: {matchup} is "Inside Run against Blitz"; {reasons} "band minus 1: matchup
        # minus 2, Deep Threat adds 1"; {summary} "At band minus 1: average gain ...".
        return _("{matchup}: {reasons}. {summary}").format(
            matchup=words.versus(off, defense), reasons=cards.band_reason_words(band),
            summary=cards.band_summary(off, band.value))

    def confirm(self) -> None:
        self.host.say(self.result())
