"""The rules engine: pure, deterministic, and free of any audio or window code.

Everything random comes from an injected `random.Random`; actions return structured events.
"""

from .card_model import BANDS, DefCall, OffCall, Player, PlayKind, Role
from .errors import (
    GameOverError,
    IllegalCallError,
    IllegalChoiceError,
    IllegalSelectionError,
    IllegalSubstitutionError,
    KickUnavailableError,
    RulesError,
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
    "CoinFace",
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
    "PlayKind",
    "Player",
    "Policy",
    "RandomComputer",
    "Role",
    "RulesError",
    "Side",
    "SnapChoice",
    "Swap",
    "SwapKind",
    "Team",
    "WrongPhaseError",
]
