"""Where bundled files live, resolved from the package itself so it works from a checkout,
an editable install, an installed wheel and a PyInstaller bundle alike (never from the working
directory)."""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
ROOT_DIR = PACKAGE_DIR.parent


def sounds_dir() -> Path:
    """The folder of cue WAV files, `sudden_death/sounds/` (package data): where
    tools/make_sounds.py writes them, and where a wheel and the PyInstaller bundle carry them."""
    return PACKAGE_DIR / "sounds"
