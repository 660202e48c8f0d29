"""A game at a table behind the session's one seam (`play.Play`): the seat's `RemoteMatch`,
whose steps are queued when the table's news brings them (`TablePlay` calls `tell`), not
when the player submits."""

from __future__ import annotations

from collections.abc import Sequence

from ..audio.protocols import Category
from ..engine import events as ev
from ..engine.actions import Action
from ..engine.card_model import Role
from ..engine.errors import RulesError
from ..engine.match import Decision
from ..engine.series import Series
from ..engine.state import GameState, Team
from ..language import _
from ..net.remote_match import RemoteMatch
from ..storage.game_file import SavedGame
from ..storage.record import Opponent
from .play import Refusal, Step, StepQueue
from .words.phrases import Names


class TableGame:
    def __init__(self, remote: RemoteMatch) -> None:
        self.remote = remote
        self._steps = StepQueue()

    @property
    def state(self) -> GameState:
        return self.remote.state

    @property
    def human(self) -> Team | None:
        return self.remote.human

    @property
    def is_over(self) -> bool:
        return self.remote.is_over

    @property
    def opponent(self) -> Opponent:
        return Opponent.FRIEND

    @property
    def waiting(self) -> bool:
        return self.remote.waiting

    @property
    def table_series(self) -> Series | None:
        """The table's series; none once the friend has left (the series is over then)."""
        return None if self.remote.left else self.remote.series

    @property
    def keeps_here(self) -> bool:
        return False

    @property
    def step(self) -> int:
        return self.remote.step

    def pending(self) -> Decision | None:
        return self.remote.pending()

    def role_of(self, team: Team) -> Role | None:
        return self.remote.role_of(team)

    def legal_actions(self) -> tuple[Action, ...]:
        return self.remote.legal_actions()

    def submit(self, actions: Sequence[Action]) -> None:
        """Sent to the server; what they cause is told later (`tell`)."""
        _events, refused = self.remote.play(actions)
        if refused is not None:
            # Translators: {reason} is the rules' reason, which is in English.
            self._steps.put([], Refusal(_("Not allowed: {reason}.").format(reason=refused)))

    def concede(self, team: Team) -> None:
        self.remote.concede(team)

    def tell(self, events: list[ev.Event], refusal: RulesError | None) -> None:
        """The table's news for this game: a step played, or what the server refused (in
        the player's words already), after which the decision is the player's again."""
        self._steps.put(events, None if refusal is None else Refusal(
            str(refusal), Category.ERROR, ask_again=True))

    def drain(self) -> list[Step]:
        return self._steps.drain()

    def saved(self, names: Names) -> SavedGame | None:
        return None
