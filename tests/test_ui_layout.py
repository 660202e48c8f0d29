"""The layout's promises for any decision, text and window: nothing leaves the window, nothing
overlaps, the focused item is whole, every text wraps, and the palette keeps 7:1 contrast.

A fixed-width stand-in for the fonts keeps these fast and exact (tests/test_ui_window_x11.py
checks the same with pygame's real fonts in a real X server).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from sudden_death.ui.screens.menu import Group, Item, ItemKind, Menu
from sudden_death.ui.window import palette
from sudden_death.ui.window.layout import (
    BASE_SIZES,
    FOCUS_MARK,
    FOCUS_PAD,
    MOST_LINES,
    Frame,
    PanelEntry,
    build,
    group_heading,
    item_label,
    wrap,
)


class FixedWidth:
    """Every character is 0.55 of the font's size wide; a line is 0.75 of it high."""

    def __init__(self, text_size: int) -> None:
        self.points = {role: size * text_size / 100 for role, size in BASE_SIZES.items()}

    def width(self, role: str, text: str) -> int:
        return round(len(text) * self.points[role] * 0.55)

    def line_height(self, role: str) -> int:
        return round(self.points[role] * 0.75)


words = st.text(alphabet="abcdefghij ", min_size=1, max_size=12).map(str.strip).filter(bool)
sentences = st.lists(words, min_size=1, max_size=30).map(" ".join)


@st.composite
def menus(draw: st.DrawFn) -> Menu:
    groups = []
    for _ in range(draw(st.integers(1, 4))):
        items = [Item(draw(sentences), draw(st.sampled_from(list(ItemKind))))
                 for _ in range(draw(st.integers(1, 12)))]
        groups.append(Group(draw(sentences), items, focus=draw(st.integers(0, len(items) - 1)),
                            limit=draw(st.sampled_from([None, 2, 3]))))
    return Menu(draw(sentences), groups, group_index=draw(st.integers(0, len(groups) - 1)))


def overlap(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
    return (min(a[0] + a[2], b[0] + b[2]) > max(a[0], b[0])
            and min(a[1] + a[3], b[1] + b[3]) > max(a[1], b[1]))


def check(frame: Frame, measure: FixedWidth) -> None:
    for box in frame.boxes:
        x, y, w, h = box.rect
        assert x >= 0 and y >= 0 and x + w <= frame.width and y + h <= frame.height, box
        assert w == measure.width(box.font, box.text)  # the box is the whole text: not cut
        assert palette.contrast(box.fg, box.bg) >= palette.ENHANCED_CONTRAST, box
    for index, box in enumerate(frame.boxes):
        for other in frame.boxes[index + 1:]:
            assert not overlap(box.rect, other.rect), (box, other)


@settings(max_examples=300, deadline=None)
@given(menu=menus(), panel=st.lists(sentences, max_size=6),
       size=st.sampled_from([(1024, 768), (1280, 1024), (1920, 1080), (1366, 768)]),
       text_size=st.sampled_from([100, 150, 200]), score=st.sampled_from(["", "Hawks 7"]),
       ball=st.one_of(st.none(), st.integers(0, 100)), first=st.integers(0, 50))
def test_any_decision_fits_any_supported_window(menu: Menu, panel: list[str],
                                                size: tuple[int, int], text_size: int,
                                                score: str, ball: int | None,
                                                first: int) -> None:
    measure = FixedWidth(text_size)
    frame = build(measure, size, title="Sudden Death", score=score, situation="1st and 10",
                  menu=menu, section="", panel=[PanelEntry(t, palette.TEXT) for t in panel],
                  panel_first=first, ball=ball, marker=ball)
    check(frame, measure)
    focused = [box for box in frame.boxes if box.focused]
    assert focused and frame.focus is not None, "the focused item is always shown"
    fx, fy, fw, fh = frame.focus
    assert all(fx <= b.x and fy <= b.y and b.x + b.w <= fx + fw and b.y + b.h <= fy + fh
               for b in focused)
    assert focused[0].text.startswith(FOCUS_MARK)  # more than colour marks the focus
    shown = " ".join(box.text for box in focused)
    label = item_label(menu.item) if menu.item else ""
    needed = wrap(measure, "medium", FOCUS_MARK + label, fw - 2 * FOCUS_PAD)
    if len(needed) <= MOST_LINES["item"]:
        assert shown == " ".join(needed)  # the whole label, wrapped, not cut
    else:  # a label longer than any in the game: it says that it goes on
        assert focused[-1].text.endswith("...") and len(focused) == MOST_LINES["item"]
    if panel:
        assert frame.panel_shown > 0
        assert frame.panel_first + frame.panel_shown <= frame.panel_lines
        if frame.panel_shown < frame.panel_lines:
            assert any(box.role == "more" for box in frame.boxes)


def test_wrapping_keeps_every_word_and_breaks_what_cannot_fit() -> None:
    measure = FixedWidth(100)
    text = "Field goal unavailable: it would be 87 yards, past the 65 yard limit (sixty-five)"
    lines = wrap(measure, "small", text, 200)
    assert " ".join(lines).split() == text.split()
    assert all(measure.width("small", line) <= 200 for line in lines)
    long = wrap(measure, "small", "x" * 100, 100)
    assert "".join(long) == "x" * 100 and all(measure.width("small", x) <= 100 for x in long)


def test_the_lists_show_their_counts_and_no_score_before_a_game() -> None:
    group = Group("Players", [Item("Power Back", ItemKind.CHECKBOX, checked=True),
                              Item("Scatback", ItemKind.CHECKBOX)], limit=2)
    assert group_heading(group) == "Players: 1 of 2 checked"
    frame = build(FixedWidth(100), (1024, 768), title="Sudden Death", score="",
                  situation="Welcome", menu=Menu("Welcome", [group]), section="", panel=[])
    texts = [box.text for box in frame.boxes]
    assert texts[0] == "Sudden Death" and not any("0," in t for t in texts)
    assert "Players: 1 of 2 checked" in texts


def test_the_palette_meets_enhanced_contrast() -> None:
    pairs = [(palette.TEXT, palette.BACKGROUND), (palette.DIM, palette.BACKGROUND),
             (palette.ACCENT, palette.BACKGROUND), (palette.TEXT, palette.BAR),
             (palette.ACCENT, palette.BAR), (palette.DIM, palette.BAR),
             (palette.FOCUS_FG, palette.FOCUS_BG)]
    for fg, bg in pairs:
        assert palette.contrast(fg, bg) >= palette.ENHANCED_CONTRAST, (fg, bg)
    assert round(palette.contrast((255, 255, 255), (0, 0, 0)), 2) == 21.0
    assert palette.contrast((119, 119, 119), (0, 0, 0)) < 7  # a grey that would fail


def test_extreme_text_still_fits() -> None:
    """A very long title, heading and label at 200% in the smallest supported window."""
    long = " ".join(["abcdefghij"] * 30)
    menu = Menu(long, [Group(long, [Item(long, ItemKind.CHECKBOX) for _ in range(3)],
                             focus=2, limit=2)])
    measure = FixedWidth(200)
    frame = build(measure, (1024, 768), title="Sudden Death", score=long, situation=long,
                  menu=menu, section="Explorer", panel=[PanelEntry(long, palette.TEXT)] * 3,
                  ball=50, marker=60)
    check(frame, measure)
    assert frame.focus is not None
