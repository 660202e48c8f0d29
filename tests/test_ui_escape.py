"""Where Escape goes, on every screen the app can put on its stack (issue 48).

Each screen is opened as a player opens it (its keys from the title screen, or a game played
to it with `game_script.plan_game`), or, where that needs a table or the home network, shown
or pushed the way `ui/friends.py` does. Every key, Escape included, is posted as pygame's own
events and handled by the loop's `_dispatch`, as a keyboard's are. What Escape does follows the
SPEC's keys: a dialog or a step closes and the focus goes back where it was ("Back. ..."); on
a decision in the game, and on the title screen, the quit question. The list of screens is the
code's own: `test_every_screen_is_heard_on_escape` fails for a new `Screen` subclass until it
has a case here, so no screen can escape this test.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from app_driver import keys, started_app
from game_script import plan_game
from recording import RecordingSpeaker

import sudden_death.ui
from sudden_death.engine.actions import Concede
from sudden_death.engine.match import Match
from sudden_death.engine.state import Team
from sudden_death.storage.record import Opponent
from sudden_death.ui.aids.how_to_play import RulesScreen
from sudden_death.ui.aids.keys_screen import KeyCapture, KeysScreen
from sudden_death.ui.aids.record_screen import PastGameScreen, RecordScreen
from sudden_death.ui.aids.settings_screen import SETTING_KEYS, SettingsScreen
from sudden_death.ui.aids.sound_glossary import SoundGlossaryScreen
from sudden_death.ui.aids.typed_settings import (
    PasswordSettingScreen,
    ServerAddressScreen,
    TypedSetting,
)
from sudden_death.ui.app import App
from sudden_death.ui.screens.base import ConfirmScreen, Screen
from sudden_death.ui.screens.decisions import (
    CoinScreen,
    DecisionScreen,
    FinalCallScreen,
    GameOverScreen,
    SideScreen,
    SnapScreen,
)
from sudden_death.ui.screens.explorer import (
    BandRulesScreen,
    CardListScreen,
    DefCallScreen,
    ExplorerHome,
    ExplorerScreen,
    OffCallScreen,
    PlayerScreen,
    TryMatchupScreen,
)
from sudden_death.ui.screens.friend import (
    ChatScreen,
    CodeScreen,
    FriendScreen,
    NearbyScreen,
    PasswordScreen,
    TableWaitScreen,
)
from sudden_death.ui.screens.hands import SelectionScreen, SubstitutionScreen
from sudden_death.ui.screens.online import (
    AccountNameScreen,
    AccountPasswordScreen,
    AccountScreen,
    LobbyScreen,
    RatingScreen,
    ServerScreen,
)
from sudden_death.ui.screens.series_setup import SeriesScreen
from sudden_death.ui.screens.welcome import NamingScreen, TypingScreen, WelcomeScreen
from sudden_death.wire.protocol import LobbyList

SEED = 4  # plan_game(4) passes every decision screen: the coin, the side, a fourth down...
WHEN = "2026-12-01T21:40:00+00:00"
# Bases that are never on the stack themselves, only their subclasses (each has cases).
BASES = {Screen, TypingScreen, TypedSetting, DecisionScreen, ExplorerScreen}

# Back on the title screen: the welcome was said in full when the run began (issue 59, 9).
WELCOME = ("Title screen.", "Main menu: Start a game, 1 of 12")
FRIEND = ("Play a friend on another computer: host a table and tell them its code, or join "
          "theirs.", "Play a friend: Host a table, 1 of 4")
QUIT = ("Quit Sudden Death? No, 1 of 2",)
QUIT_KEPT = ("Quit Sudden Death? Your game is kept for next time. No, 1 of 2",)

# The title screen's buttons, by the number of Down presses from the first.
SETTINGS, RULES, SOUNDS, SERIES, RECORD, ONLINE, A_FRIEND = 4, 2, 3, 5, 6, 7, 10
# 8: Your rating; 9: Report a problem


def title(button: int, *then: str) -> list[str]:
    """The title screen's `button` pressed, then `then`."""
    return ["down"] * button + ["return", *then]


def settings_line(key: str) -> list[str]:
    """Enter on the settings line of `key`."""
    return title(SETTINGS, *["down"] * SETTING_KEYS.index(key), "return")


Opener = Callable[[App], None]


def pressing(*lines: str) -> Opener:
    return lambda app: keys(app, *lines)


def playing_to(kind: type[Screen], *then: str) -> Opener:
    """The seeded game played from the title screen until `kind` asks, then `then`."""
    def opener(app: App) -> None:
        for line in plan_game(SEED)[0]:
            if isinstance(app.top, kind):
                break
            keys(app, line)
        assert isinstance(app.top, kind)
        keys(app, *then)
    return opener


def with_table_server(*lines: str) -> Opener:
    """A table server set (so joining asks for a code), then `lines`."""
    def opener(app: App) -> None:
        app.comfort.change(app.comfort.settings.changed(table_server="wss://example.org"))
        keys(app, *lines)
    return opener


def nearby(*lines: str) -> Opener:
    """Join a table with no table server: the tables nearby, pushed as
    `Friends.look_nearby` pushes them (without listening on the network), then `lines`."""
    def opener(app: App) -> None:
        keys(app, *title(A_FRIEND, "down", "return"))  # Join a table: the name asked
        assert isinstance(app.top, NamingScreen)
        app.push(NearbyScreen(app, "Hawks"))
        keys(app, *lines)
    return opener


def with_a_past_game(*lines: str) -> Opener:
    """One game in the record (conceded at once, a loss at 0 to 0), then `lines`."""
    def opener(app: App) -> None:
        match = Match.against_computer(SEED)
        steps = [match.advance(), match.play([Concede()])[0]]
        app.keeper.record.add(WHEN, Opponent.COMPUTER, "Hawks", "Bears", Team.HOME, steps,
                              "The Hawks conceded.")
        keys(app, *lines)
    return opener


def shown(make: Callable[[App], Screen]) -> Opener:
    """A screen the app shows as the whole stack (a table's screens, from `ui/friends.py`)."""
    return lambda app: app.show(make(app))


def shown_then(make: Callable[[App], Screen], *lines: str) -> Opener:
    def opener(app: App) -> None:
        app.show(make(app))
        keys(app, *lines)
    return opener


def pushed_over_a_decision(make: Callable[[App], Screen]) -> Opener:
    def opener(app: App) -> None:
        playing_to(CoinScreen)(app)
        app.push(make(app))
    return opener


@dataclass(frozen=True)
class Case:
    """A screen on top, opened by `open`; after Escape, the stack (its screens' types, the
    bottom first) and every word said."""

    id: str
    screen: type[Screen]
    open: Opener
    stack: tuple[type[Screen], ...]
    words: tuple[str, ...]


CASES = [
    # -- before a game --------------------------------------------------------------------
    Case("title", WelcomeScreen, pressing(), (WelcomeScreen, ConfirmScreen), QUIT),
    Case("quit question", ConfirmScreen, pressing("escape"), (WelcomeScreen,),
         ("Back. Main menu: Start a game, 1 of 12",)),
    Case("settings", SettingsScreen, pressing(*title(SETTINGS)), (WelcomeScreen,),
         ("Back. Main menu: Settings, 5 of 12",)),
    Case("keys", KeysScreen, pressing(*title(SETTINGS, "end", "up", "up", "up", "return")),
         (WelcomeScreen, SettingsScreen),
         ("Back. Settings: Keys and controller buttons, 28 of 31",)),
    Case("keys on Done", KeysScreen,
         pressing(*title(SETTINGS, "end", "up", "up", "up", "return", "end")),
         (WelcomeScreen, SettingsScreen),
         ("Back. Settings: Keys and controller buttons, 28 of 31",)),
    Case("a key waited for", KeyCapture,
         pressing(*title(SETTINGS, "end", "up", "up", "up", "return", "return")),
         (WelcomeScreen, SettingsScreen, KeysScreen),
         ("Unchanged. Next control: Tab; controller: right shoulder",)),
    Case("table server", ServerAddressScreen, pressing(*settings_line("table_server")),
         (WelcomeScreen, SettingsScreen), ("The table server is unchanged.",)),
    Case("table password", PasswordSettingScreen, pressing(*settings_line("table_password")),
         (WelcomeScreen, SettingsScreen), ("The table password is unchanged.",)),
    Case("how to play", RulesScreen, pressing(*title(RULES)), (WelcomeScreen,),
         ("Back. Main menu: How to play, 3 of 12",)),
    Case("sounds", SoundGlossaryScreen, pressing(*title(SOUNDS)), (WelcomeScreen,),
         ("Back. Main menu: Sounds of the game, 4 of 12",)),
    Case("record", RecordScreen, pressing(*title(RECORD)), (WelcomeScreen,),
         ("Back. Main menu: Your record, 7 of 12",)),
    Case("a past game", PastGameScreen,
         with_a_past_game(*title(RECORD, "down", "down", "return")),
         (WelcomeScreen, RecordScreen),
         ("Back. Your record: December 1, 21:40: Hawks 0, Bears 0, a loss to the computer, "
          "3 of 3",)),
    Case("series", SeriesScreen, pressing(*title(SERIES)), (WelcomeScreen,), WELCOME),
    Case("naming", NamingScreen, pressing(*title(0)), (WelcomeScreen,), WELCOME),
    Case("naming the other team", NamingScreen, pressing(*title(0, "return")),
         (WelcomeScreen,), WELCOME),
    Case("naming for a series", NamingScreen, pressing(*title(SERIES, "return")),
         (WelcomeScreen,), WELCOME),
    # -- a friend -------------------------------------------------------------------------
    Case("play a friend", FriendScreen, pressing(*title(A_FRIEND)), (WelcomeScreen,), WELCOME),
    Case("naming to host", NamingScreen, pressing(*title(A_FRIEND, "return")),
         (FriendScreen,), ("Back. Play a friend: Host a table, 1 of 4",)),
    Case("a table's series", SeriesScreen, pressing(*title(A_FRIEND, "down", "down", "return")),
         (FriendScreen,), ("Back. Play a friend: Host a series, 3 of 4",)),
    Case("naming to host a series", NamingScreen,
         pressing(*title(A_FRIEND, "down", "down", "return", "return")),
         (FriendScreen, SeriesScreen), ("Back. Play a series: Best of 3, 2 of 4",)),
    Case("naming to join", NamingScreen,
         with_table_server(*title(A_FRIEND, "down", "return")),
         (FriendScreen,), ("Back. Play a friend: Join a table, 2 of 4",)),
    Case("a table's code", CodeScreen,
         with_table_server(*title(A_FRIEND, "down", "return", "return", "type 12")),
         (FriendScreen,), FRIEND),
    Case("tables nearby", NearbyScreen, nearby(), (FriendScreen,), FRIEND),
    Case("the host's address", CodeScreen,
         nearby("end", "return", "type 123456", "return"),
         (FriendScreen, NamingScreen, NearbyScreen, CodeScreen),
         ("Back. Table code: 123456, 1 of 1",)),
    Case("a table's password", PasswordScreen,
         shown(lambda app: PasswordScreen(app, lambda typed: None)), (FriendScreen,), FRIEND),
    Case("waiting at a table", TableWaitScreen,
         shown(lambda app: TableWaitScreen(app, "Connecting to the table.")),
         (WelcomeScreen,), WELCOME),
    Case("waiting for the friend's choice", TableWaitScreen,
         shown(lambda app: TableWaitScreen(app, "Waiting for the Bears.", in_game=True)),
         (TableWaitScreen, ConfirmScreen), QUIT),
    Case("chat", ChatScreen, pushed_over_a_decision(ChatScreen), (CoinScreen,),
         ("Not sent.",)),
    # -- online ---------------------------------------------------------------------------
    Case("the server's address", ServerScreen, pressing(*title(ONLINE, "type example")),
         (WelcomeScreen,), WELCOME),
    Case("your name on a server", AccountScreen, shown(AccountScreen), (WelcomeScreen,),
         WELCOME),
    Case("a new name", AccountNameScreen, shown_then(AccountScreen, "return", "type Anna"),
         (AccountScreen,), ("Back. Your name on this server: A new name, 1 of 4",)),
    Case("a password", AccountPasswordScreen,
         shown_then(AccountScreen, "down", "return", "type Anna", "return", "type pass"),
         (AccountScreen, AccountNameScreen), ("Back. Your name: Anna, 1 of 1",)),
    Case("the lobby", LobbyScreen, shown(lambda app: LobbyScreen(app, LobbyList([], [], []), "")),
         (WelcomeScreen,), WELCOME),
    Case("your rating", RatingScreen,
         shown(lambda app: RatingScreen(app, ["Your rating: 1520, 1st of 2."])),
         (WelcomeScreen,), WELCOME),
    # -- the explorer ---------------------------------------------------------------------
    Case("explorer", ExplorerHome, pressing("e"), (WelcomeScreen,),
         ("Explorer closed. Main menu: Start a game, 1 of 12",)),
    Case("explorer in a game", ExplorerHome, playing_to(SelectionScreen, "e"),
         (SelectionScreen,), ("Explorer closed. Players: Power Back, 1 of 4",)),
    Case("explorer's cards", CardListScreen, pressing("e", "return"),
         (WelcomeScreen, ExplorerHome), ("Back. Explorer: Offensive calls, 1 of 7",)),
    Case("an offensive call", OffCallScreen, pressing("e", "return", "return"),
         (WelcomeScreen, ExplorerHome, CardListScreen),
         ("Back. Offensive calls: Inside Run, run play, 1 of 7",)),
    Case("a defensive call", DefCallScreen, pressing("e", "down", "return", "return"),
         (WelcomeScreen, ExplorerHome, CardListScreen),
         ("Back. Defensive calls: Stack the Box, defensive call, 1 of 7",)),
    Case("a player", PlayerScreen, pressing("e", "down", "down", "return", "return"),
         (WelcomeScreen, ExplorerHome, CardListScreen),
         ("Back. Offensive players: Power Back, boosts Inside Run, 1 of 5",)),
    Case("the band's rules", BandRulesScreen, pressing("e", *["down"] * 4, "return"),
         (WelcomeScreen, ExplorerHome), ("Back. Explorer: How the band is made, 5 of 7",)),
    Case("a matchup tried", TryMatchupScreen, pressing("e", *["down"] * 5, "return"),
         (WelcomeScreen, ExplorerHome), ("Back. Explorer: Try a matchup, 6 of 7",)),
    # -- in the game: Escape asks to quit -----------------------------------------------------
    Case("the coin", CoinScreen, playing_to(CoinScreen), (CoinScreen, ConfirmScreen),
         QUIT_KEPT),
    Case("the side", SideScreen, playing_to(SideScreen), (SideScreen, ConfirmScreen),
         QUIT_KEPT),
    Case("the hand", SelectionScreen, playing_to(SelectionScreen),
         (SelectionScreen, ConfirmScreen), QUIT_KEPT),
    Case("the swap", SubstitutionScreen, playing_to(SubstitutionScreen),
         (SubstitutionScreen, ConfirmScreen), QUIT_KEPT),
    Case("the bring-in list", SubstitutionScreen,
         playing_to(SubstitutionScreen, "down", "down", "return"), (SubstitutionScreen,),
         ("Back. Keep or replace: Replace Scatback, 3 of 6",)),
    Case("the final call", FinalCallScreen, playing_to(FinalCallScreen),
         (FinalCallScreen, ConfirmScreen), QUIT_KEPT),
    Case("fourth down", SnapScreen, playing_to(SnapScreen), (SnapScreen, ConfirmScreen),
         QUIT_KEPT),
    Case("game over", GameOverScreen, playing_to(GameOverScreen),
         (GameOverScreen, ConfirmScreen), QUIT),
    Case("a review section", SelectionScreen, playing_to(SelectionScreen, "h"),
         (SelectionScreen,), ("Current decision. Players: Power Back, 1 of 4",)),
    Case("the guided first drive", CoinScreen, pressing(*title(1)),
         (CoinScreen, ConfirmScreen), QUIT_KEPT),
    Case("concede question", ConfirmScreen,
         playing_to(SelectionScreen, "shift+tab", "return"), (SelectionScreen,),
         ("Back. Concede: Concede the game, 1 of 1",)),
    Case("explorer over the quit question", ExplorerHome,
         playing_to(SelectionScreen, "escape", "e"), (SelectionScreen, ConfirmScreen),
         ("Explorer closed. " + QUIT_KEPT[0],)),
    Case("quit question in a game", ConfirmScreen, playing_to(SelectionScreen, "escape"),
         (SelectionScreen,), ("Back. Players: Power Back, 1 of 4",)),
]


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_escape_goes_where_the_spec_says_and_says_so(tmp_path: Path, case: Case) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker, seed=SEED)
    case.open(app)
    assert type(app.top) is case.screen
    heard = len(speaker.spoken)
    keys(app, "escape")
    assert tuple(type(screen) for screen in app.stack) == case.stack
    assert tuple(message.text for message in speaker.spoken[heard:]) == case.words
    assert app.running


def screen_classes() -> set[type[Screen]]:
    """Every `Screen` subclass in the front end, each module of `sudden_death.ui` imported."""
    for module in pkgutil.walk_packages(sudden_death.ui.__path__, "sudden_death.ui."):
        importlib.import_module(module.name)
    found: set[type[Screen]] = set()
    todo = [Screen]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub.__module__.startswith("sudden_death.") and sub not in found:
                found.add(sub)
                todo.append(sub)
    return found


def test_every_screen_is_heard_on_escape() -> None:
    """A new screen fails here until a case above opens it and says where Escape goes."""
    screens = screen_classes()
    covered = {case.screen for case in CASES}
    assert screens - BASES - covered == set()
    assert covered <= screens  # each case names a real screen
    # Each base left out is a base: its subclasses are the screens, and they are covered.
    for base in BASES:
        assert base not in covered
        assert {sub for sub in screens if issubclass(sub, base)} - BASES <= covered
