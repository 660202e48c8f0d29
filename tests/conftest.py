"""Shared test set-up: headless SDL drivers for every test that touches pygame, the tests folder
on the import path for the small helper modules beside the tests, and a config folder of the
session's own."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from sudden_death import language

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture(autouse=True, scope="session")
def _never_the_users_config_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A launch that forgets --config must still not read or write the player's settings."""
    folder = tmp_path_factory.mktemp("user-config")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CONFIG_HOME", str(folder))
        patch.setenv("APPDATA", str(folder))
        # Never start the machine's own speech-dispatcher (its client would, when asked for
        # a screen reader with none running); tests that want one start their own.
        patch.setenv("SPEECHD_CMD", str(folder / "no-speech-dispatcher-here"))
        patch.delenv("SPEECHD_ADDRESS", raising=False)
        patch.delenv("BRLAPI_HOST", raising=False)
        # The game follows the system's language: tests expect English unless they ask.
        for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            patch.delenv(name, raising=False)
        patch.setenv("LANG", "C.UTF-8")
        yield


@pytest.fixture(autouse=True)
def _english_unless_a_test_chooses() -> Iterator[None]:
    """Each test starts in English, and a language setting it changes ends with it."""
    with language.using(language.english()):
        yield
