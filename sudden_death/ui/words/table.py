"""Words about a table: its code, the friend joining, waiting, and why a table could not be used."""

from __future__ import annotations

from ...language import N_, _, n_
from ...net.news import NearbyTable
from ...wire import protocol as p


def code_words(code: str) -> str:
    """A table code as it is said and shown: digits in pairs, "47 29 31", so a listener can
    hold it and a friend can type it."""
    return " ".join(code[index:index + 2] for index in range(0, len(code), 2))


def table_code_words(code: str, address: str | None, locked: bool = False) -> str:
    """The code the host gives the friend; `locked`: the table asks for its password too."""
    if address:
        # Translators: {code} is the table code in pairs of digits ("47 29 31"); {address} is
        # this computer's address on the home network ("192.168.1.20:8765").
        words = _("Your table code: {code}. Your friend joins at {address}.").format(
            code=code_words(code), address=address)
    else:
        # Translators: {code} is the table code in pairs of digits ("47 29 31").
        words = _("Your table code: {code}.").format(code=code_words(code))
    if locked:
        # Translators: after the table code: the friend also types the host's table password.
        words += " " + _("Your friend also needs your table password.")
    return words


def password_asked_words() -> str:
    return _("This table has a password. Ask your friend for it.")


def table_words(table: NearbyTable) -> str:
    # Translators: a table found on the home network: {team} is the host's team ("Hawks"),
    # {code} its code in pairs of digits.
    return _("the {team}' table, {code}").format(team=table.team, code=code_words(table.code))


# What each refusal code says to the player (N_: translated where it is said).
REFUSALS = {
    p.NO_TABLE: N_("No open table has that code. Check it and type it again."),
    p.TABLE_FULL: N_("That table already has two teams. Ask your friend for a new code."),
    p.WRONG_VERSION: N_("The table server runs another version of the game. Both of you need "
                        "the same version."),
    p.BAD_TOKEN: N_("The table no longer knows this seat."),
    p.BAD_PASSWORD: N_("That is not the table's password. Ask your friend for it."),
    p.SLOW_DOWN: N_("Too many tries from this computer or for this name. Wait a minute and "
                    "try again."),
    p.BUSY: N_("The table server is busy, or has too many connections from this computer. Wait "
               "a moment and try again."),
    p.NO_ROOM: N_("The table server cannot open a new table now. Try again later."),
    p.FLOOD: N_("The game sent the table server too much at once, and it closed the line."),
    p.ELSEWHERE: N_("You joined this table from somewhere else, so this game has left it."),
    p.OVER: N_("The game at this table is over."),
    p.SAME_NAME: N_("The other team at that table already has your team's name."),
    p.NAME_TAKEN: N_("Another player has that name. Type another."),
    p.BAD_SIGN_IN: N_("That name and password do not match. Type them again."),
    p.WEAK_PASSWORD: N_("A password has 6 to 64 characters, with no tabs or line breaks."),
    p.TOO_FAST: N_("That chat line was not sent: one a second at most. Wait a moment."),
    p.TABLES: N_("Too many tables are waiting for a player, from this computer or in the "
                 "lobby. Join one of them, or try again later."),
}


def refusal_words(code: str, text: str) -> str:
    """Why the server did not do what was asked, in the player's words."""
    if code == p.BAD_NAME:
        return name_refusal_words(text)
    if code in REFUSALS:
        return _(REFUSALS[code])
    if code == p.NOT_ALLOWED:
        # Translators: {reason} is the rules' reason, which is in English.
        return _("Not allowed: {reason}.").format(reason=text)
    # Translators: {reason} is the table server's own reason, which is in English.
    return _("The table server refused: {reason}.").format(reason=text)


def name_refusal_words(reason: str) -> str:
    """A name the server refused, as what it is (a team's name, or a player's: the server's
    reason says which) and why; a reason the game does not know is said as the server wrote
    it (in English)."""
    team = _("The server did not take that team name.")
    # Translators: a player's name (signing up or in), not a team's, was refused; why follows.
    player = _("The server did not take that player name.")
    reasons = {
        # Translators: why a team name was refused; {limit} is the longest name, 24.
        p.TEAM_NAME_LENGTH: (team, _("A team name has 1 to {limit} printable characters.")),
        # Translators: why a team name was refused: it has nothing a voice can say.
        p.TEAM_NAME_SILENT: (team, _("A team name needs something that can be read aloud.")),
        # Translators: why a player's name was refused; {limit} is the longest name, 24.
        p.NAME_LENGTH: (player, _("A name has 1 to {limit} characters.")),
        # Translators: why a player's name was refused: it has a tab, a line break, a
        # direction mark or another character a voice cannot read.
        p.NAME_UNREADABLE: (player, _("A name has only letters, digits, marks and spaces "
                                      "that can be read aloud.")),
        # Translators: why a player's name was refused: it has nothing a voice can say.
        p.NAME_SILENT: (player, _("A name needs a letter or a digit.")),
    }
    if reason in reasons:
        what, why = reasons[reason]
        return f"{what} {why.format(limit=p.MAX_NAME)}"
    # Translators: {reason} is the table server's own reason for refusing a name, in English.
    return _("The server did not take that name: {reason}.").format(reason=reason)


def renamed_words(name: str, other: str) -> str:
    # Translators: the friend's team at the table is also called {name}, so the player's team
    # takes the other default name, {other}.
    return _("The host's team is also the {name}, so you play as the {other}.").format(
        name=name, other=other)


def said_words(name: str, text: str) -> str:
    """A chat line heard: at a table (`name` is the friend's team) or in the lobby (the
    player's name)."""
    # Translators: a chat line heard: {name} is the friend's team at a table ("Bears: nice
    # play"), or a player's name in the lobby ("Anna: anyone for a quick game?").
    return _("{name}: {text}").format(name=name, text=text)


def chosen_words(name: str) -> str:
    # Translators: {name} is the friend's team, which has made its choice for this step while
    # the player is still choosing.
    return _("The {name} have chosen.").format(name=name)


def joined_words(name: str) -> str:
    # Translators: {name} is the friend's team, which has just taken the other seat.
    return _("The {name} joined your table.").format(name=name)


def lost_words(connected: bool) -> str:
    if not connected:
        return _("Could not reach the table server. Check the address, or try again later.")
    return _("The connection to the table was lost. The game cannot go on.")


def left_words(name: str) -> str:
    # Translators: {name} is the friend's team, which has left the table.
    return _("The {name} left the table. The game is over.").format(name=name)


def reconnecting_words() -> str:
    return _("Connection lost; trying again.")


def restored_words() -> str:
    return _("Connected again.")


def busy_words() -> str:
    return _("The table server is busy; trying again.")


def steady_words() -> str:
    return _("The table server is back.")


def away_words(name: str) -> str:
    # Translators: {name} is the friend's team, whose connection dropped.
    return _("The {name} dropped out; waiting for them.").format(name=name)


def back_words(name: str) -> str:
    # Translators: {name} is the friend's team, connected again.
    return _("The {name} are back.").format(name=name)


def timeout_words(name: str) -> str:
    # Translators: {name} is the friend's team, which did not come back in time.
    return _("The {name} did not come back in time. The game is over.").format(name=name)


def rematch_words(name: str) -> str:
    # Translators: {name} is the friend's team, which asks to play again at the same table.
    return _("The {name} want a rematch: Play again to accept.").format(name=name)


def turn_limit_words(seconds: int) -> str:
    """Said as a game with a turn limit begins."""
    minutes = max(1, seconds // 60)
    # Translators: a table's turn limit, said when its game begins; {more_time} is a key.
    return n_("Each turn has {minutes} minute; {more_time} asks for more time.",
              "Each turn has {minutes} minutes; {more_time} asks for more time.",
              minutes).format(minutes=minutes, more_time="{more_time}")


def time_warning_words(seconds: int, extensions: int) -> str:
    # Translators: a turn is about to run out; {more_time} is a key; {count} how many more
    # times more time may be asked for.
    words = n_("{seconds} seconds left to choose.", "{seconds} seconds left to choose.",
               seconds).format(seconds=seconds)
    if extensions:
        words += " " + n_("{more_time} for more time, {count} more time.",
                          "{more_time} for more time, {count} more times.",
                          extensions).format(count=extensions, more_time="{more_time}")
    return words


def time_added_words(seconds: int, extensions: int) -> str:
    minutes = max(1, seconds // 60)
    # Translators: more time was given for this turn: {minutes} more minutes.
    words = n_("{minutes} more minute.", "{minutes} more minutes.", minutes).format(
        minutes=minutes)
    if not extensions:
        return words + " " + _("That was the last time this game.")
    # Translators: after more time was given: {count} more times it may be asked for.
    return words + " " + n_("You may ask {count} more time.", "You may ask {count} more times.",
                            extensions).format(count=extensions)


def time_up_words(name: str, mine: bool) -> str:
    if mine:
        return _("Time is up: your last cards are played again.")
    # Translators: {name} is the other team, whose turn ran out.
    return _("The {name} ran out of time; their last cards are played again.").format(
        name=name)


def mute_choice_words(team: str, muted: bool) -> str:
    """The chat line's last choice at a table: mute the other team's chat, or hear it again."""
    if muted:
        # Translators: a choice on the chat line at a table: {team} is the other team.
        return _("Hear the {team}' chat again").format(team=team)
    # Translators: a choice on the chat line at a table: {team} is the other team.
    return _("Mute the {team}' chat").format(team=team)


def stand_in_words(name: str, reason: str) -> str:
    """The computer plays the other seat now: until its player is back, or to the end."""
    if reason == "left":
        # Translators: {name} is the other team, whose player left the table mid-game.
        return _("The {name} left. The computer finishes the game for them.").format(
            name=name)
    if reason == "gone":
        # Translators: {name} is the other team, whose player did not come back in time.
        return _("The {name} did not come back. The computer finishes the game for "
                 "them.").format(name=name)
    # Translators: {name} is the other team, whose player's line dropped.
    return _("The computer plays for the {name} until they are back.").format(name=name)


def watching_words(name: str) -> str:
    """Someone began to watch this game (said once for each)."""
    if not name:
        return _("Someone is watching your game.")
    # Translators: {name} is a player's name on the server, who began to watch this game.
    return _("{name} is watching your game.").format(name=name)


def rematch_asked_words(name: str) -> str:
    # Translators: {name} is the friend's team; the player asked to play again.
    return _("Rematch asked; waiting for the {name}.").format(name=name)
