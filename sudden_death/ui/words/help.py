"""F1 help: what each screen is for; F1 again reads every key (`KeyMap.key_list`). Kept apart so
wording is easy to review; every key is a placeholder the key map fills."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from ...engine.actions import CALLS_PER_HAND, PLAYERS_PER_HAND
from ...engine.resolve import MAX_BAND, MIN_BAND
from ...language import _, n_
from ..keys.keymap import Command, KeyMap
from ..keys.own_keys import kept_names


class LazyTexts(Mapping[str, str]):
    """A table of texts built afresh at each look-up, so it speaks the language chosen at run
    time rather than the one (none) active at import."""

    def __init__(self, build: Callable[[], dict[str, str]]) -> None:
        self._build = build

    def __getitem__(self, key: str) -> str:
        return self._build()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._build())

    def __len__(self) -> int:
        return len(self._build())


def _screens() -> dict[str, str]:
    """Each screen's help, its keys as placeholders ({activate}, {back}...) that the key map
    fills in, and its counts as {players}, {calls}, {low} and {high}."""
    return {
        "welcome": _(
            "Welcome screen. Sudden Death is a football card game you play by ear against the "
            "computer: one drive each, chosen card by card. Press {activate} on Start a game. "
            "New here? Guided first drive explains each step as you play it, How to play "
            "reads the rules in short sections, and Sounds of the game plays each sound with "
            "its name. Settings changes speech speed, voice, volumes and verbosity. Your "
            "record keeps every game you finish. Play online meets other players in a "
            "server's lobby; Your rating is your place on its ladder. Report a problem writes "
            "a text file for whoever helps you, and says where it is."
        ),
        "naming": _(
            "Naming a team. Type a name; each letter is read back. {erase} removes the last "
            "letter. {activate} accepts the name; an empty name takes the default. {back} goes "
            "back to the list you came from."
        ),
        "friend": _(
            "Playing a friend on another computer. Host a table: the game says a code to give "
            "your friend. Join a table: type the code your friend's game says. Host a series: "
            "a table whose games are a series. Choose with "
            "{previous_item} and {next_item} and press {activate}; {back} returns to the title."
        ),
        "table_code": _(
            "Joining a table. Type the code your friend's game says, digits only; each is read "
            "back. {erase} removes the last one. {activate} joins; {back} returns to Play a "
            "friend."
        ),
        "nearby": _(
            "Joining a table on your home network. The tables your friends' games are hosting "
            "are listed as they are found; choose one with {previous_item} and {next_item} "
            "and press {activate}. The last button types a code and an address instead. {back} "
            "returns to Play a friend."
        ),
        "chat": _(
            "A message to your friend at the table. Type it, or {previous_item} and {next_item} "
            "for a quick one; {erase} removes the last letter. {activate} sends it, {back} goes "
            "back without sending. Their messages are read as they come, and kept in the "
            "history's chat filter. The last choice of {previous_item} and {next_item} mutes "
            "the other team's chat for this session, or hears it again. Watching a game, the "
            "line goes to the others watching."
        ),
        "table_server": _(
            "A table server's address, for playing friends through a server rather than on "
            "your home network: type it, each character read back; {erase} removes the last. "
            "{activate} keeps it, or with nothing typed sets none. {back} keeps the one you had."
        ),
        "table_password": _(
            "The password a friend types to join the tables you host, so that the code alone "
            "is not enough: type it, each character read back; {erase} removes the last. "
            "{activate} keeps it, or with nothing typed sets none. {back} keeps the one you had."
        ),
        "join_password": _(
            "The table you are joining has a password: type the one your friend gives you; "
            "{erase} removes the last character. {activate} joins, {back} goes back."
        ),
        "table_wait": _(
            "Waiting at a table, for the server or for your friend. Every review key works "
            "meanwhile. The game goes on by itself as soon as your friend is ready. Before the "
            "game, {back} leaves the table; during it, {back} asks whether to quit."
        ),
        "watching": _(
            "Watching a game from the lobby: you hear every step as both teams do, each by "
            "name, and a card only once both sides have shown it; you never choose. "
            "{situation}, {repeat} and the history work as in a game. {chat} sends a line to "
            "the others watching, for a player with a name; the players never hear it. "
            "{back} stops watching and goes back to the lobby."
        ),
        "online_server": _(
            "No server for playing online is set. Type the address of one, such as "
            "example.org:8765; each character is read back, and {erase} removes the last. "
            "{activate} connects and keeps the address in Settings; {back} returns to the "
            "title. Anyone can run a server with the command sudden-death --serve."
        ),
        "online_account": _(
            "Your name on this server. A new name: type a name and a password, twice; no "
            "e-mail is asked. A name I have: sign in with your name and password. After that "
            "the game signs in by itself; it keeps a sign-in key, never your password. Play "
            "without a name: quick games and tables still work, but nothing is rated. {back} "
            "returns to the title."
        ),
        "online_name": _(
            "Your name, as other players hear it in the lobby and at the table: up to 24 "
            "characters, each read back; {erase} removes the last. {activate} goes on to the "
            "password; {back} goes back."
        ),
        "online_password": _(
            "Your password, 6 characters or more. Each character is read back and the window "
            "shows only dots; {erase} removes the last. {activate} goes on: a new password is "
            "typed twice, to be sure of it. {back} goes back."
        ),
        "lobby": _(
            "The lobby. Quick game pairs you with whoever is waiting, nearest your rating first, or"
            " waits for the next player; {back} stops waiting. Open a table in the lobby lists a "
            "table of yours for anyone to join; Play the computer opens one with the coach in the "
            "other seat, never rated, that others may watch. Chat in the lobby sends a line to "
            "everyone here. Then come the open tables ({activate} joins one), the games being "
            "played, each named by who plays it ({activate} watches one), and who is here "
            "({activate} on a player mutes their chat for this session, and again hears it). A "
            "letter jumps to the next entry that begins with it. A game beginning, and tables "
            "opening and going, are told with a soft sound and a short line; Settings, Lobby "
            "news, turns that off. {back} leaves the lobby."
        ),
        "rating": _(
            "Your rating on the server: the rating, your place among rated players, your last "
            "games and the players just above and below you. Games between two signed-in "
            "players are rated; a game you concede counts as a loss. {previous_item} and "
            "{next_item} read the lines; {back} returns to the title."
        ),
        "coin": _("Coin toss. Choose Heads or Tails with {previous_item} and {next_item} and "
                  "press {activate}."),
        "side": _(
            "You won the toss. Choose to take the ball first or to defend first, then press "
            "{activate}."
        ),
        "snap": _(
            "Fourth down, on offense. Go for it to pick cards, or punt, or try a field goal. "
            "The punt says where the ball would land for each of its three rolls; the field "
            "goal says its distance, the dice total it needs and its chance. On the last drive "
            "each says how the game would end, and a kick that can only lose asks first. "
            "{previous_control} reaches Concede."
        ),
        # Translators: {players} is a count of featured players, as "2 players"; {calls} a
        # count of play calls, as "3 calls"; the other names in braces are keys.
        "selection": _(
            "Pick {players} and {calls} for this down. "
            "{toggle} checks a card and the count is read; "
            "when the players list is full the focus moves on to the calls. {activate} "
            "confirms. From the second down on each side, last down's cards are already "
            "checked: {activate} plays them again, or uncheck one and check another first. On "
            "offense before fourth down, the punt and the field goal are the last list: "
            "{next_control} past Confirm. {details} reads a card's details. {they_chose}"
        ),
        "substitution": _(
            "Substitution. Keep all your cards, or replace one player or one call: below Keep "
            "comes each card you hold. Choose the one to replace, then the card to bring in; "
            "{details} reads any of them. {matchups} reads how your calls meet theirs, or, on "
            "a card to bring in, how they would with it. {back} goes back a step."
        ),
        "final": _(
            "Final call. Choose which of your three calls is played, then press {activate}. "
            "{matchups} reads each of your calls against each of theirs."
        ),
        "game_over": _("The game is over. Play again with the same team names, or quit."),
        "game_over_online": _(
            "The game is over. Play again asks the other player for a rematch at the same "
            "table. Back to the lobby, or {back}, returns to the lobby; Quit ends the game."
        ),
        "game_over_watched": _(
            "The game you watched is over. Back to the lobby, or {back}, returns to the "
            "lobby, whatever the players do next; Quit ends the game."
        ),
        "confirm": _(
            "A question. Choose Yes or No with {previous_item} and {next_item} and press "
            "{activate}. {back} means No."
        ),
        "section": _(
            "A review list. {previous_item} and {next_item} move through it; {next_section} "
            "or {back} returns to your decision."
        ),
        "settings": _(
            "Settings. {previous_item} and {next_item} choose a setting: language (each speaks in "
            "its own voice), speech rate, voice, speech volume, sound effects volume, the crowd (a "
            "stadium murmuring under a game, cheering your big moments and hushed by theirs, "
            "quieter while words play; 0 is off), verbosity and the switches under it (dice and "
            "percentages, explanations and hints, positions in lists, the other team's swaps), menu"
            " wrap, hear the play (a glide from the old spot to the new after each play), mono "
            "sound (the same in both ears, for one ear or one speaker), controller rumble (a pad "
            "that can shake does so on a sack, a turnover and a score), held keys repeat (the "
            "arrows, and a controller's directions and stick, held, move again and again after a "
            "pause, as a screen reader's do: slow, normal, fast or off), the waiting sound at a "
            "table, lobby news (a sound and a line as tables open and go), how long a table you "
            "host waits for a dropped friend, its turn limit (none, 1, 3 or 5 minutes), the table "
            "server ({activate} types its address), the table password a friend needs to join your "
            "tables ({activate} types it), text size in the window, opponent (the rules' random "
            "computer or the coach, from the next game), speech engine, and speech output: the "
            "built-in voice, your screen reader and braille display, both, or braille only (every "
            "line on your braille display, none spoken, the sounds still on). {setting_less} and "
            "{setting_more} change it, {setting_less_big} and {setting_more_big} in bigger steps; "
            "{toggle} or {activate} cycles the settings that are choices. You hear each change in "
            "the new setting, and it is saved at once. Short verbosity says only what changed; "
            "detailed adds the rolls and the reasons. After them, Keys and controller buttons gives"
            " any command a key of your own. Report a problem writes a text file for whoever helps "
            "you (the game's version, your system, the settings, the last things said; no password)"
            " and says where it is. {back} or Done closes settings."
        ),
        "keys": _(
            "Keys: every command with its keys and controller buttons. {previous_item} and "
            "{next_item} go through them. {activate} on one waits for its new key or button: "
            "press it. A key another command uses there is refused, and {activate} then swaps "
            "the two. {reset_key} puts back the focused command's own keys; Reset all keys puts "
            "back every one. {kept_activate}, {kept_back} and {kept_help} ({kept_activate_pad}, "
            "{kept_back_pad} and {kept_help_pad} on a controller) always keep their commands, "
            "and you can add a key beside them. Your keys are saved at once, and help always "
            "names them. {back} or Done returns to settings."
        ),
        "key_capture": _(
            "Waiting for a key: press the key or controller button this command is to have, "
            "with Shift if you like. {kept_back} or {kept_back_pad} cancels and keeps its keys."
        ),
        "sounds": _(
            "Sounds of the game: every sound, played with its name. {previous_item} and "
            "{next_item} play the one before or after, {activate} plays it again. {back} "
            "returns."
        ),
        "series": _(
            "Playing a series against the computer: best of 3, 5 or 7 games, the team that "
            "wins most of them wins it. {toggle} on Replay a tied game checks it: a tied game "
            "is then played again and does not count. {activate} on a length starts the "
            "series; the team names come next. The series score is said after each game, "
            "and a series is kept between games and windows. {back} returns."
        ),
        "record": _(
            "Your record: every game you finish is kept. First, for each team you played, "
            "your wins, losses and ties, your streak, your biggest win and your longest play; "
            "then Export, which writes the record as a spreadsheet file and says where; then "
            "each game, newest first. {previous_item} and {next_item} go through it; "
            "{activate} on a game tells it again. {back} returns."
        ),
        "past_game": _(
            "A past game: its story first, then its plays as they were told. "
            "{previous_item} and {next_item}, or {history_back} and {history_forward}, step "
            "through them; {history_first} and {history_last} jump to the first and the last. "
            "{back} returns to your record."
        ),
        "rules": _(
            "How to play: the rules in short sections. {next_item} reads the next section, "
            "{previous_item} the one before, {activate} reads it again. {back} returns."
        ),
        "explorer": _(
            "The explorer of play cards and bands. Choose offensive or defensive calls, "
            "players, how the band is made, or try a matchup, and press {activate}. Nothing "
            "here changes the game. {back} goes back one level; from here it closes the "
            "explorer and returns to where you were."
        ),
        "explorer_list": _(
            "A list of cards. {activate} opens a card; {details} reads its details. {back} "
            "goes back."
        ),
        # Translators: the bands run from "minus {low}" (worst for the offense) to "plus
        # {high}"; the other names in braces are keys.
        "explorer_call": _(
            "An offensive call. The Bands list comes first: {previous_item} and {next_item} "
            "step from band minus {low} to plus {high} and read the figures there; "
            "{activate} reads the yardage table itself. {next_control} moves to the matchups "
            "({activate} hears a matchup's figures), the players that touch this call, and "
            "Back. {back} goes back."
        ),
        "explorer_defense": _(
            "A defensive call against each offensive call. Bands count for the offense, so a "
            "minus band is good for the defense. {activate} hears the figures of that "
            "matchup. {back} goes back."
        ),
        "explorer_player": _(
            "A featured player: for each defensive call, how this player moves the band of the "
            "call on its card and what that does to the average gain. {back} goes back."
        ),
        "explorer_rules": _(
            "How the band is made, line by line, then the matchup table row by row. {back} "
            "goes back."
        ),
        # Translators: {players} is a count of featured players, as "2 players"; the other
        # names in braces are keys.
        "explorer_try": _(
            "Try a matchup. {next_control} moves between the offensive call, the defensive "
            "call, up to {players} a side, the result and Back. {previous_item} and "
            "{next_item} choose a call; {toggle} checks a player. {activate} hears the band, "
            "how it was made and its figures, as the engine computes them. {back} goes back."
        ),
    }


# What each screen is for, by its help key, with its placeholders: built in the active
# language at each look-up.
SCREENS: Mapping[str, str] = LazyTexts(_screens)


def _counts() -> dict[str, object]:
    """The numbers help texts say, from the engine's constants."""
    return {
        "players": n_("{count} player", "{count} players",
                      PLAYERS_PER_HAND).format(count=PLAYERS_PER_HAND),
        "calls": n_("{count} call", "{count} calls", CALLS_PER_HAND).format(count=CALLS_PER_HAND),
        "low": -MIN_BAND,
        "high": MAX_BAND,
        **kept_names(),
    }


def _opponent(opponent: str | None) -> dict[str, str]:
    """What help says of the other side: the computer, or (at a table, `opponent`) the
    friend's team by name."""
    if opponent is None:
        they_chose = _("The computer has already chosen and cannot see yours.")
    else:
        # Translators: in the help for picking cards at a table; {team} is the friend's team.
        they_chose = _("The {team} choose at the same time and cannot see yours.").format(
            team=opponent)
    return {"they_chose": they_chose}


def screen_text(screen: str, keys: KeyMap, opponent: str | None = None) -> str:
    """What `screen` is for and its own keys, as `keys` binds them ("" for no such screen).
    `opponent`: the friend's team at a table, None against the computer."""
    text = SCREENS.get(screen, "")
    return text.format_map({**keys.placeholders(), **_counts(),
                            **_opponent(opponent)}) if text else ""


def screen_help(screen: str, keys: KeyMap, opponent: str | None = None) -> str:
    """F1: the screen's text, and that F1 once more reads every key (or every key at once, on
    a screen without a text of its own)."""
    filled = screen_text(screen, keys, opponent)
    if not filled:
        return keys.key_list()
    # Translators: {text} is what the current screen is for, a few sentences; {help} is the
    # help key, as "F1".
    return _("{text} {help} again lists every key.").format(text=filled,
                                                            help=keys.names(Command.HELP))
