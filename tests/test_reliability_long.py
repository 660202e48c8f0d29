"""Long sessions: many games in one process through the play-again loop (a short version of
benchmarks/long_session.py): every game ends, no thread or open file is added, memory stays
within a loose bound (the phrase cache and dice sounds are bounded; see docs/reliability.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from scripts import load_script

ROOT = Path(__file__).resolve().parent.parent


def load_benchmark() -> Any:
    return load_script("benchmarks/long_session.py")


def check(figures: dict[str, Any], games: int, max_growth_mib: float) -> None:
    assert figures["exit_code"] == 0
    assert figures["games_finished"] == games, figures
    assert figures["thread_growth"] <= 0, figures
    assert figures["fd_growth"] <= 0, figures
    assert figures["rss_growth_mib"] < max_growth_mib, (
        f"grew {figures['rss_growth_mib']} MiB: {figures}")


def test_twenty_five_games_with_real_audio_leave_nothing_behind(tmp_path: Path) -> None:
    # Measured from game 10: the bounded phrase cache and dice sounds fill during the first
    # games (5.6-10.8 MiB by game 20 on 3.10-3.13), which says nothing about a leak. From game
    # 10 to 25 this grew 2.4-4.5 MiB in a process of its own and 8.75 MiB once inside CI's
    # whole run (heap layout). The leak this guards against, unbounded caches, grew about
    # 4.5 MiB a game (90 MiB in 20 games): some 65 MiB here.
    figures = load_benchmark().run_session(25, seed=3, sound=True, config=tmp_path, warm=10)
    check(figures, 25, 16.0)
    after = figures["after_exit"]
    assert after["threads"] <= figures["after_game_10"]["threads"]


@pytest.mark.soak
def test_sixty_silent_games_stay_flat(tmp_path: Path) -> None:
    figures = load_benchmark().run_session(60, seed=5, sound=False, config=tmp_path)
    check(figures, 60, 8.0)
