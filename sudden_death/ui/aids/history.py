"""Message history: every spoken line of the session, reviewable one at a time.

Comma and period step back and forward, Shift jumps to the first or last, and slash changes
which messages are reviewed: results, the computer's moves, or everything. The review reads each
message with its place ("3 of 17") and never adds its own words to the history.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ...audio.protocols import Category, Message
from ...language import _, n_, p_

# Categories the narration and app use (Message.category) and the review filters over them.
RESULT_CATEGORIES = frozenset({Category.RESULT, Category.GAME_OVER})
COMPUTER_CATEGORIES = frozenset({Category.COMPUTER})
CHAT_CATEGORIES = frozenset({Category.CHAT})
# Not messages to review: the review itself, R's repeats, and the echo of the player's own
# keys (focus moves, typed letters), which would bury what the game said.
NOT_RECORDED = frozenset({Category.HISTORY, Category.REPEAT, Category.MENU, Category.ECHO,
                          Category.PAGE})

class Filter(Enum):
    """Which messages the review steps through."""

    EVERYTHING = "everything"
    RESULTS = "results"
    COMPUTER = "computer"
    CHAT = "chat"


# The categories each filter keeps (None: every one).
FILTERS: dict[Filter, frozenset[Category] | None] = {
    Filter.EVERYTHING: None,
    Filter.RESULTS: RESULT_CATEGORIES,
    Filter.COMPUTER: COMPUTER_CATEGORIES,
    Filter.CHAT: CHAT_CATEGORIES,
}


def filter_words(kept: Filter, opponent: str | None = None) -> str:
    """A filter's name as the review says it: "everything", "results", "computer" (at a
    table, the friend's team instead: `opponent`)."""
    if kept is Filter.RESULTS:
        # Translators: the history filter that keeps play results ("History: results").
        return p_("history filter", "results")
    if kept is Filter.COMPUTER and opponent is not None:
        return opponent  # "History: Bears": a friend's moves, named by their team
    if kept is Filter.COMPUTER:
        # Translators: the history filter that keeps the computer's moves ("History: computer").
        return p_("history filter", "computer")
    if kept is Filter.CHAT:
        # Translators: the history filter that keeps the messages with a friend at a table.
        return p_("history filter", "chat")
    # Translators: the history filter that keeps every message ("History: everything").
    return p_("history filter", "everything")


def _empty_words(kept: Filter, opponent: str | None = None) -> str:
    """What the review says when the filter has nothing yet."""
    if kept is Filter.RESULTS:
        # Translators: the history, filtered to play results, has none yet.
        return _("No results messages yet.")
    if kept is Filter.COMPUTER and opponent is not None:
        # Translators: the history, filtered to a friend's moves at a table, has none yet;
        # {team} is their team's name.
        return _("No {team} messages yet.").format(team=opponent)
    if kept is Filter.COMPUTER:
        # Translators: the history, filtered to the computer's moves, has none yet.
        return _("No computer messages yet.")
    if kept is Filter.CHAT:
        # Translators: the history, filtered to the chat with a friend, has none yet.
        return _("No chat messages yet.")
    # Translators: the history, unfiltered ("everything"), has no messages yet.
    return _("No everything messages yet.")


@dataclass(frozen=True)
class Review:
    """What a review key produced: the words to speak and the cue (edge when at an end)."""

    text: str
    cue: str | None = None


class History:
    """All messages in order, a category filter, and a review position within the filter."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.kept = Filter.EVERYTHING
        self.position: int | None = None  # index into the filtered list; None = past the end
        self.opponent: str | None = None  # at a table, the friend's team names their filter

    def record(self, message: Message) -> None:
        """Keep a message (unless it is the review itself); the review restarts at the end."""
        if message.category in NOT_RECORDED or not message.text.strip():
            return
        self.messages.append(message)
        self.position = None

    def visible(self) -> list[Message]:
        categories = FILTERS[self.kept]
        if categories is None:
            return list(self.messages)
        return [m for m in self.messages if m.category in categories]

    def _read(self, index: int, cue: str | None) -> Review:
        shown = self.visible()
        self.position = index
        text = shown[index].text.rstrip()
        if text.endswith((".", "!", "?", ":")):
            # Translators: a message read again from the history, with its place: "Gain of 4
            # yards. 3 of 17." ({message} already ends with its own punctuation).
            words = _("{message} {position} of {total}.")
        else:
            # Translators: a message read again from the history, with its place: "Gain of 4
            # yards. 3 of 17." ({message} has no punctuation of its own at the end).
            words = _("{message}. {position} of {total}.")
        return Review(words.format(message=text, position=index + 1, total=len(shown)), cue)

    def _empty(self) -> Review:
        return Review(_empty_words(self.kept, self.opponent), "menu_edge")

    def step(self, delta: int) -> Review:
        """Comma (-1) / period (+1): the message before or after; the ends are heard."""
        shown = self.visible()
        if not shown:
            return self._empty()
        if self.position is None:
            return self._read(len(shown) - 1, "menu_move" if delta < 0 else "menu_edge")
        target = self.position + delta
        if target < 0 or target >= len(shown):
            return self._read(max(0, min(len(shown) - 1, self.position)), "menu_edge")
        return self._read(target, "menu_move")

    def first(self) -> Review:
        shown = self.visible()
        return self._read(0, "menu_move") if shown else self._empty()

    def last(self) -> Review:
        shown = self.visible()
        return self._read(len(shown) - 1, "menu_move") if shown else self._empty()

    def cycle_filter(self, delta: int = 1) -> Review:
        """Slash: the next category; the review starts again from its latest message."""
        order = list(Filter)
        self.kept = order[(order.index(self.kept) + delta) % len(order)]
        self.position = None
        count = len(self.visible())
        # Translators: {filter} is the history filter just chosen: "everything", "results",
        # "computer" (at a table, the friend's team's name) or "chat"; {count} how many
        # messages it keeps.
        words = n_("History: {filter}, {count} message.", "History: {filter}, {count} messages.",
                   count)
        return Review(words.format(filter=filter_words(self.kept, self.opponent), count=count),
                      "menu_select")
