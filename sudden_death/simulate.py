"""Play whole games with the engine alone and print what happened.

    python -m sudden_death.simulate --games 20000 --seed 1 --json
    python -m sudden_death.simulate --games 20000 --seed 1 --json --overtime

--overtime plays the house rule that plays off a tie (engine/field.py); the JSON then has one
more key, "overtime", and without it the JSON is exactly SPEC's.

Game i draws its own seeds from the master seed in order, so the result depends only on
--seed and --games, never on how many processes (--jobs) share the work.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor

from .engine import Game, Match, Team
from .engine.computers import COACH, COMPUTERS
from .engine.policy import Policy
from .report import format_report
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


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m sudden_death.simulate",
        description="Play whole games between computer policies and count what happened.",
    )
    parser.add_argument("--games", type=int, default=1000, help="how many games to play")
    parser.add_argument("--seed", type=int, default=1, help="master seed for every die and choice")
    parser.add_argument("--json", action="store_true", help="print the JSON object of SPEC")
    parser.add_argument("--report", action="store_true", help="print a readable balance report")
    parser.add_argument("--first-team", default="random", choices=sorted(POLICIES))
    parser.add_argument("--second-team", default="random", choices=sorted(POLICIES))
    parser.add_argument(
        "--overtime", action="store_true",
        help="play off a tie after drive 2 (a house rule; the rules let a tie stand)",
    )
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="processes to share the games"
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    tally = simulate(args.games, args.seed, args.first_team, args.second_team, max(1, args.jobs),
                     args.overtime)
    if args.report:
        print(format_report(tally, args.first_team, args.second_team))
        return 0
    data = tally.as_json()
    data["policies"] = {"first_team": args.first_team, "second_team": args.second_team}
    print(json.dumps(data, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
