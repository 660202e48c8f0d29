"""The explorer of play cards and bands: a stack of spoken menus over the game.

Each level is an ordinary `Screen` with a `menu.Menu`, pushed on the app's screen stack, so the
keys, focus and window drawing are the game's own and Escape pops back one level at a time; the
last Escape returns to exactly the control that had focus. Nothing here calls the engine's
game or match: it reads the card tables, `band_stats` and `compute_band` only, so opening,
browsing and closing the explorer can never change the game, its dice or the computer's choice.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ..engine.actions import PLAYERS_PER_HAND
from ..engine.card_model import BANDS, DefCall, OffCall, Player, Role
from ..engine.cards import (
    DEFENSIVE_CALLS,
    OFFENSIVE_CALLS,
    PLAYERS,
    card_name,
    players_for,
)
from ..engine.resolve import compute_band
from ..engine.stats import band_stats
from . import explorer_words as words
from .menu import Group, Item, ItemKind, Menu
from .screens import Host, Screen

BACK = "back"
CLOSE = "close"
HEAR = "hear"


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
        host.say("The explorer is already open. Escape goes back a level.")
        return
    host.reset_view()  # leave a review section first: the explorer returns to the decision
    host.push(ExplorerHome(host, host.stack[-1], host))


def _back_group() -> Group:
    return Group("Back", [Item("Back", ItemKind.BUTTON, BACK)])


class ExplorerScreen(Screen):
    """One level of the explorer: Escape and its Back button pop it, nothing else is touched."""

    help_key = "explorer"

    def on_escape(self) -> bool:
        self.close()
        return True

    def close(self) -> None:
        self.host.pop()

    def on_button(self, item: Item) -> None:
        if item.value == BACK:
            self.close()
        else:
            self.choose(item)

    def choose(self, item: Item) -> None:
        """A button other than Back was pressed."""

    def confirm(self) -> None:
        """Enter on a line: read it again (levels with more to say override this)."""
        self.host.say(self.menu.describe())


class ExplorerHome(ExplorerScreen):
    """The explorer's main menu; closing it says where the player is back to."""

    def __init__(self, host: Host, origin: Screen, app: ExplorerHost | None = None) -> None:
        self.origin = origin
        self.app = app
        entries = [
            ("Offensive calls", "off_calls"),
            ("Defensive calls", "def_calls"),
            ("Offensive players", "off_players"),
            ("Defensive players", "def_players"),
            ("How the band is made", "rules"),
            ("Try a matchup", "try"),
            ("Close the explorer", CLOSE),
        ]
        items = [Item(label, ItemKind.BUTTON, value) for label, value in entries]
        super().__init__(host, Menu("Explorer", [Group("Explorer", items)]))

    def intro(self) -> str:
        return ("Explorer of play cards and bands. Looking here never changes the game; "
                f"Escape closes it. {self.menu.describe(entering=True)}")

    def close(self) -> None:
        if self.app is not None:  # details read inside the explorer do not stay on screen
            self.app.reset_view()
        self.host.pop(announce=False)
        self.host.say(f"Explorer closed. {self.origin.menu.describe_group()}")

    def choose(self, item: Item) -> None:
        value = item.value
        if value == CLOSE:
            self.close()
        elif value == "off_calls":
            self.host.push(CardListScreen(self.host, "Offensive calls", list(OffCall)))
        elif value == "def_calls":
            self.host.push(CardListScreen(self.host, "Defensive calls", list(DefCall)))
        elif value == "off_players":
            self.host.push(CardListScreen(self.host, "Offensive players",
                                          list(players_for(Role.OFFENSE))))
        elif value == "def_players":
            self.host.push(CardListScreen(self.host, "Defensive players",
                                          list(players_for(Role.DEFENSE))))
        elif value == "rules":
            self.host.push(BandRulesScreen(self.host))
        elif value == "try":
            self.host.push(TryMatchupScreen(self.host))


def _card_note(card: OffCall | DefCall | Player) -> str:
    if isinstance(card, OffCall):
        return f"{OFFENSIVE_CALLS[card].kind.value} play"
    if isinstance(card, DefCall):
        return "defensive call"
    return f"boosts {card_name(PLAYERS[card].call)}" if PLAYERS[card].role is Role.OFFENSE \
        else f"stops {card_name(PLAYERS[card].call)}"


class CardListScreen(ExplorerScreen):
    """A list of cards of one kind; Enter opens a card, D reads its details."""

    help_key = "explorer_list"

    def __init__(self, host: Host, title: str, cards: list[OffCall | DefCall | Player]) -> None:
        items = [Item(card_name(card), ItemKind.BUTTON, card, note=_card_note(card))
                 for card in cards]
        items.append(Item("Back", ItemKind.BUTTON, BACK))
        super().__init__(host, Menu(title, [Group(title, items)]))

    def intro(self) -> str:
        return f"{self.menu.title}. Enter opens a card. {self.menu.describe(entering=True)}"

    def choose(self, item: Item) -> None:
        card = item.value
        if isinstance(card, OffCall):
            self.host.push(OffCallScreen(self.host, card))
        elif isinstance(card, DefCall):
            self.host.push(DefCallScreen(self.host, card))
        elif isinstance(card, Player):
            self.host.push(PlayerScreen(self.host, card))


class OffCallScreen(ExplorerScreen):
    """One offensive call: its bands (Left / Right), matchups and the players that touch it."""

    help_key = "explorer_call"

    def __init__(self, host: Host, call: OffCall) -> None:
        self.call = call
        bands = [Item(words.band_name(band).capitalize(), ItemKind.TEXT, band,
                      note=words.call_stats_words(call, band)) for band in BANDS]
        matchups = [Item(f"Against {card_name(d)}", ItemKind.TEXT, d,
                         note=f"{words.matchup_note(m, for_offense=True)}, "
                              f"{words.mean_words(band_stats(call, m).mean_yards)}")
                    for d, m in words.offense_matchups(call)]
        players = [Item(card_name(p), ItemKind.TEXT, p,
                        note=f"{PLAYERS[p].role.value} player, {words.player_effect_words(p)}")
                   for p in PLAYERS if PLAYERS[p].call is call]
        groups = [
            Group("Bands", bands, focus=BANDS.index(words.DETAILS_BAND)),
            Group("Matchups", matchups),
            Group("Players", players),
            _back_group(),
        ]
        super().__init__(host, Menu(OFFENSIVE_CALLS[call].name, groups))

    def intro(self) -> str:
        card = OFFENSIVE_CALLS[self.call]
        return (f"{card.name}, {card.kind.value} play. {card.blurb} "
                f"{words.matchup_words(self.call)} Left and Right step through the bands; "
                "Enter reads the yardage table. "
                f"{self.menu.describe_group()}")

    def confirm(self) -> None:
        item = self.menu.item
        if item is None:
            return
        if isinstance(item.value, int) and not isinstance(item.value, bool):
            self.host.say(words.yardage_table_words(self.call, item.value))
        elif isinstance(item.value, DefCall):
            band = compute_band(self.call, item.value)
            self.host.say(f"{card_name(self.call)} against {card_name(item.value)}, "
                          f"{words.band_reason_words(band)}. "
                          f"{words.band_summary(self.call, band.value)}")
        else:
            super().confirm()


class DefCallScreen(ExplorerScreen):
    """One defensive call against each offensive call; Enter hears that matchup's figures."""

    help_key = "explorer_defense"

    def __init__(self, host: Host, call: DefCall) -> None:
        self.call = call
        items = [Item(f"Against {card_name(off)}", ItemKind.TEXT, off,
                      note=f"{words.matchup_note(m, for_offense=False)}, "
                           f"{words.mean_words(band_stats(off, m).mean_yards)}")
                 for off, m in words.defense_matchups(call)]
        groups = [Group("Against each offensive call", items), _back_group()]
        super().__init__(host, Menu(DEFENSIVE_CALLS[call].name, groups))

    def intro(self) -> str:
        card = DEFENSIVE_CALLS[self.call]
        return (f"{card.name}, defensive call. {card.blurb} {words.matchup_words(self.call)} "
                "Bands count for the offense, so minus is good for the defense. Enter hears "
                f"the full figures. {self.menu.describe_group()}")

    def confirm(self) -> None:
        item = self.menu.item
        if item is None or not isinstance(item.value, OffCall):
            super().confirm()
            return
        band = compute_band(item.value, self.call)
        self.host.say(f"{card_name(item.value)} against {card_name(self.call)}, "
                      f"{words.band_reason_words(band)}. "
                      f"{words.band_summary(item.value, band.value)}")


class PlayerScreen(ExplorerScreen):
    """One player: the call it touches and how it moves that call's band against each defense."""

    help_key = "explorer_player"

    def __init__(self, host: Host, player: Player) -> None:
        self.player = player
        info = PLAYERS[player]
        offense = info.role is Role.OFFENSE
        items = []
        for defense in DefCall:
            without = compute_band(info.call, defense)
            with_player = (compute_band(info.call, defense, offense_players=(player,))
                           if offense else
                           compute_band(info.call, defense, defense_players=(player,)))
            items.append(Item(f"{card_name(info.call)} against {card_name(defense)}",
                              ItemKind.TEXT, defense,
                              note=words.band_change_words(info.call, without, with_player)))
        groups = [Group(f"How {info.name} moves the band", items), _back_group()]
        super().__init__(host, Menu(info.name, groups))

    def intro(self) -> str:
        info = PLAYERS[self.player]
        return (f"{info.name}, {info.role.value} player: {words.player_effect_words(self.player)}"
                f". It does nothing for other calls. {info.blurb} {self.menu.describe_group()}")


class BandRulesScreen(ExplorerScreen):
    """How the band is made, line by line, and the whole matchup table."""

    help_key = "explorer_rules"

    def __init__(self, host: Host) -> None:
        items = [Item(line, ItemKind.TEXT) for line in words.band_rules_lines()]
        groups = [Group("How the band is made", items), _back_group()]
        super().__init__(host, Menu("How the band is made", groups))


class TryMatchupScreen(ExplorerScreen):
    """Pick both calls and any players; hear the band and figures the engine would use."""

    help_key = "explorer_try"

    def __init__(self, host: Host) -> None:
        def radio(cards: list[OffCall] | list[DefCall]) -> list[Item]:
            items = [Item(card_name(card), ItemKind.RADIO, card) for card in cards]
            items[0].checked = True
            return items

        def boxes(role: Role) -> list[Item]:
            return [Item(card_name(p), ItemKind.CHECKBOX, p, note=_card_note(p))
                    for p in players_for(role)]

        groups = [
            Group("Offensive call", radio(list(OffCall))),
            Group("Defensive call", radio(list(DefCall))),
            Group(f"Offensive players, up to {PLAYERS_PER_HAND}", boxes(Role.OFFENSE),
                  limit=PLAYERS_PER_HAND, noun="players"),
            Group(f"Defensive players, up to {PLAYERS_PER_HAND}", boxes(Role.DEFENSE),
                  limit=PLAYERS_PER_HAND, noun="players"),
            Group("Result", [Item("Hear the result", ItemKind.BUTTON, HEAR)]),
            _back_group(),
        ]
        menu = Menu("Try a matchup", groups)
        menu.status = self.short_result
        super().__init__(host, menu)

    def intro(self) -> str:
        return ("Try a matchup: choose an offensive call, a defensive call and up to "
                f"{PLAYERS_PER_HAND} players a side with Tab, the arrows and Space; Enter hears "
                "the band and its figures. "
                f"{self.menu.describe_group()}")

    def picked(self) -> tuple[OffCall, DefCall, tuple[Player, ...], tuple[Player, ...]]:
        """The current choice, read from the menu."""
        groups = self.menu.groups
        off = next(i.value for i in groups[0].items if i.checked)
        defense = next(i.value for i in groups[1].items if i.checked)
        off_players = tuple(i.value for i in groups[2].checked())
        def_players = tuple(i.value for i in groups[3].checked())
        return off, defense, off_players, def_players  # type: ignore[return-value]

    def short_result(self) -> str:
        off, defense, off_players, def_players = self.picked()
        band = compute_band(off, defense, off_players, def_players)
        return f"{card_name(off)} against {card_name(defense)}: {words.band_name(band.value)}"

    def result(self) -> str:
        """The band and its statistics, from the engine's own band calculation."""
        off, defense, off_players, def_players = self.picked()
        band = compute_band(off, defense, off_players, def_players)
        return (f"{card_name(off)} against {card_name(defense)}: "
                f"{words.band_reason_words(band)}. {words.band_summary(off, band.value)}")

    def choose(self, item: Item) -> None:
        if item.value == HEAR:
            self.host.say(self.result())

    def confirm(self) -> None:
        self.host.say(self.result())
