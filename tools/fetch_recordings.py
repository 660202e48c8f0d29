"""Fetch the recordings some cues are made from into tools/recordings/, from Debian's archive.

A real referee's whistle and a real kick serve better than synthesis, and the only freely
licensed ones these machines reach are in Debian's packages of other free games. Their files are
committed beside this tool (so `tools/make_sounds.py` needs no network), and this tool says where
each came from and gets it again, checked byte for byte:

    python tools/fetch_recordings.py           # downloads each package, writes the recordings
    python tools/fetch_recordings.py --check   # offline: exits 1 if a committed file differs

`recordings/sources.json` holds, per package, its address, checksum, copyright and licence, and
the files taken from it with their own checksums. A package is read with the standard library
alone (a .deb is an `ar` archive holding a compressed tar), so this runs on any system.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import sys
import tarfile
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
RECORDINGS = HERE / "recordings"
SOURCES = RECORDINGS / "sources.json"
TIMEOUT_S = 60.0
AR_MAGIC = b"!<arch>\n"
AR_HEADER = 60


def load_sources(path: Path = SOURCES) -> dict[str, dict[str, Any]]:
    """The packages and the files taken from each, by the package's folder name."""
    sources: dict[str, dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return sources


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def ar_members(archive: bytes) -> dict[str, bytes]:
    """The members of an `ar` archive (the outer layer of a .deb), by name."""
    if not archive.startswith(AR_MAGIC):
        raise ValueError("not an ar archive (a .deb starts with '!<arch>')")
    members: dict[str, bytes] = {}
    at = len(AR_MAGIC)
    while at + AR_HEADER <= len(archive):
        header = archive[at : at + AR_HEADER]
        if header[58:60] != b"`\n":
            raise ValueError(f"a damaged ar header at byte {at}")
        name = header[:16].decode("ascii").strip().rstrip("/")
        size = int(header[48:58].decode("ascii").strip())
        start = at + AR_HEADER
        if start + size > len(archive):
            raise ValueError(f"the ar member {name!r} runs past the archive's end")
        members[name] = archive[start : start + size]
        at = start + size + (size % 2)  # members are padded to an even length
    return members


def deb_files(deb: bytes, wanted: list[str]) -> dict[str, bytes]:
    """The files at `wanted` (paths as the package's data tar names them) inside a .deb."""
    data = [body for name, body in ar_members(deb).items() if name.startswith("data.tar")]
    if not data:
        raise ValueError("the package has no data.tar member")
    found: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(data[0]), mode="r:*") as tar:
        for member in wanted:
            try:
                handle = tar.extractfile(member)
            except KeyError:
                handle = None
            if handle is None:
                raise ValueError(f"{member} is not a file in the package")
            found[member] = handle.read()
    return found


def download(url: str, expected_sha256: str) -> bytes:
    """One package, whole, checked against the archive's checksum."""
    with urllib.request.urlopen(url, timeout=TIMEOUT_S) as response:
        body: bytes = response.read()
    if sha256(body) != expected_sha256:
        raise ValueError(f"{url} does not match its checksum; the archive may have moved on")
    return body


def problems(folder: Path = RECORDINGS,
             sources: dict[str, dict[str, Any]] | None = None) -> list[str]:
    """What is missing or changed among the committed recordings (empty when all is well)."""
    found = []
    for package, source in (sources if sources is not None else load_sources()).items():
        for filename, entry in source["files"].items():
            path = folder / package / filename
            if not path.exists():
                found.append(f"{package}/{filename} is missing")
            elif sha256(path.read_bytes()) != entry["sha256"]:
                found.append(f"{package}/{filename} differs from {source['package']}")
    return found


def fetch(folder: Path = RECORDINGS, sources: dict[str, dict[str, Any]] | None = None,
          get: Callable[[str, str], bytes] | None = None) -> list[Path]:
    """Download each package (with `get`, `download` unless a test gives another) and write the
    files taken from it; every byte is checked."""
    written = []
    for package, source in (sources if sources is not None else load_sources()).items():
        deb = (get or download)(source["url"], source["sha256"])
        files = source["files"]
        taken = deb_files(deb, [entry["member"] for entry in files.values()])
        for filename, entry in files.items():
            body = taken[entry["member"]]
            if sha256(body) != entry["sha256"]:
                raise ValueError(f"{entry['member']} in {source['package']} is not the one "
                                 "recorded in sources.json")
            path = folder / package / filename
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(body)
            written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="check the committed files against their checksums; no network")
    args = parser.parse_args(argv)
    if args.check:
        found = problems()
        for line in found:
            print(line, file=sys.stderr)
        return 1 if found else 0
    try:
        for path in fetch():
            print(f"{path.relative_to(HERE.parent)}: {path.stat().st_size} bytes")
    except (OSError, ValueError) as failure:
        print(f"could not fetch the recordings: {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
