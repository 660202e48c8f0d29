"""A spoken line and the sounds that open it: what the narrator hands the app to say."""

from __future__ import annotations

from dataclasses import dataclass

from ...audio.protocols import Category, Priority


@dataclass(frozen=True)
class Line:
    """One spoken line and the sounds that open it: the dice first, then the cue.

    `field_tone` asks for the short field tone with the line (the new spot after a play);
    `sweep` for the play's sweep from one spot to another (from the player's own goal).
    `logged` is what the game log (H) keeps instead, when the short line leaves out what the
    player just chose (their own swap or call): said once, kept whole for review.
    """

    text: str
    cue: str | None = None
    priority: Priority = Priority.ALERT
    category: Category = Category.RESULT
    dice: tuple[int, ...] = ()
    field_tone: bool = False
    sweep: tuple[int, int] | None = None
    logged: str = ""
