"""Drawing the window: large high-contrast text a sighted helper can follow from a distance.

`layout.build` decides where every line goes for the window's current size and the player's
text size; this module measures with pygame's fonts, paints the frame and returns it, so the
loop can record exactly what was drawn (SUDDEN_DEATH_LAYOUT_LOG, used by the window tests).
Only called when something changed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import pygame

from ...language import _
from ..screens.menu import Menu
from . import palette
from .layout import BASE_SIZES, Frame, PanelEntry, build

WIDTH, HEIGHT = 1024, 768  # the window's first size; the player may resize it


@dataclass
class View:
    """Everything the window shows, gathered by the app so drawing needs no game knowledge."""

    score: str = ""  # empty before a game: then the bar shows only the game's name
    situation: str = ""
    menu: Menu | None = None
    section: str = ""
    result: Sequence[str] = ()
    details: str = ""
    last_spoken: str = ""
    notices: Sequence[str] = ()
    ball: int | None = None  # 0..100 from the left (the player's own goal on the left)
    marker: int | None = None
    text_size: int = 100  # percent
    panel_first: int = 0  # the text panel's first line shown (Page Up / Page Down)
    key_names: Mapping[str, str] | None = None  # the player's keys, for the panel's "more" line
    # Both hands once revealed, until the play's result: each a line's pieces (a card's name
    # is one), so a sighted helper sees what the ear heard (ui/words/reveal.py).
    hands: Sequence[tuple[str, ...]] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    def panel(self) -> list[PanelEntry]:
        """The text panel, oldest first: notices, card details, the last result, the last words
        spoken (unless they are the result's last line, shown already). Both hands, while they
        are on the table, come first."""
        entries = [PanelEntry(" ".join(units), palette.TEXT, units, "hand")
                   for units in self.hands]
        entries += [PanelEntry(n, palette.ACCENT) for n in self.notices]
        if self.details:
            entries.append(PanelEntry(self.details, palette.ACCENT))
        result = list(self.result)[-2:]
        entries += [PanelEntry(line, palette.TEXT) for line in result]
        if self.last_spoken and self.last_spoken not in result and (
                self.last_spoken != self.details):
            entries.append(PanelEntry(self.last_spoken, palette.TEXT))
        return entries


class Fonts:
    """pygame's bundled default font (no file path) in three roles, at one text size."""

    def __init__(self, text_size: int = 100) -> None:
        self.text_size = 0
        self._fonts: dict[str, Any] = {}
        self.set_size(text_size)

    def set_size(self, text_size: int) -> None:
        """Make the fonts for `text_size` percent (only when it changed)."""
        if text_size == self.text_size:
            return
        self.text_size = text_size
        self._fonts = {role: pygame.font.Font(None, round(points * text_size / 100))
                       for role, points in BASE_SIZES.items()}

    def font(self, role: str) -> Any:
        return self._fonts[role]

    def width(self, role: str, text: str) -> int:
        return int(self._fonts[role].size(text)[0])

    def line_height(self, role: str) -> int:
        return int(self._fonts[role].get_linesize())


def draw(surface: Any, fonts: Fonts, view: View) -> Frame:
    """Paint the whole window from `view`; returns what was drawn, box by box."""
    fonts.set_size(view.text_size)
    # Translators: the game's name, shown at the top of the window before a game. Keep it as
    # it is unless the game is known by another name in your language.
    frame = build(fonts, surface.get_size(), title=_("Sudden Death"), score=view.score,
                  situation=view.situation, menu=view.menu, section=view.section,
                  panel=view.panel(), panel_first=view.panel_first, ball=view.ball,
                  marker=view.marker, key_names=view.key_names)
    surface.fill(palette.BACKGROUND)
    for shape in frame.shapes:
        if shape.kind == "rect":
            pygame.draw.rect(surface, shape.colour, shape.points)
        elif shape.kind == "frame":
            *rect, thickness = shape.points
            pygame.draw.rect(surface, shape.colour, rect, thickness)
        elif shape.kind == "line":
            x1, y1, x2, y2, thickness = shape.points
            pygame.draw.line(surface, shape.colour, (x1, y1), (x2, y2), thickness)
        elif shape.kind == "circle":
            x, y, radius = shape.points
            pygame.draw.circle(surface, shape.colour, (x, y), radius)
    for box in frame.boxes:
        surface.blit(fonts.font(box.font).render(box.text, True, box.fg, box.bg), (box.x, box.y))
    return frame
