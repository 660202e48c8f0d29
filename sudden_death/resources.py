"""Where bundled files live, resolved from the package itself so it works from a checkout,
an editable install, an installed wheel and a PyInstaller bundle alike (never from the working
directory)."""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
ROOT_DIR = PACKAGE_DIR.parent


def sounds_dir() -> Path:
    """The folder of cue WAV files. A wheel (and the PyInstaller bundle) carries `sounds/` as the
    package data `sudden_death/sounds/`; a checkout or an editable install has it beside the
    package, where tools/make_sounds.py writes it."""
    packaged = PACKAGE_DIR / "sounds"
    return packaged if packaged.is_dir() else ROOT_DIR / "sounds"
