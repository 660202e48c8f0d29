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
close its input. Then a table game (network play): the executable runs the table server
(`--serve --port 0`), and two more of its processes host and join a table there and play a
whole game, each answering its turns live (tests/table_driver.py); both must hear the same
final score, and the server must stop with exit 0 on SIGTERM. When `unshare -n` works, these
three run in one new network namespace with its loopback brought up (a bare `unshare -n`
has it down, and a table could not be reached at all), so the table game is proved to need
nothing but 127.0.0.1. Exits 0 with a summary, or 1 with the reason of the first failed check.
"""

from __future__ import annotations

import argparse
import contextlib
import gettext
import importlib
import importlib.util
import json
import os
import queue
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
NAME = "sudden-death"
SPEECH_START_TIMEOUT_S = 60.0
GAME_TIMEOUT_S = 180.0
BUILD_TIMEOUT_S = 900.0
SERVER_START_TIMEOUT_S = 60.0
# The table server's --seed: its first table's dice come from it. With the driver's strategy
# this one ends 7-0 (the Hawks, who host, score), so the two score lines agreeing means more
# than two ties at 0-0 would.
TABLE_SEED = 4
# unshare -n leaves the new namespace's loopback down; this brings it up and then runs the
# command, so a table game proves it needs nothing but 127.0.0.1.
LOOPBACK_UP = 'ip link set lo up && exec "$@"'


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


def from_tests(source: Path, name: str) -> ModuleType:
    """A helper module of the source's tests/ (game_script, table_driver), imported from the
    source being checked so its strategy matches that source's screens."""
    paths = [str(source), str(source / "tests")]
    sys.path[:0] = paths
    try:
        return importlib.import_module(name)
    finally:
        for path in paths:
            sys.path.remove(path)


def game_keys(source: Path, seed: int) -> list[str]:
    """Key lines for a whole game, planned from the source being checked."""
    keys: list[str] = from_tests(source, "game_script").plan_game(seed)[0]
    return keys


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
               XDG_CONFIG_HOME=str(work / "config"), XDG_DATA_HOME=str(work / "data"),
               XDG_STATE_HOME=str(work / "state"), PYGAME_HIDE_SUPPORT_PROMPT="1")
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
    games = check_record(work / "data" / "sudden-death" / "record.sqlite3")
    log = work / "state" / "sudden-death" / "log" / "sudden-death.log"
    if not log.is_file() or "started (the built game" not in log.read_text(encoding="utf-8"):
        raise CheckFailed(f"the built game wrote no log in its log folder ({log})")
    if sys.platform.startswith("linux"):
        mapped = facts.get("mapped_espeak_libraries")
        if not isinstance(mapped, list) or not mapped:
            raise CheckFailed(f"no eSpeak NG library was loaded: {facts}")
        outside = [path for path in mapped if not _inside(path, dist)]
        if outside:
            raise CheckFailed(f"an eSpeak NG library outside the bundle was loaded: {outside}")
    return {**facts, "speech_lines": len(speech), "game_seconds": round(seconds, 2),
            "first_words": speech[0], "record_games": games}


def check_record(path: Path) -> int:
    """The built game kept its finished game in the record, a real SQLite file in the data
    folder (so the frozen app carries sqlite3); returns how many games it holds."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            games = int(db.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.Error as error:
        raise CheckFailed(f"the finished game was not kept in the record {path}: {error}") \
            from None
    if games != 1:
        raise CheckFailed(f"the record {path} holds {games} games, not the one played")
    return games


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
    its own folder (`inside` says whether a path the game reported lies in it) and no notice
    (a cue missing from the bundle would be one); nothing written into that folder, and nothing
    but the transcript into the working folder."""
    within = inside or _inside
    licence = folder / "LICENSE.txt"
    if not licence.is_file() or "MIT License" not in licence.read_text(encoding="utf-8"):
        raise CheckFailed(f"the game's MIT licence is not in the built folder: {licence}")
    if not facts.get("closed") or not facts.get("frozen"):
        raise CheckFailed(f"no final diagnostics from the frozen game: {facts}")
    if sound:
        synthesized = facts.get("utterances_synthesized")
        if not isinstance(synthesized, int) or synthesized <= 0:
            raise CheckFailed(f"no speech was synthesized: {facts}")
        for key in ("espeak_library", "espeak_data"):
            if not within(facts.get(key), folder):
                raise CheckFailed(f"{key} is not inside the built folder: {facts.get(key)}")
        if facts.get("notices"):
            raise CheckFailed(f"the built game gave notices: {facts.get('notices')}")
    after = snapshot(folder)
    if after != before:
        changed = sorted(set(after.items()) ^ set(before.items()))
        raise CheckFailed(f"the game wrote into its own folder: {changed[:10]}")
    extra = sorted(p.name for p in run.iterdir() if p != transcript)
    if extra:
        raise CheckFailed(f"the game wrote into its working folder: {extra}")


def check_left_alone(folder: Path, before: dict[str, tuple[int, int]], run: Path,
                     who: str) -> None:
    """`who`, just played, changed nothing in the built `folder` (`before` is its snapshot)
    and left nothing in its working folder `run`."""
    if snapshot(folder) != before:
        raise CheckFailed(f"{who} wrote into the built folder")
    extra = sorted(path.name for path in run.iterdir())
    if extra:
        raise CheckFailed(f"{who} wrote into its working folder: {extra}")


def loopback_only() -> list[str]:
    """A prefix that starts its command in a new network namespace whose only interface is
    loopback, brought up (`unshare -n`, then `ip link set lo up`), when that works; else [].
    Other processes join that namespace with `nsenter --net=/proc/PID/ns/net`."""
    if not no_network_prefix() or not shutil.which("ip") or not shutil.which("nsenter"):
        return []
    prefix = ["unshare", "-n", "sh", "-c", LOOPBACK_UP, "sh"]
    try:
        probe = subprocess.run([*prefix, "nsenter", "--net=/proc/self/ns/net", "--", "true"],
                               capture_output=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return []
    return prefix if probe.returncode == 0 else []


def table_game(driver: ModuleType, server: Any, host: Any, guest: Any, timeout: float) -> str:
    """Play a table game to its end with `host` and `guest` (driver.Seat, not yet seated) at
    `server` (driver.Server) and check it: each game exits 0 without a traceback and heard its
    `Final score`, both heard the same points for each team, and the server, which opened the
    table, stops on SIGTERM with exit 0. Returns the score ("Bears 0, Hawks 7"); every process
    is ended either way."""
    seats = {"the hosting game": host, "the joining game": guest}

    def heard() -> str:
        for seat in seats.values():
            seat.kill()  # its stderr can be read once it has ended
        return "; ".join(f"{who} said {seat.speech()[-3:]}, stderr {seat.stderr()[-1500:]!r}"
                         for who, seat in seats.items())

    try:
        driver.sit_down(host, guest)
        threads = driver.start_playing(host, guest)
        deadline = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        if any(thread.is_alive() for thread in threads):
            raise CheckFailed(f"the table game did not reach game over within {timeout:.0f} s: "
                              f"{heard()}")
        codes = {who: seat.finish() for who, seat in seats.items()}
    except (EOFError, queue.Empty, subprocess.TimeoutExpired, OSError) as failure:
        raise CheckFailed(f"the table game broke off ({type(failure).__name__}: {failure}): "
                          f"{heard()}") from failure
    finally:
        for seat in seats.values():
            seat.kill()
        code = server.stop()
    for who, seat in seats.items():
        check_played(who, codes[who], seat.stderr(), seat.speech())
    scores = {who: driver.final_score(seat.speech()) for who, seat in seats.items()}
    if None in scores.values() or len({str(sorted(s.items())) for s in scores.values()}) != 1:
        raise CheckFailed(f"the two games heard different final scores: {scores}")
    if code != 0 or "Traceback" in server.log:
        raise CheckFailed(f"the table server did not stop cleanly on SIGTERM (exit {code}):\n"
                          f"{server.log[-3000:]}")
    if not re.search(r"table \d+ opened", server.log):
        raise CheckFailed(f"the table server's log never opened a table:\n{server.log[-3000:]}")
    score: dict[str, int] = scores["the hosting game"]
    return ", ".join(f"{team} {points}" for team, points in sorted(score.items()))


def listening_port(url: str) -> int:
    """The port of the server's `{"listening": "ws://127.0.0.1:PORT"}` line (--port 0 asks
    for a free one, so it must be a real one)."""
    found = re.fullmatch(r"ws://127\.0\.0\.1:(\d+)", url)
    if not found or not 0 < int(found.group(1)) < 65536:
        raise CheckFailed(f"the table server says it listens on {url!r}, not ws://127.0.0.1:PORT")
    return int(found.group(1))


def play_at_a_table(executable: Path, dist: Path, source: Path, work: Path,
                    isolate: bool) -> dict[str, object]:
    """The built executable serves a table (`--serve --port 0`) and two more of its processes
    play a whole game there, silent, each answering its turns live; see table_game for what
    is checked, and nothing may be written into the built folder or the working folder.

    With `isolate`, all three run in one new network namespace with only loopback up: the
    server starts in it (loopback_only), the games join it with nsenter. The namespace that
    `unshare -n` alone gives has loopback down, so the table could not be reached at all."""
    driver = from_tests(source, "table_driver")
    prefix = loopback_only() if isolate else []
    run = work / "table-run"
    run.mkdir()
    env = dict(driver.game_env(), XDG_CONFIG_HOME=str(work / "table-config"),
               XDG_DATA_HOME=str(work / "table-data"), XDG_STATE_HOME=str(work / "table-state"))
    before = snapshot(dist)
    started = time.perf_counter()
    try:
        server = driver.Server("--seed", str(TABLE_SEED), command=[*prefix, str(executable),
                               "--serve"], cwd=run, timeout=SERVER_START_TIMEOUT_S)
    except RuntimeError as failure:
        raise CheckFailed(f"the built table server (--serve) did not start: {failure}") from None
    try:
        listening_port(server.url)
        enter = ["nsenter", f"--net=/proc/{server.proc.pid}/ns/net", "--"] if prefix else []
        game = [*enter, str(executable), "--no-sound"]
        host = driver.Seat(work / "table-host", "--server", server.url, command=game,
                           cwd=run, env=env)
        guest = driver.Seat(work / "table-guest", "--server", server.url, command=game,
                            cwd=run, env=env)
    except BaseException:
        server.stop()
        raise
    score = table_game(driver, server, host, guest, GAME_TIMEOUT_S)
    seconds = time.perf_counter() - started
    check_left_alone(dist, before, run, "the table game")
    network = ("loopback only (unshare -n, lo up, the games joined by nsenter)" if prefix
               else "network not isolated")
    return {"score": score, "seconds": round(seconds, 2), "network": network}


def translated(source: Path, code: str, english: str) -> str:
    """`english` as the source's compiled catalog for `code` has it: what the built game must
    say with `--lang code`."""
    mo = source / "sudden_death" / "locale" / code / "LC_MESSAGES" / "sudden_death.mo"
    with mo.open("rb") as handle:
        catalog = gettext.GNUTranslations(handle)
    said = catalog.gettext(english)
    if said == english and "F1" in english:
        # The welcome names the help key through the key map ({help}, F1 by default): the
        # catalog holds it with the placeholder, and F1 is F1 in every language.
        said = catalog.gettext(english.replace("F1", "{help}")).replace("{help}", "F1")
    return said


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
               XDG_DATA_HOME=str(work / f"data-{code}"),
               XDG_STATE_HOME=str(work / f"state-{code}"),
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
        table = play_at_a_table(result.executable, result.dist, source, work, bool(isolate))
        print(f"build check: OK: a table game at the built server (--serve --port 0): two "
              f"built games both heard 'Final score: {table['score']}' in {table['seconds']} s, "
              f"{table['network']}; SIGTERM stopped the server with exit 0", flush=True)
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
