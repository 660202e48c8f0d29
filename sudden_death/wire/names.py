"""When two team names are one to a listener: the same letters whatever their case, accents
and spaces ("Hawks", "the hawks" is not the same, but "HAWKS", "Hâwks" and "Haw ks" are), and
whatever look-alikes stand for them ("Наwks" with a Cyrillic Н, a small-capital ᴀ, a variation
selector after a letter: `skeletons`, from Unicode's skeleton in `look_alike.py`).

Both sides use it: the server refuses a second seat with the first one's name, and the game
refuses a computer team named as the player's, so a final score never names one team twice.
"""

from __future__ import annotations

import unicodedata

from .look_alike import skeleton

SMALL_CAPITAL = "LATIN LETTER SMALL CAPITAL "
ROUNDS = 4  # skeleton and fold again until nothing changes (a prototype may fold further)
# Printable characters shown as nothing, or on a braille display as a blank cell, that
# Unicode counts neither as spaces nor as default-ignorable (the Hangul fillers are: the
# skeleton drops them): folded away like a space, so "Anna⠀" is "Anna". Why fold and not
# refuse: every other blank a name may hold is folded so (a space, a Hangul filler, a
# combining mark); what `isprintable` refuses (tabs, other spaces, format characters) is what
# a voice cannot read at all.
BLANKS = frozenset({
    "\u2800",  # BRAILLE PATTERN BLANK: a braille display's empty cell, a space to its reader
    "\U0001D159",  # MUSICAL SYMBOL NULL NOTEHEAD: drawn as nothing
    "\U00016FE4",  # KHITAN SMALL SCRIPT FILLER: a mark drawn as nothing
})


def folded(name: str) -> str:
    """`name` as an ear compares it: no case, no accents, no spaces (nor blank cells)."""
    decomposed = unicodedata.normalize("NFKD", name)
    letters = "".join(char for char in decomposed
                      if not unicodedata.combining(char) and char not in BLANKS)
    return "".join(letters.split()).casefold()


def skeletons(name: str) -> tuple[str, str]:
    """Two keys of `name` as an ear and an eye compare it; two names are one (`same_name`)
    when either key is the same. Each writes every look-alike as its prototype (UTS #39's
    skeleton, `look_alike.py`), drops invisible characters, reads a small capital as its letter
    (a reader says "ᴀ" as "a", and Unicode writes a Cyrillic т as "ᴛ") and folds (`folded`).
    Two, because look-alikes depend on case where folding does not: a Greek Β looks like B
    and its small β does not, so the first key takes the skeleton of the name as written,
    before folding, and the second of the name folded, so that names `folded` makes one are
    one here too. Both are then settled alike (upper case, skeleton, fold, until nothing
    changes): "I", "l" and "1" are one to the eye, so "Bill" and "Biii" are one name."""
    return _settled(folded(_letters(skeleton(name)))), _settled(folded(name))


def _settled(key: str) -> str:
    for _ in range(ROUNDS):
        upper = folded(_letters(skeleton(key.upper())))
        again = folded(_letters(skeleton(upper)))
        if again == key:
            break
        key = again
    return key


def _letters(text: str) -> str:
    """Each small capital as its letter ("ᴀ" as "a")."""
    return "".join(_small_capital(char) for char in text)


def _small_capital(char: str) -> str:
    letter = unicodedata.name(char, "").removeprefix(SMALL_CAPITAL)
    return letter.lower() if len(letter) == 1 else char


def same_name(first: str, second: str) -> bool:
    (written, plain), (other_written, other_plain) = skeletons(first), skeletons(second)
    return written == other_written or plain == other_plain


def spaced(text: str) -> str:
    """`text` with runs of plain spaces made one and none at either end; any other blank
    (a tab, a line break, U+2028) stays, for `isprintable` to refuse."""
    return " ".join(part for part in text.split(" ") if part)
