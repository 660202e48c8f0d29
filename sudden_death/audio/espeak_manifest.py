"""Check eSpeak NG's data folder before the library reads it.

eSpeak NG trusts its data: with an empty folder its library calls C `exit()` (the whole game ends
before a word is shown), and a truncated `phondata`, `phontab`, `phonindex`, `intonations` or voice
file makes it crash. So the folder is compared with espeak_manifest.json, written at build time by
tools/make_espeak_manifest.py from the installed espeakng-loader: for each version, every file
under espeak-ng-data/ with its size and sha256 (the data is byte-identical in the Linux, Windows
and macOS wheels, so one entry covers every platform).

At start-up every file's size is compared (one directory walk), and only the files a damaged copy
of which crashes eSpeak or leaves it unable to speak English are hashed (HASHED): about 1 ms in
all. A version with no entry (a newer espeakng-loader) gets the lenient check: those files exist
and are not empty.

`verify_data(data_path, manifest)` is the whole check, a pure function of its arguments.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..language import _

LOG = logging.getLogger(__name__)

MANIFEST_FILE = Path(__file__).with_name("espeak_manifest.json")
DISTRIBUTION = "espeakng_loader"  # the name in its .dist-info folder

# Hashed at every start, in this order (so the first bad one is named): the phoneme data, tables
# and index and the intonation tunes (damaged, eSpeak exits or crashes), the English dictionary
# and the English voice the game speaks with (an empty voice file crashes it too).
HASHED = ("phondata", "phonindex", "phontab", "intonations", "en_dict", "lang/gmw/en")


@dataclass(frozen=True)
class FileEntry:
    """What a data file must be: its size in bytes and the sha256 of its contents (hex)."""

    size: int
    sha256: str


Manifest = Mapping[str, FileEntry]  # path under espeak-ng-data ("/"-separated) -> entry


def verify_data(data_path: str | os.PathLike[str], manifest: Manifest | None) -> str | None:
    """Why eSpeak NG must not load the data folder `data_path`, or None if it may.

    With a `manifest`, every file it lists must exist with its size, and the HASHED ones must
    have its hash; files it does not list are ignored. Without one, the HASHED files must exist
    and not be empty. The reason is short, for the player, and names the first bad file.
    """
    root = Path(data_path)
    if not root.is_dir():
        # Translators: this and the other reasons here are said inside brackets, as in "Speech
        # is off: no speech engine could start ({reason})."
        return _("eSpeak NG's voice data folder is missing")
    sizes = file_sizes(root)
    if not sizes:
        return _("eSpeak NG's voice data folder is empty")
    if manifest is None:
        for name in HASHED:
            if name not in sizes:
                return _missing(name)
            if sizes[name] == 0:
                # Translators: {file} is the name of a data file, such as "phondata".
                return _("eSpeak NG's voice data is damaged: {file} is empty").format(file=name)
        return None
    order = [*(n for n in HASHED if n in manifest), *sorted(n for n in manifest if n not in HASHED)]
    for name in order:
        expected = manifest[name].size
        if name not in sizes:
            return _missing(name)
        if sizes[name] != expected:
            # Translators: {file} is the name of a data file, such as "phondata"; the sizes
            # are numbers of bytes, written with a comma between thousands: 1,234,567.
            return _("eSpeak NG's voice data is damaged: {file} is {size:,} bytes, "
                     "expected {expected:,}").format(file=name, size=sizes[name],
                                                     expected=expected)
    for name in HASHED:
        if name not in manifest:
            continue
        try:
            digest = sha256_of(root / name)
        except OSError as exc:
            LOG.warning("eSpeak NG's voice data file %s cannot be read: %s", name, exc)
            # Translators: {file} is the name of a data file, such as "phondata".
            return _("eSpeak NG's voice data cannot be read: {file}").format(file=name)
        if digest != manifest[name].sha256:
            # Translators: {file} is the name of a data file, such as "phondata".
            return _("eSpeak NG's voice data is damaged: {file} does not match its "
                     "checksum").format(file=name)
    return None


def _missing(name: str) -> str:
    # Translators: {file} is the name of a data file, such as "phondata".
    return _("eSpeak NG's voice data is incomplete: {file} is missing").format(file=name)


def file_sizes(root: Path) -> dict[str, int]:
    """Every regular file under `root` ("/"-separated relative path -> size). One scandir walk:
    on Windows the sizes come with the listing, with no file opened."""
    sizes: dict[str, int] = {}
    pending = [("", str(root))]
    while pending:
        prefix, folder = pending.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                if entry.is_dir():
                    pending.append((f"{prefix}{entry.name}/", entry.path))
                elif entry.is_file():
                    sizes[prefix + entry.name] = entry.stat().st_size
            except OSError:
                continue  # unreadable: counts as missing
    return sizes


def sha256_of(path: Path) -> str:
    import hashlib  # here, on the speech worker's thread: loading OpenSSL costs about 4 ms

    return hashlib.sha256(path.read_bytes()).hexdigest()


def describe(root: Path) -> dict[str, FileEntry]:
    """Every file under `root` with its size and hash (what the manifest records)."""
    return {
        name: FileEntry(size, sha256_of(root / name))
        for name, size in sorted(file_sizes(root).items())
    }


def load_manifest(version: str | None, path: Path = MANIFEST_FILE) -> dict[str, FileEntry] | None:
    """The files recorded for espeakng-loader `version`; None when there is no entry for it (or
    the manifest file itself is missing or unreadable: then only the lenient check is made)."""
    if version is None:
        return None
    try:
        with open(path, encoding="utf-8") as handle:
            document = json.load(handle)
        files = document["versions"][version]["files"]
        return {name: FileEntry(int(e["size"]), str(e["sha256"])) for name, e in files.items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def installed_version(package_dir: str | os.PathLike[str]) -> str | None:
    """The version of espeakng-loader whose package folder is `package_dir`, from the name of
    its `espeakng_loader-<version>.dist-info` folder beside it (a wheel install, or the frozen
    app's copy of the metadata); None if there is not exactly one. Reading the folder name
    costs a directory listing, where importlib.metadata costs over 20 ms to import."""
    parent = Path(package_dir).parent
    prefix, suffix = f"{DISTRIBUTION}-", ".dist-info"
    try:
        names = [
            entry.name
            for entry in os.scandir(parent)
            if entry.name.startswith(prefix) and entry.name.endswith(suffix)
        ]
    except OSError:
        return None
    if len(names) != 1:
        return None
    return names[0][len(prefix) : -len(suffix)]
