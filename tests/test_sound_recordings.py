"""The cues made from real recordings: the recordings are the ones their licence row names, byte
for byte, the fetch tool takes them out of a Debian package and checks them, and the licence
travels with the sounds."""

from __future__ import annotations

import hashlib
import inspect
import io
import json
import shutil
import tarfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from scripts import load_script

from sudden_death.resources import sounds_dir

ROOT = Path(__file__).resolve().parent.parent


def tool(name: str) -> ModuleType:
    return load_script(f"tools/{name}.py")


@pytest.fixture(scope="module")
def fetch() -> ModuleType:
    return tool("fetch_recordings")


@pytest.fixture(scope="module")
def make() -> ModuleType:
    return tool("make_sounds")


def ar(members: list[tuple[str, bytes]]) -> bytes:
    """An `ar` archive as dpkg writes one (odd-length members padded with a newline)."""
    out = bytearray(b"!<arch>\n")
    for name, body in members:
        header = (f"{name + '/':<16}{0:<12}{0:<6}{0:<6}{100644:<8}{len(body):<10}").encode()
        out += header + b"`\n" + body + (b"\n" if len(body) % 2 else b"")
    return bytes(out)


def tar_xz(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:xz") as tar:
        for path, body in files.items():
            info = tarfile.TarInfo(path)
            info.size = len(body)
            tar.addfile(info, io.BytesIO(body))
    return out.getvalue()


def package(files: dict[str, bytes]) -> bytes:
    """A .deb's layout: the version, the control tar, then the data tar."""
    return ar([("debian-binary", b"2.0\n"), ("control.tar.xz", tar_xz({"./control": b"x"})),
               ("data.tar.xz", tar_xz(files))])


def sources_for(deb: bytes, files: dict[str, bytes]) -> dict[str, dict[str, Any]]:
    return {"game": {
        "package": "a test package", "url": "https://example.invalid/game.deb",
        "sha256": hashlib.sha256(deb).hexdigest(),
        "files": {Path(member).name: {"member": member,
                                      "sha256": hashlib.sha256(body).hexdigest()}
                  for member, body in files.items()}}}


def test_the_committed_recordings_are_the_ones_recorded(fetch: ModuleType) -> None:
    assert fetch.problems() == []
    assert fetch.main(["--check"]) == 0


def test_a_changed_or_missing_recording_is_named(fetch: ModuleType, tmp_path: Path) -> None:
    shutil.copytree(fetch.RECORDINGS, tmp_path / "recordings")
    whistle = tmp_path / "recordings" / "tuxfootball" / "refwhistleshort.wav"
    body = bytearray(whistle.read_bytes())
    body[-1] ^= 1
    whistle.write_bytes(bytes(body))
    (tmp_path / "recordings" / "tuxfootball" / "kick.wav").unlink()
    found = fetch.problems(tmp_path / "recordings")
    assert found == ["tuxfootball/kick.wav is missing",
                     "tuxfootball/refwhistleshort.wav differs from "
                     "Debian's tuxfootball 0.3.1-7 (bookworm, main)"]


def test_fetch_takes_the_files_out_of_a_package(fetch: ModuleType, tmp_path: Path) -> None:
    files = {"./usr/share/games/game/sound/kick.wav": b"RIFF kick, odd length",
             "./usr/share/games/game/sound/whistle.wav": b"RIFF whistle"}
    deb = package({**files, "./usr/share/doc/game/copyright": b"GPL"})
    asked: list[tuple[str, str]] = []

    def get(url: str, sha256: str) -> bytes:
        asked.append((url, sha256))
        return deb

    sources = sources_for(deb, files)
    written = fetch.fetch(tmp_path, sources, get)
    assert asked == [("https://example.invalid/game.deb", sources["game"]["sha256"])]
    assert sorted(path.name for path in written) == ["kick.wav", "whistle.wav"]
    assert (tmp_path / "game" / "kick.wav").read_bytes() == b"RIFF kick, odd length"
    assert fetch.problems(tmp_path, sources) == []


def test_fetch_refuses_a_package_that_is_not_what_was_recorded(fetch: ModuleType,
                                                               tmp_path: Path) -> None:
    files = {"./sound/kick.wav": b"the recorded kick"}
    sources = sources_for(package(files), files)
    other = package({"./sound/kick.wav": b"another kick"})
    with pytest.raises(ValueError, match="is not the one recorded"):
        fetch.fetch(tmp_path, sources, lambda url, sha: other)
    with pytest.raises(ValueError, match="not a file in the package"):
        fetch.fetch(tmp_path, sources, lambda url, sha: package({"./sound/other.wav": b"x"}))
    with pytest.raises(ValueError, match="not an ar archive"):
        fetch.fetch(tmp_path, sources, lambda url, sha: b"<html>moved</html>")
    truncated = package(files)[:-40]
    with pytest.raises(ValueError, match="runs past the archive's end"):
        fetch.fetch(tmp_path, sources, lambda url, sha: truncated)
    assert not (tmp_path / "game").exists()


def test_a_download_that_fails_is_said_in_one_line(fetch: ModuleType,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    def refused(url: str, sha256: str) -> bytes:
        raise OSError("no route to host")

    monkeypatch.setattr(fetch, "download", refused)
    assert fetch.main([]) == 1
    assert capsys.readouterr().err == "could not fetch the recordings: no route to host\n"


def test_a_cue_is_made_only_from_the_recording_it_names(make: ModuleType, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """Each cue that calls recording() is listed in RECORDED with that file (so LICENSES.md
    gives it its licence), and a recording that is not the checked one is refused."""
    calling = {name for name, maker in make.CUES.items()
               if "recording(" in inspect.getsource(maker)}
    assert calling == set(make.RECORDED) == {"whistle", "punt"}
    for name, (package_name, filename) in make.RECORDED.items():
        assert f'recording("{package_name}", "{filename}")' in inspect.getsource(make.CUES[name])
    shutil.copytree(make.RECORDINGS, tmp_path / "recordings")
    kick = tmp_path / "recordings" / "tuxfootball" / "kick.wav"
    kick.write_bytes(kick.read_bytes()[:-2])
    monkeypatch.setattr(make, "RECORDINGS", tmp_path / "recordings")
    with pytest.raises(ValueError, match="not the recorded file"):
        make.render("punt")
    assert make.render("whistle") == (sounds_dir() / "whistle.wav").read_bytes()


def test_the_recorded_cues_carry_their_source_and_licence(make: ModuleType) -> None:
    listed = (sounds_dir() / "LICENSES.md").read_text(encoding="utf-8")
    sources = json.loads((make.RECORDINGS / "sources.json").read_text(encoding="utf-8"))
    rows = {line.split("|")[1].strip(): line for line in listed.splitlines()
            if line.startswith("| `")}
    for name, (package_name, filename) in make.RECORDED.items():
        row = rows[f"`{name}.wav`"]
        assert filename in row and sources[package_name]["licence"] in row, row
        assert sources[package_name]["copyright"] in row
    assert all("GPL" not in row for name, row in rows.items()
               if name.strip("`").removesuffix(".wav") not in make.RECORDED)
    shipped = sounds_dir() / "GPL-2.txt"
    assert shipped.read_bytes() == (make.RECORDINGS / "GPL-2.txt").read_bytes()
    assert b"GNU GENERAL PUBLIC LICENSE\n                       Version 2" in shipped.read_bytes()
