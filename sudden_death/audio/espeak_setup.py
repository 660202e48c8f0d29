"""Make the eSpeak NG of the `espeakng-loader` wheel the one pyttsx3 finds, on every platform:
the game's own voice, with nothing installed on the player's machine.

The library exits the whole process if it cannot find its data, so ESPEAK_DATA_PATH is set and the
library loaded before pyttsx3's espeak driver is imported (which happens on `pyttsx3.init`). On
Linux the preloaded library is found again by its soname. On Windows and macOS pyttsx3 looks only
in fixed places (C:\\Program Files\\eSpeak NG\\libespeak-ng.dll, /usr/local/lib/...), so the
driver's binding is imported once with those names pointed at the bundled file.

A damaged data folder makes the library exit or crash the process too, so before anything is
loaded the folder is checked against the build's manifest (espeak_manifest.py): if it fails,
speech is off and the player is told why, and the game goes on.

SUDDEN_DEATH_ESPEAK_DATA=<folder> (for tests and diagnosis) makes eSpeak NG use that data folder
instead of espeakng-loader's; it is checked against the same manifest entry.
"""

from __future__ import annotations

import ctypes
import logging
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..language import _
from .espeak_manifest import installed_version, load_manifest, verify_data

LOG = logging.getLogger(__name__)

# The library file this process loaded (None until prepare_espeak succeeds). Diagnostics report
# it so a packaging check can prove the bundled copy, not a system one, is the one speaking.
loaded_library: str | None = None

BINDING = "pyttsx3.drivers._espeak"
DATA_OVERRIDE = "SUDDEN_DEATH_ESPEAK_DATA"


def prepare_espeak() -> str | None:
    """Load the bundled eSpeak NG for pyttsx3; returns why it failed, or None.

    Call it before the first `pyttsx3.init("espeak")` in the process; calling it again is harmless.
    """
    global loaded_library
    if loaded_library is not None:
        return None
    try:
        import espeakng_loader
    except ImportError:
        # Translators: this and the other reasons here are said inside brackets, as in "Speech
        # is off: no speech engine could start ({reason})."; espeakng-loader is a program name.
        return _("the espeakng-loader package is not installed")
    try:
        library_path = espeakng_loader.get_library_path()
        data_path = os.environ.get(DATA_OVERRIDE) or espeakng_loader.get_data_path()
    except Exception:  # espeakng-loader raises RuntimeError when its data folder is gone
        return _("eSpeak NG's voice data folder is missing")
    # Checked before the library sees it: damaged data makes the library exit or crash.
    problem = verify_data(data_path, load_manifest(loader_version(espeakng_loader)))
    if problem is not None:
        return problem
    # Set before the library starts: it reads the variable once, in espeak_Initialize.
    os.environ["ESPEAK_DATA_PATH"] = data_path
    try:
        if sys.platform.startswith("linux"):
            # RTLD_GLOBAL + same soname: pyttsx3's LoadLibrary("libespeak-ng.so.1") reuses it.
            ctypes.CDLL(library_path, mode=ctypes.RTLD_GLOBAL)
        else:
            bind_pyttsx3_to(library_path)
    except (OSError, RuntimeError) as exc:
        LOG.warning("the eSpeak NG library could not be loaded: %s", exc)
        return _("the eSpeak NG library could not be loaded")
    loaded_library = library_path
    return None


def loader_version(module: Any) -> str | None:
    """The installed espeakng-loader's version: from its .dist-info folder's name (cheap), else
    from importlib.metadata (over 20 ms to import); None if neither knows it."""
    version = installed_version(Path(module.__file__).parent)
    if version is not None:
        return version
    try:
        import importlib.metadata

        return importlib.metadata.version("espeakng-loader")
    except Exception:
        return None


def bind_pyttsx3_to(library_path: str, loader: Any = None) -> None:
    """Import pyttsx3's eSpeak binding with its fixed library names pointed at `library_path`.

    The binding loads its library once, at import, trying a list of install locations; while it
    imports, every name it asks `ctypes.cdll` for is answered with the bundled file. `loader`
    (tests) stands in for `ctypes.cdll`.
    """
    if BINDING in sys.modules:
        return
    cdll = loader if loader is not None else ctypes.cdll
    original: Callable[[str], Any] = cdll.LoadLibrary
    bundled = original(library_path)  # fails here, with the real reason, if it cannot load

    def load(name: str) -> Any:
        return bundled

    setattr(cdll, "LoadLibrary", load)  # noqa: B010 (a method swapped for the import only)
    try:
        __import__(BINDING)
    finally:
        setattr(cdll, "LoadLibrary", original)  # noqa: B010
