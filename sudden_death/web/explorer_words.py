"""The browser page's explorer of play cards and bands, as JSON (`/explorer.json?lang=es`).

Its levels are the desktop explorer's own (`ui/words/explorer.py`): the same lists, labels,
notes and figures, in the same catalogs, so the page and the desktop game can never disagree.
Like the desktop's, it reads the card tables, `band_stats` and `compute_band` only, never a
game: the page's explorer cannot change one. The whole tree is a few dozen levels, made once per
language and sent at once, so walking it costs the page no line to the server.

The tree: `levels` by id, each with a `title`, an optional `text` (the card's details) and
`parts`, titled lists of lines; a line has a `label`, maybe a `note` (said after it), maybe
`more` (what asking for more says in full) or `open` (the id of the level it opens); a list
with no lines says so in `empty`. The
level "home" is where the explorer starts.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from ..engine.card_model import Card
from ..engine.cards import card_name
from ..language import ENGLISH, _, available, match_code, using
from ..ui.screens.menu import Group, Menu
from ..ui.words import cards
from ..ui.words import explorer as words
from ..ui.words.explorer import Line, Part
from .seat_view import language_of

HOME = "home"
RULES = "rules"


def card_id(card: Card) -> str:
    """A card's level id: its kind and engine name, so no two kinds' names can meet."""
    return f"{type(card).__name__}.{card.name}"


def _line(line: Line, opens: str = "") -> dict[str, str]:
    found = {"label": line.label}
    if line.note:
        found["note"] = line.note
    if line.more is not None:
        found["more"] = line.more()
    if opens:
        found["open"] = opens
    return found


def _part(part: Part) -> dict[str, Any]:
    found: dict[str, Any] = {"title": part.title, "focus": part.focus,
                             "lines": [_line(line) for line in part.lines]}
    if not part.lines:  # a call no player touches: said as the desktop's menu says it
        found["empty"] = Menu(part.title, [Group(part.title, [])]).describe()
    return found


def explorer_tree() -> dict[str, Any]:
    """The explorer's words in the language in use: the page's own few, then every level."""
    lists = words.card_lists()
    home = [*({"label": title, "open": f"list.{number}"}
              for number, (title, _kind) in enumerate(lists)),
            {"label": words.rules_title(), "open": RULES}]
    levels: dict[str, dict[str, Any]] = {
        HOME: {"title": _("Explorer"), "parts": [{"title": _("Explorer"), "focus": 0,
                                                   "lines": home}]},
        RULES: {"title": words.rules_title(), "parts": [_part(p) for p in words.rules_parts()]},
    }
    for number, (title, kind) in enumerate(lists):
        lines = [_line(line, card_id(card))
                 for line, card in zip(words.list_lines(kind), kind, strict=True)]
        levels[f"list.{number}"] = {"title": title,
                                    "parts": [{"title": title, "focus": 0, "lines": lines}]}
        for card in kind:
            levels[card_id(card)] = {"title": _(card_name(card)),
                                     "text": cards.card_details(card),
                                     "parts": [_part(p) for p in words.card_parts(card)]}
    return {
        # Translators: the browser page's button that opens the explorer of play cards and
        # bands (the desktop game's E).
        "open": _("Explore play cards and bands"),
        # Translators: under the heading of the browser page's explorer; Escape is the key.
        "note": _("Looking here never changes the game. Escape closes the explorer and "
                  "returns you to where you were."),
        "back": words.back_label(),
        "close": _("Close the explorer"),
        "home": HOME,
        "levels": levels,
    }


@lru_cache(maxsize=8)
def _explorer_in(code: str) -> bytes:
    with using(language_of(code)) as choice:
        tree = {"lang": choice.language.code, **explorer_tree()}
    return json.dumps(tree, ensure_ascii=False).encode()


def explorer_json(tag: str) -> bytes:
    """The explorer in the language of `tag` ("es-MX"), made once per language: a tag finds
    its catalog first, so no tag a browser sends can fill the cache."""
    return _explorer_in(match_code(tag, available()) or ENGLISH)
