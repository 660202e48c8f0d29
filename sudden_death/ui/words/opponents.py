"""The computers a player can meet, as said after "Opponent: ": one table for the desktop's
settings and the browser page's start form, so both name them alike."""

from __future__ import annotations

from ...language import N_

# The choices as spoken after "Opponent: " (N_: translated where spoken); keyed by the engine's
# computer names (engine/computers.py).
COMPUTER_WORDS = {
    "random": N_("the rules' computer, picking at random"),
    "coach": N_("the coach, who knows the tables"),
}
