"""The one seam between the session and whoever plays the other side: the computer, the
coach, or a friend at a table.

Every game is played the same way: the player's actions are `submit`ted, and what they caused
is `drain`ed as `Step`s, by the session after a key and by the app on every turn of the loop.
A game against the computer queues its steps at once; a table's arrive when the server has
played them. Nothing above this asks which kind of game it holds: what differs is said by the
game's own answers (`opponent`, `waiting`, `table_series`, `keeps_here`, `saved`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from ..audio.protocols import Category
from ..engine import events as ev
from ..engine.actions import Action
from ..engine.card_model import Role
from ..engine.match import Decision
from ..engine.series import Series
from ..engine.state import GameState, Team
from ..storage.game_file import SavedGame
from ..storage.record import Opponent
from .words.phrases import Names


@dataclass(frozen=True)
class Refusal:
    """What was not played, in the words to say; `ask_again`: the decision is shown again
    (at a table the waiting screen had replaced it)."""

    words: str
    category: Category = Category.MENU
    ask_again: bool = False


@dataclass(frozen=True)
class Step:
    """What one submission (or a step the other side played) caused: its events, and what was
    refused, if anything (events before a refusal still count)."""

    events: list[ev.Event] = field(default_factory=list)
    refusal: Refusal | None = None


class Play(Protocol):
    """What the session asks of a game, whoever the other side is."""

    @property
    def state(self) -> GameState: ...

    @property
    def human(self) -> Team | None: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def opponent(self) -> Opponent:
        """Who plays the other side (the record keeps it; words name a friend)."""
        ...

    @property
    def waiting(self) -> bool:
        """Whether the game waits on the other side's choice (a friend's); never the
        computer's, which is fixed before the player's is read."""
        ...

    @property
    def table_series(self) -> Series | None:
        """The series the table's server counts, as it stood before this game; None for a
        single game and against the computer (whose series the app keeps itself)."""
        ...

    @property
    def keeps_here(self) -> bool:
        """Whether this computer keeps the game and its series (against the computer); a
        table's are kept by its server."""
        ...

    def pending(self) -> Decision | None: ...

    def role_of(self, team: Team) -> Role | None: ...

    def legal_actions(self) -> tuple[Action, ...]: ...

    def submit(self, actions: Sequence[Action]) -> None:
        """The player's actions in order; what they cause comes out of `drain`."""
        ...

    def concede(self, team: Team) -> None: ...

    def drain(self) -> list[Step]:
        """Every step since the last drain, oldest first; never waits."""
        ...

    def saved(self, names: Names) -> SavedGame | None:
        """The game as it stands, to keep on this computer; None when there is none to keep
        (over, or at a table)."""
        ...


class StepQueue:
    """The steps a game has queued for the next drain."""

    def __init__(self) -> None:
        self._steps: list[Step] = []

    def put(self, events: list[ev.Event], refusal: Refusal | None = None) -> None:
        if events or refusal is not None:
            self._steps.append(Step(events, refusal))

    def drain(self) -> list[Step]:
        steps, self._steps = self._steps, []
        return steps
