"""The word budget of a down (issue 48), measured where the player is: whole seeded games of the
real program played by ear (benchmarks/speech_economy.py's `play_game`, with
tests/ear_player.py), so a new sentence said on every down, or an explanation said again
where once is enough, fails here before the benchmark's 20 games would show it.

The benchmark's medians are over 20 games (docs/playing.md); these are over the downs of its
first two (seeds 1 and 2), a tripwire rather than the measurement: one game's median ranges
from about 85 to 145 words at normal and from 60 to 115 at short, and two games' keys per
down from 7 to 13, so keys are left to the benchmark."""

from __future__ import annotations

import statistics
from types import ModuleType

import pytest
from ear_player import CAREFUL, Down
from scripts import load_script

from sudden_death.ui.session import Session
from sudden_death.ui.words.phrases import Names
from sudden_death.ui.words.verbosity import Telling

SEEDS = (1, 2)


@pytest.fixture(scope="module")
def economy() -> ModuleType:
    return load_script("benchmarks/speech_economy.py")


def downs(economy: ModuleType, verbosity: str, style: str) -> list[Down]:
    return [down for seed in SEEDS for down in economy.play_game(seed, verbosity, style)]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("verbosity", ["normal", "short"])
def test_a_careful_listener_hears_no_more_than_the_words_of_a_down(
        economy: ModuleType, verbosity: str) -> None:
    played = downs(economy, verbosity, CAREFUL)
    words = statistics.median(down.words for down in played)
    assert words <= economy.TARGETS[(verbosity, "words")], [down.lines for down in played]


@pytest.mark.timeout(120)
def test_explanations_are_said_once_a_game_and_the_keys_until_used(
        economy: ModuleType) -> None:
    """The first pick explains Space and Enter; the second drive's fresh pick does not (the
    player has checked cards); the swap and the final call explain themselves once."""
    lines = [line for down in economy.play_game(1, "normal", CAREFUL) for line in down.lines]
    assert sum("Space checks a card" in line for line in lines) == 1
    assert sum(line.startswith("A fresh pick") for line in lines) == 2
    assert sum(line.startswith("Now you may answer their cards") for line in lines) == 1
    assert sum(line.startswith("Final call: which") for line in lines) == 1
    brought = [line for line in lines if line.startswith(("Bring in a", "In for"))]
    assert brought[0].startswith("Bring in a") and len(brought) > 1
    assert all(line.startswith("In for") for line in brought[1:])


def test_first_time_is_once_a_game_and_until_done_outlives_the_game() -> None:
    session, telling = Session(1, Names("Hawks", "Bears")), Telling()
    assert session.first_time("final", telling) and not session.first_time("final", telling)
    assert session.until_done("check", telling)
    session.did("check")
    assert not session.until_done("check", telling)
    session.new_match(Names("Hawks", "Bears"))  # the next game
    assert session.first_time("final", telling)  # explained again in a new game
    assert not session.until_done("check", telling)  # but the key has been used
    everything = Telling(explanations=True)
    assert session.first_time("final", everything) and session.until_done("check", everything)
