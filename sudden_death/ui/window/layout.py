"""Where everything goes in the window, computed before anything is drawn.

Why separate from drawing: so every text box can be recorded and checked (nothing leaves the
window, nothing overlaps, the focused item is on screen) at any window and text size, with the
same code that paints. Top to bottom: the score bar (only during a game), the field, the current
decision (its title pinned, its lists scrolled so the focused item is whole), and the text panel
(notices, card details, the last result and the last words spoken), which pages with Page Up
and Page Down (or the keys the player gave that) when it holds more than fits. Every text wraps
to the width it is given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ...language import _, n_
from ..keys.keymap import KeyMap
from ..screens.menu import Group, Item, ItemKind, Menu
from . import palette as p

TEXT_SIZES = (100, 150, 200)  # percent, the settings' choices
BASE_SIZES = {"large": 44, "medium": 36, "small": 30}  # pygame default-font points at 100%
MARGIN = 16
GAP = 6
INDENT = 28
FOCUS_PAD = 4
FOCUS_MARK = "> "  # focus is shown by more than colour: this mark, a frame and inverse text


class Measure(Protocol):
    """Text measuring, by font role ("large", "medium", "small")."""

    def width(self, role: str, text: str) -> int: ...

    def line_height(self, role: str) -> int: ...


@dataclass(frozen=True)
class TextBox:
    """One line of text as drawn: where, in which colours, and what it belongs to."""

    role: str  # what it is: score, situation, title, group, item, panel, more
    font: str
    text: str
    x: int
    y: int
    w: int
    h: int
    fg: p.Colour
    bg: p.Colour
    focused: bool = False

    @property
    def rect(self) -> tuple[int, int, int, int]:
        return self.x, self.y, self.w, self.h

    def as_json(self) -> dict[str, Any]:
        return {"role": self.role, "text": self.text, "rect": list(self.rect),
                "fg": list(self.fg), "bg": list(self.bg), "focused": self.focused}


@dataclass(frozen=True)
class Shape:
    """A filled rectangle, a frame (rect outline), a line or a circle, in drawing order."""

    kind: str  # rect, frame, line, circle
    colour: p.Colour
    points: tuple[int, ...]


@dataclass
class Frame:
    """One whole window: shapes first, then text on top."""

    width: int
    height: int
    shapes: list[Shape] = field(default_factory=list)
    boxes: list[TextBox] = field(default_factory=list)
    focus: tuple[int, int, int, int] | None = None  # the focused item's rect, when shown
    panel_lines: int = 0  # lines the text panel holds in all
    panel_first: int = 0  # the first one shown
    panel_shown: int = 0  # how many are shown
    hands_hidden: int = 0  # lines of the hands (after the reveal) not on the panel's page


@dataclass(frozen=True)
class PanelEntry:
    """A text of the panel. `units`: pieces a line never breaks inside (a card's name in a
    hand), when they are more than its words; `role`: what its boxes are, in the frame log."""

    text: str
    colour: p.Colour
    units: tuple[str, ...] = ()
    role: str = "panel"


def wrap(measure: Measure, role: str, text: str, width: int,
         units: Sequence[str] = ()) -> list[str]:
    """Lines of at most `width` pixels; a word (or one of `units`, kept whole where it fits)
    wider than that is broken by characters."""
    lines: list[str] = []
    for paragraph in ([" ".join(units)] if units else text.split("\n")):
        current = ""
        for word in (units or paragraph.split()):
            trial = f"{current} {word}" if current else word
            if measure.width(role, trial) <= width:
                current = trial
                continue
            if current:
                lines.append(current)
            current = ""
            while measure.width(role, word) > width and len(word) > 1:
                cut = len(word) - 1
                while cut > 1 and measure.width(role, word[:cut]) > width:
                    cut -= 1
                lines.append(word[:cut])
                word = word[cut:]
            current = word
        lines.append(current)
    return lines


def clip(measure: Measure, role: str, lines: list[str], most: int, width: int) -> list[str]:
    """At most `most` lines; when more were needed, the last one shown ends in "...", so a
    reader sees that the words go on (they are spoken whole, and kept in the history)."""
    if len(lines) <= most:
        return lines
    last = lines[most - 1]
    while last and measure.width(role, last + "...") > width:
        last = last[:-1]
    return [*lines[: most - 1], last.rstrip() + "..."]


# The most lines each kind of text may take, so a long team name or label can never push the
# focused item off the window; the panel has no limit (it pages).
MOST_LINES = {"score": 2, "situation": 2, "title": 2, "group": 2, "item": 3}


def group_heading(group: Group) -> str:
    """The list's title with its count, as the helper needs it: "Players: 1 of 2 checked"."""
    if group.limit is None:
        return group.title
    checked = len(group.checked())
    # Translators: a list's heading in the window, as "Players: 1 of 2 checked"; {title} is the
    # list's name, {checked} how many of its items are checked, {limit} how many may be.
    return n_("{title}: {checked} of {limit} checked", "{title}: {checked} of {limit} checked",
              checked).format(title=group.title, checked=checked, limit=group.limit)


def item_label(item: Item) -> str:
    mark = ""
    if item.kind is ItemKind.CHECKBOX:
        mark = "[x] " if item.checked else "[ ] "
    elif item.kind is ItemKind.RADIO:
        mark = "(o) " if item.checked else "( ) "
    if item.enabled:
        return mark + item.label
    # Translators: a menu item in the window that cannot be chosen now.
    return mark + _("{label} (unavailable)").format(label=item.label)


@dataclass
class _Row:
    role: str
    font: str
    lines: list[str]
    colour: p.Colour
    focused: bool = False
    indent: int = 0

    def height(self, measure: Measure) -> int:
        pad = 2 * FOCUS_PAD if self.role == "item" else 0
        return len(self.lines) * measure.line_height(self.font) + pad


def _menu_rows(measure: Measure, menu: Menu, width: int) -> list[_Row]:
    rows: list[_Row] = []
    # A group `drawn_last` (Concede) is drawn after the others, whatever its place in the
    # keys' order: the decision is the first thing on the screen.
    order = sorted(enumerate(menu.groups), key=lambda pair: pair[1].drawn_last)
    for index, group in order:
        has_focus = index == menu.group_index
        colour = p.TEXT if has_focus else p.DIM
        heading = wrap(measure, "small", group_heading(group), width)
        rows.append(_Row("group", "small",
                         clip(measure, "small", heading, MOST_LINES["group"], width), colour))
        item_width = width - INDENT - 2 * FOCUS_PAD
        for position, item in enumerate(group.items):
            focused = has_focus and position == group.focus
            label = FOCUS_MARK + item_label(item) if focused else item_label(item)
            lines = clip(measure, "medium", wrap(measure, "medium", label, item_width),
                         MOST_LINES["item"], item_width)
            rows.append(_Row("item", "medium", lines, p.FOCUS_FG if focused else colour,
                             focused, INDENT))
    return rows


def _scroll(heights: list[int], focused: int | None, space: int) -> int:
    """The first row to show: as near the top as lets the focused row, and the row after it
    when there is room, be shown whole."""
    if focused is None:
        return 0
    for stop in (min(len(heights), focused + 2), focused + 1):
        first = 0
        while first < focused and sum(heights[first:stop]) > space:
            first += 1
        if sum(heights[first:stop]) <= space:
            return first
    return focused


def _title(menu: Menu, section: str) -> str:
    if not section:
        return menu.title
    # Translators: the window's heading over a review section's list; {section} is the
    # section's name, as "Rosters" or "Game log", {title} the title of its list.
    return _("{section}: {title}").format(section=section, title=menu.title)


def _title_lines(measure: Measure, menu: Menu, section: str, width: int) -> list[str]:
    lines = wrap(measure, "medium", _title(menu, section), width)
    return clip(measure, "medium", lines, MOST_LINES["title"], width)


@dataclass
class _Decision:
    """The decision laid out once per frame: its title's lines and its rows, measured."""

    title: list[str]
    rows: list[_Row]
    heights: list[int]

    @classmethod
    def of(cls, measure: Measure, menu: Menu, section: str, width: int) -> _Decision:
        rows = _menu_rows(measure, menu, width)
        return cls(_title_lines(measure, menu, section, width), rows,
                   [row.height(measure) for row in rows])

    def title_height(self, measure: Measure) -> int:
        return len(self.title) * measure.line_height("medium") + GAP

    def height(self, measure: Measure) -> int:
        """The whole decision, unscrolled."""
        return self.title_height(measure) + sum(self.heights)

    def focus_height(self, measure: Measure) -> int:
        """Its title and focused item: the least of it ever shown."""
        focused = [h for row, h in zip(self.rows, self.heights, strict=True) if row.focused]
        return self.title_height(measure) + sum(focused[:1])


class Layout:
    """Builds a Frame for a window size from the view's parts."""

    def __init__(self, measure: Measure, width: int, height: int,
                 key_names: Mapping[str, str] | None = None) -> None:
        self.m = measure
        self.width = width
        self.height = height
        self.key_names = key_names  # {command value: its keys}, None: the game's own keys
        self.frame = Frame(width, height)
        self.inner = max(40, width - 2 * MARGIN)

    def text(self, role: str, font: str, lines: Sequence[str], x: int, y: int,
             fg: p.Colour, bg: p.Colour, focused: bool = False) -> int:
        line_height = self.m.line_height(font)
        for line in lines:
            self.frame.boxes.append(TextBox(role, font, line, x, y,
                                            self.m.width(font, line), line_height, fg, bg,
                                            focused))
            y += line_height
        return y

    def header(self, title: str, score: str, situation: str) -> int:
        """The score bar during a game; before one, just the game's name."""
        lines = clip(self.m, "large", wrap(self.m, "large", score or title, self.inner),
                     MOST_LINES["score"], self.inner)
        under = clip(self.m, "small", wrap(self.m, "small", situation, self.inner),
                     MOST_LINES["situation"], self.inner) if score else []
        height = (len(lines) * self.m.line_height("large") + GAP
                  + len(under) * self.m.line_height("small") + GAP)
        self.frame.shapes.append(Shape("rect", p.BAR, (0, 0, self.width, height)))
        y = self.text("score", "large", lines, MARGIN, GAP // 2, p.ACCENT, p.BAR)
        y = self.text("situation", "small", under, MARGIN, y + GAP // 2, p.TEXT, p.BAR)
        return height + GAP

    def field(self, y: int, ball: int | None, marker: int | None) -> int:
        """The field bar (shapes only, no text): end zones, ten-yard lines, ball and marker."""
        bar = max(24, self.m.line_height("small"))
        zone = self.inner // 12
        play = self.inner - 2 * zone
        shapes = self.frame.shapes
        top = y + 4
        shapes.append(Shape("rect", p.ENDZONE, (MARGIN, top, zone, bar)))
        shapes.append(Shape("rect", p.ENDZONE, (MARGIN + zone + play, top, zone, bar)))
        shapes.append(Shape("rect", p.FIELD, (MARGIN + zone, top, play, bar)))
        for yard in range(10, 100, 10):
            x = MARGIN + zone + play * yard // 100
            shapes.append(Shape("line", p.TEXT, (x, top, x, top + bar - 1, 1)))
        if marker is not None:
            x = MARGIN + zone + play * min(100, marker) // 100
            shapes.append(Shape("line", p.ACCENT, (x, top, x, top + bar - 1, 4)))
        if ball is not None:
            x = MARGIN + zone + play * max(0, min(100, ball)) // 100
            shapes.append(Shape("circle", p.BALL, (x, top + bar // 2, max(6, bar // 3))))
        return top + bar + GAP * 2

    def panel_height(self, entries: Sequence[PanelEntry]
                     ) -> tuple[list[tuple[str, p.Colour, str]], int]:
        lines = [(line, entry.colour, entry.role) for entry in entries
                 for line in wrap(self.m, "small", entry.text, self.inner, entry.units)]
        return lines, len(lines) * self.m.line_height("small") + 2 * GAP

    def panel(self, lines: list[tuple[str, p.Colour, str]], top: int, first: int) -> None:
        """The text panel from `top` to the bottom; pages when its lines do not all fit."""
        line_height = self.m.line_height("small")
        self.frame.shapes.append(Shape("rect", p.BAR, (0, top, self.width, self.height - top)))
        room = max(1, (self.height - top - 2 * GAP) // line_height)
        shown = lines
        more = ""
        if len(lines) > room:
            room = max(1, room - 1)  # one line says where the page is
            first = max(0, min(first, len(lines) - room))
            shown = lines[first : first + room]
            # The longest of these that fits says where the page is.
            numbers = {"first": first + 1, "last": first + len(shown), "total": len(lines)}
            keys = KeyMap.default().placeholders() if self.key_names is None else self.key_names
            choices = (
                # Translators: the text panel's last line when its text does not all fit;
                # {scroll_up} and {scroll_down} are keys, as "Page Up" and "Page Down". Keep it
                # short.
                _("Lines {first} to {last} of {total}. {scroll_up}, {scroll_down}: more.")
                .format_map({**keys, **numbers}),
                # Translators: a shorter form of "Lines {first} to {last} of {total}.
                # {scroll_up}, {scroll_down}: more.", for a narrow window.
                _("Lines {first} to {last} of {total}.").format(**numbers),
                # Translators: the shortest form of "Lines {first} to {last} of {total}.", for
                # a very narrow window.
                _("{first} to {last} of {total}").format(**numbers),
            )
            more = next((c for c in choices if self.m.width("small", c) <= self.inner),
                        choices[-1])
        else:
            first = 0
        y = top + GAP
        for line, colour, role in shown:
            y = self.text(role, "small", [line], MARGIN, y, colour, p.BAR)
        if more:
            self.text("more", "small", [more], MARGIN, y, p.DIM, p.BAR)
        self.frame.panel_lines = len(lines)
        self.frame.panel_first = first
        self.frame.panel_shown = len(shown)
        self.frame.hands_hidden = sum(role == "hand" for _line, _colour, role in lines) - sum(
            role == "hand" for _line, _colour, role in shown)

    def decision(self, decision: _Decision, top: int, bottom: int) -> None:
        """The decision's title (pinned), then its lists, scrolled to keep the focus whole."""
        y = self.text("title", "medium", decision.title, MARGIN, top, p.ACCENT, p.BACKGROUND)
        y += GAP
        rows, heights = decision.rows, decision.heights
        focused = next((i for i, row in enumerate(rows) if row.focused), None)
        space = bottom - y
        first = _scroll(heights, focused, space)
        for row, height in zip(rows[first:], heights[first:], strict=True):
            if y + height > bottom:
                break
            x = MARGIN + row.indent
            if row.focused:
                rect = (x, y, self.inner - row.indent, height)
                self.frame.shapes.append(Shape("rect", p.FOCUS_BG, rect))
                self.frame.shapes.append(Shape("frame", p.FOCUS_FRAME, (*rect, 3)))
                self.frame.focus = rect
                self.text("item", row.font, row.lines, x + FOCUS_PAD, y + FOCUS_PAD,
                          p.FOCUS_FG, p.FOCUS_BG, True)
            elif row.role == "item":
                self.text("item", row.font, row.lines, x + FOCUS_PAD, y + FOCUS_PAD,
                          row.colour, p.BACKGROUND)
            else:
                self.text(row.role, row.font, row.lines, x, y, row.colour, p.BACKGROUND)
            y += height


def build(measure: Measure, size: tuple[int, int], *, title: str, score: str, situation: str,
          menu: Menu | None, section: str, panel: Sequence[PanelEntry],
          panel_first: int = 0, ball: int | None = None, marker: int | None = None,
          key_names: Mapping[str, str] | None = None) -> Frame:
    """The whole window for `size`. `key_names`: the keys the text panel names, by command
    (`KeyMap.placeholders()` of the keys in force); None: the game's own keys. Both hands,
    after the reveal, are shown whole: where the window is too small for them (large text),
    the field bar and then the situation's line give up their room while they are shown."""
    frame = _built(measure, size, title, score, situation, menu, section, panel, panel_first,
                   ball, marker, key_names)
    for fewer_situation in (situation, ""):  # first without the field, then without both
        if not frame.hands_hidden:
            break
        frame = _built(measure, size, title, score, fewer_situation, menu, section, panel,
                       panel_first, None, marker, key_names)
    return frame


def _built(measure: Measure, size: tuple[int, int], title: str, score: str, situation: str,
           menu: Menu | None, section: str, panel: Sequence[PanelEntry], panel_first: int,
           ball: int | None, marker: int | None, key_names: Mapping[str, str] | None) -> Frame:
    width, height = size
    layout = Layout(measure, width, height, key_names)
    y = layout.header(title, score, situation)
    if ball is not None:
        y = layout.field(y, ball, marker)
    lines, wanted = layout.panel_height(panel)
    # The decision keeps room for its title, one list heading and the focused item (with a
    # line of context); the panel takes what it needs of the rest, at least three lines.
    line = measure.line_height("medium")
    keep = 0
    decision = _Decision.of(measure, menu, section, layout.inner) if menu is not None else None
    if decision is not None:
        keep = 2 * line + measure.line_height("small") + 3 * (line + 2 * FOCUS_PAD) + GAP
        keep = min(keep, decision.height(measure) + GAP)
        if wanted > height - y - keep:
            # Long text (help, the rules, the explorer's figures): the panel becomes a page,
            # and the decision shrinks to its title and the focused item until the next words.
            keep = min(keep, decision.focus_height(measure) + GAP)
    least = min(wanted, 3 * measure.line_height("small") + 2 * GAP)
    # Both hands after the reveal stay whole on the panel's first page: the decision gives
    # up room for them, down to its title and focused item.
    hands = sum(1 for _line, _colour, role in lines if role == "hand")
    if hands:
        least = min(wanted, max(least, (hands + 1) * measure.line_height("small") + 2 * GAP))
        if decision is not None:
            keep = min(keep, decision.focus_height(measure) + GAP)
        least = min(least, height - y - keep)
    panel_top = height - max(least, min(wanted, height - y - keep))
    if decision is not None:
        layout.decision(decision, y, panel_top - GAP)
    if lines:
        layout.panel(lines, panel_top, panel_first)
    return layout.frame
