"""What the game has said, kept for the eye and for R: the last words, the game log (H), fault
notices until a key passes them, and where the window's text panel is scrolled to.

It listens to every spoken message, so the window can never show less than was said.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...audio.protocols import Category, Message
from ...language import _

# What the game log (H) keeps: what happened, not the questions asked or the focus moves.
LOG_CATEGORIES = frozenset({Category.RESULT, Category.COMPUTER, Category.GAME_OVER,
                            Category.NOTICE})
# What R repeats: the last announcement (what happened, and the lesson's words), never a focus
# move or an answer to a key; before any, the question of the decision.
ANNOUNCEMENTS = LOG_CATEGORIES | {Category.TUTORIAL}


@dataclass
class Scroll:
    """Page Up / Page Down's answer: the cue (None when it moved) and the words."""

    cue: str | None
    words: str


@dataclass
class Panel:
    last_spoken: str = ""  # the panel shows it
    last_announcement: str = ""  # R repeats it (ANNOUNCEMENTS)
    last_question: str = ""  # the last decision's question, R's answer before any news
    log: list[str] = field(default_factory=list)
    logged_as: dict[str, str] = field(default_factory=dict)  # said: what the log keeps instead
    notices: list[str] = field(default_factory=list)
    notices_heard: int = 0  # notices a key has since passed: they fade from the panel
    first: int = 0  # the panel's first line shown
    lines: tuple[int, int] = (0, 0)  # lines it holds, lines shown: from the last frame drawn

    def heard(self, message: Message) -> None:
        """A speaker listener: every message, as it is said."""
        if message.category is Category.PAGE:  # where the panel was scrolled to: not panel text
            return
        if message.text != self.last_spoken:
            self.first = 0  # new words: the panel shows them from their start
        self.last_spoken = message.text
        if message.category in ANNOUNCEMENTS:
            self.last_announcement = message.text
        elif message.category is Category.DECISION:
            self.last_question = message.text
        if message.category in LOG_CATEGORIES:
            self.log.append(self.logged_as.pop(message.text, message.text))

    def log_as(self, said: str, logged: str) -> None:
        """The log keeps `logged` for the line `said` (when it is heard); straight away when
        nothing is said."""
        if said:
            self.logged_as[said] = logged
        else:
            self.log.append(logged)

    def add_notice(self, notice: str) -> bool:
        """Show a fault reason (once); True when it is new."""
        if not notice or notice in self.notices:
            return False
        self.notices.append(notice)
        return True

    def fade_notices(self) -> None:
        """A key after a notice was shown means it was heard (or cut, and kept in history)."""
        self.notices_heard = len(self.notices)

    def shown_notices(self) -> list[str]:
        return self.notices[self.notices_heard:]

    def scroll(self, direction: int) -> Scroll:
        """A page up (-1) or down (1) through the panel's text."""
        total, shown = self.lines
        if total <= shown or shown == 0:
            return Scroll("menu_edge", _("The text below the decision is all shown."))
        first = max(0, min(total - shown, self.first + direction * shown))
        cue = "menu_edge" if first == self.first else None
        self.first = first
        # Translators: Page Up / Page Down in the window's text panel: "Text lines 1 to 12 of 30."
        words = _("Text lines {first} to {last} of {total}.")
        return Scroll(cue, words.format(first=first + 1, last=min(total, first + shown),
                                        total=total))
