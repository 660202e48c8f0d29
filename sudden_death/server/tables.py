"""Tables: games between two seats, held by the server, with no network in sight.

A table holds the authoritative `Game` and its dice. A seat's action for one of the three card
steps (pick, swap, final call) is held here until the other seat commits that step too; only
then does the step play, and both seats get the same update. So nothing one seat committed can
reach the other before the reveal: it is not in any message until the step has been played.
Each method returns the messages to send, as (seat, message) pairs, and the service sends them.

A table is also a record (`to_record` / `from_record`): the game with its dice, the seats,
the held choices and every step's actions, so a server restarted after a crash goes on with
exactly the game it had, and a seat that comes back hears what it missed (`told`: each step's
events as they were sent, kept with the table, so a resume replays nothing).
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from ..engine import events as ev
from ..engine.actions import Action
from ..engine.errors import NotYourTurnError, RulesError, SnapshotError
from ..engine.event_codec import events_to_list
from ..engine.game import Game
from ..engine.hold import AlreadyChosenError, Hold
from ..engine.series import LENGTHS, Series
from ..engine.snapshot import action_from_dict, action_to_dict
from ..engine.state import TEAMS, Team
from ..wire import protocol as p
from ..wire.values import (
    WireAction,
    WireEvent,
    action_from_wire,
    action_to_wire,
    as_json,
    events_to_wire,
    from_json,
    state_to_wire,
)

Outgoing = list[tuple[Team, p.Message]]
HOST_SEAT = Team.AWAY  # the guest calls the toss, as the home team does in the rules
RECORD_FORMAT = 1


@dataclass
class Seat:
    """A seat and the token that proves it. The token itself is kept only in this process's
    memory (to answer a resume at once); the record keeps its argon2id hash (`sealed`), so a
    copied store gives no one a seat. After a restart a resume is checked against the hash."""

    name: str
    token: str = field(default_factory=lambda: secrets.token_urlsafe(18))
    # When its line dropped (wall-clock seconds, kept in the record): a server restarted
    # meanwhile goes on waiting from then, not from its own start. None: connected.
    away_since: float | None = None
    sealed: str = ""  # argon2id of the token ("" until sealed: `seal`)
    account: str = ""  # the signed-in player's name, folded ("": not signed in): rated games
    player: str = ""  # that name as the player typed it: what the other seat and the lobby hear

    def seal(self) -> str:
        """The token's hash, made once (a few milliseconds: the service makes it off its
        loop, before the seat is kept)."""
        if not self.sealed:
            self.sealed = seal_token(self.token)
        return self.sealed

    def opens(self, token: str) -> bool:
        """Whether `token` is this seat's: against the token in memory, else its hash."""
        if self.token:
            return secrets.compare_digest(self.token.encode(), token.encode())
        return token_opens(self.sealed, token)


@dataclass
class Table:
    """One game between two seats. `log` holds every step's actions, for a replay from
    `first` (the game as it began, with its dice)."""

    code: str
    game: Game
    seats: dict[Team, Seat] = field(default_factory=dict)
    hold: Hold = field(init=False)  # this card step's commits so far (the engine's hold)
    step: int = 0
    log: list[dict[str, Any]] = field(default_factory=list)
    told: list[list[Any]] = field(default_factory=list)  # each step's events, as sent
    left: bool = False
    left_by: Team | None = None  # the seat that left (or never came back), once one has
    left_why: str = "left"  # Left.reason: "left" or "timeout"
    seat_wait_s: int = 600
    first: str = ""  # Game.to_json() before the first step
    rematch: set[Team] = field(default_factory=set)  # seats that asked to play again
    lock: str = ""  # the table password's salted digest (`lock`); empty: none
    best_of: int = 1  # a series of 3, 5 or 7 games; 1: single games
    replay_ties: bool = False
    results: list[int | None] = field(default_factory=list)  # the series' games' winners
    public: bool = False  # listed in the lobby (code and all); False: found only by its code
    # Seats the computer plays (server/roles/stand_in.py): a player away past the takeover wait, who
    # gets the seat back on resuming; and, of them, those `gone` past the whole seat wait,
    # for whom the computer finishes the game.
    computer: set[Team] = field(default_factory=set)
    gone: set[Team] = field(default_factory=set)
    turn_s: int = 0  # a turn limit (server/roles/turn_clock.py); 0: none
    extended: dict[Team, int] = field(default_factory=dict)  # more time asked, this game
    games: int = 0  # games played at this table before this one (a rematch starts one more)
    # The computer the host chose to play (`Host.computer`): the seat it plays, and which
    # computer it is (engine/computers.py: "random" or "coach"). None: no hosted computer
    # (a table for a friend, or one kept before this was); any seat it stands in for a
    # dropped player is the coach's (stand_in.py).
    opponent_seat: Team | None = None
    opponent: str = ""

    def __post_init__(self) -> None:
        self.first = self.first or self.game.to_json()
        self.hold = Hold(self.game)

    @property
    def held(self) -> dict[Team, Action]:
        return self.hold.held

    @property
    def full(self) -> bool:
        return len(self.seats) == 2

    @property
    def over(self) -> bool:
        return self.left or self.game.is_over

    def names(self) -> list[str]:
        return [self.seats[team].name for team in TEAMS]

    def players(self) -> list[str]:
        """The seats' signed-in players, home first ("": none, or the computer)."""
        return [self.seats[team].player if team in self.seats else "" for team in TEAMS]

    def start(self) -> Outgoing:
        message = p.Start(self.names(), self.step, state_to_wire(self.game.state), [],
                          turn_s=self.turn_s, players=self.players(), **self._series())
        return [(team, message) for team in TEAMS]

    def _series(self) -> dict[str, Any]:
        return {"best_of": self.best_of, "replay_ties": self.replay_ties,
                "results": list(self.results)}

    def series(self) -> Series | None:
        if self.best_of not in LENGTHS or not self.full:
            return None
        home, away = self.names()
        return Series(self.best_of, self.replay_ties, home, away, "friend",
                      tuple(None if winner is None else Team(winner) for winner in self.results))

    def resumed(self, team: Team | None, heard: int) -> p.Start:
        """The start message for a seat coming back: what happened after step `heard`, and its
        own held choice, if the server holds one. `team` None: a spectator's, which never
        holds anything."""
        held = [action_to_wire(self.held[team])] if team in self.held else []
        missed = from_json(self.events_since(heard), list[WireEvent])
        return p.Start(self.names(), self.step, state_to_wire(self.game.state), missed, held,
                       turn_s=self.turn_s, players=self.players(), **self._series())

    def ending(self, team: Team) -> list[p.Message]:
        """What a seat that was away hears after its start when the other seat left the table
        meanwhile: who left and why, once, as it would have heard it then. (A record from
        before `left_by` was kept: the other seat, since a seat that leaves does not return.)"""
        by = team.other if self.left_by is None else self.left_by
        if not self.left or by == team or by not in self.seats:
            return []
        return [p.Left(self.seats[by].name, self.left_why)]

    def events_since(self, heard: int) -> list[Any]:
        """The events of every step after step `heard`, in their wire form, as they were sent."""
        if not 0 <= heard < self.step:
            return []
        return [event for step in self.told[heard:] for event in step]

    def act(self, team: Team, step: int, actions: Iterable[WireAction]) -> Outgoing:
        """A seat's actions for `step`, in order; a refusal stops the rest (what went before it
        still counts) and is sent to that seat alone."""
        actions = list(actions)
        if _repeated(self, team, step, actions):  # counts once, and is answered
            return [(team, p.Refused(p.NOT_NOW, f"your choice for step {step} is already in"))]
        if not self.full or self.over:
            return [(team, p.Refused(p.NOT_NOW, "the game is not being played"))]
        if step != self.step:
            return [(team, p.Refused(p.NOT_NOW, f"that was for step {step}; this is step "
                                                f"{self.step}"))]
        if not actions:
            return [(team, p.Refused(p.BAD_MESSAGE, "an act has at least one action"))]
        out: Outgoing = []
        for data in actions:
            try:
                action = action_from_wire(data)
            except SnapshotError as error:
                return [*out, (team, p.Refused(p.BAD_MESSAGE, str(error)))]
            refusal = self._commit(team, action, out)
            if refusal is not None:
                return [*out, (team, refusal)]
        return out

    def leave(self, team: Team, reason: str = "left") -> Outgoing:
        """A seat left the table for good (or was waited for in vain): the other hears who
        left and why, and the table is over."""
        if self.left or team not in self.seats:
            return []
        self.left, self.left_by, self.left_why = True, team, reason
        return [(other, p.Left(self.seats[team].name, reason))
                for other in self.seats if other != team]

    def ask_rematch(self, team: Team, game: Callable[[], Game]) -> Outgoing:
        """After the game, a seat asks to play again; once both have, a new game (`game()`,
        new dice) starts at this table."""
        if not self.game.is_over or self.left or not self.full:
            return [(team, p.Refused(p.NOT_NOW, "a rematch comes after the game"))]
        self.rematch.add(team)
        if self.rematch != set(TEAMS):
            return [(team.other, p.RematchAsked(self.seats[team].name))]
        self._count_for_series()
        self.games += 1  # a store keeps each game's steps apart (server/stores/sqlite_tables.py)
        self.game, self.step, self.log, self.told, self.rematch = game(), 0, [], [], set()
        self.extended = {}  # more time is counted a game
        self.first, self.hold = self.game.to_json(), Hold(self.game)
        return self.start()

    def _count_for_series(self) -> None:
        """The game just played counts for the series; a series it ended gives way to a new
        one of the same length at the next game."""
        series, outcome = self.series(), self.game.state.outcome
        if series is None or outcome is None:
            return
        series = series.after(outcome.winner)
        self.results = [] if series.over else [
            None if winner is None else int(winner) for winner in series.results]

    # -- a record ----------------------------------------------------------------------------

    def to_record(self) -> str:
        return json.dumps({**self._header(), "game": self.game.to_json(), "first": self.first,
                           "log": self.log, "told": self.told})

    @classmethod
    def from_record(cls, text: str) -> Table:
        """The table `to_record` wrote; SnapshotError for anything else."""
        try:
            data = json.loads(text)
            if data["format"] != RECORD_FORMAT:
                raise SnapshotError(f"a table record of format {data['format']!r}")
            table = cls(
                code=str(data["code"]), game=Game.from_json(data["game"]),
                seats={Team[name]: _seat(kept) for name, kept in data["seats"].items()},
                step=int(data["step"]), log=list(data["log"]), left=bool(data["left"]),
                left_by=None if data.get("left_by") is None else Team[data["left_by"]],
                left_why=str(data.get("left_why", "left")),
                seat_wait_s=int(data["seat_wait_s"]), first=str(data["first"]),
                lock=str(data.get("lock", "")), best_of=int(data.get("best_of", 1)),
                replay_ties=data.get("replay_ties", False) is True,
                public=data.get("public", False) is True,
                computer={Team[name] for name in data.get("computer", [])},
                gone={Team[name] for name in data.get("gone", [])},
                turn_s=int(data.get("turn_s", 0)),
                games=int(data.get("games", 0)),
                opponent_seat=None if data.get("opponent_seat") is None
                else Team[data["opponent_seat"]],
                opponent=str(data.get("opponent", "")),
                extended={Team[name]: int(count)
                          for name, count in data.get("extended", {}).items()},
                results=[None if winner is None else int(Team(int(winner)))
                         for winner in data.get("results", [])],
            )
            table.hold.held.update({Team[name]: action_from_dict(action)
                                    for name, action in data["held"].items()})
            Game.from_json(table.first)
            table.told = data["told"] if "told" in data else _replayed(table)
            if not isinstance(table.told, list) or len(table.told) != table.step:
                raise SnapshotError("a table record's events do not match its steps")
        except SnapshotError:
            raise
        except (ValueError, KeyError, TypeError, IndexError) as error:
            raise SnapshotError(f"a table record does not decode: {error}") from None
        return table

    # -- a record in parts: a header and a step at a time (server/stores/sqlite_tables.py) ----

    def header_record(self) -> str:
        """Everything `to_record` keeps but the game and its steps: seats, flags, held choices
        and counters. Small (no game state), so a store can rewrite it at every step and append
        the step alone (`step_record`); `from_parts` rebuilds the table from them."""
        return json.dumps(self._header())

    def _header(self) -> dict[str, Any]:
        """The fields both records keep: one list, so a field added is kept by both."""
        return {
            "format": RECORD_FORMAT, "code": self.code, "step": self.step,
            "left": self.left,
            "left_by": None if self.left_by is None else self.left_by.name,
            "left_why": self.left_why,
            "seat_wait_s": self.seat_wait_s, "lock": self.lock, "best_of": self.best_of,
            "replay_ties": self.replay_ties, "results": self.results, "public": self.public,
            "computer": sorted(team.name for team in self.computer),
            "gone": sorted(team.name for team in self.gone),
            "turn_s": self.turn_s, "games": self.games,
            "opponent_seat": None if self.opponent_seat is None else self.opponent_seat.name,
            "opponent": self.opponent,
            "extended": {team.name: count for team, count in self.extended.items()},
            "seats": {team.name: [seat.name, seat.seal(), seat.away_since, seat.account,
                                  seat.player]
                      for team, seat in self.seats.items()},
            "held": {team.name: action_to_dict(action) for team, action in self.held.items()},
        }

    def step_record(self, index: int) -> tuple[str, str]:
        """Step `index` of this game: its actions (the log's entry) and its events as they
        were sent, each as JSON text."""
        return json.dumps(self.log[index]), json.dumps(self.told[index])

    @classmethod
    def from_parts(cls, header: str, first: str, steps: Iterable[tuple[str, str]]) -> Table:
        """The table `header_record`, `first` and its `step_record`s (in order) were written
        from: the game is the replay of the steps' actions from `first`, so no step keeps a
        copy of the game state. SnapshotError for anything that does not fit."""
        try:
            data = json.loads(header)
            pairs = [(json.loads(actions), json.loads(told)) for actions, told in steps]
            game = Game.from_json(first)
            for entry, _ in pairs:
                game.apply({Team[name]: action_from_dict(kept) for name, kept in entry.items()})
            data.update(game=game.to_json(), first=first, log=[entry for entry, _ in pairs],
                        told=[told for _, told in pairs])
            text = json.dumps(data)
        except SnapshotError:
            raise
        # A step the rules refuse raises a RulesError, which is a ValueError.
        except (ValueError, KeyError, TypeError, IndexError, AttributeError) as error:
            raise SnapshotError(f"a table's steps do not replay: {error}") from None
        return cls.from_record(text)

    @classmethod
    def from_rows(cls, header: str, game: int, first: str | None,
                  rows: list[tuple[int, str, str]]) -> Table:
        """`from_parts` for a store's rows (its game `game`'s start, or None when missing, and
        its (step, actions, told) rows ordered by step): SnapshotError when a start or a step
        is missing or the header is another game's. The stores' one way to read a table."""
        if first is None:
            raise SnapshotError(f"game {game} of the table has no start")
        if [index for index, _actions, _told in rows] != list(range(len(rows))):
            raise SnapshotError(f"game {game} of the table is missing a step")
        table = cls.from_parts(header, first, [(actions, told) for _index, actions, told in rows])
        if table.games != game:
            raise SnapshotError(f"the table's header is for game {table.games}, not {game}")
        return table

    # -- internals ---------------------------------------------------------------------------

    def _commit(self, team: Team, action: Action, out: Outgoing) -> p.Refused | None:
        """One action through the engine's hold: checked by the rules once, held unseen
        until the other seat's comes, or played."""
        try:
            events = self.hold.choose(team, action)
        except (NotYourTurnError, AlreadyChosenError) as error:
            return p.Refused(p.NOT_NOW, str(error))
        except RulesError as error:
            return p.Refused(p.NOT_ALLOWED, str(error))
        if events is None:  # both seats hear that this one has chosen, and nothing of what
            chosen = p.Committed(self.step, int(team))
            out.extend((each, chosen) for each in TEAMS)
            return None
        played = self.hold.played
        self.log.append({each.name: action_to_dict(chosen) for each, chosen in played.items()})
        self.step += 1
        told = events_to_wire(events)
        self.told.append(as_json(told))
        update = p.Update(self.step, state_to_wire(self.game.state), told)
        out.extend((each, update) for each in TEAMS)
        return None


def _repeated(table: Table, team: Team, step: int, actions: list[WireAction]) -> bool:
    """Whether these actions are ones this seat already sent: the first of them was
    played at `step`, or they are what the table holds for this step. A game whose line
    dropped cannot know whether they arrived, so it sends them again once back."""
    if not actions:
        return False
    first = as_json(actions[0])  # the log's form (engine/snapshot.py): the same JSON
    if 0 <= step < len(table.log):
        return table.log[step].get(team.name) == first
    held = table.held.get(team)
    return (step == table.step and held is not None and len(actions) == 1
            and action_to_dict(held) == first)


def _replayed(table: Table) -> list[list[Any]]:
    """Each step's events, rebuilt by replaying the log from the game as it began: only for a
    record written before tables kept them (`told`), once, as it loads."""
    game = Game.from_json(table.first)
    return [events_to_list(game.apply({Team[name]: action_from_dict(data)
                                       for name, data in step.items()}))
            for step in table.log]


def _seat(kept: list[Any]) -> Seat:
    """A seat from its record: [name, its token's hash, when its line dropped, its signed-in
    player's folded name, that name as typed]. A record
    from an older server holds the token itself and no drop time (connected): that token
    still opens the seat, and is sealed the next time the table is kept."""
    away = kept[2] if len(kept) > 2 else None
    account = str(kept[3]) if len(kept) > 3 else ""  # an older record: no one signed in
    player = str(kept[4]) if len(kept) > 4 else ""  # an older record: the name unknown
    token = str(kept[1])
    when = None if away is None else float(away)
    if token.startswith("$argon2"):
        return Seat(str(kept[0]), "", when, sealed=token, account=account, player=player)
    return Seat(str(kept[0]), token, when, account=account, player=player)


# A seat token has 144 random bits: no guesser needs slowing, so its argon2id is cheap (the
# hash only keeps a copied store from giving anyone a seat), where a password's is not.
def _token_hasher() -> PasswordHasher:
    return PasswordHasher(time_cost=1, memory_cost=8 * 1024, parallelism=1)


def seal_token(token: str) -> str:
    return _token_hasher().hash(token)


def token_opens(sealed: str, token: str) -> bool:
    try:
        return _token_hasher().verify(sealed, token)
    except (VerificationError, InvalidHashError):
        return False


def lock(password: str) -> str:
    """What a table keeps of its password: its argon2id hash (salted, slow to guess), so the
    password itself is in no record and no log. Empty: no password. It takes tens of
    milliseconds on purpose: the service calls it off its event loop."""
    if not password:
        return ""
    return PasswordHasher().hash(password)


def unlocks(kept: str, password: str) -> bool:
    """Whether `password` opens a table locked with `kept` (any password opens none). A lock
    kept before argon2id (a salt and a SHA-256 digest, in a record from an older server)
    still opens with its password. Slow like `lock`, for the same reason."""
    if not kept:
        return True
    if kept.startswith("$argon2"):
        try:
            return PasswordHasher().verify(kept, password)
        except (VerificationError, InvalidHashError):
            return False
    salt, _, digest = kept.partition("$")
    tried = hashlib.sha256((salt + password).encode()).hexdigest()
    return secrets.compare_digest(tried.encode(), digest.encode())


def new_game(seed: int | None) -> Game:
    """The table's dice: from `seed` (a test's or a replay's), else from the system's entropy."""
    return Game(random.Random(secrets.randbits(64) if seed is None else seed))


def replay(seed: int, log: Iterable[dict[str, Any]]) -> tuple[Game, list[ev.Event]]:
    """The game a table with `seed` and `log` played, rebuilt locally (for tests and checks)."""
    game = Game(random.Random(seed))
    events: list[ev.Event] = []
    for step in log:
        events += game.apply({Team[name]: action_from_dict(data) for name, data in step.items()})
    return game, events
