"""Balance guards: a seeded few thousand games must keep drives football-like and reward skill.

The bounds are looser than docs/balance.md's targets (which are for 50,000 games), so only a
careless data change, not sampling noise, fails them.
"""

from __future__ import annotations

import random
import subprocess
import sys

from sudden_death.engine import SnapChoice
from sudden_death.engine.smart import SmartPolicy
from sudden_death.simulate.games import simulate


def test_random_against_random_drives_look_like_football():
    tally = simulate(3000, seed=11, jobs=2)
    data = tally.as_json()
    drives = data["drives"]
    total = sum(drives.values())
    assert 0.25 <= drives["touchdown"] / total <= 0.42
    assert 0.10 <= drives["field_goal_made"] / total <= 0.25
    assert 0.07 <= (drives["interception"] + drives["fumble_lost"]) / total <= 0.18
    assert drives["safety"] / total < 0.03
    assert data["outcomes"]["ties"] / data["games"] < 0.37
    zero = tally.band_zero  # plays rolled at band 0, as the cards preview them
    attempts = zero["passes"] - zero["sack"]
    assert 3.6 <= zero["carry_yards"] / zero["carries"] <= 4.8
    assert 0.56 <= zero["complete"] / attempts <= 0.70
    assert 0.01 <= zero["interception"] / attempts <= 0.045
    assert 0.03 <= zero["sack"] / zero["passes"] <= 0.10


def test_the_smart_player_beats_the_rules_computer_from_either_side_but_not_always():
    for first, second, smart_key in (
        ("smart", "random", "first_team_wins"),
        ("random", "smart", "second_team_wins"),
    ):
        outcomes = simulate(
            1000, seed=5, first_policy=first, second_policy=second, jobs=2
        ).as_json()["outcomes"]
        decided = outcomes["first_team_wins"] + outcomes["second_team_wins"]
        # skill pays (target 60%), yet the rules' computer still wins some (target 20%)
        assert 0.58 <= outcomes[smart_key] / decided <= 0.86


def test_smart_policy_kicks_sensibly():
    from sudden_death.engine import Down, GameState, Phase, Team

    policy = SmartPolicy(random.Random(1))

    def state(down: Down, drive: int = 1, scores: tuple[int, int] = (0, 0)) -> GameState:
        return GameState(
            phase=Phase.SNAP_CHOICE, drive=drive, offense=Team.HOME, down=down, scores=scores
        )

    every = tuple(SnapChoice)
    assert policy.choose_snap(state(Down(3, 30, 40)), every) is SnapChoice.PLAY
    assert policy.choose_snap(state(Down(4, 70, 80)), every) is SnapChoice.FIELD_GOAL
    assert policy.choose_snap(state(Down(4, 30, 40)), every[:2]) is SnapChoice.PUNT
    assert policy.choose_snap(state(Down(4, 50, 51)), every) is SnapChoice.PLAY  # 4th and 1
    behind = state(Down(4, 70, 80), drive=2, scores=(0, 7))
    assert policy.choose_snap(behind, every) is SnapChoice.PLAY  # a field goal cannot catch up


def test_smart_policy_picks_legal_hands():
    policy = SmartPolicy(random.Random(2))
    from sudden_death.engine import Down, GameState, Phase, PickHand, Team, legal_actions

    state = GameState(phase=Phase.SELECTION, drive=1, offense=Team.HOME, down=Down(1, 25, 35))
    for team in Team:
        legal = legal_actions(state, team)
        action = policy.choose(state, team, legal)
        assert isinstance(action, PickHand) and action in legal
        hand = action.hand
        assert len(set(hand.players)) == 2 and len(set(hand.calls)) == 3


def test_report_prints_every_section():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "sudden_death.simulate",
            "--games",
            "300",
            "--seed",
            "4",
            "--report",
            "--second-team",
            "smart",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    text = result.stdout
    for needle in (
        "Drive outcomes",
        "Points per drive",
        "Ties",
        "wins",
        "Average band",
        "yards per carry",
        "completions",
        "interceptions",
        "sacks",
        "Deep Pass",
        "Contain",
        "second team (smart)",
    ):
        assert needle in text, needle
