"""The page's game against the computer on its own device (issue 74): a table with no
server, run in Pyodide by `page/offline.js`, that answers the page's acts with the frames a
table server sends a browser seat against its computer (`OfflineTable`).

The game is the desktop game's: `Match.against_computer`'s dice and computer for the seed
(the rules' random computer by default, or the coach), the computer's choice for a step both
make fixed as the step begins, so the same seed and the same actions make the same game, event
for event. It is stepped one engine step at a time, as a table is, so each step is told in its
own `view` frame (`seat_view.SeatView`, the server's own words) and numbered as a server
numbers it: the page needs nothing it would not get from a server. Nothing here imports the
wire (msgspec is not in Pyodide's core); the table protocol's few names the page reads are
written out here.

Frames go out as dicts, in order: `{"type": "start" | "update", "step"}` (what page.js reads of
the protocol's own messages) before the view of each, and a refusal as the server sends one,
`{"type": "refused", "code", "text", "fatal": false}`, before a view that says it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..audio.protocols import CUE_NAMES
from ..engine import events as ev
from ..engine.actions import SIMULTANEOUS, Action, actors, legal_for_actor
from ..engine.computers import COMPUTERS, RANDOM
from ..engine.errors import RulesError, SnapshotError
from ..engine.game import Game
from ..engine.hold import Hold
from ..engine.match import Match
from ..engine.policy import Policy
from ..engine.snapshot import action_from_dict
from ..engine.state import Team
from ..language import _, using
from ..ui.words.phrases import Names
from ..ui.words.seats import paired_words
from .seat_view import SeatView, language_of

# The table protocol's refusal codes (wire/protocol.py) that the page hears here.
NOT_ALLOWED, NOT_NOW, BAD_MESSAGE = "not_allowed", "not_now", "bad_message"
MAX_ACTIONS = 8  # the protocol's for an act: one or two (the snap and the cards)
MAX_ACT_CHARS = 64 * 1024  # the protocol's for a message: a page's act is a few hundred
MAX_NAME = 24  # the protocol's for a team's name
MAX_REASON = 200  # of a refusal's reason, which may quote what was sent
PLAYER = Team.HOME  # the player calls the toss, as in the desktop game
DEFAULT_NAMES = ("Hawks", "Bears")

Frame = dict[str, Any]


class Refusal(Exception):
    """What the page asked for is not done: its code (the protocol's) and reason in English."""

    def __init__(self, code: str, reason: str) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason[:MAX_REASON]


def team_names(team: str, theirs: str) -> Names:
    """The teams as the page's start form names them: each trimmed and at most MAX_NAME
    characters, a default for an empty one, and never one name for both."""
    mine = team.strip()[:MAX_NAME] or DEFAULT_NAMES[0]
    other = theirs.strip()[:MAX_NAME]
    if not other or other.casefold() == mine.casefold():
        other = next(name for name in (*DEFAULT_NAMES[::-1], "Comets")
                     if name.casefold() != mine.casefold())
    return Names(mine, other, you=PLAYER)


@dataclass
class OfflineTable:
    """One page's table against the computer: game `games` of it plays from `seed + games`."""

    seed: int
    names: Names
    seat: SeatView
    opponent: str = RANDOM
    games: int = 0
    step: int = 0
    game: Game = field(init=False)
    hold: Hold = field(init=False)
    computer: Policy = field(init=False)
    # Each step's actions, as played: what a test replays to check the game, and what a
    # saved game would keep.
    log: list[dict[Team, Action]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.new_game()

    @classmethod
    def open(cls, seed: int, lang: str = "en", team: str = "", theirs: str = "",
             opponent: str = RANDOM) -> OfflineTable:
        """A table for the page's start form: the player's team and the computer's, which
        computer it is ("random" or "coach"; another is the random one), the page's language."""
        return cls(seed, team_names(team, theirs),
                   SeatView(lang, known_cues=frozenset(CUE_NAMES)),
                   opponent if opponent in COMPUTERS else RANDOM)

    def new_game(self) -> None:
        """Game `games` of the table: the desktop game's dice and computer for its seed."""
        match = Match.against_computer(self.seed + self.games, PLAYER, self.opponent)
        self.game, self.computer = match.game, match.policies[PLAYER.other]
        self.hold, self.step, self.log = Hold(self.game), 0, []

    # -- what the page hears ------------------------------------------------------------

    def start(self) -> list[Frame]:
        """The game's first frames: who plays whom, and the first decision (with whatever
        the computer did before it)."""
        with using(language_of(self.seat.language)):
            self.seat.fresh()
            told = self.seat.begin(self.names, self.game.state, self.step, [])
            if self.games == 0:  # as a server's first start says it; a rematch does not
                told.insert(0, paired_words(self.names.mine, self.names.theirs, ""))
            frames = [{"type": "start", "step": self.step}, self.seat.view(told)]
            return frames + self.advance()

    def answer(self, text: str) -> list[Frame]:
        """The frames for one of the page's messages (its JSON text, as sent to a server):
        an act's steps, a rematch's start, or a refusal; never an exception."""
        try:
            return self.handle(parsed(text))
        except Refusal as refusal:
            return self.refused(refusal)

    def answer_json(self, text: str) -> str:
        """`answer` as JSON text, for the worker: one string crosses into JavaScript."""
        return json.dumps(self.answer(text), ensure_ascii=False)

    def start_json(self) -> str:
        """`start` as JSON text, likewise."""
        return json.dumps(self.start(), ensure_ascii=False)

    # -- internals ------------------------------------------------------------------------

    def handle(self, message: dict[str, Any]) -> list[Frame]:
        kind = message.get("type")
        if kind == "act":
            return self.act(message.get("step"), message.get("actions"))
        if kind == "rematch":
            if not self.game.is_over:
                raise Refusal(NOT_NOW, "a rematch comes after the game")
            self.games += 1
            self.new_game()
            return self.start()
        if kind in ("leave", "chat"):  # the page leaves by itself; the computer reads nothing
            return []
        raise Refusal(BAD_MESSAGE, f"a table here does nothing for {str(kind)[:40]!r}")

    def act(self, step: object, actions: object) -> list[Frame]:
        """The player's actions for `step`, in order: each that applies is told, with the
        computer's steps after it; a refused one stops the rest (Match.play's rule)."""
        if self.game.is_over:
            raise Refusal(NOT_NOW, "the game is not being played")
        if not isinstance(step, int) or isinstance(step, bool):
            raise Refusal(BAD_MESSAGE, "an act names its step")
        if step != self.step:
            raise Refusal(NOT_NOW, f"that was for step {step}; this is step {self.step}")
        if not isinstance(actions, list) or not 1 <= len(actions) <= MAX_ACTIONS:
            raise Refusal(BAD_MESSAGE, f"an act has 1 to {MAX_ACTIONS} actions")
        frames: list[Frame] = []
        for data in actions:
            try:
                action = action_from_dict(data)
                events = self.hold.choose(PLAYER, action)
            except (SnapshotError, RulesError) as error:
                code = BAD_MESSAGE if isinstance(error, SnapshotError) else NOT_ALLOWED
                return frames + self.refused(Refusal(code, str(error)))
            if events is not None:  # always: the computer chose first
                frames += self.told(dict(self.hold.played), events)
            frames += self.advance()
        return frames

    def advance(self) -> list[Frame]:
        """The computer's own steps, each told, until the player owes a choice or the game
        is over; then its choice for a step both teams make, fixed before the player's (the
        order `Match` draws them in, so the computer's choices are the desktop's)."""
        frames: list[Frame] = []
        computer = PLAYER.other
        while not self.game.is_over:
            teams = actors(self.game.state)
            if PLAYER in teams:
                if self.game.state.phase in SIMULTANEOUS and computer in teams \
                        and not self.hold.held:
                    self.hold.choose(computer, self.choice(computer))
                break
            actions = {team: self.choice(team) for team in teams}
            frames += self.told(actions, self.game.apply(actions))
        return frames

    def choice(self, team: Team) -> Action:
        state = self.game.state
        return self.computer.choose(state, team, legal_for_actor(state, team))

    def told(self, actions: dict[Team, Action], events: list[ev.Event]) -> list[Frame]:
        """A step played: numbered, and told in words."""
        self.log.append(actions)
        self.step += 1
        with using(language_of(self.seat.language)):
            self.seat.fresh()
            lines = self.seat.played(self.game.state, self.step, events)
            return [{"type": "update", "step": self.step}, self.seat.view(lines)]

    def refused(self, refusal: Refusal) -> list[Frame]:
        """A refusal as a server sends it, and a view that says it (the rules' reason, in
        English, as the desktop game says it)."""
        with using(language_of(self.seat.language)):
            self.seat.fresh()
            self.seat.sound("menu_error")
            # Translators: {reason} is the rules' reason, which is in English.
            words = _("Not allowed: {reason}.").format(reason=refusal.reason)
            return [{"type": "refused", "code": refusal.code, "text": refusal.reason,
                     "fatal": False}, self.seat.view([words])]


def parsed(text: object) -> dict[str, Any]:
    """The page's message: a JSON object, or a Refusal that says what it is instead."""
    if not isinstance(text, str):
        raise Refusal(BAD_MESSAGE, "messages are JSON text")
    if len(text) > MAX_ACT_CHARS:
        raise Refusal(BAD_MESSAGE, f"a message is at most {MAX_ACT_CHARS} characters")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise Refusal(BAD_MESSAGE, "not a message of this game: not JSON") from None
    if not isinstance(message, dict):
        raise Refusal(BAD_MESSAGE, "not a message of this game: not an object")
    return message
