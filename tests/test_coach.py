"""The coach: a tougher computer by choice (the simulator's table-reading policy), still
committing each choice before it sees the player's, and said at the start of every game."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from app_driver import press, started_app
from recording import RecordingSpeaker

from sudden_death.engine.actions import PickHand, hand_actions
from sudden_death.engine.card_model import Role
from sudden_death.engine.computers import COACH, COMPUTERS, RANDOM, make_computer
from sudden_death.engine.events import HandsRevealed
from sudden_death.engine.match import Match
from sudden_death.engine.smart import SmartPolicy
from sudden_death.engine.state import Phase, Team
from sudden_death.simulate import games as simulate
from sudden_death.storage.settings import from_mapping, load_settings
from sudden_death.ui.run.cli import parse_options

ROOT = Path(__file__).resolve().parent.parent


def test_the_game_and_the_simulator_share_one_coach() -> None:
    match = Match.against_computer(1, computer=COACH)
    assert type(match.policies[Team.AWAY]) is SmartPolicy is COMPUTERS[COACH]
    assert simulate.POLICIES[COACH] is COMPUTERS[COACH] is simulate.POLICIES["smart"]
    assert type(Match.against_computer(1).policies[Team.AWAY]) is COMPUTERS[RANDOM]
    assert type(make_computer("no such computer", random.Random(0))) is COMPUTERS[RANDOM]


def test_the_coach_wins_most_decided_games_against_the_random_computer() -> None:
    """Through the very policy the game uses, both ways round (first and second drive)."""
    ahead = simulate.simulate(500, 11, COACH, RANDOM, 1).as_json()["outcomes"]
    behind = simulate.simulate(500, 12, RANDOM, COACH, 1).as_json()["outcomes"]
    won = ahead["first_team_wins"] + behind["second_team_wins"]
    lost = ahead["second_team_wins"] + behind["first_team_wins"]
    assert won / (won + lost) >= 0.6, (won, lost)


def to_selection(seed: int) -> Match:
    match = Match.against_computer(seed, computer=COACH)
    match.advance()
    while (decision := match.pending()) is not None and decision.phase is not Phase.SELECTION:
        match.act(match.legal_actions()[0])
    return match


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_coach_commits_before_it_sees_the_players_cards(seed: int) -> None:
    """Whatever the player picks, the coach's hand is the one it fixed before: the same for
    every choice of the player's, and the one then revealed."""
    revealed = set()
    for choice in (0, 57, 119):
        match = to_selection(seed)
        decision = match.pending()
        assert decision is not None and decision.role is not None
        fixed = match.committed(Team.AWAY)
        assert isinstance(fixed, PickHand)
        events = match.act(hand_actions(decision.role)[choice])
        shown = next(event for event in events if isinstance(event, HandsRevealed))
        theirs = shown.defense if decision.role is Role.OFFENSE else shown.offense
        assert theirs == fixed.hand
        revealed.add(theirs)
    assert len(revealed) == 1


def test_the_setting_and_the_command_line_choose_the_opponent() -> None:
    assert from_mapping({}).computer == RANDOM
    assert from_mapping({"computer": "coach"}).computer == COACH
    assert from_mapping({"computer": "genius"}).computer == RANDOM
    assert parse_options(["--computer", "coach"]).computer == COACH
    assert parse_options([]).computer is None
    with pytest.raises(SystemExit):
        parse_options(["--computer", "genius"])


def test_the_coach_is_announced_at_each_game_and_chosen_in_settings(tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    press(app, "o", "end", "up", "up", "up", "up", "up", "up", "up")  # Done, Reset, Report,
    # Keys, output, engine,
    # Overtime, Opponent
    assert speaker.spoken[-1].text == "Opponent: the rules' computer, picking at random"
    press(app, "right")
    assert speaker.spoken[-1].text == (
        "Opponent: the coach, who knows the tables, from the next game")
    assert load_settings(tmp_path)[0].computer == COACH
    press(app, "escape")
    app.names_chosen("Hawks", "Bears")
    texts = [message.text for message in speaker.spoken]
    explained = ("The Bears are coached today: their coach knows the card tables and picks "
                 "what they favour, where the rules' computer picks at random.")
    assert explained in texts  # what a coach is, the first time
    assert app.match is not None and type(app.match.match.policies[Team.AWAY]) is SmartPolicy
    app.play_again()
    assert [m.text for m in speaker.spoken].count("The Bears are coached today.") == 1
    assert [m.text for m in speaker.spoken].count(explained) == 1


def test_a_game_against_the_random_computer_says_nothing_of_a_coach(tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    app.names_chosen("Hawks", "Bears")
    assert not any("coached" in message.text for message in speaker.spoken)


def test_the_command_line_coach_plays_a_real_game(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "sudden_death", "--headless", "--no-sound", "--seed", "2",
         "--computer", "coach", "--keys", "-", "--transcript", "-",
         "--config", str(tmp_path)],
        input="return\ntype Hawks\nreturn\nreturn\nreturn\n", capture_output=True, text=True,
        cwd=ROOT, timeout=60, env={**os.environ, "SDL_VIDEODRIVER": "dummy",
                                   "SDL_AUDIODRIVER": "dummy"})
    assert result.returncode == 0, result.stderr
    said = [json.loads(line).get("text") for line in result.stdout.splitlines()
            if '"speech"' in line]
    at = next(i for i, text in enumerate(said) if text.startswith("The Bears are coached today"))
    assert said[at - 1].startswith("You are the Hawks")
