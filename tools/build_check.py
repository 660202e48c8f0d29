"""Build the packaged game from a clean copy of the source and play a whole game with it.

Why: the executable is what players without a terminal get, so CI must prove that it builds on a
clean checkout, plays a scripted game to `Final score` headless and offline, speaks through the
eSpeak NG bundled inside it (not a system copy), and writes nothing into its own folder.

    .venv/bin/python tools/build_check.py [--source DIR] [--git-clone] [--seed N] [--keep]

Steps: copy the files a commit would hold (git's tracked + untracked-but-not-ignored files, so no
.venv/, build/ or dist/ leftovers) or, with --git-clone, clone the committed HEAD, into a temporary
folder; run PyInstaller on its build.spec there; start the executable with `--headless --seed N
--keys - --transcript FILE` and SUDDEN_DEATH_DIAGNOSTICS=FILE (see docs/packaging.md), inside a
network namespace with no network when `unshare -n` works (Linux, as root); wait until speech has
really started playing, then send the key lines of a whole game (tests/game_script.py) and
close its input. Exits 0 with a summary, or 1 with the reason of the first failed check.
"""

from __future__ import annotations

import argparse
import gettext
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAME = "sudden-death"
SPEECH_START_TIMEOUT_S = 60.0
GAME_TIMEOUT_S = 180.0
BUILD_TIMEOUT_S = 900.0


class CheckFailed(Exception):
    """One check of the packaged app failed; the message says which and why."""


@dataclass
class Build:
    """A finished PyInstaller build."""

    dist: Path  # the onedir folder a player would download
    executable: Path
    seconds: float


def clean_copy(source: Path, dest: Path, git_clone: bool = False) -> Path:
    """Copy what a fresh clone of `source` would hold into `dest`; returns `dest`."""
    if git_clone:
        subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", str(source), str(dest)],
                       check=True)
        return dest
    try:
        listed = subprocess.run(
            ["git", "-C", str(source), "ls-files", "-z", "--cached", "--others",
             "--exclude-standard"],
            check=True, capture_output=True,
        ).stdout.decode("utf-8").split("\0")
    except (OSError, subprocess.CalledProcessError):
        ignore = shutil.ignore_patterns(".git", ".venv", "build", "dist", "__pycache__",
                                       "*.egg-info", ".pytest_cache", ".ruff_cache")
        shutil.copytree(source, dest, ignore=ignore)
        return dest
    for name in filter(None, listed):
        origin = source / name
        if origin.is_file():  # a tracked file deleted in the work tree is not copied
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(origin, target)
    return dest


def build(source: Path, out: Path, onefile: bool = False) -> Build:
    """Run PyInstaller on `source`/build.spec, with its work and dist folders under `out`."""
    if importlib.util.find_spec("PyInstaller") is None:
        raise CheckFailed("PyInstaller is not installed: run `python3 tasks.py build` once "
                          "(it installs the project's build extra into .venv)")
    env = dict(os.environ)
    env.pop("SUDDEN_DEATH_ONEFILE", None)
    if onefile:
        env["SUDDEN_DEATH_ONEFILE"] = "1"
    command = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--log-level",
               "WARN", "--distpath", str(out / "dist"), "--workpath", str(out / "build"),
               str(source / "build.spec")]
    started = time.perf_counter()
    result = subprocess.run(command, cwd=source, env=env, capture_output=True, text=True,
                            timeout=BUILD_TIMEOUT_S)
    seconds = time.perf_counter() - started
    if result.returncode != 0:
        raise CheckFailed(f"PyInstaller failed (exit {result.returncode}):\n"
                          f"{result.stderr[-3000:]}")
    suffix = ".exe" if os.name == "nt" else ""
    if onefile:
        executable = out / "dist" / (NAME + "-onefile" + suffix)
        return Build(executable, executable, seconds)
    dist = out / "dist" / NAME
    return Build(dist, dist / (NAME + suffix), seconds)


def folder_size(path: Path) -> int:
    """Bytes in all files under `path` (or of `path` itself, for the one-file build)."""
    if path.is_file():
        return path.stat().st_size
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())


def snapshot(path: Path) -> dict[str, tuple[int, int]]:
    """Every file under `path` with its size and modification time, to detect any write."""
    if path.is_file():
        stat = path.stat()
        return {path.name: (stat.st_size, stat.st_mtime_ns)}
    found: dict[str, tuple[int, int]] = {}
    for item in sorted(path.rglob("*")):
        stat = item.lstat()
        found[str(item.relative_to(path))] = (stat.st_size, stat.st_mtime_ns)
    return found


def no_network_prefix() -> list[str]:
    """`unshare -n` (a new network namespace with no interfaces up) when it works, else []."""
    if not sys.platform.startswith("linux") or shutil.which("unshare") is None:
        return []
    try:
        probe = subprocess.run(["unshare", "-n", "true"], capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return ["unshare", "-n"] if probe.returncode == 0 else []


def game_keys(source: Path, seed: int) -> list[str]:
    """Key lines for a whole game, planned from the source being checked."""
    paths = [str(source), str(source / "tests")]
    sys.path[:0] = paths
    try:
        from game_script import plan_game
    finally:
        for path in paths:
            sys.path.remove(path)
    return plan_game(seed)[0]


def _read_json(path: Path) -> dict[str, object] | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _inside(path: object, folder: Path) -> bool:
    if not isinstance(path, str) or not path:
        return False
    return Path(path).resolve().is_relative_to(folder.resolve())


def wait_for_first_speech(proc: subprocess.Popen[bytes], diagnostics: Path, timeout: float,
                          output: Callable[[], str] = lambda: "") -> None:
    """Return once the game's diagnostics say speech started playing; CheckFailed if the game
    exits first or `timeout` passes (with the diagnostics and, when given, its stderr)."""
    deadline = time.monotonic() + timeout
    while True:
        facts = _read_json(diagnostics) or {}
        if facts.get("first_playback_unix") is not None:
            return
        exited = proc.poll() is not None
        if exited or time.monotonic() > deadline:
            stderr = output()
            shown = f"diagnostics: {facts or None}" + (f"; stderr:\n{stderr}" if stderr else "")
            if exited:
                raise CheckFailed(f"the game exited before any speech played "
                                  f"(exit {proc.returncode}); {shown}")
            raise CheckFailed(f"no speech played within {timeout:.0f} s; {shown}")
        time.sleep(0.02)


def play_whole_game(executable: Path, dist: Path, keys: list[str], seed: int, work: Path,
                    isolate: list[str]) -> dict[str, object]:
    """Run the packaged game through a scripted game and check everything; returns facts."""
    run = work / "run"
    logs = work / "logs"
    run.mkdir()
    logs.mkdir()
    diagnostics = logs / "diagnostics.json"
    transcript = run / "transcript.jsonl"
    env = dict(os.environ, SUDDEN_DEATH_DIAGNOSTICS=str(diagnostics),
               XDG_CONFIG_HOME=str(work / "config"), PYGAME_HIDE_SUPPORT_PROMPT="1")
    env.pop("ESPEAK_DATA_PATH", None)  # the app must find the bundled data by itself
    before = snapshot(dist)
    command = [*isolate, str(executable), "--headless", "--seed", str(seed), "--keys", "-",
               "--transcript", str(transcript)]
    started = time.perf_counter()
    with open(logs / "stdout.txt", "wb") as out, open(logs / "stderr.txt", "wb") as err:
        proc = subprocess.Popen(command, cwd=run, env=env, stdin=subprocess.PIPE, stdout=out,
                                stderr=err)
        try:
            # Speech must really play before the keys race through the game and cut it.
            wait_for_first_speech(proc, diagnostics, SPEECH_START_TIMEOUT_S)
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
    seconds = time.perf_counter() - started
    stderr = (logs / "stderr.txt").read_text(encoding="utf-8", errors="replace")
    lines = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
    speech = [line.get("text", "") for line in lines if line.get("kind") == "speech"]
    check_played("the app", code, stderr, speech)
    facts = _read_json(diagnostics) or {}
    check_built_folder(facts, dist, before, run, transcript)
    if sys.platform.startswith("linux"):
        mapped = facts.get("mapped_espeak_libraries")
        if not isinstance(mapped, list) or not mapped:
            raise CheckFailed(f"no eSpeak NG library was loaded: {facts}")
        outside = [path for path in mapped if not _inside(path, dist)]
        if outside:
            raise CheckFailed(f"an eSpeak NG library outside the bundle was loaded: {outside}")
    return {**facts, "speech_lines": len(speech), "game_seconds": round(seconds, 2),
            "first_words": speech[0]}


def check_played(who: str, code: int | None, stderr: str, speech: list[str]) -> None:
    """A scripted game that ended well: exit 0, no traceback, and the final score heard."""
    if code != 0:
        raise CheckFailed(f"{who} exited with {code}:\n{stderr[-3000:]}")
    if "Traceback" in stderr:
        raise CheckFailed(f"{who} printed a traceback:\n{stderr[-3000:]}")
    if not any("Final score" in text for text in speech):
        raise CheckFailed(f"{who}'s transcript never reached 'Final score' ({len(speech)} "
                          f"speech lines; last: {speech[-3:]})")


def check_built_folder(facts: dict[str, object], folder: Path,
                       before: dict[str, tuple[int, int]], run: Path, transcript: Path,
                       sound: bool = True,
                       inside: Callable[[object, Path], bool] | None = None) -> None:
    """What a built game (Linux or Windows) must show after a scripted game: final diagnostics
    from the frozen app; with sound, speech synthesized by the eSpeak NG library and data in
    its own folder (`inside` says whether a path the game reported lies in it); nothing written
    into that folder, and nothing but the transcript into the working folder."""
    within = inside or _inside
    if not facts.get("closed") or not facts.get("frozen"):
        raise CheckFailed(f"no final diagnostics from the frozen game: {facts}")
    if sound:
        synthesized = facts.get("utterances_synthesized")
        if not isinstance(synthesized, int) or synthesized <= 0:
            raise CheckFailed(f"no speech was synthesized: {facts}")
        for key in ("espeak_library", "espeak_data"):
            if not within(facts.get(key), folder):
                raise CheckFailed(f"{key} is not inside the built folder: {facts.get(key)}")
    after = snapshot(folder)
    if after != before:
        changed = sorted(set(after.items()) ^ set(before.items()))
        raise CheckFailed(f"the game wrote into its own folder: {changed[:10]}")
    extra = sorted(p.name for p in run.iterdir() if p != transcript)
    if extra:
        raise CheckFailed(f"the game wrote into its working folder: {extra}")


def translated(source: Path, code: str, english: str) -> str:
    """`english` as the source's compiled catalog for `code` has it: what the built game must
    say with `--lang code`."""
    mo = source / "sudden_death" / "locale" / code / "LC_MESSAGES" / "sudden_death.mo"
    with mo.open("rb") as handle:
        return gettext.GNUTranslations(handle).gettext(english)


def check_first_words(speech: list[str], expected: str, english: str, code: str) -> None:
    """The built game's first words with `--lang code` are the catalog's, not English: the
    compiled catalogs were bundled and found."""
    if expected == english:
        raise CheckFailed(f"the {code} catalog does not translate the welcome {english!r}")
    if not speech or speech[0] != expected:
        raise CheckFailed(f"with --lang {code} the game first said {speech[:1]}, "
                          f"not {expected!r}")


def play_in_language(executable: Path, work: Path, isolate: list[str], code: str) -> list[str]:
    """Start the built game silent in `code` with no keys; returns what it said."""
    run = work / f"run-{code}"
    run.mkdir()
    transcript = run / "transcript.jsonl"
    env = dict(os.environ, XDG_CONFIG_HOME=str(work / f"config-{code}"),
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    result = subprocess.run(
        [*isolate, str(executable), "--headless", "--no-sound", "--lang", code, "--keys", "-",
         "--transcript", str(transcript)],
        cwd=run, env=env, input=b"", capture_output=True, timeout=GAME_TIMEOUT_S)
    if result.returncode != 0:
        raise CheckFailed(f"the game with --lang {code} exited with {result.returncode}:\n"
                          f"{result.stderr.decode('utf-8', 'replace')[-3000:]}")
    lines = [json.loads(line) for line in transcript.read_text(encoding="utf-8").splitlines()]
    return [line.get("text", "") for line in lines if line.get("kind") == "speech"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=ROOT, help="checkout to build (default: "
                        "the one holding this script)")
    parser.add_argument("--git-clone", action="store_true",
                        help="git clone the committed HEAD instead of copying the work tree")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args(argv)

    work = Path(tempfile.mkdtemp(prefix="sudden-death-build-check-"))
    try:
        source = clean_copy(args.source.resolve(), work / "src", args.git_clone)
        print(f"build check: building from a clean copy in {source}", flush=True)
        result = build(source, work)
        size = folder_size(result.dist)
        print(f"build check: built {result.executable} in {result.seconds:.1f} s, "
              f"{size / 1e6:.1f} MB", flush=True)
        isolate = no_network_prefix()
        keys = game_keys(source, args.seed)
        facts = play_whole_game(result.executable, result.dist, keys, args.seed, work, isolate)
        english = str(facts["first_words"])
        expected = translated(source, "es", english)
        check_first_words(play_in_language(result.executable, work, isolate, "es"), expected,
                          english, "es")
        network = "no network (unshare -n)" if isolate else "network not isolated"
        print(f"build check: OK: a whole game ({len(keys)} keys, {facts['speech_lines']} speech "
              f"lines) reached 'Final score' in {facts['game_seconds']} s, {network}; "
              f"{facts['utterances_synthesized']} utterances synthesized by "
              f"{facts.get('mapped_espeak_libraries') or 'the platform engine'}; "
              f"the app's folder is unchanged; with --lang es it says {expected[:40]!r}...",
              flush=True)
        return 0
    except CheckFailed as failure:
        print(f"BUILD CHECK FAILED: {failure}", file=sys.stderr)
        if not args.keep:
            print("(rerun with --keep to inspect the build and logs)", file=sys.stderr)
        return 1
    except (OSError, subprocess.SubprocessError) as failure:
        print(f"BUILD CHECK FAILED: {failure}", file=sys.stderr)
        return 1
    finally:
        if args.keep:
            print(f"build check: kept {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)

if __name__ == "__main__":
    sys.exit(main())
