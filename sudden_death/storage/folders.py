"""Where the player's files live, one answer for the whole game.

platformdirs knows each platform's conventions (XDG on Linux, `%APPDATA%` on Windows,
`~/Library` on macOS) and keeps up with them, so the game does not hand-write them. Settings go
in the config folder; the game in progress, the seat at a table and the record in the data
folder; logs in the log folder. `--config DIR` puts all three in DIR, so a scripted run, a test
or a benchmark never touches the player's own files. An export goes to the player's documents
folder, where they will look for it.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from platformdirs.api import PlatformDirsABC
from platformdirs.macos import MacOS
from platformdirs.unix import Unix
from platformdirs.windows import Windows

APP_DIR_WINDOWS = "SuddenDeath"
APP_DIR_MAC = "SuddenDeath"
APP_DIR_LINUX = "sudden-death"


@dataclass(frozen=True)
class Folders:
    config: Path
    data: Path
    log: Path
    exports: Path  # what the player asked to export (the record as CSV): their documents


def _platform_dirs(platform: str) -> PlatformDirsABC:
    # roaming: a Windows player's settings, saves and record follow them between machines.
    if platform.startswith("win"):
        return Windows(APP_DIR_WINDOWS, appauthor=False, roaming=True)
    if platform == "darwin":
        return MacOS(APP_DIR_MAC, appauthor=False)
    return Unix(APP_DIR_LINUX, appauthor=False)


def user_folders(chosen: Path | None = None, platform: str | None = None) -> Folders:
    """The folders for this run, worked out when asked (never at import): `chosen` (--config)
    for all three, else the platform's own. Raises RuntimeError when there is no home."""
    if chosen is not None:
        return Folders(chosen, chosen, chosen, chosen)
    platform = sys.platform if platform is None else platform
    dirs = _platform_dirs(platform)
    # Logs are of this machine: Windows keeps them in the local, not the roaming, folder.
    logs = Windows(APP_DIR_WINDOWS, appauthor=False) if platform.startswith("win") else dirs
    return Folders(Path(dirs.user_config_dir), Path(dirs.user_data_dir), Path(logs.user_log_dir),
                   Path(dirs.user_documents_dir))


def data_folder(chosen: Path | None) -> Path:
    return user_folders(chosen).data
