"""Every screen of the game, each a `Menu` plus what its buttons and Enter do.

Screens never touch the engine or audio directly; they ask their `Host` (the app) to speak, act
or change screens, so each screen stays small and testable. Dialogs are pushed on a stack and
popped, which returns focus exactly where it was.
"""

from __future__ import annotations

from typing import Protocol

from ..engine.card_model import DefCall, OffCall, Player, Role
from ..engine.cards import calls_for, card_name, players_for
from ..engine.state import CoinFace, Hand, Side, SnapChoice, Swap
from .menu import Group, Item, ItemKind, Menu
from .narration import card_label, hand_words, kick_option_words

Card = OffCall | DefCall | Player

DEFAULT_HOME = "Hawks"
DEFAULT_AWAY = "Bears"


class Host(Protocol):
    """What a screen may ask of the app."""

    def say(self, text: str, *, interrupt: bool = True, category: str = "menu") -> None: ...

    def cue(self, name: str) -> None: ...

    def act(self, choice: object) -> None: ...

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

    def intro(self) -> str:
        """Spoken when the screen first takes focus: what it is, the options, the focus."""
        return f"{self.menu.title}. {self.menu.describe_group()}"

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

    def intro(self) -> str:
        return (
            "Welcome to Sudden Death, an American football card game you play by ear. "
            "You and the computer get one drive each; every down you pick players and calls. "
            "Press F1 for help at any time. " + self.menu.describe_group()
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

    def intro(self) -> str:
        return (f"{self._prompt()}: type it and press Enter. Leave it empty for "
                f"{self._default()}.")

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
        import pygame

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
        self.host.say(self.intro(), interrupt=False, category="decision")


class CoinScreen(Screen):
    help_key = "coin"

    def __init__(self, host: Host) -> None:
        menu = Menu("Coin toss", [Group("Call the coin", _buttons(
            [("Heads", CoinFace.HEADS), ("Tails", CoinFace.TAILS)]))])
        super().__init__(host, menu)

    def intro(self) -> str:
        return "Coin toss: call it, Heads or Tails. " + self.menu.describe()

    def on_button(self, item: Item) -> None:
        self.host.act(item.value)


class SideScreen(Screen):
    help_key = "side"

    def __init__(self, host: Host) -> None:
        menu = Menu("Offense or defense", [Group("Start on", _buttons(
            [("Offense: take the ball first", Side.OFFENSE),
             ("Defense: defend first", Side.DEFENSE)]))])
        super().__init__(host, menu)

    def intro(self) -> str:
        return "You won the toss. Offense or defense first? " + self.menu.describe()

    def on_button(self, item: Item) -> None:
        self.host.act(item.value)


# -- the decisions of a down -------------------------------------------------------------------


class DecisionScreen(Screen):
    """A decision during play: Concede comes first, focus starts on the real choice."""

    def __init__(self, host: Host, menu: Menu) -> None:
        menu.groups.insert(0, _concede_group())
        menu.focus_group(1)
        super().__init__(host, menu)

    def on_button(self, item: Item) -> None:
        if item.value == "concede":
            self.host.ask_concede()
            return
        self.choose(item)

    def choose(self, item: Item) -> None:
        self.host.act(item.value)


class SnapScreen(DecisionScreen):
    help_key = "snap"

    def __init__(self, host: Host, distance: int, situation: str) -> None:
        available, kick_words = kick_option_words(distance)
        kick = Item(kick_words, ItemKind.BUTTON, SnapChoice.FIELD_GOAL, enabled=available,
                    reason=kick_words + "." if not available else "")
        items = [*_buttons([("Run a play", SnapChoice.PLAY), ("Punt", SnapChoice.PUNT)]), kick]
        self.situation = situation
        super().__init__(host, Menu("Your ball: play or kick", [Group("Before the snap", items)]))

    def intro(self) -> str:
        labels = "; ".join(item.label for item in self.menu.group.items)
        return (f"Your decision, {self.situation}: {labels}. {self.menu.describe()}")


class SelectionScreen(DecisionScreen):
    help_key = "selection"

    def __init__(self, host: Host, role: Role) -> None:
        self.role = role
        players = [self._card_item(p) for p in players_for(role)]
        calls = [self._card_item(c) for c in calls_for(role)]
        menu = Menu(
            f"Pick your {role.value} cards",
            [
                Group("Players, pick 2", players, limit=2, noun="players"),
                Group("Calls, pick 3", calls, limit=3, noun="calls"),
                Group("Confirm", [Item("Confirm selection", ItemKind.BUTTON, "confirm")]),
            ],
        )
        menu.status = self.counts
        super().__init__(host, menu)

    @staticmethod
    def _card_item(card: Card) -> Item:
        label, kind = card_label(card)
        return Item(label, ItemKind.CHECKBOX, card, note=kind)

    def _picked(self) -> tuple[list[Card], list[Card]]:
        players_group, calls_group = self.menu.groups[1], self.menu.groups[2]
        players = [item.value for item in players_group.checked()]
        calls = [item.value for item in calls_group.checked()]
        return players, calls  # type: ignore[return-value]

    def counts(self) -> str:
        players, calls = self._picked()
        return f"{len(players)} of 2 players, {len(calls)} of 3 calls"

    def intro(self) -> str:
        players = ", ".join(item.label for item in self.menu.groups[1].items)
        calls = ", ".join(item.label for item in self.menu.groups[2].items)
        return (f"Pick your {self.role.value} cards for this down: 2 players and 3 calls. "
                f"Players: {players}. Calls: {calls}. Tab moves between the lists; Space "
                f"checks; Enter confirms. {self.menu.describe_group()}")

    def choose(self, item: Item) -> None:
        self.confirm()

    def confirm(self) -> None:
        players, calls = self._picked()
        missing = []
        for have, need, noun in ((len(players), 2, "player"), (len(calls), 3, "call")):
            if have < need:
                more = need - have
                missing.append(f"{more} more {noun}{'s' if more > 1 else ''}")
        if missing:
            self.host.cue("menu_error")
            self.host.say(f"Not yet: pick {' and '.join(missing)}. You have {self.counts()}.",
                          category="menu")
            return
        self.host.act(Hand(tuple(players), tuple(calls)))  # type: ignore[arg-type]


class SubstitutionScreen(DecisionScreen):
    """Keep, or replace one player or one call: out first, then in; Escape steps back."""

    help_key = "substitution"

    def __init__(self, host: Host, role: Role, hand: Hand) -> None:
        self.role = role
        self.hand = hand
        self.kind = ""  # "", "player" or "call"
        self.out: Card | None = None
        super().__init__(host, Menu("Substitution", [self._main_group()]))

    def _main_group(self) -> Group:
        return Group("Keep or replace", _buttons([
            ("Keep all cards", "keep"),
            ("Replace a player", "player"),
            ("Replace a call", "call"),
        ]))

    def _set_group(self, group: Group) -> None:
        self.menu.groups[1] = group
        self.menu.focus_group(1)

    def intro(self) -> str:
        return (f"Substitution. You hold {hand_words(self.hand)}. Keep all cards, replace a "
                f"player, or replace a call. {self.menu.describe()}")

    def choose(self, item: Item) -> None:
        value = item.value
        if value == "keep":
            self.host.act(Swap.keep())
        elif value in ("player", "call"):
            self.kind = str(value)
            held = self.hand.players if value == "player" else self.hand.calls
            self._set_group(Group(f"Take out which {value}?", [
                Item(card_name(card), ItemKind.BUTTON, ("out", card), note=str(value))
                for card in held
            ]))
            self.host.say(f"Take out which {value}? {self.menu.describe()}")
        elif isinstance(value, tuple) and value[0] == "out":
            self.out = value[1]
            held = self.hand.players if self.kind == "player" else self.hand.calls
            pool = players_for(self.role) if self.kind == "player" else calls_for(self.role)
            self._set_group(Group(f"Bring in which {self.kind} for {card_name(value[1])}?", [
                Item(card_name(card), ItemKind.BUTTON, ("in", card), note=self.kind)
                for card in pool if card not in held
            ]))
            self.host.say(f"Bring in which {self.kind} for {card_name(value[1])}? "
                          f"{self.menu.describe()}")
        elif isinstance(value, tuple) and value[0] == "in" and self.out is not None:
            if self.kind == "player":
                self.host.act(Swap.player(self.out, value[1]))  # type: ignore[arg-type]
            else:
                self.host.act(Swap.call(self.out, value[1]))

    def on_escape(self) -> bool:
        if not self.kind:
            return False
        self.kind, self.out = "", None
        self._set_group(self._main_group())
        self.host.say(f"Back. Keep or replace. {self.menu.describe()}")
        return True


class FinalCallScreen(DecisionScreen):
    help_key = "final"

    def __init__(self, host: Host, role: Role, hand: Hand) -> None:
        items = [
            Item(card_name(call), ItemKind.BUTTON, call, note="call") for call in hand.calls
        ]
        super().__init__(host, Menu("Final call", [Group("Your final call", items)]))

    def intro(self) -> str:
        labels = ", ".join(item.label for item in self.menu.group.items)
        return f"Final call: which play is it? {labels}. {self.menu.describe()}"


# -- after the game, dialogs -------------------------------------------------------------------


class GameOverScreen(Screen):
    help_key = "game_over"

    def __init__(self, host: Host, summary: str) -> None:
        self.summary = summary
        menu = Menu("Game over", [Group("What next", _buttons(
            [("Play again", "again"), ("Quit", "quit")]))])
        super().__init__(host, menu)

    def intro(self) -> str:
        return f"Game over. Play again or quit? {self.menu.describe()}"

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
        return f"{self.question} {self.menu.describe()}"

    def on_button(self, item: Item) -> None:
        if item.value == "yes" and callable(self.on_yes):
            self.host.pop(announce=False)
            self.on_yes()
        else:
            self.host.pop()

    def on_escape(self) -> bool:
        self.host.pop()
        return True
