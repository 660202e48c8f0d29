"""The card decisions of a down: picking a hand, and keeping or replacing one card."""

from __future__ import annotations

from collections.abc import Callable

from ...audio.protocols import Category
from ...engine.actions import (
    CALLS_PER_HAND,
    PLAYERS_PER_HAND,
    ChooseSnap,
    PickHand,
    PickSwap,
    swap_actions,
)
from ...engine.card_model import Card, DefCall, OffCall, Player, Role
from ...engine.cards import calls_for, card_name, players_for
from ...engine.state import Hand, SnapChoice, Swap
from ...language import _, n_
from ..words.phrases import hand_words
from ..words.picking import answer_cards_words, missing_words
from .base import Host
from .decisions import DecisionScreen, Kicks, acting, kick_items
from .menu import Group, Item, ItemKind, Menu


class SelectionScreen(DecisionScreen):
    """Pick 2 players and 3 calls. From the second down in a side, last down's cards come
    already checked, so Enter plays them again and changing one card is two checkboxes (they
    are read the first time, and afterwards only with the full explanation). A full
    list hands the focus on to the list still open. On offense before fourth down, the kicks
    wait in a last list: the down is still before the snap until the cards are confirmed."""

    help_key = "selection"

    def __init__(self, host: Host, role: Role, full: bool = True, again: Hand | None = None,
                 teach_again: bool = False, kicks: Kicks | None = None,
                 teach_keys: bool = True, teach_kicks: bool = True,
                 on_check: Callable[[], None] | None = None) -> None:
        """`full`: the whole explanation of the pick (the first time in a game);
        `teach_keys`: how Space and Enter pick (until the player has checked a card, which
        calls `on_check`); `teach_kicks`: where the kicks wait, when they are offered."""
        self.role = role
        self.again = again
        self.teach_again = teach_again  # say once that the cards are last down's
        self.kicks = kicks or {}
        self.teach_keys = teach_keys
        self.teach_kicks = teach_kicks
        self.on_check = on_check
        held = set() if again is None else {*again.players, *again.calls}
        players = [self._card_item(p, held) for p in players_for(role)]
        calls = [self._card_item(c, held) for c in calls_for(role)]
        groups = [
            # The counts are said when picking starts and after every check.
            Group(_("Players"), players, limit=PLAYERS_PER_HAND, noun="players"),
            Group(_("Calls"), calls, limit=CALLS_PER_HAND, noun="calls"),
            Group(_("Confirm"), [Item(_("Confirm these cards"), ItemKind.BUTTON,
                                      press=self.confirm)]),
        ]
        if self.kicks:
            groups.append(Group(_("Or kick instead"), kick_items(host, self.kicks)))
        title = _("Your offense cards") if role is Role.OFFENSE else _("Your defense cards")
        menu = Menu(title, groups)
        menu.status = self.after_toggle
        super().__init__(host, menu, full)

    @staticmethod
    def _card_item(card: Card, held: set[Card]) -> Item:
        return Item(_(card_name(card)), ItemKind.CHECKBOX, card=card, checked=card in held)

    def _picked(self) -> tuple[list[Player], list[OffCall | DefCall]]:
        players_group, calls_group = self.menu.groups[1], self.menu.groups[2]
        players = [item.card for item in players_group.checked() if isinstance(item.card, Player)]
        calls = [item.card for item in calls_group.checked()
                 if isinstance(item.card, (OffCall, DefCall))]
        return players, calls

    def after_toggle(self) -> str:
        """How far the toggled list has got; when it is full, the focus moves on to the list
        still open."""
        toggled = self.menu.group
        if self.on_check is not None:
            self.on_check()
        count = toggled.picked_words(self.menu.telling.brief)
        lists = self.menu.groups[1:3]
        if toggled.limit is None or len(toggled.checked()) < toggled.limit:
            return count
        open_lists = [group for group in lists if len(group.checked()) < (group.limit or 0)]
        if not open_lists:  # short verbosity trusts the player to know Enter
            if self.menu.telling.brief:
                # Translators: short verbosity: the last list just filled, so the hand has
                # every card it takes (Enter plays it): "Full.", "Blitz, checked, full.".
                # One word if you can.
                full = _("full")
                return f"{full}."
            # Translators: {count} says the last list is full: "calls full"; {activate} is a
            # key, as "Enter".
            return self.host.keys.fill(_("{count}. {activate} confirms."), count=count)
        self.menu.focus_group(self.menu.groups.index(open_lists[0]))
        return f"{count}. {self.menu.describe_group()}"

    def prompt(self) -> str:
        hand = ""  # last down's cards: read with their lesson, then the player knows them
        if self.again is not None and not self.menu.telling.brief and (
                self.full or self.teach_again):
            hand = hand_words(self.again)
        # Translators: {activate} is a key, as "Enter".
        teach = (self.host.keys.fill(_("Last down's cards are checked again: {activate} plays "
                                       "them, or change a card first."))
                 if hand and self.teach_again else "")
        # Translators: {toggle} and {activate} are keys, as "Space" and "Enter".
        keys = self.host.keys.fill(_("{toggle} checks a card; a full list moves you on to the "
                                     "next; {activate} confirms.")) if self.teach_keys else ""
        # Translators: {next_control} is a key, as "Tab".
        kicks = self.host.keys.fill(_("To punt or kick a field goal instead, {next_control} "
                                      "past Confirm.")) if self.kicks and self.teach_kicks else ""
        if self.full:
            # Translators: {hand} lists the cards checked from last down.
            checked = _("Checked from last down: {hand}.").format(hand=hand) if hand else ""
            sentences = [self._picking_words(), keys, kicks, checked, teach]
        elif self.again is None:  # a side's first down: a fresh pick, and its cards named
            sentences = [self._fresh_words(), keys, kicks]
        elif hand:
            # Translators: {hand} lists the cards checked from last down.
            sentences = [_("Your cards: {hand}.").format(hand=hand), teach, kicks]
        elif self.menu.telling.brief:  # the focus names the list and its cards next
            sentences = [kicks]
        else:
            sentences = [_("Your cards."), kicks]
        return " ".join(filter(None, sentences))

    def _fresh_words(self) -> str:
        """A side's first down, briefly: a fresh pick, and the cards to pick from."""
        players = ", ".join(item.label for item in self.menu.groups[1].items)
        calls = ", ".join(item.label for item in self.menu.groups[2].items)
        if self.role is Role.OFFENSE:
            # Translators: the first down on offense: no cards are checked from before;
            # {players} and {calls} list the card names.
            words = _("A fresh pick for offense. Players: {players}. Calls: {calls}.")
        else:
            # Translators: the first down on defense: no cards are checked from before;
            # {players} and {calls} list the card names.
            words = _("A fresh pick for defense. Players: {players}. Calls: {calls}.")
        return words.format(players=players, calls=calls)

    def _picking_words(self) -> str:
        """What to pick and the cards to pick from; on a side's first down, that it is a
        fresh pick."""
        players = ", ".join(item.label for item in self.menu.groups[1].items)
        calls = ", ".join(item.label for item in self.menu.groups[2].items)
        fresh = self.again is None
        if self.role is Role.OFFENSE:
            # Translators: {players_count} is "2 players", {calls_count} "3 calls"; {players}
            # and {calls} list the card names.
            words = (_("A fresh pick for offense: {players_count} and {calls_count}. Players: "
                       "{players}. Calls: {calls}.") if fresh else
                     # Translators: {players_count} is "2 players", {calls_count} "3 calls";
                     # {players} and {calls} list the card names.
                     _("Pick your offense cards for this down: {players_count} and "
                       "{calls_count}. Players: {players}. Calls: {calls}."))
        else:
            # Translators: {players_count} is "2 players", {calls_count} "3 calls"; {players}
            # and {calls} list the card names.
            words = (_("A fresh pick for defense: {players_count} and {calls_count}. Players: "
                       "{players}. Calls: {calls}.") if fresh else
                     # Translators: {players_count} is "2 players", {calls_count} "3 calls";
                     # {players} and {calls} list the card names.
                     _("Pick your defense cards for this down: {players_count} and "
                       "{calls_count}. Players: {players}. Calls: {calls}."))
        players_count = n_("{count} player", "{count} players",
                           PLAYERS_PER_HAND).format(count=PLAYERS_PER_HAND)
        calls_count = n_("{count} call", "{count} calls",
                         CALLS_PER_HAND).format(count=CALLS_PER_HAND)
        return words.format(players_count=players_count, calls_count=calls_count,
                            players=players, calls=calls)

    def confirm(self) -> None:
        players, calls = self._picked()
        missing = missing_words(PLAYERS_PER_HAND - len(players), CALLS_PER_HAND - len(calls))
        if missing:
            self.host.cue("menu_error")
            self.host.say(missing, category=Category.MENU)
            return
        hand = Hand(tuple(players), tuple(calls))
        if self.kicks:  # still before the snap: the play starts with these cards
            self.host.act(ChooseSnap(SnapChoice.PLAY), PickHand(hand))
        else:
            self.host.act(PickHand(hand))


class SubstitutionScreen(DecisionScreen):
    """Keep, or replace one card: the list is Keep, then each card you hold ("Replace
    Scatback"); choosing one lists what can come in for it. Escape steps back.

    Every card in both lists is the card itself, so D reads its details there too.
    """

    help_key = "substitution"

    def __init__(self, host: Host, role: Role, hand: Hand, full: bool = True,
                 teach_bring_in: bool = True,
                 on_bring_in: Callable[[], None] | None = None) -> None:
        """`teach_bring_in`: the list of cards to bring in says what it is in full ("Bring in
        a call for Blitz:"), until the player has brought one in (`on_bring_in`); then "In
        for Blitz:"."""
        self.role = role
        self.hand = hand
        self.out: Card | None = None
        self.teach_bring_in = teach_bring_in
        self.on_bring_in = on_bring_in
        self.host = host  # its buttons act through the host
        super().__init__(host, Menu(_("Keep or replace"), [self._main_group()]), full)

    def _main_group(self) -> Group:
        items = [Item(_("Keep"), ItemKind.BUTTON, press=acting(self.host, PickSwap(Swap.keep())))]
        items += [Item(_("Replace {card}").format(card=_(card_name(card))), ItemKind.BUTTON,
                       card=card, press=self._replacing(card), short=_(card_name(card)))
                  for card in (*self.hand.players, *self.hand.calls)]
        return Group(_("Keep or replace"), items)

    def _replacing(self, out: Card) -> Callable[[], None]:
        return lambda: self.replace(out)

    def _set_group(self, group: Group) -> None:
        self.menu.groups[1] = group
        self.menu.focus_group(1)

    def prompt(self) -> str:
        if self.full:
            return self.host.keys.fill(answer_cards_words())
        return _("Keep or replace?")

    def focus_words(self) -> str:
        return self.menu.describe(entering=True)

    def replace(self, out: Card) -> None:
        """The card to replace is chosen: list what may come in for it."""
        self.out = out
        if self.menu.telling.brief and not self.teach_bring_in:
            # Translators: the list of cards that can come in, short (the card going out was
            # just said): "In: Prevent". One word: its answer names the card ("Prevent in.").
            title = _("In:")
        elif not self.teach_bring_in:
            # Translators: the list of cards that can come in for {card}, once the player has
            # brought one in before: "In for Blitz: Prevent".
            title = _("In for {card}:")
        elif isinstance(out, Player):
            title = _("Bring in a player for {card}:")
        else:
            title = _("Bring in a call for {card}:")
        self._set_group(Group(title.format(card=_(card_name(out))), [
            Item(_(card_name(swap.into)), ItemKind.BUTTON, card=swap.into,
                 press=self._bringing(swap))
            for swap in self._swaps() if swap.out == out and swap.into is not None
        ]))
        self.host.say(self.menu.describe_group())

    def _bringing(self, swap: Swap) -> Callable[[], None]:
        """What a card to bring in does when pressed: the swap, and the lesson learnt."""
        def press() -> None:
            if self.on_bring_in is not None:
                self.on_bring_in()
            self.host.act(PickSwap(swap))
        return press

    def considered(self) -> Swap | None:
        """The swap whose incoming card has the focus in the bring-in list, if any (M reads
        the matchups as they would be with it)."""
        item = self.menu.item
        return None if item is None or item.card is None else self._bringing_in(item.card)

    def _bringing_in(self, card: Card) -> Swap | None:
        """The legal swap of the card being replaced for `card`, if there is one."""
        if self.out is None:
            return None
        return next((swap for swap in self._swaps()
                     if swap.out == self.out and swap.into == card), None)

    def _swaps(self) -> list[Swap]:
        """The rules' legal swaps for this hand, in their order."""
        return [action.swap for action in swap_actions(self.hand, self.role)
                if isinstance(action, PickSwap)]

    def on_escape(self) -> bool:
        if self.out is None:
            return False
        focus = self.out
        self.out = None
        self._set_group(self._main_group())
        self.menu.group.focus = next(i for i, item in enumerate(self.menu.group.items)
                                     if item.card == focus)
        # Translators: back in the previous list; {focus} is its title and focused entry.
        self.host.say(_("Back. {focus}").format(focus=self.menu.describe_group()))
        return True

