"""The game's log file, in the platform's log folder (or --config DIR): what went wrong, for
whoever helps the player, where a windowed game has no console to print it on.

Rotated (a few hundred kilobytes, two old files kept), opened only when the first line comes,
and never holding a secret: the table password the player set and anything shaped like a seat
token (a long random run of letters and digits) are replaced by `***` before a line is
written.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from logging.handlers import RotatingFileHandler
from pathlib import Path

FILE_NAME = "sudden-death.log"
MAX_BYTES = 256 * 1024
BACKUPS = 2
MASK = "***"
# secrets.token_urlsafe(18) gives 24 characters; a run this long with upper and lower case and
# a digit is no word, path or number the game logs.
TOKEN_LIKE = re.compile(r"(?<![A-Za-z0-9_-])(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[a-z])"
                        r"(?=[A-Za-z0-9_-]*[A-Z])[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])")


class Redact(logging.Filter):
    """Masks the secrets it is given, and token-shaped runs, in every line it passes."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets = {secret for secret in secrets if secret}

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        for secret in self.secrets:
            text = text.replace(secret, MASK)
        record.msg, record.args = TOKEN_LIKE.sub(MASK, text), None
        return True


def open_log(folder: Path, logger: logging.Logger,
             secrets: Iterable[str] = ()) -> logging.Handler | None:
    """Log `logger`'s lines (INFO and above) to `folder`/sudden-death.log; None when the folder
    cannot be made (the game goes on without a log)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handler = RotatingFileHandler(folder / FILE_NAME, maxBytes=MAX_BYTES,
                                      backupCount=BACKUPS, encoding="utf-8", delay=True)
    except OSError:
        return None
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(Redact(secrets))
    logger.addHandler(handler)
    if logger.level == logging.NOTSET or logger.level > logging.INFO:
        logger.setLevel(logging.INFO)
    return handler
