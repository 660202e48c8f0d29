"""tools/web_build.py (`python3 tasks.py build-web`, issue 74): the folder a static host serves
for the page that plays without a server. Pyodide's core only from the pinned tarball whose
sha512 matches, the game's Python as one archive that the same sources make byte for byte,
and nothing in that archive that Pyodide's core cannot run (a compiled package, a device)."""

from __future__ import annotations

import ast
import hashlib
import io
import json
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from test_structure import BROWSER_GAME, reached_when_run, runtime_import_nodes

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import web_build  # noqa: E402

# What the archive's modules may import beyond the game's own: Python's standard library
# (Pyodide's core has it, and nothing else).
STDLIB = set(sys.stdlib_module_names)


def fake_tarball(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as archive:
        for name, data in files.items():
            entry = tarfile.TarInfo(f"package/{name}")
            entry.size = len(data)
            archive.addfile(entry, io.BytesIO(data))
    return out.getvalue()


def test_a_tarball_that_does_not_match_the_pin_is_refused_and_not_kept(tmp_path: Path) -> None:
    good = fake_tarball({name: b"x" for name in web_build.PYODIDE_FILES})
    served = tmp_path / "served" / "pyodide-0.tgz"
    served.parent.mkdir()
    served.write_bytes(good + b"tampered")
    cache = tmp_path / "cache"
    with pytest.raises(web_build.BuildError, match="does not match the pinned sha512"):
        web_build.pyodide_tarball(cache, served.as_uri(), web_build.integrity_of(good))
    assert not cache.exists() or not any(cache.iterdir())
    served.write_bytes(good)
    assert web_build.pyodide_tarball(cache, served.as_uri(),
                                     web_build.integrity_of(good)) == good
    # A cached copy that went bad is fetched again, not used.
    (cache / "pyodide-0.tgz").write_bytes(b"rotten")
    assert web_build.pyodide_tarball(cache, served.as_uri(),
                                     web_build.integrity_of(good)) == good
    assert (cache / "pyodide-0.tgz").read_bytes() == good


def test_a_tarball_without_the_runtime_is_refused() -> None:
    partial = fake_tarball({"pyodide.mjs": b"loader"})
    with pytest.raises(web_build.BuildError, match=r"lacks .*pyodide\.asm\.mjs"):
        list(web_build.pyodide_files(partial))


def test_the_game_archive_is_the_same_bytes_each_time_and_holds_no_caches() -> None:
    first, second = web_build.game_archive(), web_build.game_archive()
    assert first == second
    names = zipfile.ZipFile(io.BytesIO(first)).namelist()
    assert "sudden_death/engine/game.py" in names and "sudden_death/web/offline.py" in names
    assert any(name.endswith("/LC_MESSAGES/sudden_death.mo") for name in names)
    assert not [name for name in names if "__pycache__" in name or name.endswith(".pyc")]


def outside_imports(data: bytes) -> dict[str, set[str]]:
    """Per module of the archive `data`, what it imports as it runs that is neither the
    standard library nor in the archive (an import for mypy alone is never run)."""
    archive = zipfile.ZipFile(io.BytesIO(data))
    outside: dict[str, set[str]] = {}
    modules = {name.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
               for name in archive.namelist() if name.endswith(".py")}
    for name in archive.namelist():
        if not name.endswith(".py"):
            continue
        here = name.removesuffix(".py").replace("/", ".")
        for node in runtime_import_nodes(ast.parse(archive.read(name))):
            if isinstance(node, ast.ImportFrom) and node.level:
                package = here.split(".")[: -node.level]
                target = ".".join([*package, *([node.module] if node.module else [])])
                found = target in modules if node.module else all(
                    f"{target}.{alias.name}" in modules or target in modules
                    for alias in node.names)
                if not found:
                    outside.setdefault(name, set()).add(target)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names = ([alias.name for alias in node.names] if isinstance(node, ast.Import)
                         else [node.module or ""])
                for each in names:
                    if each.split(".")[0] not in STDLIB:
                        outside.setdefault(name, set()).add(each)
    return outside


def test_the_game_archive_imports_only_the_standard_library_and_itself() -> None:
    assert not outside_imports(web_build.game_archive())
    # Not blind: the wire (msgspec) and a module that reaches outside the archive are seen.
    wire = outside_imports(web_build.game_archive(parts=("__init__.py", "wire")))
    assert "msgspec" in wire["sudden_death/wire/protocol.py"]
    assert "sudden_death.engine" in wire["sudden_death/wire/values.py"]


def test_the_game_archive_holds_every_module_the_browser_s_game_runs() -> None:
    names = set(zipfile.ZipFile(io.BytesIO(web_build.game_archive())).namelist())
    needed = {name for name in reached_when_run(BROWSER_GAME) if name.startswith("sudden_death")}
    missing = sorted(name for name in needed
                     if f"{name.replace('.', '/')}.py" not in names
                     and f"{name.replace('.', '/')}/__init__.py" not in names)
    assert missing == []
    assert "sudden_death/web/offline_table.py" in names and len(needed) > 30


@pytest.mark.build
def test_the_build_writes_the_page_pyodide_and_the_game_with_their_checksums(
        tmp_path: Path) -> None:
    out = tmp_path / "web"
    manifest = web_build.build(out)
    contents = json.loads((out / "contents.json").read_text())
    assert contents["pyodide"] == web_build.PYODIDE_VERSION and contents["files"] == manifest
    for name, entry in manifest.items():
        data = (out / name).read_bytes()
        assert len(data) == entry["bytes"] and hashlib.sha256(data).hexdigest() == entry["sha256"]
    for name in ("index.html", "page.js", "device.js", "offline.js", "game.zip",
                 "words/es.json", "explorer/en.json", "sounds/coin.wav", "pyodide/pyodide.mjs",
                 "pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip"):
        assert name in manifest, name
    package = json.loads((out / "pyodide" / "package.json").read_text())
    assert package["version"] == web_build.PYODIDE_VERSION


def test_only_the_build_s_page_loads_the_game_on_the_device() -> None:
    """The build's page loads device.js (page.js then offers Play the computer on this
    device); the page a table server serves, with no runtime beside it, does not."""
    source = (ROOT / "sudden_death" / "web" / "page" / "index.html").read_bytes()
    built = web_build.kept_page(source)
    assert b"device.js" not in source and built.count(b'<script src="device.js" defer>') == 1
    assert built.index(b"device.js") < built.index(b"</head>")
