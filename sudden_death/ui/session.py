"""The player's session: the match being played, the screens on the stack, and what the game
remembers for the player between decisions.

It holds no audio and draws nothing, so the app (keys, speech, the window) stays glue and
everything here can be checked without a speaker.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

from ..engine import events as ev
from ..engine.actions import Action, held_hand
from ..engine.card_model import Card, Role
from ..engine.computers import RANDOM
from ..engine.errors import RulesError, SnapshotError
from ..engine.state import Hand, SnapChoice, Team
from ..storage.game_file import SavedGame
from .computer_game import ComputerGame
from .play import Play
from .screens.base import Screen
from .screens.review import ComputerCalls
from .words.line import Line
from .words.narration import Narrator
from .words.phrases import Names
from .words.variety import Variety
from .words.verbosity import Telling


class Session:
    """One window's games, one after another. `seed` fixes every game: game n uses seed + n."""

    def __init__(self, seed: int | None, names: Names) -> None:
        self.seed = seed
        self.games = 0
        self.rng = random.Random()
        self.stack: list[Screen] = []
        self.match: Play | None = None
        self.names = names  # the player's team is `names.you` once a match starts
        self.narrator = Narrator(names)
        self.computer = ComputerCalls()  # what the computer has revealed, for its section
        self.result: list[str] = []  # the words of the last result, shown in the window
        self.told: set[str] = set()  # explanations given in full this game (first_time)
        # What the player has done in this window, in any game: its explanation has done its
        # work (`until_done`).
        self.done: set[str] = set()
        self.last_hands: dict[Role, Hand] = {}  # the player's cards of the last down, per side
        self.brought_in: dict[Team, Card] = {}  # each team's card brought in this down
        self.taught_again = False  # "last down's cards are checked again" is said once
        # The last snap or kick and what followed it, with who had the ball (L tells it again).
        self.last_play: tuple[list[ev.Event], Team | None] | None = None
        # Every event of the game, step by step as it was told: the record keeps them.
        self.steps: list[list[ev.Event]] = []

    # -- screens -----------------------------------------------------------------------------

    @property
    def top(self) -> Screen:
        return self.stack[-1]

    def replace(self, screen: Screen) -> None:
        """A new decision: `screen` becomes the whole stack."""
        self.stack = [screen]

    def push(self, screen: Screen) -> None:
        self.stack.append(screen)

    def pop(self) -> None:
        """Close the top screen; the bottom one (the decision) always stays."""
        if len(self.stack) > 1:
            self.stack.pop()

    # -- matches -----------------------------------------------------------------------------

    def new_match(self, names: Names, computer: str = RANDOM,
                  overtime: bool = False) -> list[ev.Event]:
        """Start the next game against `computer` ("random" or "coach"), with the overtime
        house rule or not; returns what happened before the player's first decision."""
        seed = self.rng.randrange(2**31) if self.seed is None else self.seed + self.games
        self.games += 1
        game = ComputerGame.new(seed, computer, overtime)
        self._begin(game, names, seed)
        events = [event for step in game.drain() for event in step.events]
        self.steps.append(list(events))
        return events

    def saved(self) -> SavedGame | None:
        """The game against the computer as it stands, to keep; None when there is none to
        keep (at a table, before a game, after its end)."""
        return None if self.match is None else self.match.saved(self.names)

    def resume(self, saved: SavedGame) -> list[ev.Event]:
        """The saved game, rebuilt by playing its actions again from its seed: the session
        then remembers what the player had seen. Raises SnapshotError when the rebuilt game
        is not the one saved (a save of another version's rules). Returns every event."""
        game = ComputerGame.new(saved.seed, saved.computer, saved.overtime)
        self._begin(game, Names(saved.home, saved.away), saved.seed)
        quiet = Telling()
        # As a new match's: told, never noted (App.new_match).
        events = [event for step in game.drain() for event in step.events]
        self.steps.append(list(events))
        self.narrator.lines(events, quiet)  # it follows who has the ball
        for data in saved.actions:
            try:
                played = game.replay(data)
            except RulesError as refused:
                raise SnapshotError(f"a saved action is refused: {refused}") from refused
            self.note(played)
            self.narrator.lines(played, quiet)
            events += played
        if game.match.to_json() != saved.snapshot:
            raise SnapshotError("the game played again is not the one saved")
        return events

    def join_table(self, match: Play, names: Names) -> None:
        """A game at a table: the other team is a person, `match` plays through the server."""
        self._begin(match, names,
                    self.rng.randrange(2**31) if self.seed is None else self.seed + self.games)

    def _begin(self, match: Play, names: Names, words_seed: int) -> None:
        """Start telling `match`; `words_seed` seeds the choice among phrasings (the game's
        own seed against the computer, so a seeded game's words are reproducible)."""
        self.match = match
        # The words speak from the side of the team the player has in this match.
        self.names = replace(names, you=match.human or names.you)
        # A game joined mid-way (back at a table after a crash) already has an offense.
        self.narrator = Narrator(self.names, match.state.offense, Variety(words_seed))
        self.computer = ComputerCalls()
        self.result = []
        self.told = set()
        self.last_hands = {}
        self.brought_in = {}
        self.last_play = None
        self.steps = []

    def submit(self, actions: Sequence[Action]) -> None:
        """The player's actions in order, to the game; what they cause is drained."""
        if self.match is not None:
            self.match.submit(actions)

    def concede(self) -> None:
        if self.match is not None and not self.match.is_over:
            self.match.concede(self.names.you)

    def note(self, events: Sequence[ev.Event]) -> None:
        """Remember what the events showed: the computer's cards, and the cards the player
        ended each down with (for "the same cards again")."""
        offense = self.narrator.offense  # the side of the ball before these events
        if events:
            self.steps.append(list(events))
        self.computer.note(events, offense, self.names)
        self._keep_last_play(events, offense)
        for event in events:
            if isinstance(event, ev.DriveStarted):
                offense = event.offense
            elif isinstance(event, ev.HandsRevealed) and event.step == 1:
                self.brought_in = {}
            elif isinstance(event, ev.HandsRevealed) and event.step == 2:
                if offense is not None:
                    self.brought_in = {team: swap.into for team, swap in (
                        (offense, event.offense_swap), (offense.other, event.defense_swap))
                        if swap is not None and swap.into is not None}
                mine = offense is self.names.you
                role = Role.OFFENSE if mine else Role.DEFENSE
                self.last_hands[role] = event.offense if mine else event.defense

    def _keep_last_play(self, events: Sequence[ev.Event], offense: Team | None) -> None:
        """The newest play in `events`: from both final calls (or a kick) to the end."""
        start = None
        for index, event in enumerate(events):
            if isinstance(event, ev.FinalCallsRevealed) or (
                    isinstance(event, ev.SnapChosen) and event.choice is not SnapChoice.PLAY):
                start = index
        if start is None:
            return
        for event in events[:start]:
            if isinstance(event, ev.DriveStarted):
                offense = event.offense
        self.last_play = (list(events[start:]), offense)

    def last_play_lines(self, telling: Telling) -> list[Line]:
        """The last play told again (L), as `telling` asks; [] before the first."""
        if self.last_play is None:
            return []
        events, offense = self.last_play
        return Narrator(self.names, offense).lines(events, telling)

    def first_time(self, topic: str, telling: Telling) -> bool:
        """Whether a screen explains `topic` in full now: every time with explanations on,
        else the first time in the game (a player who has heard it once needs only what
        changes, and F1 keeps the whole text)."""
        told = topic in self.told
        self.told.add(topic)
        return telling.explanations or not told

    def until_done(self, topic: str, telling: Telling) -> bool:
        """Whether to explain how to do `topic` (a key's use) now: every time with
        explanations on, else until the player has done it once in this window (`did`)."""
        return telling.explanations or topic not in self.done

    def did(self, topic: str) -> None:
        """The player has done `topic`: its explanation is not needed again."""
        self.done.add(topic)

    def my_hand(self, team: Team) -> Hand:
        assert self.match is not None
        hand = held_hand(self.match.state, team)
        assert hand is not None
        return hand
