"""The script PyInstaller freezes (see build.spec): `sudden_death/__main__.py` uses relative
imports, which only work inside the package, so the executable starts here instead."""

from __future__ import annotations

import sys

from sudden_death.__main__ import main

if __name__ == "__main__":
    sys.exit(main())
