"""Build the page that plays without a server (issue 74): `python3 tasks.py build-web`.

It writes `dist/web/`, a folder any static host (or the table server) can serve:

- the page's own files, as the table server serves them (`sudden_death/web/page/`);
- `pyodide/`: Pyodide's core (the WebAssembly CPython and its standard library), taken from
  the npm registry's tarball of the pinned version, its sha512 checked against the one pinned
  here before a byte of it is used (build/web-cache/ keeps the tarball, checked again each
  build); nothing is fetched from a CDN, at build time or at play time;
- `game.zip`: the game's pure-Python parts (the rules engine, the table against the computer,
  the seat's view, the narrator's words, the languages' catalogs) as one archive, written the
  same way every time (sorted, fixed dates), so the same sources make the same bytes;
- the words the table server would make for the page, in each language, as files
  (`words/es.json`, `explorer/es.json`), and the desktop game's cues (`sounds/`), with the
  licences of what the build holds (`LICENSE.txt`, `sounds/LICENSES.md`, `sounds/GPL-2.txt`);
- `index.html` with the manifest and the service worker's registration (`kept_page`), and
  `sw.js` with the build's version written in (a hash of its contents), so a browser that
  kept one build installs the next and drops the old (page/sw.js says how it keeps them),
  and device.js (page.js then offers the game on the device);
- `contents.json`: every file with its size and sha256, what an offline copy must hold.

Why Pyodide from npm: it is the package the Pyodide project publishes for bundling, with a
registry checksum, and holds exactly its core (9.6 MB of WebAssembly, a 2.5 MB standard
library) and none of the compiled packages the server's wire uses (msgspec): the page's game
needs only the engine and the words, which are pure Python and run in it unchanged.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import io
import json
import os
import shutil
import sys
import tarfile
import urllib.request
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sudden_death"
DIST = ROOT / "dist" / "web"
CACHE = ROOT / "build" / "web-cache"

PYODIDE_VERSION = "314.0.7"
PYODIDE_TARBALL = f"https://registry.npmjs.org/pyodide/-/pyodide-{PYODIDE_VERSION}.tgz"
# The registry's `dist.integrity` for that tarball (`npm view pyodide@314.0.7 dist`).
PYODIDE_SHA512 = ("0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5"
                  "JEsOlD2R1A==")
# What the page needs of the package: the loader, the runtime and the standard library.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json", "package.json")
DOWNLOAD_TIMEOUT_S = 120

# The game's pure-Python parts, relative to the package: what the page's game imports as it
# runs (the rules, the table against the computer, the seat's view and the narrator's words),
# and nothing that needs pygame, an audio device, a socket or a compiled package
# (tests/test_web_build.py checks both ways).
WORDS = ("cards", "kicks", "line", "narration", "numbers", "phrases", "picking", "plays",
         "seats", "situation", "variety", "verbosity")
GAME_PARTS = ("__init__.py", "language.py", "resources.py", "engine", "locale",
              "audio/__init__.py", "audio/protocols.py", "storage/__init__.py",
              "storage/presets.py", "ui/__init__.py", "ui/words/__init__.py",
              *(f"ui/words/{name}.py" for name in WORDS), "web/__init__.py",
              "web/offline.py", "web/offline_table.py", "web/seat_view.py")
ZIP_DATE = (2026, 1, 1, 0, 0, 0)  # every entry's date: the same sources make the same bytes


class BuildError(Exception):
    """What stops a build, said in words (a tarball that does not match, a missing file)."""


def integrity_of(data: bytes) -> str:
    """The registry's form of a checksum: base64 of the sha512."""
    return base64.b64encode(hashlib.sha512(data).digest()).decode()


def pyodide_tarball(cache: Path = CACHE, url: str = PYODIDE_TARBALL,
                    expected: str = PYODIDE_SHA512) -> bytes:
    """The pinned Pyodide tarball, from the cache or the registry, checked either way: a
    cached copy that does not match is fetched again, a fetched one that does not match is
    refused (and not kept)."""
    cached = cache / Path(url).name
    if cached.is_file():
        data = cached.read_bytes()
        if integrity_of(data) == expected:
            return data
    try:
        with urllib.request.urlopen(url, timeout=DOWNLOAD_TIMEOUT_S) as answer:
            data = answer.read()
    except OSError as error:
        raise BuildError(f"Pyodide {PYODIDE_VERSION} could not be fetched from {url}: "
                         f"{error}") from error
    if integrity_of(data) != expected:
        raise BuildError(f"the tarball from {url} does not match the pinned sha512: "
                         "refused, nothing written")
    cache.mkdir(parents=True, exist_ok=True)
    partial = cached.with_name(f"{cached.name}.{os.getpid()}.part")
    partial.write_bytes(data)
    partial.replace(cached)  # whole or not at all, if two builds fetch at once
    return data


def pyodide_files(tarball: bytes) -> Iterator[tuple[str, bytes]]:
    """(name, bytes) of each file of PYODIDE_FILES in the npm tarball (under `package/`)."""
    wanted = {f"package/{name}": name for name in PYODIDE_FILES}
    found: dict[str, bytes] = {}
    with tarfile.open(fileobj=io.BytesIO(tarball), mode="r:gz") as archive:
        for member in archive.getmembers():
            if member.name in wanted and member.isfile():
                extracted = archive.extractfile(member)
                if extracted is not None:
                    found[wanted[member.name]] = extracted.read()
    missing = sorted(set(PYODIDE_FILES) - set(found))
    if missing:
        raise BuildError(f"the Pyodide tarball lacks {', '.join(missing)}")
    yield from sorted(found.items())


def game_sources(package: Path = PACKAGE, parts: Iterable[str] = GAME_PARTS
                 ) -> Iterator[tuple[str, Path]]:
    """(name in the archive, file) of every file of the game's pure-Python parts: sources
    and catalogs, never caches."""
    for part in parts:
        path = package / part
        files = [path] if path.is_file() else sorted(path.rglob("*"))
        for file in files:
            if file.is_file() and "__pycache__" not in file.parts and file.suffix != ".pyc":
                yield f"{package.name}/{file.relative_to(package).as_posix()}", file


def game_archive(package: Path = PACKAGE, parts: Iterable[str] = GAME_PARTS) -> bytes:
    """The game's parts as one zip, the same bytes for the same sources."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, file in sorted(game_sources(package, parts)):
            entry = zipfile.ZipInfo(name, ZIP_DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            entry.external_attr = 0o644 << 16
            archive.writestr(entry, file.read_bytes())
    return out.getvalue()


def page_files(package: Path = PACKAGE) -> Iterator[tuple[str, bytes]]:
    """The page's own files, as the table server serves them."""
    page = package / "web" / "page"
    for file in sorted(page.rglob("*")):
        if file.is_file():
            yield file.relative_to(page).as_posix(), file.read_bytes()


def word_files() -> Iterator[tuple[str, bytes]]:
    """The page's words and the explorer's, in each language the game has, as the table
    server makes them (web/site.py, web/explorer_words.py), and the cue files it serves."""
    from sudden_death.language import available
    from sudden_death.resources import sounds_dir
    from sudden_death.web.explorer_words import explorer_json
    from sudden_death.web.site import page_words

    for code in available():
        yield f"words/{code}.json", page_words(code)
        yield f"explorer/{code}.json", explorer_json(code)
    for cue in sorted(sounds_dir().glob("*.wav")):
        yield f"sounds/{cue.name}", cue.read_bytes()


def notice_files(root: Path = ROOT) -> Iterator[tuple[str, bytes]]:
    """The licences that go with what the build holds: the game's (MIT), and the cues' own
    list with the GPL's text, which some recorded cues are under. Pyodide's (MPL-2.0) is
    named in its own pyodide/package.json."""
    from sudden_death.resources import sounds_dir

    yield "LICENSE.txt", (root / "LICENSE").read_bytes()
    for name in ("LICENSES.md", "GPL-2.txt"):
        yield f"sounds/{name}", (sounds_dir() / name).read_bytes()


KEEPING = ('<link rel="manifest" href="manifest.webmanifest">\n'
           '<link rel="apple-touch-icon" href="icon-180.png">\n'
           '<meta name="theme-color" content="#00307a">\n'
           '<script src="install.js" defer></script>\n'
           '<script src="device.js" defer></script>\n')


def kept_page(index: bytes) -> bytes:
    """The page's index.html as a build serves it: installable and kept on the device (the
    manifest, and install.js registering sw.js), and playing there (device.js: its line to
    the runtime's worker, and page.js then offers the game on the device, issue 74). The
    table server's own page goes without:
    with no runtime beside it, a page kept offline could play nothing, and each file costs
    its line (a page load stays five requests)."""
    if b"</head>" not in index:
        raise BuildError("index.html has no </head> to put the keeping before")
    return index.replace(b"</head>", KEEPING.encode() + b"</head>", 1)


ICON_SIZES = (180, 192, 512)  # an iPhone's home screen; Android's home screen and splash
THEME = (0x00, 0x30, 0x7A)  # the page's own blue (page.css), the icon's whole square
BALL = (0x6B, 0x3A, 0x12)  # as in icon.svg


def icon_png(size: int) -> bytes:
    """The page's icon (icon.svg's ball and laces) as a `size`-pixel PNG on the theme's blue,
    drawn with pygame (the game's own dependency, no display needed): an iPhone takes no SVG
    for its home screen, and Android's launchers want PNGs of these sizes. The ball keeps
    within the middle 80%, so a launcher that rounds or circles the square cuts none of it."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    square = pygame.Surface((size, size))
    square.fill(THEME)
    width, height = round(size * 0.7), round(size * 0.42)
    ball = pygame.Surface((width, height), pygame.SRCALPHA)
    pygame.draw.ellipse(ball, BALL, ball.get_rect())
    lace = max(2, size // 48)
    white = (0xFF, 0xFF, 0xFF)
    pygame.draw.line(ball, white, (width * 0.3, height / 2), (width * 0.7, height / 2), lace)
    for across in (0.4, 0.5, 0.6):
        pygame.draw.line(ball, white, (width * across, height * 0.36),
                         (width * across, height * 0.64), lace)
    turned = pygame.transform.rotate(ball, 35)
    square.blit(turned, turned.get_rect(center=(size // 2, size // 2)))
    out = io.BytesIO()
    pygame.image.save(square, out, "icon.png")
    return out.getvalue()


def kept_manifest(manifest: bytes) -> bytes:
    """page/manifest.webmanifest with the PNG icons beside its SVG one."""
    found = json.loads(manifest)
    found["icons"] = [*found.get("icons", []),
                      *({"src": f"icon-{size}.png", "sizes": f"{size}x{size}",
                         "type": "image/png", "purpose": "any maskable"}
                        for size in ICON_SIZES if size != 180)]
    return (json.dumps(found, indent=2, ensure_ascii=False) + "\n").encode()


def versioned_worker(template: bytes, contents: bytes) -> bytes:
    """page/sw.js with the build's version (from its contents) in place of "dev"."""
    marker = b'const VERSION = "dev";'
    if marker not in template:
        raise BuildError("sw.js no longer says where its version goes")
    version = hashlib.sha256(contents).hexdigest()[:16]
    return template.replace(marker, f'const VERSION = "{version}";'.encode())


def build(out: Path = DIST, cache: Path = CACHE) -> dict[str, dict[str, object]]:
    """Write the web build into `out` (emptied first) and return its manifest (sw.js and
    contents.json are not in it: the one holds the list, the other is never kept)."""
    files: dict[str, bytes] = dict(page_files())
    worker = files.pop("sw.js")
    files["index.html"] = kept_page(files["index.html"])
    files["manifest.webmanifest"] = kept_manifest(files["manifest.webmanifest"])
    files.update((f"icon-{size}.png", icon_png(size)) for size in ICON_SIZES)
    files.update((f"pyodide/{name}", data) for name, data in pyodide_files(pyodide_tarball(cache)))
    files["game.zip"] = game_archive()
    files.update(word_files())
    files.update(notice_files())
    manifest = {name: {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
                for name, data in sorted(files.items())}
    files["contents.json"] = (json.dumps({"pyodide": PYODIDE_VERSION, "files": manifest},
                                         indent=1, sort_keys=True) + "\n").encode()
    files["sw.js"] = versioned_worker(worker, files["contents.json"])
    if out.exists():
        shutil.rmtree(out)
    for name, data in files.items():
        target = out / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DIST, help="the folder to write")
    options = parser.parse_args(argv)
    try:
        manifest = build(options.out)
    except BuildError as error:
        print(f"build-web: {error}", file=sys.stderr)
        return 1
    total = sum(int(str(entry["bytes"])) for entry in manifest.values())
    print(f"build-web: {len(manifest)} files, {total / 1e6:.1f} MB, in {options.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
