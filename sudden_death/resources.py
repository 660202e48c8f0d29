"""Where bundled files live, resolved from the package itself so it works from a checkout,
an editable install, an installed wheel and a PyInstaller bundle alike (never from the working
directory)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
ROOT_DIR = PACKAGE_DIR.parent
# The cues' package: the repository's top-level sounds/, mapped to this name by pyproject.toml.
SOUNDS_PACKAGE = "sudden_death.sounds"


def sounds_dir() -> Path:
    """The folder of cue WAV files, the package `sudden_death.sounds`, found by the import
    system: in a wheel it is `sudden_death/sounds/`; in an editable install (`tasks.py`) the
    install's import hook maps it to the repository's `sounds/`, where tools/make_sounds.py
    writes them. The PyInstaller bundle carries the files alone (build.spec), in
    `sudden_death/sounds/` beside the package, which is also the answer when the package is not
    found (the cue bank then says which cues are missing)."""
    spec = importlib.util.find_spec(SOUNDS_PACKAGE)
    if spec is not None and spec.origin is not None:
        return Path(spec.origin).resolve().parent
    return PACKAGE_DIR / "sounds"
