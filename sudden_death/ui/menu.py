"""One focus model for every decision, dialog and review list.

A `Menu` is a list of groups (the "controls" Tab moves between); each group is a list of items
(buttons, checkboxes, radio options or plain text lines) that the arrows move through. Every
action returns `Feedback`: the words to speak and the cue to play, so the menu never talks to
audio itself and a later card explorer or settings menu can reuse it unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

SHORT_DETAIL, NORMAL_DETAIL, FULL_DETAIL = 0, 1, 2


class ItemKind(str, Enum):
    BUTTON = "button"
    CHECKBOX = "checkbox"
    RADIO = "radio"
    TEXT = "text"


@dataclass
class Item:
    """One entry. `note` is spoken after the label (e.g. "player"); `value` is for the owner."""

    label: str
    kind: ItemKind = ItemKind.BUTTON
    value: object = None
    note: str = ""
    checked: bool = False
    enabled: bool = True
    reason: str = ""  # why a disabled item cannot be used, spoken when it is tried


@dataclass
class Group:
    """A control: a titled list. `limit` caps checked checkboxes; `noun` names them in messages."""

    title: str
    items: list[Item]
    focus: int = 0
    limit: int | None = None
    noun: str = "items"

    @property
    def focused(self) -> Item | None:
        return self.items[self.focus] if self.items else None

    def checked(self) -> list[Item]:
        return [item for item in self.items if item.checked]


@dataclass(frozen=True)
class Feedback:
    """What an action produced: words, a cue, and the item activated or confirmed (if any)."""

    text: str = ""
    cue: str | None = None
    activated: Item | None = None
    confirm: bool = False  # Enter on a non-button: the owner should confirm the decision


@dataclass
class Menu:
    title: str
    groups: list[Group]
    group_index: int = 0
    # Spoken after a checkbox toggle (counts); it may also move the focus to the next group.
    status: Callable[[], str] | None = field(default=None, repr=False)
    # How much a focus says, from the player's verbosity: SHORT the label and a checked state;
    # NORMAL adds the note, and the position when a list is entered; DETAILED everything.
    detail: int = 1

    # -- queries -----------------------------------------------------------------------------

    @property
    def group(self) -> Group:
        return self.groups[self.group_index]

    @property
    def item(self) -> Item | None:
        return self.group.focused if self.groups else None

    def describe(self, item: Item | None = None, group: Group | None = None,
                 entering: bool = False) -> str:
        """"Power Back, checked, 2 of 4": label, note, state, position, as `detail` allows.
        An unchecked box is just its name below DETAILED; the position is said at NORMAL only
        when a list is `entering` focus (the edge cue marks its ends after that). Buttons are
        not called buttons: every choice in the game is one, and Enter presses it (F1 says so).
        """
        group = group or self.group
        item = item or group.focused
        if item is None:
            return f"{group.title}, empty"
        parts = [item.label]
        if item.note and self.detail >= NORMAL_DETAIL:
            parts.append(item.note)
        if item.kind is ItemKind.CHECKBOX and (item.checked or self.detail > NORMAL_DETAIL):
            parts.append("checked" if item.checked else "not checked")
        elif item.kind is ItemKind.RADIO and (item.checked or self.detail > NORMAL_DETAIL):
            parts.append("selected" if item.checked else "not selected")
        if not item.enabled:
            parts.append("unavailable")
        if self.detail > NORMAL_DETAIL or (entering and self.detail == NORMAL_DETAIL):
            parts.append(f"{group.items.index(item) + 1} of {len(group.items)}")
        return ", ".join(parts)

    def describe_group(self) -> str:
        """The group title then its focused item: what Tab and a new decision say."""
        title = self.group.title
        joiner = "" if title.endswith((".", "?", "!", ":")) else ":"
        return f"{title}{joiner} {self.describe(entering=True)}"

    def focus_group(self, index: int) -> None:
        self.group_index = max(0, min(len(self.groups) - 1, index))

    # -- navigation --------------------------------------------------------------------------

    def next_group(self, delta: int) -> Feedback:
        """Tab / Shift+Tab: the next control, wrapping around like a dialog's tab order."""
        if len(self.groups) <= 1:
            return Feedback(self.describe_group(), "menu_edge")
        self.group_index = (self.group_index + delta) % len(self.groups)
        return Feedback(self.describe_group(), "menu_move")

    def move(self, delta: int, wrap: bool = False) -> Feedback:
        """Arrows: stop at the ends with the edge cue, or (with `wrap`, a player setting) go
        round to the other end, still with the edge cue; in a radio group, moving selects."""
        group = self.group
        if not group.items:
            return Feedback(self.describe(), "menu_edge")
        target = group.focus + delta
        if target < 0 or target >= len(group.items):
            if not wrap or len(group.items) < 2:
                return Feedback(self.describe(), "menu_edge")
            moved = self._focus(target % len(group.items))
            return Feedback(moved.text, "menu_edge")
        return self._focus(target)

    def home(self) -> Feedback:
        return self._focus(0) if self.group.items else Feedback(self.describe(), "menu_edge")

    def end(self) -> Feedback:
        group = self.group
        return self._focus(len(group.items) - 1) if group.items else Feedback("", "menu_edge")

    def pick(self, number: int) -> Feedback:
        """1-9: focus the Nth item; toggle a checkbox, select a radio option."""
        group = self.group
        if not 1 <= number <= len(group.items):
            return Feedback(f"There is no item {number}; this list has {len(group.items)}.",
                            "menu_error")
        focused = self._focus(number - 1)
        item = group.items[number - 1]
        if item.kind is ItemKind.CHECKBOX:
            return self.toggle(name=True)
        return focused

    def _focus(self, index: int) -> Feedback:
        group = self.group
        group.focus = index
        item = group.items[index]
        if item.kind is ItemKind.RADIO and item.enabled:
            self._select_radio(group, item)
        return Feedback(self.describe(), "menu_move")

    # -- changing state ----------------------------------------------------------------------

    def toggle(self, name: bool = False) -> Feedback:
        """Space: flip a checkbox (within the group's limit), select a radio, press a button.
        A checkbox says "Checked" (the label was just heard with the focus); `name` (a number
        key, which moves and checks at once) says the label too."""
        group, item = self.group, self.item
        if item is None:
            return Feedback("Nothing to choose here.", "menu_error")
        if not item.enabled:
            return Feedback(item.reason or f"{item.label} is unavailable.", "menu_error")
        if item.kind is ItemKind.BUTTON:
            return Feedback("", "menu_select", activated=item)
        if item.kind is ItemKind.TEXT:
            return Feedback(self.describe(), "menu_edge")
        if item.kind is ItemKind.RADIO:
            self._select_radio(group, item)
            return Feedback(f"{item.label}, selected", "menu_select")
        if not item.checked and group.limit is not None and len(group.checked()) >= group.limit:
            return Feedback(
                f"You already have {group.limit} {group.noun}. Uncheck one first.", "menu_error"
            )
        item.checked = not item.checked
        state = "checked" if item.checked else "unchecked"
        words = f"{item.label}, {state}" if name else state.capitalize()
        if self.status is not None:
            words += f", {self.status()}"
        return Feedback(words, "menu_select")

    def activate(self) -> Feedback:
        """Enter: press a focused button, otherwise ask the owner to confirm the decision."""
        item = self.item
        if item is not None and item.kind is ItemKind.BUTTON:
            if not item.enabled:
                return Feedback(item.reason or f"{item.label} is unavailable.", "menu_error")
            return Feedback("", "menu_select", activated=item)
        return Feedback("", None, confirm=True)

    @staticmethod
    def _select_radio(group: Group, chosen: Item) -> None:
        for item in group.items:
            if item.kind is ItemKind.RADIO:
                item.checked = item is chosen
