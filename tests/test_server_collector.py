"""The table server's collector settings (server/operations/collector.py, issue 60): what survives
start-up is frozen, no automatic full collection comes, the server's own sweep frees cycles,
and all of it is undone so no other test runs with it."""

from __future__ import annotations

import asyncio
import gc
import sys
import warnings
from collections.abc import Iterator

import pytest

from sudden_death.server.operations import collector


class Cycle:
    def __init__(self) -> None:
        self.me = self


def _collect_others_garbage() -> None:
    """A full collection of what earlier tests left, with its ResourceWarnings dropped (an
    unclosed socket of another test, freed here, is that test's, not a fault of this one;
    issue 71: the settle test failed on them under load). Anything else freed with an error
    still goes to the hook that reports it."""
    reported = sys.unraisablehook

    def hook(unraisable: sys.UnraisableHookArgs) -> None:
        if not isinstance(unraisable.exc_value, ResourceWarning):
            reported(unraisable)

    sys.unraisablehook = hook
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ResourceWarning)
            gc.collect()
    finally:
        sys.unraisablehook = reported


@pytest.fixture
def restored() -> Iterator[None]:
    """Whatever a test does, the collector as it was afterwards; and before it, no garbage
    of other tests left for its collections to find."""
    thresholds, enabled = gc.get_threshold(), gc.isenabled()
    _collect_others_garbage()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)
    if enabled:
        gc.enable()


def test_settle_freezes_the_start_up_and_stops_automatic_full_collections(
        restored: None) -> None:
    before = gc.get_threshold()
    kept = [Cycle() for _ in range(100)]
    settled = collector.settle()
    try:
        assert settled.frozen >= gc.get_freeze_count() > len(kept)
        collected = {id(each) for each in gc.get_objects()}  # every generation, none frozen
        assert not any(id(cycle) in collected for cycle in kept)
        young, middle, full = gc.get_threshold()
        assert (young, middle) == (collector.YOUNG, collector.MIDDLE)
        assert full >= 10**9
        assert settled.thresholds == before
    finally:
        settled.undo()
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0


def _full_passes_while_growing(survivors: int = 300_000) -> int:
    """Full collections while the heap grows by `survivors` live objects (as tables do)."""
    full = gc.get_stats()[2]["collections"]
    kept = [Cycle() for _ in range(survivors)]
    passes = gc.get_stats()[2]["collections"] - full
    del kept
    return passes


def test_old_cycles_wait_for_the_sweep(restored: None) -> None:
    settled = collector.settle()
    try:
        cycles = [Cycle() for _ in range(50)]
        for _ in range(3):
            gc.collect(1)  # the cycles survive into the old generation ...
        full = gc.get_stats()[2]["collections"]
        del cycles
        for _ in range(50):  # ... where young passes, however many, leave them
            _ = [Cycle() for _ in range(collector.YOUNG)]
        assert gc.get_stats()[2]["collections"] == full
        found = settled.sweep()
        assert found >= 50
        assert settled.sweeps == 1 and settled.swept == found
        assert settled.longest_sweep_s > 0
    finally:
        settled.undo()


def test_no_full_pass_comes_by_itself(restored: None) -> None:
    gc.collect()
    assert _full_passes_while_growing() > 0  # the interpreter's own thresholds: some
    settled = collector.settle()
    middle = gc.get_stats()[1]["collections"]
    try:
        assert _full_passes_while_growing() == 0
        assert gc.get_stats()[1]["collections"] > middle  # the young generations still run
    finally:
        settled.undo()


def test_the_sweep_runs_on_the_loop_until_undone(restored: None) -> None:
    async def run() -> collector.Settled:
        settled = collector.settle(asyncio.get_running_loop(), sweep_s=0.01)
        await asyncio.sleep(0.2)
        settled.undo()
        sweeps = settled.sweeps
        await asyncio.sleep(0.05)
        assert settled.sweeps == sweeps  # no sweep after undo
        return settled

    settled = asyncio.run(run())
    assert settled.sweeps >= 2


def test_no_sweep_is_planned_where_the_server_leaves_no_cycles(restored: None) -> None:
    """Python 3.11 and later: the lines leave no cycles (test_server_cycles.py), so no full
    pause is planned at all; 3.10 still sweeps every SWEEP_S."""
    expected = collector.SWEEP_S if sys.version_info < (3, 11) else None
    assert collector.sweep_needed() == expected

    async def run() -> collector.Settled:
        settled = collector.settle(asyncio.get_running_loop(), None)
        await asyncio.sleep(0.1)
        settled.undo()
        return settled

    assert asyncio.run(run()).sweeps == 0
