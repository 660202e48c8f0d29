"""The Windows game, built on Linux under Wine, plays a whole game speaking with its own eSpeak NG.

Runs tools/windows_build.py --smoke on a clean copy: the pinned Windows Python and wheels (cached
in build/windows-cache/ after the first run), PyInstaller under Wine, the zip with its read-me
and the NSIS installer. The installer is installed silently under Wine, the installed
sudden-death.exe plays a scripted game with sound on, and it is uninstalled silently; then the
built game joins a table a Linux game hosts (network play) and plays it to the end. The tool
itself checks that eSpeak NG inside the installed folder synthesized the speech, that every
spoken line equals the Linux game's, what the uninstaller removed and kept, and that both seats
of the table game heard the same final score; this test checks that it said so, and what the
zip holds.

Wine and NSIS are needed. CI sets SUDDEN_DEATH_REQUIRE_WINE=1, so there the tool installs them
when missing and a machine without them fails instead of skipping. Elsewhere, without either,
the test is skipped (a test run never installs system packages on a developer's machine by
itself).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
REQUIRED = os.environ.get("SUDDEN_DEATH_REQUIRE_WINE", "").strip() not in ("", "0")

pytestmark = [
    pytest.mark.build,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="built on Linux under Wine"),
    pytest.mark.skipif(shutil.which("wine") is None and not REQUIRED,
                       reason="Wine is not installed (SUDDEN_DEATH_REQUIRE_WINE=1 installs it)"),
    pytest.mark.skipif(shutil.which("makensis") is None and not REQUIRED,
                       reason="NSIS is not installed (SUDDEN_DEATH_REQUIRE_WINE=1 installs it)"),
]


def test_windows_exe_built_under_wine_speaks_a_whole_game(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "windows_build.py"), "--smoke", "--clean-copy",
         "--dist", str(dist), "--seed", "3"],
        capture_output=True, text=True, timeout=1500,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-6000:]
    assert "smoke: OK" in result.stdout and "equal to Linux's" in result.stdout
    # The installer: installed silently (both programs, the uninstaller, the Start-menu and
    # desktop shortcuts, the entry in Apps with this version), the whole game above was
    # played from the installed .exe in the player's own folders, then uninstalled silently:
    # the folder, the shortcuts and the entry went, the record the game kept stayed; asked
    # with /REMOVEDATA, the player's files went too.
    assert "smoke: OK: the installer round trip in " in result.stdout, result.stdout[-3000:]
    assert "kept: record.sqlite3, sudden-death.log;" in result.stdout
    # Asked for a screen reader under Wine, the game named the reader it uses or said none
    # runs: either way Prism (prismatoid) and prism.dll were bundled and loaded (a missing
    # module says the library "is not available", a failing DLL that the readers "could not be
    # asked").
    assert ("smoke: OK: 'Speech output: screen reader, NVDA'" in result.stdout
            or "smoke: OK: 'No screen reader answered: no screen reader is running." in
            result.stdout), result.stdout[-3000:]
    # With --lang es its first words were the Spanish catalog's: the .mo files were bundled.
    assert "smoke: OK: in Spanish it says" in result.stdout
    # At a table the Linux game hosted at a Linux table server, the .exe joined under Wine and
    # played the whole game, answering each turn live; both heard the same final score.
    assert "smoke: OK: a table game with the Linux game, both heard 'Final score: " in \
        result.stdout, result.stdout[-3000:]
    # The game players start is windowed (no console window), the console one is a console
    # program, and both carry the icon and the version resource (read with pefile).
    identity = next(line for line in result.stdout.splitlines()
                    if line.startswith("windows build: identity: "))
    assert "'sudden-death.exe': {'subsystem': 2, 'product': 'Sudden Death', 'version': " \
        "'0.1.0'" in identity, identity
    assert "'sudden-death-console.exe': {'subsystem': 3" in identity
    # The windowed game, keys and transcript from files, went from its title to Quit and
    # wrote its log (what it would otherwise print on a console it does not have).
    assert "smoke: OK: its log begins " in result.stdout
    assert "started (the built game" in result.stdout
    report = json.loads(result.stdout.strip().splitlines()[-1])
    facts = report["diagnostics"]
    assert facts["frozen"] and facts["utterances_synthesized"] > 0
    assert facts["espeak_library"].endswith(r"_internal\espeakng_loader\espeak-ng.dll")
    assert facts["espeak_data"].endswith(r"_internal\espeakng_loader\espeak-ng-data")
    assert report["launch_to_first_speech_s"] is not None
    assert not facts["notices"], facts["notices"]

    installer = dist / "sudden-death-windows-installer.exe"
    assert installer.stat().st_size > 10_000_000  # the whole game, compressed
    with zipfile.ZipFile(dist / "sudden-death-windows.zip") as archive:
        names = set(archive.namelist())
        readme = archive.read("Read me first.txt").decode("utf-8")
    assert {"sudden-death/sudden-death.exe", "sudden-death/sudden-death-console.exe",
            "sudden-death/LICENSE.txt"} <= names  # the game's MIT licence, beside it
    assert "sudden-death/_internal/espeakng_loader/espeak-ng.dll" in names
    assert "sudden-death/_internal/sudden_death/locale/es/LC_MESSAGES/sudden_death.mo" in names
    assert "sudden-death/_internal/prism/_native/prism.dll" in names
    assert any(n.startswith("sudden-death/_internal/prism/_native/_prism_cffi") for n in names)
    assert any(n.startswith("sudden-death/_internal/sudden_death/sounds/") and n.endswith(".wav")
               for n in names)
    assert "\r\n" in readme and "sudden-death.exe" in readme and "F1" in readme
    assert "black console window" not in readme and "sudden-death.log" in readme
