"""The simulator prints SPEC's JSON object, deterministically, with rates that match the dice."""

from __future__ import annotations

import json
import subprocess
import sys

from sudden_death.simulate.games import simulate

SPEC_KEYS = {
    "games": None,
    "outcomes": {"first_team_wins", "second_team_wins", "ties"},
    "drives": {
        "touchdown",
        "field_goal_made",
        "field_goal_missed",
        "punt",
        "interception",
        "fumble_lost",
        "downs",
        "safety",
    },
    "extra_points": {"attempts", "made"},
    "field_goals": {"attempts_by_distance", "made_by_distance"},
    "punts": {"net_yards", "touchbacks"},
    "plays": {
        "count",
        "by_band",
        "sacks",
        "sack_yards",
        "incomplete",
        "interceptions",
        "fumbles",
        "fumbles_lost",
    },
    "points": {"first_team", "second_team"},
    "policies": {"first_team", "second_team"},
}


def run_cli(*args: str) -> dict:
    result = subprocess.run(
        [sys.executable, "-m", "sudden_death.simulate", *args],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(result.stdout)


def test_cli_prints_exactly_the_spec_object():
    data = run_cli("--games", "200", "--seed", "3", "--json", "--second-team", "smart")
    assert data["policies"] == {"first_team": "random", "second_team": "smart"}
    assert set(data) == set(SPEC_KEYS)
    for key, inner in SPEC_KEYS.items():
        if inner:
            assert set(data[key]) == inner, key
    assert data["games"] == 200
    assert sum(data["outcomes"].values()) == 200
    assert set(data["plays"]["by_band"]) == {str(b) for b in range(-3, 4)}
    assert set(data["plays"]["sack_yards"]) == {str(t) for t in range(2, 13)}
    assert set(data["punts"]["net_yards"]) == {"30", "40", "50"}
    assert sum(data["plays"]["by_band"].values()) == data["plays"]["count"]
    assert sum(data["plays"]["sack_yards"].values()) == data["plays"]["sacks"]
    fgs = data["field_goals"]
    assert all(int(d) <= 65 for d in fgs["attempts_by_distance"])
    assert all(fgs["made_by_distance"][d] <= n for d, n in fgs["attempts_by_distance"].items())


def test_same_seed_same_result_whatever_the_number_of_processes():
    one = simulate(2400, seed=9, jobs=1).as_json()
    assert simulate(2400, seed=9, jobs=2).as_json() == one
    assert simulate(2400, seed=10, jobs=1).as_json() != one


def test_workers_are_spawned_not_forked(monkeypatch):
    """Forking a process that runs threads can deadlock the child (3.12+ warns); the pool is
    given the spawn context explicitly, on every system."""
    from sudden_death.simulate import games as module

    used = []

    class Recording(module.ProcessPoolExecutor):
        def __init__(self, *args, **kwargs):
            used.append(kwargs.get("mp_context"))
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(module, "ProcessPoolExecutor", Recording)
    simulate(2000, seed=4, jobs=2)
    assert [context.get_start_method() for context in used] == ["spawn"]


def test_kick_rates_match_the_dice():
    data = simulate(4000, seed=2, jobs=2).as_json()
    xp = data["extra_points"]
    assert abs(xp["made"] / xp["attempts"] - 206 / 216) < 0.03
    nets = data["punts"]["net_yards"]
    punts = sum(nets.values())
    assert abs(nets["40"] / punts - 146 / 216) < 0.04
    assert abs(nets["30"] / punts - 35 / 216) < 0.03
    fgs = data["field_goals"]
    tried = {int(d): n for d, n in fgs["attempts_by_distance"].items()}
    made = {int(d): n for d, n in fgs["made_by_distance"].items()}
    long_tries = sum(n for d, n in tried.items() if d >= 60)
    long_made = sum(n for d, n in made.items() if d >= 60)
    assert abs(long_made / long_tries - 56 / 216) < 0.06
    plays = data["plays"]
    assert 0.3 < plays["fumbles_lost"] / plays["fumbles"] < 0.7
    drives = sum(data["drives"].values())
    assert data["games"] <= drives <= 2 * data["games"]
