"""Every screen of the game, each a `Menu` plus what its buttons and Enter do.

Screens never touch the engine or audio directly; they ask their `Host` (the app) to speak, act
or change screens, so each screen stays small and testable. Dialogs are pushed on a stack and
popped, which returns focus exactly where it was.
"""

from __future__ import annotations

from typing import Protocol, cast

import pygame

from ..engine.actions import (
    CALLS_PER_HAND,
    PLAYERS_PER_HAND,
    Action,
    CallCoin,
    ChooseSide,
    ChooseSnap,
    PickFinal,
    PickHand,
    PickSwap,
    swap_actions,
)
from ..engine.card_model import DefCall, OffCall, Player, Role
from ..engine.cards import calls_for, card_name, players_for
from ..engine.state import CoinFace, Hand, Side, SnapChoice, Swap
from ..language import N_, _, join_words, n_, p_
from .game_words import KickOption, hand_words
from .menu import NORMAL_DETAIL, SHORT_DETAIL, Group, Item, ItemKind, Menu

Card = OffCall | DefCall | Player

# The team names Enter takes when none is typed (translated where they are used).
# Translators: the player's team's name when none is typed (a nickname, said "the Hawks").
DEFAULT_HOME = N_("Hawks")
# Translators: the computer team's name when none is typed (a nickname, said "the Bears").
DEFAULT_AWAY = N_("Bears")


class Host(Protocol):
    """What a screen may ask of the app."""

    def say(self, text: str, *, interrupt: bool = True, category: str = "menu") -> None: ...

    def cue(self, name: str) -> None: ...

    def act(self, *actions: Action) -> None: ...

    def push(self, screen: Screen) -> None: ...

    def pop(self, announce: bool = True) -> None: ...

    def ask_concede(self) -> None: ...

    def names_chosen(self, home: str, away: str) -> None: ...

    def start_naming(self) -> None: ...

    def play_again(self) -> None: ...

    def ask_quit(self) -> None: ...

    def quit(self) -> None: ...

    def open_extra(self, name: str) -> None: ...  # "settings", "rules" or "tutorial"


class Screen:
    """A screen: a menu, the words said when it takes focus, and what its buttons do."""

    help_key = ""

    def __init__(self, host: Host, menu: Menu) -> None:
        self.host = host
        self.menu = menu

    def prompt(self) -> str:
        """The question this screen asks (kept in the history and the game log)."""
        return f"{self.menu.title}."

    def focus_words(self) -> str:
        """Where the focus is: said after the prompt, never logged."""
        return self.menu.describe_group()

    def intro(self) -> str:
        """Spoken when the screen first takes focus: what it is, the options, the focus."""
        return f"{self.prompt()} {self.focus_words()}"

    def handle_key(self, key: int, mod: int) -> bool:
        """Screen-specific keys, tried before the shared ones; True when handled."""
        return False

    def handle_text(self, text: str) -> bool:
        return False

    def on_button(self, item: Item) -> None:
        """A focused button was pressed."""

    def confirm(self) -> None:
        """Enter on something that is not a button: confirm the decision if the screen has one."""
        self.host.say(_("Press Enter on a button to choose."), category="menu")
        self.host.cue("menu_error")

    def on_escape(self) -> bool:
        """Escape: True when the screen handled it (a dialog closes, a step goes back)."""
        return False


def _buttons(labels: list[tuple[str, object]]) -> list[Item]:
    return [Item(label, ItemKind.BUTTON, value) for label, value in labels]


def _concede_group() -> Group:
    return Group(_("Concede"), [Item(_("Concede the game"), ItemKind.BUTTON, "concede")])


# -- before the game ---------------------------------------------------------------------------


class WelcomeScreen(Screen):
    help_key = "welcome"

    def __init__(self, host: Host) -> None:
        menu = Menu(_("Welcome"), [Group(_("Main menu"), _buttons(
            [(_("Start a game"), "start"), (_("Guided first down"), "tutorial"),
             (_("How to play"), "rules"), (_("Settings"), "settings"), (_("Quit"), "quit")]))])
        super().__init__(host, menu)

    def prompt(self) -> str:
        return _(
            "Welcome to Sudden Death, an American football card game you play by ear. "
            "You and the computer get one drive each; every down you pick players and calls. "
            "Press F1 for help at any time."
        )

    def on_button(self, item: Item) -> None:
        if item.value == "start":
            self.host.start_naming()
        elif item.value in ("tutorial", "rules", "settings"):
            self.host.open_extra(str(item.value))
        else:
            self.host.ask_quit()


class NamingScreen(Screen):
    """Typing both team names: letters are echoed, Backspace says what it removed."""

    help_key = "naming"

    def __init__(self, host: Host) -> None:
        self.names: list[str] = []
        self.text = ""
        super().__init__(host, self._build())

    def _prompt(self) -> str:
        return _("Your team's name") if not self.names else _("The computer team's name")

    def _default(self) -> str:
        return _(DEFAULT_HOME) if not self.names else _(DEFAULT_AWAY)

    def _build(self) -> Menu:
        # Translators: shown in the empty name field; {name} is the default team name.
        shown = self.text or _("(empty: Enter takes {name})").format(name=self._default())
        return Menu(_("Name the teams"), [Group(self._prompt(), [Item(shown, ItemKind.TEXT)])])

    def prompt(self) -> str:
        if not self.names:
            # Translators: {name} is the default team name, taken when nothing is typed.
            words = _("Your team's name: type it and press Enter. Leave it empty for {name}.")
        else:
            words = _("The computer team's name: type it and press Enter. Leave it empty for "
                      "{name}.")
        return words.format(name=self._default())

    def focus_words(self) -> str:
        return ""  # the prompt says it all; the text line is empty

    def _refresh(self) -> None:
        self.menu = self._build()

    def handle_text(self, text: str) -> bool:
        for char in text:
            if not char.isprintable() or len(self.text) >= 24:
                self.host.cue("menu_error")
                continue
            self.text += char
            self.host.say(_space_or(char), category="echo")
        self._refresh()
        return True

    def handle_key(self, key: int, mod: int) -> bool:
        if key == pygame.K_BACKSPACE:
            if not self.text:
                self.host.say(_("Nothing to remove; the name is empty."), category="echo")
                self.host.cue("menu_edge")
            else:
                removed, self.text = self.text[-1], self.text[:-1]
                # Translators: Backspace removed a typed character (or "space").
                self.host.say(_("Removed {character}.").format(character=_space_or(removed)),
                              category="echo")
            self._refresh()
            return True
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.confirm()
            return True
        # Letters arrive as text input; their key presses must not act as game keys here.
        return key < 0x40000000 and key not in (pygame.K_ESCAPE, pygame.K_TAB)

    def confirm(self) -> None:
        name = self.text.strip()
        if not name:
            name = self._default()
            self.host.say(_("No name typed, so the default: {name}.").format(name=name),
                          category="echo", interrupt=True)
        else:
            self.host.say(_("Name set: {name}.").format(name=name), category="echo")
        self.names.append(name)
        self.text = ""
        if len(self.names) == 2:
            self.host.names_chosen(self.names[0], self.names[1])
            return
        self._refresh()
        self.host.say(self.prompt(), interrupt=False, category="decision")


def _space_or(char: str) -> str:
    """A typed character as it is echoed: the space is said as a word."""
    # Translators: the space bar's character, echoed as the player types a team name.
    return p_("typed character", "space") if char == " " else char


class CoinScreen(Screen):
    help_key = "coin"

    def __init__(self, host: Host) -> None:
        menu = Menu(_("Coin toss"), [Group(_("Call the coin"), _buttons(
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
        menu = Menu(_("Offense or defense"), [Group(_("Start on"), _buttons(
            [(_("Offense: take the ball first"), ChooseSide(Side.OFFENSE)),
             (_("Defense: defend first"), ChooseSide(Side.DEFENSE))]))])
        super().__init__(host, menu)

    def prompt(self) -> str:
        return _("Take the ball first, or defend first?")

    def focus_words(self) -> str:
        return self.menu.describe(entering=True)

    def on_button(self, item: Item) -> None:
        self.host.act(cast("Action", item.value))  # the button holds its action


# -- the decisions of a down -------------------------------------------------------------------


class DecisionScreen(Screen):
    """A decision during play: Concede comes first, focus starts on the real choice.

    `full` asks for the whole explanation (the first time in a drive, or at detailed verbosity);
    otherwise the prompt is a few words and the focus, since the player has heard it before.
    """

    def __init__(self, host: Host, menu: Menu, full: bool = True) -> None:
        menu.groups.insert(0, _concede_group())
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


def _kick_items(kicks: Kicks) -> list[Item]:
    """The punt and the field goal, each labelled with what it would do."""
    return [Item(kick.label, ItemKind.BUTTON, choice, enabled=kick.available,
                 reason=kick.reason) for choice, kick in kicks.items()]


def _kick(host: Host, kicks: Kicks, choice: SnapChoice) -> None:
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
                 *_kick_items(kicks)]
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
            _kick(self.host, self.kicks, item.value)  # type: ignore[arg-type]
        else:
            self.host.act(cast("Action", item.value))  # the button holds its action


class SelectionScreen(DecisionScreen):
    """Pick 2 players and 3 calls. From the second down in a side, last down's cards come
    already checked, so Enter plays them again and changing one card is two checkboxes. A full
    list hands the focus on to the list still open. On offense before fourth down, the kicks
    wait in a last list: the down is still before the snap until the cards are confirmed."""

    help_key = "selection"

    def __init__(self, host: Host, role: Role, full: bool = True, again: Hand | None = None,
                 teach_again: bool = False, kicks: Kicks | None = None) -> None:
        self.role = role
        self.again = again
        self.teach_again = teach_again  # say once that the cards are last down's
        self.kicks = kicks or {}
        held = set() if again is None else {*again.players, *again.calls}
        players = [self._card_item(p, held) for p in players_for(role)]
        calls = [self._card_item(c, held) for c in calls_for(role)]
        groups = [
            # The counts are said when picking starts and after every check.
            Group(_("Players"), players, limit=PLAYERS_PER_HAND, noun="players"),
            Group(_("Calls"), calls, limit=CALLS_PER_HAND, noun="calls"),
            Group(_("Confirm"), [Item(_("Confirm these cards"), ItemKind.BUTTON, "confirm")]),
        ]
        if self.kicks:
            groups.append(Group(_("Or kick instead"), _kick_items(self.kicks)))
        title = _("Your offense cards") if role is Role.OFFENSE else _("Your defense cards")
        menu = Menu(title, groups)
        menu.status = self.after_toggle
        super().__init__(host, menu, full)

    @staticmethod
    def _card_item(card: Card, held: set[Card]) -> Item:
        return Item(_(card_name(card)), ItemKind.CHECKBOX, card, checked=card in held)

    def _picked(self) -> tuple[list[Card], list[Card]]:
        players_group, calls_group = self.menu.groups[1], self.menu.groups[2]
        players = [item.value for item in players_group.checked()]
        calls = [item.value for item in calls_group.checked()]
        return players, calls  # type: ignore[return-value]

    def counts(self) -> str:
        """"1 of 2 players, 0 of 3 calls"."""
        players_group, calls_group = self.menu.groups[1], self.menu.groups[2]
        return f"{players_group.checked_count()}, {calls_group.checked_count()}"

    def after_toggle(self) -> str:
        """The toggled list's count; when it is full, the focus moves on to the open list."""
        toggled = self.menu.group
        if self.menu.detail > NORMAL_DETAIL:
            count = toggled.checked_count()
        else:
            # Translators: how many cards of a list are checked of those allowed: "1 of 2".
            count = _("{have} of {limit}").format(have=len(toggled.checked()),
                                                  limit=toggled.limit)
        lists = self.menu.groups[1:3]
        if toggled.limit is None or len(toggled.checked()) < toggled.limit:
            return count
        open_lists = [group for group in lists if len(group.checked()) < (group.limit or 0)]
        if not open_lists:  # short verbosity trusts the player to know Enter
            if self.menu.detail == SHORT_DETAIL:
                return f"{count}."
            # Translators: {count} is how many cards are checked: "3 of 3".
            return _("{count}. Enter confirms.").format(count=count)
        self.menu.focus_group(self.menu.groups.index(open_lists[0]))
        return f"{count}. {self.menu.describe_group()}"

    def prompt(self) -> str:
        hand = ""
        if self.again is not None and self.menu.detail > SHORT_DETAIL:
            hand = hand_words(self.again)
        teach = (_("Last down's cards are checked again: Enter plays them, or change a card "
                   "first.") if hand and self.teach_again else "")
        if not self.full:
            if not hand:
                return _("Your cards.")
            # Translators: {hand} lists the cards checked from last down.
            return " ".join(filter(None, [_("Your cards: {hand}.").format(hand=hand), teach]))
        sentences = [self._picking_words()]
        if self.kicks:
            sentences.append(_("To punt or kick a field goal instead, Tab past Confirm."))
        if hand:
            # Translators: {hand} lists the cards checked from last down.
            sentences.append(_("Checked from last down: {hand}.").format(hand=hand))
        if teach:
            sentences.append(teach)
        return " ".join(sentences)

    def _picking_words(self) -> str:
        """What to pick, the cards to pick from, and the keys that pick them."""
        players = ", ".join(item.label for item in self.menu.groups[1].items)
        calls = ", ".join(item.label for item in self.menu.groups[2].items)
        if self.role is Role.OFFENSE:
            # Translators: {players_count} is "2 players", {calls_count} "3 calls"; {players}
            # and {calls} list the card names.
            words = _("Pick your offense cards for this down: {players_count} and "
                      "{calls_count}. Players: {players}. Calls: {calls}. Space checks a card; "
                      "a full list moves you on to the next; Enter confirms.")
        else:
            # Translators: {players_count} is "2 players", {calls_count} "3 calls"; {players}
            # and {calls} list the card names.
            words = _("Pick your defense cards for this down: {players_count} and "
                      "{calls_count}. Players: {players}. Calls: {calls}. Space checks a card; "
                      "a full list moves you on to the next; Enter confirms.")
        players_count = n_("{count} player", "{count} players",
                           PLAYERS_PER_HAND).format(count=PLAYERS_PER_HAND)
        calls_count = n_("{count} call", "{count} calls",
                         CALLS_PER_HAND).format(count=CALLS_PER_HAND)
        return words.format(players_count=players_count, calls_count=calls_count,
                            players=players, calls=calls)

    def choose(self, item: Item) -> None:
        if item.value in self.kicks:
            _kick(self.host, self.kicks, item.value)  # type: ignore[arg-type]
        else:
            self.confirm()

    def confirm(self) -> None:
        players, calls = self._picked()
        missing = []
        if len(players) < PLAYERS_PER_HAND:
            more = PLAYERS_PER_HAND - len(players)
            missing.append(n_("{count} more player", "{count} more players",
                              more).format(count=more))
        if len(calls) < CALLS_PER_HAND:
            more = CALLS_PER_HAND - len(calls)
            missing.append(n_("{count} more call", "{count} more calls", more).format(count=more))
        if missing:
            self.host.cue("menu_error")
            # Translators: {missing} is "1 more player and 2 more calls"; {counts} is
            # "1 of 2 players, 1 of 3 calls".
            self.host.say(_("Not yet: pick {missing}. You have {counts}.").format(
                missing=join_words(missing), counts=self.counts()), category="menu")
            return
        hand = Hand(tuple(players), tuple(calls))  # type: ignore[arg-type]
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

    def __init__(self, host: Host, role: Role, hand: Hand, full: bool = True) -> None:
        self.role = role
        self.hand = hand
        self.out: Card | None = None
        super().__init__(host, Menu(_("Keep or replace"), [self._main_group()]), full)

    def _main_group(self) -> Group:
        items = [Item(_("Keep"), ItemKind.BUTTON, "keep")]
        items += [Item(_("Replace {card}").format(card=_(card_name(card))), ItemKind.BUTTON, card)
                  for card in (*self.hand.players, *self.hand.calls)]
        return Group(_("Keep or replace"), items)

    def _set_group(self, group: Group) -> None:
        self.menu.groups[1] = group
        self.menu.focus_group(1)

    def prompt(self) -> str:
        if self.full:
            return _("Now you may answer their cards: keep all yours, or replace one player or "
                     "one call. Down arrow to the card to replace.")
        return _("Keep or replace?")

    def focus_words(self) -> str:
        return self.menu.describe(entering=True)

    def choose(self, item: Item) -> None:
        value = item.value
        if value == "keep":
            self.host.act(PickSwap(Swap.keep()))
        elif self.out is None:
            out = cast("Card", value)  # the menu holds only the hand's cards here
            self.out = out
            title = (_("Bring in a player for {card}:") if value in self.hand.players
                     else _("Bring in a call for {card}:")).format(card=_(card_name(out)))
            self._set_group(Group(title, [
                Item(_(card_name(swap.into)), ItemKind.BUTTON, swap.into)
                for swap in self._swaps() if swap.out == out and swap.into is not None
            ]))
            self.host.say(self.menu.describe_group())
        else:
            swap = self._bringing_in(value)
            assert swap is not None  # the bring-in list holds only the legal swaps' cards
            self.host.act(PickSwap(swap))

    def considered(self) -> Swap | None:
        """The swap whose incoming card has the focus in the bring-in list, if any (M reads
        the matchups as they would be with it)."""
        item = self.menu.item
        return None if item is None else self._bringing_in(item.value)

    def _bringing_in(self, card: object) -> Swap | None:
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
                                     if item.value == focus)
        # Translators: back in the previous list; {focus} is its title and focused entry.
        self.host.say(_("Back. {focus}").format(focus=self.menu.describe_group()))
        return True


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


# -- after the game, dialogs -------------------------------------------------------------------


class GameOverScreen(Screen):
    help_key = "game_over"

    def __init__(self, host: Host, summary: str) -> None:
        self.summary = summary
        menu = Menu(_("Game over"), [Group(_("What next"), _buttons(
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


class ConfirmScreen(Screen):
    """A yes / no question; No has the focus, Escape means No, and either closes the dialog."""

    help_key = "confirm"

    def __init__(self, host: Host, question: str, on_yes: object,
                 yes: str | None = None) -> None:
        """`yes` labels the Yes button ("Yes, quit"); None: plain "Yes"."""
        self.question = question
        self.on_yes = on_yes
        yes_label = _("Yes") if yes is None else yes
        menu = Menu(question, [Group(question, _buttons([(_("No"), "no"),
                                                         (yes_label, "yes")]))])
        super().__init__(host, menu)

    def intro(self) -> str:
        return f"{self.question} {self.menu.describe(entering=True)}"

    def on_button(self, item: Item) -> None:
        if item.value == "yes" and callable(self.on_yes):
            self.host.pop(announce=False)
            self.on_yes()
        else:
            self.host.pop()

    def on_escape(self) -> bool:
        self.host.pop()
        return True
