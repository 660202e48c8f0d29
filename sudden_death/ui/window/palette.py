"""The window's colours, and the contrast every text colour must keep against its background.

Why a module: the sighted helper reading from across the room needs WCAG 2.x enhanced contrast
(7:1) for all text, and a test computes it from these values rather than trusting our eyes.
"""

from __future__ import annotations

Colour = tuple[int, int, int]

BACKGROUND: Colour = (0, 0, 0)
BAR: Colour = (30, 30, 30)  # score bar and the text panel
TEXT: Colour = (255, 255, 255)
ACCENT: Colour = (255, 221, 0)
DIM: Colour = (178, 178, 178)  # the groups that do not have the focus
FOCUS_BG: Colour = (255, 221, 0)
FOCUS_FG: Colour = (0, 0, 0)
FOCUS_FRAME: Colour = (255, 255, 255)
FIELD: Colour = (0, 110, 40)
ENDZONE: Colour = (0, 60, 140)
BALL: Colour = (255, 140, 0)

ENHANCED_CONTRAST = 7.0  # WCAG 2.x level AAA for text


def _channel(value: int) -> float:
    c = value / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def luminance(colour: Colour) -> float:
    """WCAG 2.x relative luminance."""
    r, g, b = (_channel(v) for v in colour)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(foreground: Colour, background: Colour) -> float:
    """WCAG 2.x contrast ratio, 1 to 21."""
    high, low = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (high + 0.05) / (low + 0.05)
