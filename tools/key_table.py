"""Write the key table of README.md and docs/playing.md from the game's key map.

    .venv/bin/python tools/key_table.py          # rewrite both tables
    .venv/bin/python tools/key_table.py --check  # exit 1 if either is out of date

Each table sits between `<!-- keys -->` and `<!-- /keys -->`; `tests/test_keymap.py` runs the
check, so a key bound, moved or explained anew in `sudden_death/ui/keys/keymap.py` can't leave the
docs behind.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")  # pygame greets on import otherwise

from sudden_death.ui.keys.keymap import KeyMap  # noqa: E402

DOCS = (ROOT / "README.md", ROOT / "docs" / "playing.md")
BLOCK = re.compile(r"(<!-- keys -->\n).*?(\n<!-- /keys -->)", re.S)


def written(text: str, table: str) -> str:
    """`text` with its key table replaced by `table`; ValueError if it has no markers."""
    if not BLOCK.search(text):
        raise ValueError("no <!-- keys --> ... <!-- /keys --> block")
    return BLOCK.sub(lambda match: match.group(1) + table + match.group(2), text)


def stale(table: str) -> list[Path]:
    """The docs whose table differs from `table`."""
    return [path for path in DOCS
            if written(path.read_text(encoding="utf-8"), table) !=
            path.read_text(encoding="utf-8")]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only report stale tables")
    args = parser.parse_args(argv)
    table = KeyMap.default().markdown_table()
    behind = stale(table)
    if args.check:
        for path in behind:
            print(f"{path.relative_to(ROOT)}: the key table is stale; run tools/key_table.py")
        return 1 if behind else 0
    for path in behind:
        path.write_text(written(path.read_text(encoding="utf-8"), table), encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
