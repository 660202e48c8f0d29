"""The table protocol: JSON text messages between a game and a table server (docs/protocol.md).

Messages are msgspec structs tagged by `type`: msgspec checks every field's type while it
decodes, about ten times faster than validating a parsed dict by hand, so a hostile frame costs
the server little and a good one reaches the rules already typed. The engine's values (actions,
states, events) are structs too (`values.py`, made from the engine's dataclasses), checked in
the same decode, in the engine's own JSON forms.

Refusals carry a `code` the game says in the player's language; `text` is the server's English,
for a log or a client that does not know the code.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from .values import WireAction, WireEvent, WireState

PROTOCOL_VERSION = 6
MAX_ACTIONS = 8  # an act carries one or two (the snap and the cards before 4th down)
MAX_MESSAGE_BYTES = 64 * 1024
CODE_DIGITS = 6


class Message(msgspec.Struct, tag_field="type", forbid_unknown_fields=True, gc=False):
    """Base of every message; the subclass's tag is its `type`. Not tracked by the garbage
    collector (`gc=False`): a message is data that never refers back to itself, and the
    table server makes thousands a second, each of which would count towards, and be walked
    by, the collector's next pass (docs/server.md)."""


# -- game to server ----------------------------------------------------------------------------


class Host(Message, tag="host"):
    """Open a table; the server answers `Seated` with its code. `seat_wait_s`: how long a
    seat whose line dropped is waited for before the table ends."""

    version: int
    name: str
    seat_wait_s: int = 600
    password: str = ""  # empty: anyone with the code may join
    # A series at this table: best of 3, 5 or 7 (1: single games), and whether a tie is
    # played again rather than counted.
    best_of: int = 1
    replay_ties: bool = False
    public: bool = False  # listed in the lobby for anyone to join; False: by code only
    # The computer in the other seat, as the team `computer`: the game starts at once, and is
    # never rated. "": the seat waits for a player.
    computer: str = ""
    # A turn limit in seconds (TURN_LIMITS; 0: none): warned TURN_WARNING_S before its end,
    # extended on asking (`MoreTime`) up to MAX_EXTENSIONS times a game; a turn that runs out
    # plays the seat's last cards again.
    turn_s: int = 0
    # With `computer`: which computer plays it, "random" (the rules' computer, the desktop
    # game's default) or "coach" (engine/computers.py's names); "" is the coach, as before
    # this field (any other value: bad_message). `home`: the host takes the home seat, which
    # calls the coin toss, and the computer the away seat. Both are ignored without
    # `computer`: a friend's table always seats its host away. Optional, so a version 6 game
    # that never sends them is understood as before.
    opponent: str = ""
    home: bool = False


class Join(Message, tag="join"):
    """Take the free seat at the table with `code` (and its `password`, if it has one)."""

    version: int
    code: str
    name: str
    password: str = ""


class Quick(Message, tag="quick"):
    """A quick game: take the seat at the table waiting longest for one whose player's
    rating is nearest yours, or open one and wait (answered `seated`, then `start`). `other`:
    the team's name when the waiting team has `name` (two games' default names meet)."""

    version: int
    name: str
    other: str = ""


class Watch(Message, tag="watch"):
    """Watch the game at the table with `code` (a public table's, from the lobby, or one a
    friend gave): answered `start`, then every `update`, `committed` and `left` both seats
    hear, never anything before its reveal. `step`: the last step heard, when coming back."""

    version: int
    code: str
    name: str = ""  # the watcher, as the players hear it ("" : signed in, its own name)
    step: int = 0


class Resume(Message, tag="resume"):
    """Come back to your seat after the line dropped: its table's code, the seat's token, and
    the last step you heard (the server sends what happened since, in `Start.events`)."""

    version: int
    code: str
    token: str
    step: int = 0


class SignUp(Message, tag="sign_up"):
    """A new player's name and password (no e-mail, no CAPTCHA): answered `SignedIn`. A
    greeting like `host`: the same connection may host or join after it."""

    version: int
    name: str
    password: str


class SignIn(Message, tag="sign_in"):
    """Sign in again with the password, or with the token a `SignedIn` gave (renewed each
    time: the old one stops working)."""

    version: int
    name: str
    password: str = ""
    token: str = ""


class AskRating(Message, tag="rating"):
    """A signed-in player's place on the ladder (answered `Standing`)."""


class Lobby(Message, tag="lobby"):
    """Before a greeting: hear the lobby (answered `LobbyList`, then again as it changes, at
    most once a second, until this line hosts, joins or goes)."""


class Act(Message, tag="act"):
    """This seat's actions for `step` (the number of steps played before them), in order: the
    snap and the cards come together before fourth down."""

    step: int
    actions: Annotated[list[WireAction], msgspec.Meta(max_length=MAX_ACTIONS)]


class Chat(Message, tag="chat"):
    """A line for the other seat (at most MAX_CHAT characters)."""

    text: str


class MoreTime(Message, tag="more_time"):
    """A whole turn again for this seat's current choice, at a table with a turn limit."""


class Rematch(Message, tag="rematch"):
    """After the game: play another at this table (it starts when both seats ask)."""


class Leave(Message, tag="leave"):
    """The player quit the table (the game ends for both; a dropped line is not a leave)."""


ClientMessage = (Host | Join | Quick | Watch | Resume | SignUp | SignIn | AskRating | Lobby
                 | Act | Chat | Rematch | Leave | MoreTime)


# -- server to game ----------------------------------------------------------------------------


class Seated(Message, tag="seated"):
    """You have a seat: `seat` is the team you play (0 home, 1 away); `token` proves it."""

    code: str
    seat: int
    token: str


class Start(Message, tag="start"):
    """Both seats are taken: the game begins (or goes on, after `Resume`). `names` are the
    teams' names, home first; `held` is this seat's own choice for the step, when the server
    holds one (after a resume), so the game shows it waiting rather than asking again."""

    names: list[str]
    step: int
    state: WireState
    events: list[WireEvent]
    held: list[WireAction] = []
    # The table's series (best_of 1: none), and the winners of its games before this one
    # (0 home, 1 away, None a tie); after a series ends, the next game begins a new one.
    best_of: int = 1
    replay_ties: bool = False
    results: list[int | None] = []
    # The seats' signed-in players as they typed their names, home first ("": none, or the
    # computer), so each player hears whom they play (version 5).
    players: list[str] = []
    turn_s: int = 0  # the table's turn limit (0: none), said when the game begins


class Update(Message, tag="update"):
    """A step was played (both seats had committed, for the three card steps): what happened
    and the new state. Every seat gets the same update at once."""

    step: int
    state: WireState
    events: list[WireEvent]


class Committed(Message, tag="committed"):
    """A choice for card step `step` is held until the other seat's comes: `seat` (0 home,
    1 away) says whose. Both seats hear it: the one that chose (its choice is in) and the
    other (its friend has chosen, and nothing of what)."""

    step: int
    seat: int


class Refused(Message, tag="refused"):
    """What you asked for was not done; `fatal` means the connection closes after it."""

    code: str
    text: str
    fatal: bool = False


class Left(Message, tag="left"):
    """The other seat left the table (`reason` "left"), or did not come back in time
    ("timeout"); the game is over for both."""

    name: str
    reason: str = "left"


class Said(Message, tag="said"):
    """The other seat's chat line, with its team's name."""

    name: str
    text: str


class RematchAsked(Message, tag="rematch_asked"):
    """The other seat would play again at this table."""

    name: str


class Away(Message, tag="away"):
    """The other seat's line dropped; the server waits up to `wait_s` for it to resume."""

    name: str
    wait_s: int


class Back(Message, tag="back"):
    """The other seat is back."""

    name: str


class SignedIn(Message, tag="signed_in"):
    """Signed in: the name as the account has it, and a token to sign in with next time
    (the game keeps it instead of the password)."""

    name: str
    token: str


class Standing(Message, tag="standing"):
    """The rating (Glicko-2, rounded), the rank among rated players ("12th of 40"), the last
    ten results newest first ([opponent, 1 a win, 0.5 a tie, 0 a loss]) and the players just
    above and below ("" at an end). `of` 0: no rated game yet."""

    name: str
    rating: int = 0
    rank: int = 0
    of: int = 0
    recent: list[tuple[str, float]] = []
    above: str = ""
    below: str = ""


class StandIn(Message, tag="computer"):
    """The computer plays for `name` now: `reason` "away" (their line dropped; the seat is
    theirs again when they come back) or "gone" (past the seat wait: it finishes the game)."""

    name: str
    reason: str = "away"


class TimeWarning(Message, tag="time_warning"):
    """This seat's turn ends in `seconds`; it may ask for more time `extensions` more times."""

    seconds: int
    extensions: int


class TimeAdded(Message, tag="time_added"):
    """The seat has `seconds` more for this turn, and `extensions` more to ask for."""

    seconds: int
    extensions: int


class TimeUp(Message, tag="time_up"):
    """`name`'s turn ran out: its last cards are played again (or the coach's, with none)."""

    name: str


class Watching(Message, tag="watching"):
    """Someone began to watch this table's game (said once per watcher); `count` watch now."""

    name: str
    count: int


class Busy(Message, tag="busy"):
    """The server cannot keep this table's steps now (its database is away): what the seats
    commit waits and is answered once kept, never before. Said once, until `steady`."""


class Steady(Message, tag="steady"):
    """The server keeps steps again (after `busy`): what waited is answered now."""


class OpenTable(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """A public table waiting for a player: its code, the host's team, the series' length."""

    code: str
    host: str
    best_of: int = 1


class GamePlayed(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """A public table's game in progress: team names and scores home first, the drive."""

    code: str
    names: list[str]
    scores: list[int]
    drive: int
    watching: int = 0
    players: list[str] = []  # the seats' signed-in players, home first ("": none)


class LobbyList(Message, tag="lobby"):
    """The lobby: public tables waiting for a player, public games being played, and the
    signed-in players in the lobby now (each list in a stable order). Each list is capped
    (`MAX_LISTED_TABLES`...), so the message stays far under `MAX_MESSAGE_BYTES` however
    many there are; `open` and `playing` count them all."""

    tables: list[OpenTable]
    games: list[GamePlayed]
    here: list[str]
    open: int = 0
    playing: int = 0


ServerMessage = (Seated | Start | Update | Committed | Refused | Left | Away | Back | Said
                 | RematchAsked | SignedIn | Standing | LobbyList | Watching | StandIn
                 | TimeWarning | TimeAdded | TimeUp | Busy | Steady)

# Refusal codes, said by the game in the player's language (ui/words/table.py).
NO_TABLE = "no_table"
TABLE_FULL = "table_full"
WRONG_VERSION = "version"
BAD_MESSAGE = "bad_message"
NOT_NOW = "not_now"
NOT_ALLOWED = "not_allowed"
BAD_NAME = "bad_name"
BAD_TOKEN = "bad_token"
BAD_PASSWORD = "bad_password"  # the table has a password, and this is not it
FLOOD = "flood"  # messages faster than any game sends them: the line closes
BUSY = "busy"  # too many lines open from one address
SLOW_DOWN = "slow_down"  # too many wrong codes, tokens or passwords from one address
NO_ROOM = "no_room"  # the server cannot keep a new table now (its disk is full...)
ELSEWHERE = "elsewhere"  # this seat came back on another line, which now has it
OVER = "over"  # the game at this table has ended: nothing more to do here
SAME_NAME = "same_name"  # a join with the host's team name (wire/names.py): one name twice
NAME_TAKEN = "name_taken"  # a sign-up whose name (folded) another player has
BAD_SIGN_IN = "bad_sign_in"  # no such name, or not its password or token
WEAK_PASSWORD = "weak_password"  # a sign-up's password is too short, too long or unprintable
TOO_FAST = "too_fast"  # chat lines from one player faster than one a second: not sent
TABLES = "tables"  # too many tables wait for a player, from one address or in the lobby
MIN_SEAT_WAIT_S, MAX_SEAT_WAIT_S = 10, 3600
TURN_LIMITS = (0, 60, 180, 300)  # a host's choice of turn limit, in seconds (0: none)
QUICK_TURN_S = 180  # a quick game's turn limit: a stranger cannot stall it for ever
TURN_WARNING_S = 20
MAX_EXTENSIONS = 10

MAX_NAME = 24
# The server's reasons for `bad_name` (`Refused.text`), one each: the games say each in the
# player's words (ui/words/table.py), and say any other as the server wrote it. A team's name
# (server/roles/checks.py) is not a player's (server/stores/accounts.py): each refusal says
# which it is.
TEAM_NAME_LENGTH = f"a team name has 1 to {MAX_NAME} printable characters"
TEAM_NAME_SILENT = "a team name needs something to say"
NAME_LENGTH = f"a name has 1 to {MAX_NAME} characters"
NAME_UNREADABLE = "a name has only letters, digits, marks and spaces that can be read aloud"
NAME_SILENT = "a name needs a letter or a digit"
MAX_PASSWORD = 64
MAX_CHAT = 200
# The lobby's lists are capped: the longest-waiting tables, the longest-played games, the
# first players by name. Even with every name at 24 four-byte characters the list stays
# under 64 KiB (tests/test_server_lobby_limits.py).
MAX_LISTED_TABLES = 50
MAX_LISTED_GAMES = 50
MAX_LISTED_HERE = 100

_client_decoder = msgspec.json.Decoder(ClientMessage)
_server_decoder = msgspec.json.Decoder(ServerMessage)
_encoder = msgspec.json.Encoder()


class ProtocolError(ValueError):
    """A message that cannot be used: `code` is one of the refusal codes above."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(text)
        self.code = code


def encode(message: Message) -> str:
    return _encoder.encode(message).decode()


def decode_client(frame: str | bytes) -> ClientMessage:
    """A game's message, or ProtocolError: a binary frame, a frame over MAX_MESSAGE_BYTES,
    JSON that is not a known message, or a greeting of another protocol version."""
    if isinstance(frame, bytes):
        raise ProtocolError(BAD_MESSAGE, "messages are JSON text frames, not binary")
    if len(frame) > MAX_MESSAGE_BYTES:
        raise ProtocolError(BAD_MESSAGE, f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    try:
        message = _client_decoder.decode(frame)
    except RecursionError:  # msgspec's own depth guard, for JSON nested past reason
        raise ProtocolError(BAD_MESSAGE, "a message is not nested that deeply") from None
    except msgspec.DecodeError as error:
        _check_version(_version_of(frame))  # another version's greeting may differ in shape
        raise ProtocolError(BAD_MESSAGE, f"not a message of this protocol: {error}") from None
    if isinstance(message, (Host, Join, Quick, Watch, Resume, SignUp, SignIn)):
        _check_version(message.version)
    return message


def _version_of(frame: str) -> object:
    try:
        data = msgspec.json.decode(frame)
    except (msgspec.DecodeError, RecursionError):
        return None
    return data.get("version") if isinstance(data, dict) else None


def _check_version(version: object) -> None:
    if isinstance(version, int) and version != PROTOCOL_VERSION:
        raise ProtocolError(WRONG_VERSION, f"this server speaks protocol {PROTOCOL_VERSION}, "
                                           f"the game speaks {version}")


def decode_server(frame: str | bytes) -> ServerMessage:
    """A server's message, or ProtocolError (the game says the server misbehaved)."""
    if isinstance(frame, bytes) or len(frame) > 16 * MAX_MESSAGE_BYTES:
        raise ProtocolError(BAD_MESSAGE, "the server sent something that is not a message")
    try:
        return _server_decoder.decode(frame)
    except RecursionError:
        raise ProtocolError(BAD_MESSAGE, "the server sent a message nested too deeply") from None
    except msgspec.DecodeError as error:
        raise ProtocolError(BAD_MESSAGE, f"the server sent a bad message: {error}") from None
