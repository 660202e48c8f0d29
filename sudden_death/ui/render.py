"""Drawing the window: large high-contrast text a sighted helper can follow from a distance.

Layout, top to bottom: score bar, field bar with the ball, the current decision (focused control
highlighted), the last result, and the latest spoken line. Only called when something changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .menu import Menu

WIDTH, HEIGHT = 1024, 768
BACKGROUND = (0, 0, 0)
TEXT = (255, 255, 255)
ACCENT = (255, 221, 0)
DIM = (170, 170, 170)
FOCUS_BG = (255, 221, 0)
FOCUS_FG = (0, 0, 0)
FIELD = (0, 110, 40)
ENDZONE = (0, 60, 140)
BALL = (255, 140, 0)
MARGIN = 16


@dataclass
class View:
    """Everything the window shows, gathered by the app so drawing needs no game knowledge."""

    score: str = ""
    situation: str = ""
    menu: Menu | None = None
    section: str = ""
    result: Sequence[str] = ()
    details: str = ""
    last_spoken: str = ""
    notices: Sequence[str] = ()
    ball: int | None = None  # 0..100 from the left (the player's own goal on the left)
    marker: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


class Fonts:
    """The three sizes used; pygame's bundled default font needs no file path."""

    def __init__(self) -> None:
        import pygame

        self.large = pygame.font.Font(None, 52)
        self.medium = pygame.font.Font(None, 40)
        self.small = pygame.font.Font(None, 32)


def _wrap(font: Any, text: str, width: int) -> list[str]:
    lines: list[str] = []
    for paragraph in text.split("\n"):
        current = ""
        for word in paragraph.split():
            trial = f"{current} {word}".strip()
            if font.size(trial)[0] <= width or not current:
                current = trial
            else:
                lines.append(current)
                current = word
        lines.append(current)
    return lines


def _text(surface: Any, font: Any, text: str, pos: tuple[int, int], colour: tuple[int, int, int],
          width: int, max_lines: int = 99) -> int:
    """Draw wrapped text; return the y just below it."""
    x, y = pos
    for line in _wrap(font, text, width)[:max_lines]:
        surface.blit(font.render(line, True, colour), (x, y))
        y += font.get_linesize()
    return y


def _field(surface: Any, view: View, y: int) -> int:
    import pygame

    width = surface.get_width() - 2 * MARGIN
    zone = width // 12
    play = width - 2 * zone
    pygame.draw.rect(surface, ENDZONE, (MARGIN, y, zone, 36))
    pygame.draw.rect(surface, ENDZONE, (MARGIN + zone + play, y, zone, 36))
    pygame.draw.rect(surface, FIELD, (MARGIN + zone, y, play, 36))
    for yard in range(10, 100, 10):
        x = MARGIN + zone + play * yard // 100
        pygame.draw.line(surface, TEXT, (x, y), (x, y + 35), 1)
    if view.marker is not None:
        x = MARGIN + zone + play * min(100, view.marker) // 100
        pygame.draw.line(surface, ACCENT, (x, y - 4), (x, y + 40), 4)
    if view.ball is not None:
        x = MARGIN + zone + play * view.ball // 100
        pygame.draw.circle(surface, BALL, (x, y + 18), 12)
    return y + 48


def draw(surface: Any, fonts: Fonts, view: View) -> None:
    """Paint the whole window from `view`."""
    import pygame

    surface.fill(BACKGROUND)
    width = surface.get_width() - 2 * MARGIN
    pygame.draw.rect(surface, (30, 30, 30), (0, 0, surface.get_width(), 64))
    y = _text(surface, fonts.large, view.score, (MARGIN, 8), ACCENT, width, 1) + 8
    y = _text(surface, fonts.small, view.situation, (MARGIN, y), TEXT, width, 2) + 4
    y = _field(surface, view, y + 4)
    menu = view.menu
    if menu is not None:
        title = f"{view.section}: {menu.title}" if view.section else menu.title
        y = _text(surface, fonts.medium, title, (MARGIN, y), ACCENT, width, 1) + 4
        for index, group in enumerate(menu.groups):
            focused_group = index == menu.group_index
            colour = TEXT if focused_group else DIM
            y = _text(surface, fonts.small, group.title, (MARGIN, y), colour, width, 1)
            start = max(0, min(group.focus - 4, len(group.items) - 9))
            for position, item in enumerate(group.items[start : start + 9], start):
                mark = ""
                if item.kind.value == "checkbox":
                    mark = "[x] " if item.checked else "[ ] "
                elif item.kind.value == "radio":
                    mark = "(o) " if item.checked else "( ) "
                label = mark + item.label + ("" if item.enabled else " (unavailable)")
                line_h = fonts.medium.get_linesize()
                if focused_group and position == group.focus:
                    pygame.draw.rect(surface, FOCUS_BG, (MARGIN + 20, y, width - 20, line_h))
                    surface.blit(fonts.medium.render(label[:70], True, FOCUS_FG),
                                 (MARGIN + 28, y))
                else:
                    surface.blit(fonts.medium.render(label[:70], True, colour), (MARGIN + 28, y))
                y += line_h
            y += 6
            if y > surface.get_height() - 220:
                break
    bottom = surface.get_height() - 210
    if view.details:
        _text(surface, fonts.small, view.details, (MARGIN, bottom), ACCENT, width, 3)
    y = bottom + 3 * fonts.small.get_linesize() + 4
    for line in list(view.result)[-2:]:
        y = _text(surface, fonts.small, line, (MARGIN, y), TEXT, width, 2)
    for notice in view.notices:
        y = _text(surface, fonts.small, notice, (MARGIN, y), ACCENT, width, 1)
    pygame.draw.rect(surface, (30, 30, 30), (0, surface.get_height() - 40, surface.get_width(), 40))
    _text(surface, fonts.small, view.last_spoken, (MARGIN, surface.get_height() - 34), TEXT,
          width, 1)
