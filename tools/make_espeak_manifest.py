"""Record espeakng-loader's eSpeak NG data in sudden_death/audio/espeak_manifest.json.

The game checks its speech data against this manifest before eSpeak NG loads it
(sudden_death/audio/espeak_manifest.py). Run it after changing the espeakng-loader version:

    python tools/make_espeak_manifest.py                 # add/replace the installed version
    python tools/make_espeak_manifest.py --check         # exit 1 if the entry is missing/stale
    python tools/make_espeak_manifest.py --wheel W.whl   # also compare other platforms' wheels

Entries of other versions are kept. One entry per version covers every platform: the data in the
Linux, Windows and macOS wheels of 0.2.4 is byte-identical. `--wheel` checks that for a new
version (pip download --only-binary=:all: --platform win_amd64 --no-deps espeakng-loader==X);
the script refuses to write an entry if a wheel's data differs.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sudden_death.audio.espeak_manifest import (  # noqa: E402
    MANIFEST_FILE,
    FileEntry,
    describe,
)

ABOUT = (
    "eSpeak NG data (espeak-ng-data/) of each espeakng-loader version: size in bytes and sha256 "
    "of every file. Written by tools/make_espeak_manifest.py; checked at start-up by "
    "sudden_death/audio/espeak_manifest.py before eSpeak NG loads the data."
)


def wheel_data(wheel: Path) -> dict[str, FileEntry]:
    """The espeak-ng-data files inside a wheel, as the manifest records them."""
    found: dict[str, FileEntry] = {}
    with zipfile.ZipFile(wheel) as archive:
        for info in archive.infolist():
            marker = "/espeak-ng-data/"
            if marker not in info.filename or info.is_dir():
                continue
            data = archive.read(info)
            name = info.filename.split(marker, 1)[1]
            found[name] = FileEntry(len(data), hashlib.sha256(data).hexdigest())
    return found


def differences(a: dict[str, FileEntry], b: dict[str, FileEntry]) -> list[str]:
    return sorted(name for name in a.keys() | b.keys() if a.get(name) != b.get(name))


def render(versions: dict[str, dict]) -> str:
    """The JSON text: one line per file, so a new version reads well in a diff."""
    lines = ["{", f"  {json.dumps('about')}: {json.dumps(ABOUT)},", '  "versions": {']
    for v_index, version in enumerate(sorted(versions)):
        entry = versions[version]
        lines.append(f"    {json.dumps(version)}: {{")
        lines.append(f'      "wheels_compared": {json.dumps(entry.get("wheels_compared", []))},')
        lines.append('      "files": {')
        files = entry["files"]
        for f_index, name in enumerate(sorted(files)):
            record = json.dumps({"size": files[name]["size"], "sha256": files[name]["sha256"]})
            comma = "," if f_index < len(files) - 1 else ""
            lines.append(f"        {json.dumps(name)}: {record}{comma}")
        lines.append("      }")
        lines.append("    }" + ("," if v_index < len(versions) - 1 else ""))
    lines += ["  }", "}"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if the manifest's entry differs from the installed data")
    parser.add_argument("--wheel", action="append", default=[], type=Path,
                        help="an espeakng-loader wheel (another platform) whose data must match")
    parser.add_argument("--output", type=Path, default=MANIFEST_FILE)
    args = parser.parse_args(argv)

    import espeakng_loader

    version = importlib.metadata.version("espeakng-loader")
    files = describe(Path(espeakng_loader.get_data_path()))
    compared = []
    for wheel in args.wheel:
        changed = differences(files, wheel_data(wheel))
        if changed:
            print(f"{wheel.name}: {len(changed)} files differ from the installed data, e.g. "
                  f"{', '.join(changed[:5])}; key the manifest by platform too.", file=sys.stderr)
            return 1
        compared.append(wheel.name)
        print(f"{wheel.name}: data identical")

    try:
        versions = json.loads(args.output.read_text(encoding="utf-8"))["versions"]
    except (OSError, ValueError, KeyError):
        versions = {}
    old = versions.get(version, {})
    entry = {
        "wheels_compared": sorted({*old.get("wheels_compared", []), *compared}),
        "files": {name: {"size": e.size, "sha256": e.sha256} for name, e in files.items()},
    }
    if args.check:
        if old.get("files") != entry["files"]:
            print(f"{args.output}: the entry for espeakng-loader {version} is missing or stale",
                  file=sys.stderr)
            return 1
        print(f"{args.output}: espeakng-loader {version} OK ({len(files)} files)")
        return 0
    versions[version] = entry
    args.output.write_text(render(versions), encoding="utf-8")
    print(f"{args.output}: espeakng-loader {version}, {len(files)} files, "
          f"{sum(e.size for e in files.values()):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
