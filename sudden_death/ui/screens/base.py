"""What every screen is: the `Host` it talks to, the `Screen` base, and the yes / no dialog."""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Protocol

from ...audio.protocols import Category
from ...engine.actions import Action
from ...language import _
from ...wire.protocol import GamePlayed, OpenTable
from ..keys.keymap import Command, Context, KeyMap
from .menu import Group, Item, ItemKind, Menu


class Extra(Enum):
    """What the title screen (and keys anywhere) open beside a game."""

    SETTINGS = "settings"
    RULES = "rules"  # How to play
    LESSON = "lesson"  # the guided first down
    SOUNDS = "sounds"  # the sound glossary
    REPORT = "report"  # Report a problem: a file for whoever helps the player


class TableRequests(Protocol):
    """What screens ask of the table side (`ui/friends.py`)."""

    def needs_address(self) -> bool: ...

    def host_table(self, name: str, best_of: int = 1, replay_ties: bool = False) -> None: ...

    def join_table(self, name: str, code: str, address: str | None) -> None: ...

    def resume_table(self) -> None: ...

    def look_nearby(self, name: str) -> None: ...

    def send_chat(self, text: str) -> None: ...

    def leave(self) -> None: ...

    def back_to_lobby(self) -> None: ...


class OnlineRequests(Protocol):
    """What screens ask of online play (`ui/online.py`)."""

    def open(self) -> None: ...

    def rating(self) -> None: ...

    def server_typed(self, typed: str) -> None: ...

    def sign(self, new: bool, name: str, password: str) -> None: ...

    def without_name(self) -> None: ...

    def quick(self) -> None: ...

    def join(self, table: OpenTable) -> None: ...

    def open_table(self) -> None: ...

    def leave(self) -> None: ...

    def chat(self) -> None: ...

    def watch(self, game: GamePlayed) -> None: ...

    def play_computer(self) -> None: ...

    def mute(self, name: str, team: bool = False) -> None: ...

    def is_muted(self, name: str) -> bool: ...


class KeeperRequests(Protocol):
    """What screens ask of what the app keeps (`ui/files/keeping.py`): the game in progress, a
    series, the record."""

    def start_naming(self) -> None: ...

    def resume_game(self) -> None: ...

    def open_series(self) -> None: ...

    def start_series(self, best_of: int, replay_ties: bool) -> None: ...

    def go_on_with_series(self) -> None: ...

    def open_record(self) -> None: ...


class Host(Protocol):
    """What a screen may ask of the app."""

    keys: KeyMap  # the keys in force: what a sentence that names a key says (`keys.fill`)

    def say(self, text: str, *, interrupt: bool = True,
            category: Category = Category.MENU) -> None: ...

    def cue(self, name: str) -> None: ...

    def act(self, *actions: Action) -> None: ...

    def push(self, screen: Screen) -> None: ...

    def pop(self, announce: bool = True) -> None: ...

    def ask_concede(self) -> None: ...

    def names_chosen(self, home: str, away: str) -> None: ...

    def start(self) -> None: ...

    def play_friend(self) -> None: ...

    @property
    def friends(self) -> TableRequests:
        """Playing a friend: opening, joining and leaving a table, its chat."""
        ...

    @property
    def online(self) -> OnlineRequests:
        """Playing online: the server, your name, the lobby."""
        ...

    @property
    def keeper(self) -> KeeperRequests:
        """A series and the record."""
        ...

    def play_again(self) -> None: ...

    def ask_quit(self) -> None: ...

    def quit(self) -> None: ...

    def open_extra(self, extra: Extra) -> None: ...


class Screen:
    """A screen: a menu, the words said when it takes focus, and what its buttons do."""

    help_key = ""
    key_context = Context.GAME  # where its own keys are looked up first (keymap.Context)
    takes_text = False  # True: keys that type a character type it, instead of acting

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

    def on_command(self, command: Command) -> bool:
        """A key's command, offered to the screen before the app's own meaning of it (its
        context's commands first, then the game's); True when the screen used it."""
        return False

    def handle_text(self, text: str) -> bool:
        return False

    def on_button(self, item: Item) -> None:
        """A focused button was pressed: it does what it carries."""
        if item.press is not None:
            item.press()

    def confirm(self) -> None:
        """Enter on something that is not a button: confirm the decision if the screen has one."""
        # Translators: {activate} is a key, as "Enter".
        self.host.say(self.host.keys.fill(_("Press {activate} on a button to choose.")),
                      category=Category.MENU)
        self.host.cue("menu_error")

    def on_escape(self) -> bool:
        """Escape: True when the screen handled it (a dialog closes, a step goes back)."""
        return False


def buttons(labels: list[tuple[str, Callable[[], None]]]) -> list[Item]:
    """Buttons, each with what pressing it does."""
    return [Item(label, ItemKind.BUTTON, press=press) for label, press in labels]


class ConfirmScreen(Screen):
    """A yes / no question; No has the focus, Escape means No, and either closes the dialog."""

    help_key = "confirm"

    def __init__(self, host: Host, question: str, on_yes: Callable[[], None],
                 yes: str | None = None) -> None:
        """`yes` labels the Yes button ("Yes, quit"); None: plain "Yes"."""
        self.question = question
        self.on_yes = on_yes
        yes_label = _("Yes") if yes is None else yes
        menu = Menu(question, [Group(question, buttons([(_("No"), self.no),
                                                         (yes_label, self.yes)]))])
        super().__init__(host, menu)

    def intro(self) -> str:
        return f"{self.question} {self.menu.describe(entering=True)}"

    def yes(self) -> None:
        self.host.pop(announce=False)
        self.on_yes()

    def no(self) -> None:
        self.host.pop()

    def on_escape(self) -> bool:
        self.host.pop()
        return True

