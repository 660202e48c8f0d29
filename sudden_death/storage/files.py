"""Writing a small file so that it is either the old one or the new one, never half of each."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import tempfile
from collections.abc import Callable
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


def keep_json(where: Callable[[], Path], data: object, prefix: str, what: str,
              log: logging.Logger) -> str | None:
    """Write `data` as one JSON line to the file `where()` names (atomically, making its
    folder); the reason when it could not be (logged as `what` could not be kept). `where` is
    asked inside: with no home folder it raises RuntimeError, which is a reason too."""
    try:
        path = where()
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, json.dumps(data) + "\n", prefix)
    except (OSError, RuntimeError) as error:
        log.warning("%s could not be kept: %s", what, error)
        return str(error)
    return None


def forget(where: Callable[[], Path]) -> None:
    """Remove the file `where()` names, if it is there and can be."""
    with contextlib.suppress(OSError, RuntimeError):
        where().unlink(missing_ok=True)
