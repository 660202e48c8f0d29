"""Verbosity levels: how much the game says after each step (the narrator and screens read it).

Short keeps only what changed (the other side's cards, the yards, the new down); normal says each
thing once; detailed adds the rolls and the reasoning a learner wants. Cues are never dropped.
"""

from __future__ import annotations

SHORT, NORMAL, DETAILED = "short", "normal", "detailed"

VERBOSITY_WORDS = {
    SHORT: "short: only what changed",
    NORMAL: "normal",
    DETAILED: "detailed: with the rolls and the reasons",
}
