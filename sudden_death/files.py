"""Writing a small file so that it is either the old one or the new one, never half of each."""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, text: str, prefix: str) -> None:
    """Write `text` to a temporary file beside `path` (named `prefix`...`.tmp`), flush it to
    the disk, then rename it over `path`. Raises OSError; the temporary file never stays."""
    fd, temp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
