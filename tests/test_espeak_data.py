"""eSpeak NG's data is checked against the build's manifest before the library loads it.

Unchecked, an empty data folder makes the library call C exit() (the game ends, status 1, before
a word is shown) and a truncated phondata makes it crash (status 139). Checked, speech is off,
the player is told why, and the game goes on. These tests damage a copy of the real data folder.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from sudden_death.audio import espeak_setup
from sudden_death.audio.espeak_manifest import (
    HASHED,
    FileEntry,
    describe,
    installed_version,
    load_manifest,
    verify_data,
)

espeakng_loader = pytest.importorskip("espeakng_loader")

ROOT = Path(__file__).resolve().parent.parent
SOURCE = Path(espeakng_loader.get_data_path())
VERSION = installed_version(Path(espeakng_loader.__file__).parent)
NOTICE_MAX = 80  # engines._why drops a longer reason from the "... so Windows voices speak" line


@pytest.fixture
def data(tmp_path: Path) -> Path:
    """A fresh copy of the bundled espeak-ng-data folder."""
    return Path(shutil.copytree(SOURCE, tmp_path / "espeak-ng-data"))


@pytest.fixture(scope="module")
def manifest() -> dict[str, FileEntry]:
    found = load_manifest(VERSION)
    assert found is not None, f"no manifest entry for espeakng-loader {VERSION}"
    return found


def flip_byte(path: Path, offset: int) -> None:
    content = bytearray(path.read_bytes())
    content[offset] ^= 0x01
    path.write_bytes(bytes(content))


def test_the_manifest_records_every_installed_file_as_it_is(manifest) -> None:
    assert VERSION is not None
    assert manifest == describe(SOURCE)
    assert set(HASHED) <= manifest.keys()


def test_an_intact_copy_verifies(data: Path, manifest) -> None:
    assert verify_data(data, manifest) is None
    (data / "notes.txt").write_text("not eSpeak's", encoding="utf-8")  # extra files: ignored
    assert verify_data(str(data), manifest) is None


def test_an_empty_or_missing_folder_is_refused(tmp_path: Path, manifest) -> None:
    (tmp_path / "empty").mkdir()
    assert verify_data(tmp_path / "empty", manifest) == "eSpeak NG's voice data folder is empty"
    assert verify_data(tmp_path / "empty", None) == "eSpeak NG's voice data folder is empty"
    assert verify_data(tmp_path / "gone", manifest) == "eSpeak NG's voice data folder is missing"


def test_a_truncated_phondata_is_named_with_its_size(data: Path, manifest) -> None:
    with open(data / "phondata", "r+b") as handle:
        handle.truncate(12)
    reason = verify_data(data, manifest)
    expected = manifest["phondata"].size
    assert reason == (f"eSpeak NG's voice data is damaged: phondata is 12 bytes, "
                      f"expected {expected:,}")
    assert len(reason) <= NOTICE_MAX


def test_a_changed_byte_in_phondata_fails_its_checksum(data: Path, manifest) -> None:
    flip_byte(data / "phondata", 1000)
    assert (data / "phondata").stat().st_size == manifest["phondata"].size
    assert verify_data(data, manifest) == (
        "eSpeak NG's voice data is damaged: phondata does not match its checksum"
    )


def test_the_first_bad_file_is_named_essential_files_first(data: Path, manifest) -> None:
    (data / "voices" / "!v" / "m1").unlink()  # a voice variant the settings can pick
    assert verify_data(data, manifest) == (
        "eSpeak NG's voice data is incomplete: voices/!v/m1 is missing"
    )
    (data / "lang" / "gmw" / "en").write_bytes(b"")  # empty, it crashes eSpeak
    reason = verify_data(data, manifest)
    assert reason == "eSpeak NG's voice data is damaged: lang/gmw/en is 0 bytes, expected 140"
    (data / "en_dict").unlink()
    assert verify_data(data, manifest) == "eSpeak NG's voice data is incomplete: en_dict is missing"


def test_a_newer_loader_without_an_entry_gets_the_lenient_check(data: Path) -> None:
    assert load_manifest("999.0") is None
    assert load_manifest(None) is None
    assert load_manifest(VERSION, data / "no-manifest.json") is None
    flip_byte(data / "phondata", 1000)  # unseen without hashes, as is any size change
    with open(data / "ru_dict", "r+b") as handle:
        handle.truncate(10)
    assert verify_data(data, None) is None
    (data / "intonations").write_bytes(b"")
    assert verify_data(data, None) == "eSpeak NG's voice data is damaged: intonations is empty"
    (data / "phontab").unlink()
    assert verify_data(data, None) == "eSpeak NG's voice data is incomplete: phontab is missing"


def test_the_version_comes_from_the_dist_info_folder(tmp_path: Path) -> None:
    import importlib.metadata

    assert importlib.metadata.version("espeakng-loader") == VERSION
    package = tmp_path / "espeakng_loader"
    package.mkdir()
    assert installed_version(package) is None
    (tmp_path / "espeakng_loader-9.8.7.dist-info").mkdir()
    assert installed_version(package) == "9.8.7"
    (tmp_path / "espeakng_loader-9.8.8.dist-info").mkdir()
    assert installed_version(package) is None  # ambiguous: the lenient check


def test_prepare_espeak_refuses_damaged_data_before_loading_it(
    data: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (data / "phondata").write_bytes(b"")
    monkeypatch.setattr(espeak_setup, "loaded_library", None)
    monkeypatch.setenv(espeak_setup.DATA_OVERRIDE, str(data))
    monkeypatch.setenv("ESPEAK_DATA_PATH", "untouched")
    reason = espeak_setup.prepare_espeak()
    assert reason is not None and reason.startswith("eSpeak NG's voice data is damaged: phondata")
    assert os.environ["ESPEAK_DATA_PATH"] == "untouched"
    assert espeak_setup.loaded_library is None


def test_the_tool_writes_what_is_committed(tmp_path: Path) -> None:
    out = tmp_path / "manifest.json"
    made = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "make_espeak_manifest.py"), "--output", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert made.returncode == 0, made.stderr
    fresh = json.loads(out.read_text(encoding="utf-8"))["versions"][VERSION]["files"]
    committed = json.loads((ROOT / "sudden_death" / "audio" / "espeak_manifest.json")
                           .read_text(encoding="utf-8"))["versions"][VERSION]["files"]
    assert fresh == committed
    check = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "make_espeak_manifest.py"), "--check"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    assert check.returncode == 0, check.stderr


# --- the real game, sound on, with damaged data ---------------------------------------------


def game_command(keys: str, config: Path) -> list[str]:
    return [sys.executable, "-m", "sudden_death", "--headless", "--seed", "1", "--keys", keys,
            "--transcript", "-", "--config", str(config)]


def game_env(data: Path) -> dict[str, str]:
    return {**os.environ, espeak_setup.DATA_OVERRIDE: str(data), "SDL_VIDEODRIVER": "dummy",
            "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}


def spoken(stdout: str) -> list[str]:
    records = [json.loads(line) for line in stdout.splitlines() if line.startswith("{")]
    return [r["text"] for r in records if r.get("kind") == "speech"]


def test_the_game_with_an_empty_data_folder_says_speech_is_off_and_plays(tmp_path: Path) -> None:
    """Unchecked, eSpeak NG exits the process (status 1) before anything is shown or said."""
    (tmp_path / "empty").mkdir()
    keys = tmp_path / "keys.txt"
    keys.write_text("escape\ndown\nreturn\n", encoding="utf-8")
    result = subprocess.run(game_command(str(keys), tmp_path / "cfg"), cwd=ROOT,
                            env=game_env(tmp_path / "empty"), capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    lines = spoken(result.stdout)
    assert ("Speech is off: no speech engine could start (eSpeak NG's voice data folder is "
            "empty).") in lines
    records = [json.loads(x) for x in result.stdout.splitlines() if x.startswith("{")]
    off = next(i for i, r in enumerate(records) if r.get("text", "").startswith("Speech is off"))
    assert records[off - 1] == {**records[off - 1], "kind": "cue", "name": "menu_error"}
    assert any(line.startswith("Main menu:") for line in lines)
    assert lines[-1] == "Goodbye."
    assert "Traceback" not in result.stderr


def test_the_game_with_a_truncated_phondata_says_speech_is_off_and_plays(
    data: Path, tmp_path: Path
) -> None:
    """Unchecked, eSpeak NG crashes (status 139) when it makes the welcome. Keys come live
    (`--keys -`) and only after the notice, so an unchecked game gets the time to crash."""
    with open(data / "phondata", "r+b") as handle:
        handle.truncate(12)
    game = subprocess.Popen(game_command("-", tmp_path / "cfg"), cwd=ROOT, env=game_env(data),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    assert game.stdin is not None and game.stdout is not None and game.stderr is not None
    lines: queue.Queue[str | None] = queue.Queue()
    errors: list[str] = []

    def read_out() -> None:
        assert game.stdout is not None
        for line in game.stdout:
            lines.put(line)
        lines.put(None)

    def read_err() -> None:
        assert game.stderr is not None
        errors.extend(game.stderr)

    readers = [threading.Thread(target=read_out, daemon=True),
               threading.Thread(target=read_err, daemon=True)]
    for reader in readers:
        reader.start()
    seen: list[str] = []
    try:
        # Wait for the notice (or the end of the output: a crash), then the keys that quit.
        while (line := lines.get(timeout=30)) is not None:
            seen.append(line)
            if "Speech is off" in line:
                with contextlib.suppress(BrokenPipeError):
                    game.stdin.write("escape\ndown\nreturn\n")
                break
        with contextlib.suppress(BrokenPipeError):
            game.stdin.close()
        while line is not None and (line := lines.get(timeout=30)) is not None:
            seen.append(line)
        returncode = game.wait(timeout=30)
    finally:
        if game.poll() is None:
            game.kill()
            game.wait()
        for reader in readers:
            reader.join(timeout=5)
        game.stdout.close()
        game.stderr.close()
    stderr = "".join(errors)
    assert returncode == 0, stderr
    said = spoken("".join(seen))
    expected = manifest_size("phondata")
    assert (f"Speech is off: no speech engine could start (eSpeak NG's voice data is damaged: "
            f"phondata is 12 bytes, expected {expected:,}).") in said
    assert any(line.startswith("Main menu:") for line in said)
    assert said[-1] == "Goodbye."


def manifest_size(name: str) -> int:
    found = load_manifest(VERSION)
    assert found is not None
    return found[name].size
