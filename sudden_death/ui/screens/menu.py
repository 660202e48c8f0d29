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

from ...engine.card_model import Card
from ...language import _, n_
from ..words.picking import full_words, picked_words
from ..words.verbosity import Telling


class ItemKind(str, Enum):
    BUTTON = "button"
    CHECKBOX = "checkbox"
    RADIO = "radio"
    TEXT = "text"


@dataclass
class Item:
    """One entry. `note` is spoken after the label (e.g. "player"); `card` is the card it shows
    (D reads its details, a hand is made of the checked ones); `press` is what Enter does with
    it: a button's action, or the words a line has to say in full."""

    label: str
    kind: ItemKind = ItemKind.BUTTON
    note: str = ""
    checked: bool = False
    enabled: bool = True
    reason: str = ""  # why a disabled item cannot be used, spoken when it is tried
    card: Card | None = None
    press: Callable[[], None] | None = field(default=None, repr=False, compare=False)
    short: str = ""  # said for the label at short verbosity, where the question says the rest

    def refusal(self) -> str:
        """What trying it says when it is disabled."""
        return self.reason or _("{item} is unavailable.").format(item=self.label)


@dataclass
class Group:
    """A control: a titled list. `limit` caps checked checkboxes; `noun` names them in messages.

    "players", "calls" and "items" have whole messages of their own, so every language counts
    them its own way; any other noun is put after the count as it is given."""

    title: str
    items: list[Item]
    focus: int = 0
    limit: int | None = None
    noun: str = "items"
    drawn_last: bool = False  # the window draws it after the other groups (keys keep order)

    @property
    def focused(self) -> Item | None:
        return self.items[self.focus] if self.items else None

    def checked(self) -> list[Item]:
        return [item for item in self.items if item.checked]

    def picked_words(self, brief: bool = False) -> str:
        """How far the checking has got: "1 picked, 1 to go", "players full"."""
        return picked_words(len(self.checked()), self.limit or 0, self.noun, brief)

    def full_words(self) -> str:
        """What checking one more than the limit says: the limit, and what to do instead."""
        return full_words(self.limit or 0, self.noun)


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
    # How much a focus says, from the player's settings: brief, the label and a checked state;
    # otherwise the note too, and the position when a list is entered; with `positions`, the
    # position on every move and an unchecked box's state.
    telling: Telling = field(default_factory=Telling)

    # -- queries -----------------------------------------------------------------------------

    @property
    def group(self) -> Group:
        return self.groups[self.group_index]

    @property
    def item(self) -> Item | None:
        return self.group.focused if self.groups else None

    def describe(self, item: Item | None = None, group: Group | None = None,
                 entering: bool = False) -> str:
        """"Power Back, checked, 2 of 4": label, note, state, position, as `telling` allows.
        An unchecked box is just its name without `positions`; without it the position is said
        only when a list is `entering` focus (the edge cue marks its ends after that), and
        never when brief. Buttons are
        not called buttons: every choice in the game is one, and Enter presses it (F1 says so).
        """
        group = group or self.group
        item = item or group.focused
        if item is None:
            # Translators: a list with nothing in it, after its title: "Their moves, empty".
            return _("{title}, empty").format(title=group.title)
        parts = [item.short if item.short and self.telling.brief else item.label]
        if item.note and not self.telling.brief:
            parts.append(item.note)
        if item.kind is ItemKind.CHECKBOX and (item.checked or self.telling.positions):
            parts.append(_("checked") if item.checked else _("not checked"))
        elif item.kind is ItemKind.RADIO and (item.checked or self.telling.positions):
            parts.append(_("selected") if item.checked else _("not selected"))
        if not item.enabled:
            parts.append(_("unavailable"))
        if self.telling.positions or (entering and not self.telling.brief):
            # Translators: where the focused entry is in its list: "2 of 4".
            parts.append(_("{position} of {count}").format(
                position=group.items.index(item) + 1, count=len(group.items)))
        return ", ".join(parts)

    def describe_group(self) -> str:
        """The group title then its focused item: what Tab and a new decision say."""
        title, focus = self.group.title, self.describe(entering=True)
        if title.endswith((".", "?", "!", ":")):
            return f"{title} {focus}"
        # Translators: a list's title, then its focused entry: "Players: Power Back, 1 of 4".
        return _("{title}: {focus}").format(title=title, focus=focus)

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
            count = len(group.items)
            # Translators: a number key beyond the end of the list; {count} is how many it has.
            words = n_("There is no item {number}; this list has {count}.",
                       "There is no item {number}; this list has {count}.", count)
            return Feedback(words.format(number=number, count=count), "menu_error")
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
            return Feedback(_("Nothing to choose here."), "menu_error")
        if not item.enabled:
            return Feedback(item.refusal(), "menu_error")
        if item.kind is ItemKind.BUTTON:
            return Feedback("", "menu_select", activated=item)
        if item.kind is ItemKind.TEXT:
            return Feedback(self.describe(), "menu_edge")
        if item.kind is ItemKind.RADIO:
            self._select_radio(group, item)
            # Translators: a radio option just chosen: "Dive, selected".
            return Feedback(_("{item}, selected").format(item=item.label), "menu_select")
        if not item.checked and group.limit is not None and len(group.checked()) >= group.limit:
            return Feedback(group.full_words(), "menu_error")
        item.checked = not item.checked
        if name:
            words = (_("{item}, checked") if item.checked
                     else _("{item}, unchecked")).format(item=item.label)
        else:
            words = _("Checked") if item.checked else _("Unchecked")
        if self.status is not None:
            status = self.status()
            if (self.telling.brief and not name and item.checked and status
                    and group.limit is not None and len(group.checked()) >= group.limit):
                return Feedback(status[0].upper() + status[1:], "menu_select")  # "Calls full."
            words += f", {status}"
        return Feedback(words, "menu_select")

    def activate(self) -> Feedback:
        """Enter: press a focused button, otherwise ask the owner to confirm the decision."""
        item = self.item
        if item is not None and item.kind is ItemKind.BUTTON:
            if not item.enabled:
                return Feedback(item.refusal(), "menu_error")
            return Feedback("", "menu_select", activated=item)
        return Feedback("", None, confirm=True)

    @staticmethod
    def _select_radio(group: Group, chosen: Item) -> None:
        for item in group.items:
            if item.kind is ItemKind.RADIO:
                item.checked = item is chosen
