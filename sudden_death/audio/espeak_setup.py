"""Make the eSpeak NG of the `espeakng-loader` wheel the one pyttsx3 finds: no system package.

The library exits the whole process if it cannot find its data, so ESPEAK_DATA_PATH is set and the
library preloaded before pyttsx3's espeak driver is imported (which happens on `pyttsx3.init`).
"""

from __future__ import annotations

import ctypes
import os
import sys

# The library file this process preloaded (None until prepare_espeak succeeds). Diagnostics report
# it so a packaging check can prove the bundled copy, not a system one, is the one speaking.
loaded_library: str | None = None


def prepare_espeak() -> str | None:
    """On Linux, preload the bundled eSpeak NG; returns why it failed, or None (also off Linux).

    Call it before the first `pyttsx3.init()` in the process; calling it again is harmless.
    """
    if not sys.platform.startswith("linux"):
        return None  # pyttsx3 uses SAPI5 / NSSpeechSynthesizer there
    try:
        import espeakng_loader
    except ImportError:
        return "the espeakng-loader package is not installed"
    try:
        data_path = espeakng_loader.get_data_path()
        library_path = espeakng_loader.get_library_path()
    except Exception as exc:
        return f"eSpeak NG data is missing ({exc})"
    if not os.path.isdir(data_path):
        return f"eSpeak NG data is missing at {data_path}"
    # Set before the library starts: it reads the variable once, in espeak_Initialize.
    os.environ["ESPEAK_DATA_PATH"] = data_path
    try:
        # RTLD_GLOBAL + same soname: pyttsx3's LoadLibrary("libespeak-ng.so.1") reuses this copy.
        ctypes.CDLL(library_path, mode=ctypes.RTLD_GLOBAL)
    except OSError as exc:
        return f"the eSpeak NG library could not be loaded ({exc})"
    global loaded_library
    loaded_library = library_path
    return None
