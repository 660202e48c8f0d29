"""The rules engine: pure, deterministic, and free of any audio or window code.

Everything random comes from an injected `random.Random`; each step is a mapping of teams to
`Action` values given to `Game.apply`, which returns structured events.
"""

from .actions import (
    Action,
    CallCoin,
    ChooseSide,
    ChooseSnap,
    Concede,
    PickFinal,
    PickHand,
    PickSwap,
    actors,
    legal_actions,
)
from .card_model import BANDS, DefCall, OffCall, Player, PlayKind, PlayResult, Role
from .errors import (
    GameOverError,
    IllegalCallError,
    IllegalChoiceError,
    IllegalSelectionError,
    IllegalSubstitutionError,
    KickUnavailableError,
    RulesError,
    SnapshotError,
    WrongPhaseError,
)
from .field import Down
from .game import Game
from .match import Decision, Match
from .policy import Policy, RandomComputer
from .state import (
    CoinFace,
    DriveEnd,
    GameEnd,
    GameState,
    Hand,
    Outcome,
    Phase,
    Side,
    SnapChoice,
    Swap,
    SwapKind,
    Team,
)

__all__ = [
    "BANDS",
    "Action",
    "CallCoin",
    "ChooseSide",
    "ChooseSnap",
    "CoinFace",
    "Concede",
    "Decision",
    "DefCall",
    "Down",
    "DriveEnd",
    "Game",
    "GameEnd",
    "GameOverError",
    "GameState",
    "Hand",
    "IllegalCallError",
    "IllegalChoiceError",
    "IllegalSelectionError",
    "IllegalSubstitutionError",
    "KickUnavailableError",
    "Match",
    "OffCall",
    "Outcome",
    "Phase",
    "PickFinal",
    "PickHand",
    "PickSwap",
    "PlayKind",
    "PlayResult",
    "Player",
    "Policy",
    "RandomComputer",
    "Role",
    "RulesError",
    "Side",
    "SnapChoice",
    "SnapshotError",
    "Swap",
    "SwapKind",
    "Team",
    "WrongPhaseError",
    "actors",
    "legal_actions",
]
