"""Play whole games with the engine alone and print what happened.

    python -m sudden_death.simulate --games 20000 --seed 1 --json
    python -m sudden_death.simulate --games 20000 --seed 1 --json --overtime

--overtime plays the house rule that plays off a tie (engine/field.py); the JSON then has one
more key, "overtime", and without it the JSON is exactly SPEC's.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from .games import POLICIES, simulate
from .report import format_report


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
