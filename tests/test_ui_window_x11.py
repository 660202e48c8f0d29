"""The window, in a real X server, at two window sizes and two text sizes: nothing cut off.

A whole scripted game (title, names, toss, card steps, keep or replace, final call, fourth
down, game over) with detours through help (F1 twice, then paging), the explorer and the
settings runs with SDL's x11 driver on Xvfb. The game records every text box it draws
(SUDDEN_DEATH_LAYOUT_LOG); each frame must keep every box inside the window, no two boxes
overlapping, the focused item on screen, and every text at 7:1 contrast. Screenshots of each
screen are taken in the test's temporary folder and must not be blank; to keep them, set
SUDDEN_DEATH_TEST_ARTIFACTS=DIR and they are copied to DIR/window-test/.

Xvfb is needed: CI sets SUDDEN_DEATH_REQUIRE_XVFB=1 (tests/xserver.py then installs it with
apt and a missing one fails); elsewhere these tests skip without it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pygame
import pytest
from game_script import plan_game
from xserver import REQUIRE_ENV, ensure_xvfb, xvfb

from sudden_death.ui.window.palette import BACKGROUND, ENHANCED_CONTRAST, contrast

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS_ENV = "SUDDEN_DEATH_TEST_ARTIFACTS"
SEED = 3
SIZES = ((1024, 768), (1280, 1024))
TEXT_SIZES = (100, 200)
SCREENS = {"Welcome", "Name the teams", "Coin toss", "Offense or defense",
           "Your offense cards", "Explorer", "Settings", "Keep or replace", "Final call",
           "Fourth down", "Your defense cards", "Game over"}

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Xvfb is Linux's")


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    if ensure_xvfb() is None:
        if os.environ.get(REQUIRE_ENV, "") not in ("", "0"):
            pytest.fail("Xvfb is required (SUDDEN_DEATH_REQUIRE_XVFB) but could not be installed")
        pytest.skip("Xvfb is not installed (SUDDEN_DEATH_REQUIRE_XVFB=1 installs it)")
    with xvfb(1600, 1200) as name:
        yield name


def key_script() -> list[str]:
    """The planned game, with detours that must leave it where it was: help read and paged on
    the title screen and on the first card screen, the explorer and the settings visited."""
    keys, _ = plan_game(SEED)
    detours = ["f1", "f1", "pagedown", "pagedown", "pageup",
               "e", "down", "down", "tab", "down", "escape",
               "o", *["down"] * 7, "escape", *["down"] * 4, *["up"] * 4]
    first_cards = 6  # start, name, its Enter, the away name, toss, side
    return ["f1", "f1", "pagedown", *keys[:first_cards], *detours, *keys[first_cards:]]


def overlap(a: list[int], b: list[int]) -> bool:
    return (min(a[0] + a[2], b[0] + b[2]) > max(a[0], b[0])
            and min(a[1] + a[3], b[1] + b[3]) > max(a[1], b[1]))


def inside(rect: list[int], width: int, height: int) -> bool:
    x, y, w, h = rect
    return x >= 0 and y >= 0 and x + w <= width and y + h <= height


def play(display: str, size: tuple[int, int], text_size: int, work: Path) -> tuple[list[dict],
                                                                                      Path]:
    width, height = size
    config = work / "config"
    config.mkdir(parents=True)
    (config / "settings.json").write_text(json.dumps({"text_size": text_size}))
    keys = work / "keys.txt"
    keys.write_text("\n".join(key_script()) + "\n")
    shots = work / "shots"
    log = work / "layout.jsonl"
    transcript = work / "transcript.jsonl"
    env = {**os.environ, "DISPLAY": display, "SDL_VIDEODRIVER": "x11",
           "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1",
           "SUDDEN_DEATH_LAYOUT_LOG": str(log), "SUDDEN_DEATH_SCREENSHOTS": str(shots)}
    result = subprocess.run(
        [sys.executable, "-m", "sudden_death", "--no-sound", "--seed", str(SEED),
         "--keys", str(keys), "--config", str(config), "--window", f"{width}x{height}",
         "--transcript", str(transcript)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    said = [json.loads(line).get("text", "") for line in transcript.read_text().splitlines()]
    assert any(text.startswith("Final score") for text in said), said[-5:]
    frames = [json.loads(line) for line in log.read_text().splitlines()]
    return frames, shots


@pytest.mark.parametrize("text_size", TEXT_SIZES)
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_screen_fits_the_window(display: str, size: tuple[int, int], text_size: int,
                                      tmp_path: Path) -> None:
    width, height = size
    frames, shots = play(display, size, text_size, tmp_path)
    assert {frame["driver"] for frame in frames} == {"x11"}
    assert {frame["title"] for frame in frames} >= SCREENS
    if text_size == max(TEXT_SIZES):  # the list of keys is longer than a page there
        assert any(frame["panel"][0] > frame["panel"][2] for frame in frames), "never paged"
        assert any(frame["panel"][1] > 0 for frame in frames), "Page Down never scrolled"
    for frame in frames:
        where = f"frame {frame['frame']} ({frame['title']})"
        assert frame["size"] == [width, height], where
        assert frame["text_size"] == text_size, where
        boxes = frame["boxes"]
        for box in boxes:
            assert inside(box["rect"], width, height), f"{where}: {box['text']!r} leaves it"
            assert contrast(tuple(box["fg"]), tuple(box["bg"])) >= ENHANCED_CONTRAST, where
        for index, box in enumerate(boxes):
            for other in boxes[index + 1:]:
                assert not overlap(box["rect"], other["rect"]), (
                    f"{where}: {box['text']!r} overlaps {other['text']!r}")
        if frame["title"]:
            focus = frame["focus"]
            assert focus is not None and inside(focus, width, height), where
            assert any(box["focused"] for box in boxes), where
    pngs = sorted(shots.glob("*.png"))
    if os.environ.get(ARTIFACTS_ENV):
        shutil.copytree(shots, Path(os.environ[ARTIFACTS_ENV]) / "window-test" /
                        f"{width}x{height}-{text_size}", dirs_exist_ok=True)
    assert len(pngs) >= len(SCREENS)
    for png in pngs:
        image = pygame.image.load(str(png))
        assert image.get_size() == size
        lit = sum(1 for x in range(0, width, 8) for y in range(0, height, 8)
                  if tuple(image.get_at((x, y)))[:3] != BACKGROUND)
        assert lit > (width // 8) * (height // 8) // 20, f"{png.name} is nearly blank"


RESIZE = r"""
import json, pygame
from pygame._sdl2.video import Window
from sudden_death.audio.silent import SilentCues, SilentSpeaker
from sudden_death.engine.actions import CallCoin, ChooseSide
from sudden_death.engine.state import CoinFace, Side
from sudden_death.ui.app import App
from sudden_death.ui.run.loop import _dispatch
from sudden_death.ui.window.render import Fonts, draw

pygame.display.init(); pygame.font.init()
pygame.display.set_mode((1024, 768), pygame.RESIZABLE)
app = App(SilentSpeaker(), SilentCues(), seed=1)
app.start(); app.names_chosen("Hawks", "Bears")
app.act(CallCoin(CoinFace.HEADS)); app.act(ChooseSide(Side.OFFENSE))
fonts = Fonts()
before = draw(pygame.display.get_surface(), fonts, app.view())
pygame.event.clear(); app.dirty = False
Window.from_display_module().size = (1280, 1024)
seen = []
for _ in range(100):
    pygame.time.wait(10)
    for event in pygame.event.get():
        seen.append(pygame.event.event_name(event.type))
        _dispatch(app, event)
    if "WindowSizeChanged" in seen:
        break
after = draw(pygame.display.get_surface(), fonts, app.view())
print(json.dumps({"driver": pygame.display.get_driver(), "dirty": app.dirty, "seen": seen,
                  "before": [before.width, before.height], "after": [after.width, after.height],
                  "focus": after.focus, "boxes": [b.as_json()["rect"] for b in after.boxes]}))
"""


def test_a_resized_window_is_laid_out_again(display: str) -> None:
    """With no window manager under Xvfb, SDL's own resize stands in for the player's drag:
    the size event marks the window for drawing, and the next frame uses the new size."""
    env = {**os.environ, "DISPLAY": display, "SDL_VIDEODRIVER": "x11",
           "SDL_AUDIODRIVER": "dummy", "PYGAME_HIDE_SUPPORT_PROMPT": "1"}
    result = subprocess.run([sys.executable, "-c", RESIZE], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr[-3000:]
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["driver"] == "x11" and "WindowSizeChanged" in report["seen"]
    assert report["dirty"] and report["before"] == [1024, 768]
    assert report["after"] == [1280, 1024]
    assert report["focus"] is not None and inside(report["focus"], 1280, 1024)
    assert all(inside(rect, 1280, 1024) for rect in report["boxes"])
    assert report["focus"][2] > 1024  # the focus bar spans the new width
