"""The packaged executable builds from a clean copy, plays a whole game offline, and serves,
hosts and joins a table (network play); the wheel and the editable install carry and find every
cue (the repository's sounds/, mapped to the package sudden_death.sounds by pyproject.toml).

Runs tools/build_check.py (under a minute here: a PyInstaller build, one scripted game, and
one table game of two built games at the built table server).
PyInstaller is part of the `test` extra in pyproject.toml, so `python3 tasks.py test` (and CI)
installs it; the test is skipped only if it is truly missing from the environment running it.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path
from types import ModuleType

import pytest
from scripts import load_script

from sudden_death.language import available

ROOT = Path(__file__).resolve().parent.parent
SOUNDS = ROOT / "sounds"  # the package sudden_death.sounds (pyproject.toml package-dir)


def _tasks() -> ModuleType:
    return load_script("tasks.py", "tasks_for_packaging")


@pytest.mark.build
@pytest.mark.skipif(importlib.util.find_spec("PyInstaller") is None,
                    reason="PyInstaller is not installed (pip install -e .[build])")
def test_packaged_app_plays_a_whole_game_with_bundled_espeak() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "build_check.py"), "--seed", "3"],
        capture_output=True, text=True, timeout=1200,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "build check: OK" in result.stdout
    assert "with --lang es it says" in result.stdout  # the catalogs were bundled and found
    # Network play: the built game served a table (--serve) and two built games played a whole
    # game at it, hearing the same final score; the server stopped with exit 0 on SIGTERM.
    assert "build check: OK: a table game at the built server" in result.stdout
    assert "both heard 'Final score: " in result.stdout


def _clean_copy(folder: Path) -> Path:
    """The project's files as git sees them (committed or not, never ignored): no build output."""
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, text=True, check=True)
    for name in listed.stdout.splitlines():
        if (ROOT / name).is_file():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, folder / name)
    return folder


def test_a_built_wheel_carries_every_cue_and_finds_them_installed(tmp_path: Path) -> None:
    """pip install of the wheel alone (no source tree) keeps every sound: the repository's
    sounds/ is shipped as the package sudden_death.sounds with its data, in sudden_death/sounds/,
    where resources.sounds_dir() finds it. The compiled catalogs come with it, and the installed
    game finds them."""
    from sudden_death.audio.cues import CROWD, DIE_CLICK
    from sudden_death.audio.protocols import CUE_NAMES

    source = _clean_copy(tmp_path / "source")  # a build/ folder left here could add old modules
    # Warnings as errors, the build backend's included: a player's first install must print
    # none from the project's own packaging (setuptools warned of the catalogs' folders).
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(tmp_path / "wheel"),
         str(source)],
        capture_output=True, text=True, timeout=300,
        env={**os.environ, "PYTHONWARNINGS": "error"},
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr
    assert "BuildBackendWarning" not in built.stdout + built.stderr
    (wheel,) = (tmp_path / "wheel").glob("sudden_death-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(tmp_path / "site")
        shipped = {Path(n).stem for n in archive.namelist() if n.endswith(".wav")}
        catalogs = {n for n in archive.namelist() if n.endswith(".mo")}
        modules = {n for n in archive.namelist() if n.endswith(".py")}
        # The licences travel with the sounds: the list of sources, and the GPL's text for the
        # cues made from recordings, beside them and in the wheel's metadata.
        names = set(archive.namelist())
        metadata = next(archive.read(n).decode() for n in names if n.endswith("/METADATA"))
    assert {"sudden_death/sounds/LICENSES.md", "sudden_death/sounds/GPL-2.txt"} <= names
    # The PostgreSQL schema's migrations (server/stores/postgres_schema.py reads them from the
    # package).
    folder = ROOT / "sudden_death" / "server" / "stores" / "migrations"
    migrations = {f"sudden_death/server/stores/migrations/{path.name}"
                  for path in folder.glob("*.sql")}
    assert migrations
    assert {n for n in names if n.endswith(".sql")} == migrations
    # The browser seat's page (web/site.py serves it from the package), and nothing else there.
    page = {f"sudden_death/web/page/{path.name}"
            for path in (ROOT / "sudden_death" / "web" / "page").iterdir()}
    assert "sudden_death/web/page/index.html" in page
    assert {n for n in names if n.startswith("sudden_death/web/page/")} == page
    assert any(n.endswith(".dist-info/licenses/sounds/GPL-2.txt") for n in names)
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)  # the game's, MIT
    assert "License-Expression: MIT AND GPL-2.0-or-later" in metadata
    in_source = {path.relative_to(ROOT).as_posix()
                 for path in (ROOT / "sudden_death").rglob("*.py")}
    in_source |= {f"sudden_death/sounds/{path.relative_to(SOUNDS).as_posix()}"
                  for path in SOUNDS.rglob("*.py")}
    assert not (ROOT / "sudden_death" / "sounds").exists()  # one copy of the cues: sounds/
    assert modules == in_source  # a package missing from pyproject.toml would be left out
    assert shipped == {*CUE_NAMES, DIE_CLICK, CROWD}
    assert catalogs == {f"sudden_death/locale/{code}/LC_MESSAGES/sudden_death.mo"
                        for code in available() if code != "en"}
    languages = subprocess.run(
        [sys.executable, "-c", "from sudden_death.language import available, load; "
         "print(*available(), load('es').name)"],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path / "site")},
        capture_output=True, text=True, timeout=60,
    )
    assert languages.stdout.split() == [*available(), "Español"], languages.stderr
    found = subprocess.run(
        [sys.executable, "-c", "from sudden_death.resources import sounds_dir; "
         "print(sounds_dir())"],
        cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(tmp_path / "site")},
        capture_output=True, text=True, timeout=60,
    )
    assert found.returncode == 0, found.stderr
    assert Path(found.stdout.strip()) == tmp_path / "site" / "sudden_death" / "sounds"


def test_an_editable_install_finds_the_cues_in_the_top_level_folder(tmp_path: Path) -> None:
    """tasks.py installs the game editable. pyproject.toml's package-dir maps sounds/ to the
    package sudden_death.sounds, which only the install's import hook knows: a fresh editable
    install of a clean copy finds every cue in the copy's sounds/ from any working folder, and
    installing says nothing about it (tasks.install_env quiets setuptools' notice)."""
    from sudden_death.audio.cues import CROWD, DIE_CLICK
    from sudden_death.audio.protocols import CUE_NAMES

    tasks = _tasks()
    source = _clean_copy(tmp_path / "source")
    venv.EnvBuilder(with_pip=True).create(tmp_path / "venv")
    python = str(tasks.venv_python(tmp_path / "venv"))
    env = {name: value for name, value in tasks.install_env().items() if name != "PYTHONPATH"}
    installed = subprocess.run(
        [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps",
         "-e", str(source)],
        capture_output=True, text=True, timeout=300, env=env,
    )
    assert installed.returncode == 0, installed.stdout[-3000:] + installed.stderr
    assert "Editable installation" not in installed.stdout + installed.stderr
    found = subprocess.run(
        [python, "-c", "from sudden_death.resources import sounds_dir; print(sounds_dir())"],
        cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
    )
    assert found.returncode == 0, found.stderr
    folder = Path(found.stdout.strip())
    assert folder == (source / "sounds").resolve()
    assert {path.stem for path in folder.glob("*.wav")} == {*CUE_NAMES, DIE_CLICK, CROWD}
