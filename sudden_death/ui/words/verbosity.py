"""Verbosity levels: how much the game says after each step (the narrator and screens read it).

Short keeps only what changed (the other side's cards, the yards, the new down); normal says each
thing once; detailed adds the rolls and the reasoning a learner wants. Cues are never dropped.
"""

from __future__ import annotations

from ...language import N_

SHORT, NORMAL, DETAILED = "short", "normal", "detailed"

# Marked for the catalog here; shown with `_()` where they are used.
VERBOSITY_WORDS = {
    # Translators: a verbosity setting, as in "Verbosity: short: only what changed".
    SHORT: N_("short: only what changed"),
    # Translators: a verbosity setting, as in "Verbosity: normal".
    NORMAL: N_("normal"),
    # Translators: a verbosity setting, as in "Verbosity: detailed: with the rolls and the
    # reasons".
    DETAILED: N_("detailed: with the rolls and the reasons"),
}

