"""Named errors for illegal input to the rules engine.

Every error is raised before the engine changes anything, so a caller can report it and ask again.
"""

from __future__ import annotations


class RulesError(ValueError):
    """Base class: the requested action is not allowed by the rules right now."""


class WrongPhaseError(RulesError):
    """The action belongs to another step of the game (e.g. a final call during selection)."""


class IllegalChoiceError(RulesError):
    """A choice that is not one of the options offered (e.g. "edges" for a coin call)."""


class IllegalSelectionError(RulesError):
    """A hand does not hold exactly 2 different players and 3 different calls of the right side."""


class IllegalSubstitutionError(RulesError):
    """A substitution drops a card not held, or brings in one already held or of the wrong side."""


class IllegalCallError(RulesError):
    """The final call is not one of the three calls in the hand."""


class KickUnavailableError(RulesError):
    """A field goal was asked for from beyond the longest allowed distance."""


class NotYourTurnError(RulesError):
    """The action is for a step the other team makes (or has already made)."""


class GameOverError(RulesError):
    """The game has ended; no further actions are accepted."""


class SnapshotError(RulesError):
    """A saved game or action that does not decode: not JSON, another format, a missing part."""
