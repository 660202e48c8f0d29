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
from .game_words import KickOption, hand_words
from .menu import NORMAL_DETAIL, SHORT_DETAIL, Group, Item, ItemKind, Menu

Card = OffCall | DefCall | Player

DEFAULT_HOME = "Hawks"
DEFAULT_AWAY = "Bears"


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
        self.host.say("Press Enter on a button to choose.", category="menu")
        self.host.cue("menu_error")

    def on_escape(self) -> bool:
        """Escape: True when the screen handled it (a dialog closes, a step goes back)."""
        return False


def _buttons(labels: list[tuple[str, object]]) -> list[Item]:
    return [Item(label, ItemKind.BUTTON, value) for label, value in labels]


def _concede_group() -> Group:
    return Group("Concede", [Item("Concede the game", ItemKind.BUTTON, "concede")])


# -- before the game ---------------------------------------------------------------------------


class WelcomeScreen(Screen):
    help_key = "welcome"

    def __init__(self, host: Host) -> None:
        menu = Menu("Welcome", [Group("Main menu", _buttons(
            [("Start a game", "start"), ("Guided first down", "tutorial"),
             ("How to play", "rules"), ("Settings", "settings"), ("Quit", "quit")]))])
        super().__init__(host, menu)

    def prompt(self) -> str:
        return (
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
        return "Your team's name" if not self.names else "The computer team's name"

    def _default(self) -> str:
        return DEFAULT_HOME if not self.names else DEFAULT_AWAY

    def _build(self) -> Menu:
        shown = self.text or f"(empty: Enter takes {self._default()})"
        return Menu("Name the teams", [Group(self._prompt(), [Item(shown, ItemKind.TEXT)])])

    def prompt(self) -> str:
        return (f"{self._prompt()}: type it and press Enter. Leave it empty for "
                f"{self._default()}.")

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
            self.host.say("space" if char == " " else char, category="echo")
        self._refresh()
        return True

    def handle_key(self, key: int, mod: int) -> bool:
        if key == pygame.K_BACKSPACE:
            if not self.text:
                self.host.say("Nothing to remove; the name is empty.", category="echo")
                self.host.cue("menu_edge")
            else:
                removed, self.text = self.text[-1], self.text[:-1]
                spoken = "space" if removed == " " else removed
                self.host.say(f"Removed {spoken}.", category="echo")
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
            self.host.say(f"No name typed, so the default: {name}.", category="echo",
                          interrupt=True)
        else:
            self.host.say(f"Name set: {name}.", category="echo")
        self.names.append(name)
        self.text = ""
        if len(self.names) == 2:
            self.host.names_chosen(self.names[0], self.names[1])
            return
        self._refresh()
        self.host.say(self.prompt(), interrupt=False, category="decision")


class CoinScreen(Screen):
    help_key = "coin"

    def __init__(self, host: Host) -> None:
        menu = Menu("Coin toss", [Group("Call the coin", _buttons(
            [("Heads", CallCoin(CoinFace.HEADS)), ("Tails", CallCoin(CoinFace.TAILS))]))])
        super().__init__(host, menu)

    def prompt(self) -> str:
        return "Coin toss: heads or tails?"

    def focus_words(self) -> str:
        return self.menu.describe(entering=True)

    def on_button(self, item: Item) -> None:
        self.host.act(cast("Action", item.value))  # the button holds its action


class SideScreen(Screen):
    help_key = "side"

    def __init__(self, host: Host) -> None:
        menu = Menu("Offense or defense", [Group("Start on", _buttons(
            [("Offense: take the ball first", ChooseSide(Side.OFFENSE)),
             ("Defense: defend first", ChooseSide(Side.DEFENSE))]))])
        super().__init__(host, menu)

    def prompt(self) -> str:
        return "Take the ball first, or defend first?"

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
                                yes="Yes, kick"))
    else:
        host.act(ChooseSnap(choice))


class SnapScreen(DecisionScreen):
    """Fourth down on offense: go for it, or a kick whose label says what it would do. (On the
    other downs the kicks wait at the end of the card screen, so no key is spent on them.)"""

    help_key = "snap"

    def __init__(self, host: Host, kicks: Kicks, fourth: str, full: bool = True) -> None:
        self.kicks = kicks
        items = [Item("Go for it", ItemKind.BUTTON, ChooseSnap(SnapChoice.PLAY)),
                 *_kick_items(kicks)]
        self.fourth = fourth  # the field goal in one clause
        super().__init__(host, Menu("Fourth down", [Group("Fourth down", items)]), full)

    def prompt(self) -> str:
        if self.full:
            return ("Fourth down: go for it with your cards, punt, or try a field goal. Down "
                    f"arrow to a kick to hear where it lands or its chance; {self.fourth}.")
        return f"Fourth down, {self.fourth}."

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
            Group("Players", players, limit=PLAYERS_PER_HAND, noun="players"),
            Group("Calls", calls, limit=CALLS_PER_HAND, noun="calls"),
            Group("Confirm", [Item("Confirm these cards", ItemKind.BUTTON, "confirm")]),
        ]
        if self.kicks:
            groups.append(Group("Or kick instead", _kick_items(self.kicks)))
        menu = Menu(f"Your {role.value} cards", groups)
        menu.status = self.after_toggle
        super().__init__(host, menu, full)

    @staticmethod
    def _card_item(card: Card, held: set[Card]) -> Item:
        return Item(card_name(card), ItemKind.CHECKBOX, card, checked=card in held)

    def _picked(self) -> tuple[list[Card], list[Card]]:
        players_group, calls_group = self.menu.groups[1], self.menu.groups[2]
        players = [item.value for item in players_group.checked()]
        calls = [item.value for item in calls_group.checked()]
        return players, calls  # type: ignore[return-value]

    def counts(self) -> str:
        players, calls = self._picked()
        return (f"{len(players)} of {PLAYERS_PER_HAND} players, "
                f"{len(calls)} of {CALLS_PER_HAND} calls")

    def after_toggle(self) -> str:
        """The toggled list's count; when it is full, the focus moves on to the open list."""
        toggled = self.menu.group
        count = f"{len(toggled.checked())} of {toggled.limit}"
        if self.menu.detail > NORMAL_DETAIL:
            count += f" {toggled.noun}"
        lists = self.menu.groups[1:3]
        if toggled.limit is None or len(toggled.checked()) < toggled.limit:
            return count
        open_lists = [group for group in lists if len(group.checked()) < (group.limit or 0)]
        if not open_lists:  # short verbosity trusts the player to know Enter
            return f"{count}." if self.menu.detail == SHORT_DETAIL else f"{count}. Enter confirms."
        self.menu.focus_group(self.menu.groups.index(open_lists[0]))
        return f"{count}. {self.menu.describe_group()}"

    def prompt(self) -> str:
        again = ""
        if self.again is not None and self.menu.detail > SHORT_DETAIL:
            again = f": {hand_words(self.again)}."
            if self.teach_again:
                again += (" Last down's cards are checked again: Enter plays them, or change a "
                          "card first.")
        if not self.full:
            return f"Your cards{again or '.'}"
        players = ", ".join(item.label for item in self.menu.groups[1].items)
        calls = ", ".join(item.label for item in self.menu.groups[2].items)
        kicks = " To punt or kick a field goal instead, Tab past Confirm." if self.kicks else ""
        return (f"Pick your {self.role.value} cards for this down: {PLAYERS_PER_HAND} players "
                f"and {CALLS_PER_HAND} calls. Players: {players}. Calls: {calls}. Space checks "
                f"a card; a full list moves you on to the next; Enter confirms.{kicks}"
                + (f" Checked from last down{again}" if again else ""))

    def choose(self, item: Item) -> None:
        if item.value in self.kicks:
            _kick(self.host, self.kicks, item.value)  # type: ignore[arg-type]
        else:
            self.confirm()

    def confirm(self) -> None:
        players, calls = self._picked()
        missing = []
        for have, need, noun in ((len(players), PLAYERS_PER_HAND, "player"),
                                 (len(calls), CALLS_PER_HAND, "call")):
            if have < need:
                missing.append(f"{need - have} more {noun}{'s' if need - have > 1 else ''}")
        if missing:
            self.host.cue("menu_error")
            self.host.say(f"Not yet: pick {' and '.join(missing)}. You have {self.counts()}.",
                          category="menu")
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
        super().__init__(host, Menu("Keep or replace", [self._main_group()]), full)

    def _main_group(self) -> Group:
        items = [Item("Keep", ItemKind.BUTTON, "keep")]
        items += [Item(f"Replace {card_name(card)}", ItemKind.BUTTON, card)
                  for card in (*self.hand.players, *self.hand.calls)]
        return Group("Keep or replace", items)

    def _set_group(self, group: Group) -> None:
        self.menu.groups[1] = group
        self.menu.focus_group(1)

    def prompt(self) -> str:
        if self.full:
            return ("Now you may answer their cards: keep all yours, or replace one player or "
                    "one call. Down arrow to the card to replace.")
        return "Keep or replace?"

    def focus_words(self) -> str:
        return self.menu.describe(entering=True)

    def choose(self, item: Item) -> None:
        value = item.value
        if value == "keep":
            self.host.act(PickSwap(Swap.keep()))
        elif self.out is None:
            out = cast("Card", value)  # the menu holds only the hand's cards here
            self.out = out
            kind = "player" if value in self.hand.players else "call"
            self._set_group(Group(f"Bring in a {kind} for {card_name(out)}:", [
                Item(card_name(swap.into), ItemKind.BUTTON, swap.into)
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
        self.host.say(f"Back. {self.menu.describe_group()}")
        return True


class FinalCallScreen(DecisionScreen):
    help_key = "final"

    def __init__(self, host: Host, role: Role, hand: Hand, full: bool = True) -> None:
        items = [Item(card_name(call), ItemKind.BUTTON, call) for call in hand.calls]
        super().__init__(host, Menu("Final call", [Group("Your final call", items)]), full)

    def choose(self, item: Item) -> None:
        self.host.act(PickFinal(cast("OffCall | DefCall", item.value)))

    def prompt(self) -> str:
        if self.full:
            return "Final call: which of your three calls is the play?"
        return "Final call?"

    def focus_words(self) -> str:
        return self.menu.describe(entering=True)


# -- after the game, dialogs -------------------------------------------------------------------


class GameOverScreen(Screen):
    help_key = "game_over"

    def __init__(self, host: Host, summary: str) -> None:
        self.summary = summary
        menu = Menu("Game over", [Group("What next", _buttons(
            [("Play again", "again"), ("Quit", "quit")]))])
        super().__init__(host, menu)

    def prompt(self) -> str:
        return "Play again or quit?"

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

    def __init__(self, host: Host, question: str, on_yes: object, yes: str = "Yes") -> None:
        self.question = question
        self.on_yes = on_yes
        menu = Menu(question, [Group(question, _buttons([("No", "no"), (yes, "yes")]))])
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
