"""Whole games between computer policies, with the engine alone, counted in a `Tally`.

Game i draws its own seeds from the master seed in order, so the result depends only on the
seed and the number of games, never on how many processes (`jobs`) share the work.
"""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor

from ..engine import Game, Match, Team
from ..engine.computers import COACH, COMPUTERS
from ..engine.policy import Policy
from .tally import Tally

# The game's own computers ("coach" is the one players meet; "smart" is its older name here).
POLICIES: dict[str, Callable[[random.Random], Policy]] = {
    **COMPUTERS,
    "smart": COMPUTERS[COACH],
}

GameSeeds = tuple[int, int, int]  # dice, first team's policy, second team's policy
PARALLEL_FROM = 2000  # fewer games than this are not worth starting processes for


def play_game(seeds: GameSeeds, first_policy: str, second_policy: str,
              overtime: bool = False) -> Game:
    """One whole game between two policies; the first team has the ball first."""
    dice, first_rng, second_rng = (random.Random(seed) for seed in seeds)
    game = Game.from_kickoff(dice, Team.HOME, overtime=overtime)
    policies = {
        Team.HOME: POLICIES[first_policy](first_rng),
        Team.AWAY: POLICIES[second_policy](second_rng),
    }
    Match(game, policies).advance()
    return game


def _play_chunk(seeds: Sequence[GameSeeds], first_policy: str, second_policy: str,
                overtime: bool = False) -> Tally:
    tally = Tally(overtime)
    for game_seeds in seeds:
        game = play_game(game_seeds, first_policy, second_policy, overtime)
        tally.add_game(game.log, Team.HOME)
    return tally


def game_seeds(seed: int, games: int) -> list[GameSeeds]:
    master = random.Random(seed)
    return [
        (master.getrandbits(64), master.getrandbits(64), master.getrandbits(64))
        for _ in range(games)
    ]


def simulate(
    games: int,
    seed: int,
    first_policy: str = "random",
    second_policy: str = "random",
    jobs: int = 1,
    overtime: bool = False,
) -> Tally:
    seeds = game_seeds(seed, games)
    if jobs <= 1 or games < PARALLEL_FROM:
        return _play_chunk(seeds, first_policy, second_policy, overtime)
    size = -(-games // jobs)
    chunks = [seeds[i : i + size] for i in range(0, games, size)]
    total = Tally(overtime)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=worker_context()) as pool:
        futures = [pool.submit(_play_chunk, c, first_policy, second_policy, overtime)
                   for c in chunks]
        for future in futures:
            total.merge(future.result())
    return total


def worker_context() -> multiprocessing.context.BaseContext:
    """Workers are spawned, on every system: forking a process that already runs threads (the
    game's speech worker, a test runner's) can deadlock a child, and Python 3.12+ warns about
    it. A spawned worker imports the game afresh; results depend only on the game seeds."""
    return multiprocessing.get_context("spawn")
