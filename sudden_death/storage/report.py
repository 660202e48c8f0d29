"""A problem report: one plain text file a player can send to whoever helps them.

A player who hits a problem has no other way to tell anyone from inside the game, and a
helper needs the same few facts every time: the version, the system, the sound in use, the
settings, what the game said last and the log's tail. Nothing else from the computer goes in:
the user's home folder is written `~`, and the table password and the seat's token are masked
wherever they appear (the builder is given them, so it never has to guess what a secret looks
like). The file is written atomically (`files.py`) in the documents folder (`folders.py`'s
exports, or `--config DIR`), and replaced by the next report.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from .files import write_atomic
from .settings import Settings

FILE_NAME = "sudden-death-report.txt"
LINES_SAID = 200  # the last lines the game said
LOG_LINES = 100  # the log's last lines
MAX_LOG_BYTES = 64 * 1024  # read from the log's end: a rotated log is a few hundred KB
MASK = "***"  # as the log masks a secret (ui/run/log_file.py)
HIDDEN_SETTINGS = ("table_password",)


@dataclass(frozen=True)
class ReportFacts:
    """What goes in the report, gathered by the front end (which knows the sound and the
    speech history); `secrets` and `home` are what must not."""

    version: str
    system: str  # platform.platform()
    python: str
    back_ends: Sequence[tuple[str, str]]  # (what, which): the speech and sound in use
    settings: Settings
    said: Sequence[str]  # what the game said, oldest first
    log: Path | None  # the log file, if there is one
    secrets: Sequence[str]  # the table password, the seat's token
    home: str  # the user's home folder, written "~"


def log_tail(path: Path | None, lines: int = LOG_LINES) -> list[str]:
    """The log's last `lines` lines; none when there is no log or it cannot be read."""
    if path is None:
        return []
    try:
        with path.open("rb") as handle:
            handle.seek(0, 2)
            size = handle.tell()
            handle.seek(max(0, size - MAX_LOG_BYTES))
            text = handle.read().decode("utf-8", errors="replace")
    except OSError:
        return []
    return text.splitlines()[-lines:]


def _settings_lines(settings: Settings) -> list[str]:
    values = asdict(settings)
    for name in HIDDEN_SETTINGS:
        values[name] = "(set, not shown)" if values[name] else ""
    return [f"{name}: {json.dumps(value)}" for name, value in values.items()]


def _section(title: str, lines: Iterable[str]) -> list[str]:
    body = list(lines)
    return ["", f"== {title} ==", *(body or ["(none)"])]


def report_text(facts: ReportFacts) -> str:
    """The report, in English (whoever reads it may not share the player's language)."""
    lines = ["Sudden Death problem report", "",
             f"version: {facts.version}", f"system: {facts.system}",
             f"python: {facts.python}"]
    lines += _section("sound and speech", (f"{what}: {which}" for what, which in
                                           facts.back_ends))
    lines += _section("settings", _settings_lines(facts.settings))
    lines += _section(f"the last {LINES_SAID} lines said", list(facts.said)[-LINES_SAID:])
    lines += _section("the log's end", log_tail(facts.log))
    return _scrubbed("\n".join(lines) + "\n", facts.secrets, facts.home)


def _scrubbed(text: str, secrets: Iterable[str], home: str) -> str:
    for secret in sorted({secret for secret in secrets if secret}, key=len, reverse=True):
        text = text.replace(secret, MASK)
    if len(home.rstrip("/\\")) > 1:  # a home of "/" would turn every path into "~"
        text = text.replace(home.rstrip("/\\"), "~")
    return text


def write_report(folder: Path, text: str) -> Path:
    """Write `text` as the report in `folder` (made if missing); its path. Raises OSError."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / FILE_NAME
    write_atomic(path, text, ".report-")
    return path
