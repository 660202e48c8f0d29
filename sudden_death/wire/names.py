"""When two team names are one to a listener: the same letters whatever their case, accents
and spaces ("Hawks", "the hawks" is not the same, but "HAWKS", "Hâwks" and "Haw ks" are).

Both sides use it: the server refuses a second seat with the first one's name, and the game
refuses a computer team named as the player's, so a final score never names one team twice.
"""

from __future__ import annotations

import unicodedata


def folded(name: str) -> str:
    """`name` as an ear compares it: no case, no accents, no spaces."""
    decomposed = unicodedata.normalize("NFKD", name)
    letters = "".join(char for char in decomposed if not unicodedata.combining(char))
    return "".join(letters.split()).casefold()


def same_name(first: str, second: str) -> bool:
    return folded(first) == folded(second)


def spaced(text: str) -> str:
    """`text` with runs of plain spaces made one and none at either end; any other blank
    (a tab, a line break, U+2028) stays, for `isprintable` to refuse."""
    return " ".join(part for part in text.split(" ") if part)
