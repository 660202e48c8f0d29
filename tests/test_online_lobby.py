"""Play online on the game's side (issue 49): the lobby read aloud and kept in step with the
server's lists, its letters and its news, and signing in by ear with every refusal said and
put right. The keys are pygame's own events through the loop's `_dispatch`; the lists are
the server's messages handed to `Online` as the line hands them. The whole road, with real
game processes and a real server, is tests/test_online_game.py."""

from __future__ import annotations

import time
from pathlib import Path

from app_driver import keys, started_app
from recording import RecordingCues, RecordingSpeaker

from sudden_death.storage.sign_in_file import SignIn, load_sign_in, save_sign_in
from sudden_death.ui.app import App
from sudden_death.ui.screens.decisions import GameOverScreen
from sudden_death.ui.screens.friend import QUICK_LINES, ChatScreen, FriendScreen, TableWaitScreen
from sudden_death.ui.screens.online import (
    AccountNameScreen,
    AccountPasswordScreen,
    AccountScreen,
    LobbyScreen,
    ServerScreen,
)
from sudden_death.ui.screens.welcome import WelcomeScreen
from sudden_death.ui.words.online import open_table_words
from sudden_death.wire import protocol as p

URL = "ws://127.0.0.1:1"
OWLS = p.OpenTable("111111", "Owls")
LIONS = p.OpenTable("222222", "Lions", best_of=3)
GAME = p.GamePlayed("333333", ["Hawks", "Bears"], [7, 3], 2, watching=2)


def said(speaker: RecordingSpeaker, since: int = 0) -> list[str]:
    return [message.text for message in speaker.spoken[since:]]


def in_the_lobby(tmp_path: Path, listing: p.LobbyList) -> tuple[App, RecordingSpeaker]:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    app.online.url, app.online.name = URL, "Anna"
    app.online.lobby_heard(listing)
    return app, speaker


def test_the_lobby_reads_tables_games_and_people_and_a_letter_jumps(tmp_path: Path) -> None:
    app, speaker = in_the_lobby(tmp_path, p.LobbyList([OWLS, LIONS], [GAME], ["Anna", "Ben"]))
    assert isinstance(app.top, LobbyScreen)
    assert said(speaker)[-2:] == ["Lobby: 2 open, 1 playing.", "Quick game, 1 of 9"]
    heard = len(speaker.spoken)
    keys(app, *["down"] * 7)
    assert said(speaker, heard) == [
        "Open a table in the lobby",
        "Play the computer, for all to watch",
        "Chat in the lobby",
        "The Owls' table, waiting for a player",
        "The Lions' table, waiting for a player, best of 3",
        "Hawks 7, Bears 3, drive 2; 2 watching. Enter watches.",
        "Ben",  # who is here, but not the player's own name
    ]
    heard = len(speaker.spoken)
    keys(app, "type l", "type l")  # onwards from the focus, round the end; a table by its
    keys(app, "type h")  # team's name, not its "The"
    keys(app, "type z")
    assert said(speaker, heard) == ["Leave the lobby",
                                    "The Lions' table, waiting for a player, best of 3",
                                    "Hawks 7, Bears 3, drive 2; 2 watching. Enter watches.",
                                    "Nothing begins with z."]


def test_a_new_list_keeps_the_focus_and_its_news_is_one_short_line(tmp_path: Path) -> None:
    app, speaker = in_the_lobby(tmp_path, p.LobbyList([OWLS], [], ["Anna"]))
    keys(app, "down", "down", "down", "down")
    assert said(speaker)[-1] == "The Owls' table, waiting for a player"
    cues = app.comfort.cues
    assert isinstance(cues, RecordingCues)
    heard, played = len(speaker.spoken), len(cues.played)
    app.online.lobby_heard(p.LobbyList([LIONS, OWLS], [], ["Anna"]))  # a table opened above
    assert said(speaker, heard) == ["New table: the Lions'."]
    assert cues.played[played:] == ["chat"]
    lobby = app.top
    assert isinstance(lobby, LobbyScreen) and lobby.menu.item is not None
    assert lobby.menu.item.label == "The Owls' table, waiting for a player"  # still here
    heard = len(speaker.spoken)
    app.online.lobby_heard(p.LobbyList([], [], ["Anna"]))
    assert said(speaker, heard) == ["2 tables gone."]
    # Its entry gone, the focus stays where it was, but never moves onto Leave the lobby.
    assert lobby.menu.item is not None and lobby.menu.item.label == "Nobody else is in the lobby."
    app.comfort.change(app.comfort.settings.changed(lobby_news=False))
    heard = len(speaker.spoken)
    app.online.lobby_heard(p.LobbyList([OWLS], [], ["Anna"]))
    assert said(speaker, heard) == []  # the setting off: the list changes in silence
    assert [item.label for item in lobby.menu.group.items][4] == open_table_words(OWLS)


def test_lobby_chat_is_for_a_name_and_a_player_can_be_muted(tmp_path: Path) -> None:
    app, speaker = in_the_lobby(tmp_path, p.LobbyList([], [], ["Anna", "Ben", "Cleo"]))
    keys(app, "type b", "return")
    assert said(speaker)[-1] == "Ben's chat muted for this session."
    lobby = app.top
    assert isinstance(lobby, LobbyScreen) and lobby.menu.item is not None
    assert lobby.menu.item.label == "Ben, chat muted"
    heard = len(speaker.spoken)
    app.friends.chat_heard("BEN", "buy my stuff")  # folded: the same player
    app.friends.chat_heard("Cleo", "good luck all")
    assert said(speaker, heard) == ["Cleo: good luck all"]
    keys(app, "return")
    assert said(speaker)[-1] == "Ben's chat is heard again."
    app.online.name = ""  # not signed in: the server would refuse, so the game says why
    keys(app, "home", "type c", "return")
    assert said(speaker)[-1] == "Chat in the lobby is for players with a name. Sign in first."
    assert app.top is lobby


def test_the_first_time_asks_a_name_and_a_mistyped_password_is_typed_again(
        tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    app.online.url = URL
    app.online.lobby_heard(p.LobbyList([], [], []))  # no kept sign-in: the name first
    assert isinstance(app.top, AccountScreen)
    keys(app, "return", "type Anna", "return", "type short", "return")
    assert said(speaker)[-1] == "A password has 6 characters or more; type a longer one."
    keys(app, "type er", "return", "type shorter!", "return")
    assert said(speaker)[-2:] == ["The two passwords differ. Type the password again, twice.",
                                  "A password for Anna, 6 characters or more: type it and "
                                  "press Enter."]
    top = app.top
    assert isinstance(top, AccountPasswordScreen) and not top.first and top.text == ""
    assert [item.label for item in top.menu.group.items] == [""]  # dots only, none yet
    keys(app, "type shorter")
    assert [item.label for item in top.menu.group.items] == ["•" * 7]


def test_each_refusal_is_said_and_leads_where_it_can_be_put_right(tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    online = app.online
    online.url = URL
    online.signing = (True, "Anna")
    online.refused(p.NAME_TAKEN, "Another player has that name. Type another.")
    assert said(speaker)[-2] == "Another player has that name. Type another."
    assert isinstance(app.top, AccountNameScreen) and app.top.new
    online.signing = (True, "Anna")
    online.refused(p.WEAK_PASSWORD, "A password has 6 to 64 characters.")
    assert isinstance(app.top, AccountPasswordScreen) and app.top.name == "Anna"
    online.signing = (False, "Anna")
    online.refused(p.SLOW_DOWN, "Too many tries. Wait a minute and try again.")
    assert isinstance(app.top, AccountScreen)
    # A kept token the server no longer takes: forgotten, and the name asked again.
    save_sign_in(tmp_path, URL, SignIn("Anna", "old-token"))
    online.signing = None
    online.refused(p.BAD_SIGN_IN, "no match")
    assert said(speaker)[-1] == "Your saved sign-in no longer works here. Sign in again."
    assert load_sign_in(tmp_path, URL) is None
    online.lobby_heard(p.LobbyList([], [], []))
    assert isinstance(app.top, AccountScreen)


def test_no_server_set_asks_for_one_and_one_that_is_down_is_said_in_one_line(
        tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    keys(app, "end", "up", "up", "up", "up", "return")  # Play online
    assert isinstance(app.top, ServerScreen)
    assert "sudden-death --serve" in said(speaker)[-1]
    keys(app, "type ftp://example.org", "return")
    assert said(speaker)[-1].startswith("That is not a server's address.")
    app.online.server_typed("127.0.0.1:1")  # nothing listens on port 1
    assert app.comfort.settings.table_server == URL  # kept for next time
    deadline = time.monotonic() + 30
    while not isinstance(app.top, WelcomeScreen) and time.monotonic() < deadline:
        app.friends.tick()
        time.sleep(0.01)
    assert isinstance(app.top, WelcomeScreen)
    assert "Could not reach the table server. Check the address, or try again later." in said(
        speaker)
    assert app.friends.table is None


def test_your_rating_without_a_name_says_where_to_get_one(tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    keys(app, "end", "up", "up", "up", "return")  # Your rating
    assert said(speaker)[-1] == ("Your rating is kept by the server you play on. Sign in "
                                 "through Play online first.")
    assert isinstance(app.top, WelcomeScreen) and app.friends.table is None


def test_at_a_table_the_chat_line_offers_to_mute_the_other_team_for_the_session(
        tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    app.push(ChatScreen(app, mute="Bears"))
    keys(app, *["down"] * (len(QUICK_LINES) + 1))
    assert said(speaker)[-1] == "Mute the Bears' chat"
    keys(app, "return")
    assert said(speaker)[-1] == "The Bears' chat is muted for this session."
    assert not isinstance(app.top, ChatScreen)  # nothing was sent
    heard = len(speaker.spoken)
    app.friends.chat_heard("Bears", "you will lose")
    assert said(speaker, heard) == []
    app.push(ChatScreen(app, mute="Bears"))
    keys(app, "up")  # round to the last choice
    assert said(speaker)[-1] == "Hear the Bears' chat again"
    keys(app, "return")
    assert said(speaker)[-1] == "The Bears' chat is heard again."
    app.friends.chat_heard("Bears", "good game")
    assert said(speaker)[-1] == "Bears: good game"


def test_a_rating_the_server_will_not_give_is_said_and_the_title_is_back(tmp_path: Path) -> None:
    from sudden_death.ui.table import TablePlay

    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    app.online.url = URL
    line = TablePlay(app.friends, URL, p.AskRating())
    line.start()
    app.friends.table = line
    app.online.refused(p.NOT_NOW, "Not now.")  # as when the kept name is gone from the server
    assert isinstance(app.top, WelcomeScreen) and app.friends.table is None and line.closed
    assert "Not now." in said(speaker)


def test_the_lobby_names_who_plays_each_game_and_says_when_one_began(tmp_path: Path) -> None:
    """Issue 59, 9: every quick game is the Hawks against the Bears, so games were told
    apart by nothing; "drive 0" came before the kick-off; a table that filled was "1 table
    gone", and one that filled within a second was nothing at all."""
    app, speaker = in_the_lobby(tmp_path, p.LobbyList([OWLS], [], ["Anna"]))
    heard = len(speaker.spoken)
    begun = p.GamePlayed(OWLS.code, ["Bears", "Owls"], [0, 0], 0, players=["Ben", "Cleo"])
    app.online.lobby_heard(p.LobbyList([], [begun], ["Anna"]))  # the Owls' table filled
    assert said(speaker, heard) == ["A game began: Ben against Cleo."]
    filled = p.GamePlayed("444444", ["Bears", "Hawks"], [0, 0], 0, players=["Dan", "Eve"])
    later = p.GamePlayed(OWLS.code, ["Bears", "Owls"], [7, 0], 2, players=["Ben", "Cleo"],
                         watching=1)
    unnamed = p.GamePlayed("555555", ["Bears", "Hawks"], [3, 0], 1, players=["", ""])
    heard = len(speaker.spoken)
    app.online.lobby_heard(p.LobbyList([], [later, filled, unnamed], ["Anna"]))  # never open
    assert said(speaker, heard) == ["2 games began."]
    heard = len(speaker.spoken)
    keys(app, *["down"] * 6)
    assert said(speaker, heard)[3:] == [
        "Ben against Cleo: Bears 7, Owls 0, drive 2; 1 watching. Enter watches.",
        "Dan against Eve: Bears and Hawks, before the kick-off. Enter watches.",
        "Bears 3, Hawks 0, drive 1. Enter watches.",  # nobody signed in: the teams name it
    ]
    keys(app, "type d")  # a letter finds a game by the first name heard
    assert said(speaker)[-1].startswith("Dan against Eve")


def test_enter_on_nobody_else_in_the_lobby_says_what_the_list_will_do(tmp_path: Path) -> None:
    app, speaker = in_the_lobby(tmp_path, p.LobbyList([], [], ["Anna"]))
    keys(app, "end", "up")
    assert said(speaker)[-1] == "Nobody else is in the lobby."
    keys(app, "return")
    assert said(speaker)[-1].startswith("Nobody to choose yet: players are listed here")
    assert "button" not in said(speaker)[-1] and isinstance(app.top, LobbyScreen)


def lobby_line(app: App) -> bool:
    """Back to the lobby: a new line to the server, greeted with lobby."""
    table = app.friends.table
    return table is not None and isinstance(table.greeting, p.Lobby) and table.online


def test_after_an_online_game_back_to_the_lobby_and_escape_return_to_the_lobby(
        tmp_path: Path) -> None:
    """Issue 59, 9: the players heard "Play again or quit?", and Escape asked to quit the
    program; a game reached from the lobby offers the lobby again."""
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    app.online.url = URL
    for escape in (False, True):
        app.show(GameOverScreen(app, "Final score.", online=True))
        assert said(speaker)[-2:] == ["Play again, back to the lobby, or quit?",
                                      "Play again, 1 of 3"]
        keys(app, "f1")
        assert said(speaker)[-1].startswith("The game is over. Play again asks the other")
        keys(app, "escape" if escape else "down")
        if not escape:
            assert said(speaker)[-1] == "Back to the lobby"
            keys(app, "return")
        assert lobby_line(app) and said(speaker)[-1] == "Connecting to the lobby."  # no
        # question of quitting the program comes between
        app.friends.close_table()
    app.show(GameOverScreen(app, "Final score."))  # against the computer: as it was
    assert said(speaker)[-2] == "Play again or quit?"


def test_a_spectators_back_to_the_lobby_goes_there_whatever_the_players_did(
        tmp_path: Path) -> None:
    """Once the players had left, a spectator's Back to the lobby opened Play a friend."""
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    app.online.url = URL
    assert app.friends.table is None  # the players left: the table is gone
    app.show(GameOverScreen(app, "Final score.", watched=True))
    keys(app, "f1")
    assert said(speaker)[-1].startswith("The game you watched is over.")
    keys(app, "return")
    assert lobby_line(app) and not isinstance(app.top, FriendScreen)
    app.friends.close_table()


def test_a_spectator_hears_a_spectators_help(tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    app.show(TableWaitScreen(app, "Watching the Bears and the Hawks.", watching=True))
    keys(app, "f1")
    help_words = said(speaker)[-1]
    assert help_words.startswith("Watching a game from the lobby")
    assert "friend" not in help_words and "quit" not in help_words  # not a seat's help
    assert "Escape stops watching" in help_words and "T sends a line" in help_words


def test_the_welcome_is_said_in_full_once_a_run(tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    assert said(speaker)[0].startswith("Welcome to Sudden Death")
    app.online.url = URL
    app.online.leave()  # out of the lobby: the title screen again
    assert said(speaker)[-2:] == ["Title screen.", "Main menu: Start a game, 1 of 12"]
    assert sum(line.startswith("Welcome to Sudden Death") for line in said(speaker)) == 1
    keys(app, "f1")  # the help still has it all
    assert said(speaker)[-1].startswith("Welcome screen.")
