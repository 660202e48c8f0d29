"""Opt-in run diagnostics for packaging checks and benchmarks: `SUDDEN_DEATH_DIAGNOSTICS=FILE`.

When the variable names a file, the audio system writes one small JSON object there: at the first
moment speech starts playing and again when audio closes. It says which eSpeak NG library the
process really mapped (Linux: from /proc/self/maps), how many utterances were synthesized and when
(wall clock, `time.time()`) the first one started, so a check can prove that the bundled copy
spoke, and a benchmark can time the first spoken word. Without the variable nothing is written.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from . import espeak_setup

ENV_VAR = "SUDDEN_DEATH_DIAGNOSTICS"


def mapped_libraries(fragment: str = "libespeak") -> list[str]:
    """Paths of the shared libraries in this process whose name contains `fragment` (Linux)."""
    try:
        text = Path("/proc/self/maps").read_text()
    except OSError:
        return []
    found: dict[str, None] = {}
    for line in text.splitlines():
        parts = line.split(maxsplit=5)
        if len(parts) == 6 and fragment in os.path.basename(parts[5]):
            found[parts[5].strip()] = None
    return list(found)


class Diagnostics:
    """Collects the few facts above and writes them atomically (readers never see half a file)."""

    def __init__(
        self, path: Path, synth_count: Callable[[], int], notices: Callable[[], list[str]]
    ) -> None:
        self.path = path
        self.first_playback_unix: float | None = None
        self._synth_count = synth_count
        self._notices = notices
        self._lock = threading.Lock()

    @classmethod
    def from_env(
        cls, synth_count: Callable[[], int], notices: Callable[[], list[str]]
    ) -> Diagnostics | None:
        """The collector if the variable is set, else None (the normal case)."""
        target = os.environ.get(ENV_VAR, "").strip()
        return cls(Path(target), synth_count, notices) if target else None

    def on_playback(self, text: str, started: float) -> None:
        """A playback listener: note the first utterance's start and write at once."""
        del text, started
        if self.first_playback_unix is None:
            self.first_playback_unix = time.time()
            self.write(closed=False)

    def write(self, closed: bool) -> None:
        """Write the snapshot; never raises (diagnostics must not break the game)."""
        record: dict[str, Any] = {
            "frozen": bool(getattr(sys, "frozen", False)),
            "executable": sys.executable,
            "package_dir": str(Path(__file__).resolve().parent.parent),
            "espeak_library": espeak_setup.loaded_library,
            "espeak_data": os.environ.get("ESPEAK_DATA_PATH"),
            "mapped_espeak_libraries": mapped_libraries(),
            "first_playback_unix": self.first_playback_unix,
            "closed": closed,
        }
        with self._lock:
            try:
                record["utterances_synthesized"] = self._synth_count()
                record["notices"] = list(self._notices())
                temporary = self.path.with_name(self.path.name + ".tmp")
                temporary.write_text(json.dumps(record, indent=1), encoding="utf-8")
                os.replace(temporary, self.path)
            except Exception:
                pass
