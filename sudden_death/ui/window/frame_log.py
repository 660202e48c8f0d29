"""A record of every frame drawn, for the window tests and for a maintainer looking at a bug.

Why: "nothing is cut off" can only be checked against what was really drawn. With
SUDDEN_DEATH_LAYOUT_LOG=FILE each frame's text boxes (text, rectangle, colours, focus) are
appended to FILE as one JSON line; with SUDDEN_DEATH_SCREENSHOTS=DIR a PNG of the window is
saved whenever the decision, window size or text size changes. Without them nothing is written.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import IO, Any

import pygame

from .layout import Frame


class FrameLog:
    """Opened from the environment by the game loop; closed with the window."""

    def __init__(self, log: IO[str] | None, shots: Path | None) -> None:
        self._log = log
        self._shots = shots
        self._seen: set[tuple[str, int, int, int]] = set()
        self.frames = 0

    @classmethod
    def from_environment(cls, environ: dict[str, str] | None = None) -> FrameLog:
        environ = dict(os.environ) if environ is None else environ
        log_path = environ.get("SUDDEN_DEATH_LAYOUT_LOG", "")
        shots = environ.get("SUDDEN_DEATH_SCREENSHOTS", "")
        log = open(log_path, "a", encoding="utf-8") if log_path else None  # noqa: SIM115
        folder = Path(shots) if shots else None
        if folder is not None:
            folder.mkdir(parents=True, exist_ok=True)
        return cls(log, folder)

    @property
    def active(self) -> bool:
        return self._log is not None or self._shots is not None

    def record(self, frame: Frame, surface: Any, title: str, text_size: int) -> None:
        self.frames += 1
        if self._log is not None:
            self._log.write(json.dumps({
                "frame": self.frames, "driver": pygame.display.get_driver(),
                "size": [frame.width, frame.height],
                "text_size": text_size, "title": title,
                "focus": list(frame.focus) if frame.focus else None,
                "panel": [frame.panel_lines, frame.panel_first, frame.panel_shown],
                "boxes": [box.as_json() for box in frame.boxes],
            }) + "\n")
            self._log.flush()
        key = (title, frame.width, frame.height, text_size)
        if self._shots is not None and key not in self._seen:
            self._seen.add(key)
            slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")[:40] or "screen"
            name = f"{frame.width}x{frame.height}-{text_size}-{len(self._seen):03d}-{slug}.png"
            pygame.image.save(surface, str(self._shots / name))

    def close(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None
