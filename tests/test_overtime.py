"""The overtime house rule (off by default): a tie after drive 2 is played off in pairs of
drives from the opponent's 25, in the regulation order, until a pair ends with one team ahead.
Forced dice for each rule; whole seeded games for the order and the end; snapshots; the
simulator's `--overtime`."""

from __future__ import annotations

import dataclasses
import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable

import pytest
from engine_helpers import (
    ForcedDice,
    d6,
    drive_start,
    even_defense,
    final_calls,
    human_action,
    kinds,
    only,
    pct,
    percent_for_yards,
    step,
    three_d6,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from sudden_death.engine import (
    LAST_OVERTIME_DRIVE,
    MAX_OVERTIME_PAIRS,
    OVERTIME_SPOT,
    ChooseSnap,
    Concede,
    DefCall,
    Down,
    DriveEnd,
    Game,
    GameEnd,
    GameState,
    Hand,
    Match,
    OffCall,
    Phase,
    PickHand,
    PickSwap,
    Player,
    SnapChoice,
    SnapshotError,
    Swap,
    Team,
    is_last_drive,
    is_overtime,
    last_possible_drive,
    overtime_period,
)
from sudden_death.engine import events as ev
from sudden_death.engine.computers import COACH, RANDOM, make_computer
from sudden_death.engine.event_codec import events_from_list, events_to_list
from sudden_death.engine.field import LAST_DRIVE, OPENING_SPOT
from sudden_death.engine.smart import SmartPolicy
from sudden_death.engine.snapshot import state_to_dict
from sudden_death.simulate.games import simulate
from sudden_death.simulate.tally import Tally, spread

FIRST, SECOND = Team.HOME, Team.AWAY  # HOME has the ball in drive 1 in these games
# Defensive calls that leave these offensive calls at band 0, and featured players that back
# neither, so each forced play is rolled on its band-0 table.
RUN_EVEN = even_defense(OffCall.INSIDE_RUN)
SCREEN_EVEN = even_defense(OffCall.SCREEN)
OFFENSE_PLAYERS = (Player.SCATBACK, Player.SLOT_RECEIVER)
DEFENSE_PLAYERS = (Player.EDGE_SETTER, Player.SHUTDOWN_CORNER)


def at_snap(drive: int, scores: tuple[int, int], *, line: int = OVERTIME_SPOT,
            overtime: bool = True, dice: Iterable[float] = ()) -> Game:
    """A game at the first snap choice of `drive`, with the team of the regulation order on
    offense (the first team in odd drives)."""
    offense = FIRST if drive % 2 else SECOND
    state = GameState(phase=Phase.SNAP_CHOICE, scores=scores, drive=drive, offense=offense,
                      down=Down.first(line), overtime=overtime)
    return Game(ForcedDice(dice), state)


def even_hands(off_call: OffCall = OffCall.INSIDE_RUN) -> tuple[PickHand, PickHand]:
    """Both sides' selections for a band-0 play of `off_call` against its even defense."""
    def_call = even_defense(off_call)
    other_off = [c for c in OffCall if c is not off_call][:2]
    other_def = [c for c in DefCall if c is not def_call][:2]
    return (PickHand(Hand(OFFENSE_PLAYERS, (off_call, *other_off))),
            PickHand(Hand(DEFENSE_PLAYERS, (def_call, *other_def))))


def keep_both() -> tuple[PickSwap, PickSwap]:
    return PickSwap(Swap.keep()), PickSwap(Swap.keep())


def punt(game: Game) -> list[ev.Event]:
    return step(game, ChooseSnap(SnapChoice.PUNT))


def field_goal(game: Game) -> list[ev.Event]:
    return step(game, ChooseSnap(SnapChoice.FIELD_GOAL))





def outcome_of(events: list[ev.Event]) -> ev.GameOver:
    over = only(events, ev.GameOver)
    assert isinstance(over, ev.GameOver)
    return over


# -- the field's arithmetic ----------------------------------------------------------------------


def test_the_overtime_spot_is_the_opponents_25() -> None:
    assert OVERTIME_SPOT == 100 - OPENING_SPOT == 75
    assert LAST_OVERTIME_DRIVE == LAST_DRIVE + 2 * MAX_OVERTIME_PAIRS


@pytest.mark.parametrize(("drive", "overtime", "last"), [
    (1, False, False), (2, False, True), (1, True, False), (2, True, True), (3, True, False),
    (4, True, True), (5, True, False), (6, True, True)])
def test_the_last_drive_is_drive_2_and_the_second_of_each_overtime_pair(
        drive: int, overtime: bool, last: bool) -> None:
    assert is_last_drive(drive, overtime) is last


def test_overtime_drives_and_periods_are_numbered_from_drive_3() -> None:
    assert [is_overtime(d) for d in range(5)] == [False, False, False, True, True]
    assert [overtime_period(d) for d in range(8)] == [0, 0, 0, 1, 1, 2, 2, 3]
    assert (last_possible_drive(False), last_possible_drive(True)) == (2, LAST_OVERTIME_DRIVE)


# -- the rule, with forced dice ------------------------------------------------------------------


def test_off_a_tie_after_drive_2_ends_the_game_as_the_rules_say() -> None:
    game = at_snap(2, (3, 0), line=60, overtime=False, dice=three_d6(13))
    events = field_goal(game)
    over = outcome_of(events).outcome
    assert (over.scores, over.winner, over.end) == ((3, 3), None, GameEnd.BOTH_DRIVES)
    assert game.is_over and not any(isinstance(e, ev.DriveStarted) for e in events)


def test_off_is_the_default_of_every_way_a_game_is_made() -> None:
    assert not Game(random.Random(1)).state.overtime
    assert not Game.from_kickoff(random.Random(1), FIRST).state.overtime
    assert not Match.against_computer(1).state.overtime
    assert Game(random.Random(1), overtime=True).state.overtime
    assert Game.from_kickoff(random.Random(1), FIRST, overtime=True).state.overtime
    assert Match.against_computer(1, overtime=True).state.overtime


def test_a_given_state_keeps_its_own_rule() -> None:
    with pytest.raises(ValueError, match="its own overtime rule"):
        Game(random.Random(1), GameState(), overtime=True)


def test_on_a_tie_after_drive_2_starts_drive_3_for_the_first_team_at_the_opponents_25() -> None:
    game = at_snap(2, (3, 0), line=60, dice=three_d6(13))
    events = field_goal(game)
    assert kinds(events) == ["SnapChosen", "FieldGoal", "ScoreChanged", "DriveEnded",
                             "DriveStarted", "DownStarted"]
    ended = only(events, ev.DriveEnded)
    assert ended == ev.DriveEnded(2, SECOND, DriveEnd.FIELD_GOAL_MADE, OVERTIME_SPOT, False)
    assert drive_start(events) == ev.DriveStarted(3, FIRST, OVERTIME_SPOT, DriveEnd.FIELD_GOAL_MADE,
                                              False)
    assert events[-1] == ev.DownStarted(FIRST, Down(1, 75, 85))
    state = game.state
    assert (state.drive, state.offense, state.phase, state.scores) == (
        3, FIRST, Phase.SNAP_CHOICE, (3, 3))


def test_a_punt_into_overtime_is_no_touchback_the_next_drive_starts_at_the_opponents_25() -> None:
    game = at_snap(2, (0, 0), line=70, dice=three_d6(10))  # 40 net: into the end zone
    events = punt(game)
    assert only(events, ev.Punt).touchback  # what the punt did ...
    assert only(events, ev.DriveEnded).next_spot == OVERTIME_SPOT  # ... and where play goes on
    start = drive_start(events)
    assert (start.drive, start.offense, start.spot, start.after, start.touchback) == (
        3, FIRST, OVERTIME_SPOT, DriveEnd.PUNT, False)


def test_a_whole_scoreless_regulation_goes_to_overtime_in_the_regulation_order() -> None:
    game = Game.from_kickoff(ForcedDice(three_d6(10) * 2), SECOND, overtime=True)
    assert drive_start(game.log) == ev.DriveStarted(1, SECOND, OPENING_SPOT, None, False)
    punt(game)  # away punts from its 25
    assert (game.state.drive, game.state.offense) == (2, FIRST)
    events = punt(game)  # home punts back: 0-0
    assert drive_start(events) == ev.DriveStarted(3, SECOND, OVERTIME_SPOT, DriveEnd.PUNT, False)


def test_a_lead_after_drive_3_alone_does_not_end_the_game() -> None:
    game = at_snap(3, (3, 3), dice=three_d6(13))  # a 42-yard field goal: good
    events = field_goal(game)
    assert not game.is_over and game.state.scores == (6, 3)
    start = drive_start(events)
    assert (start.drive, start.offense, start.spot) == (4, SECOND, OVERTIME_SPOT)
    assert only(events, ev.DriveEnded).next_spot == OVERTIME_SPOT


def test_a_lead_after_drive_4_ends_the_game() -> None:
    game = at_snap(4, (6, 3), dice=three_d6(10))
    events = punt(game)
    over = outcome_of(events).outcome
    assert (over.scores, over.winner, over.end) == ((6, 3), FIRST, GameEnd.BOTH_DRIVES)
    assert only(events, ev.DriveEnded).next_spot is None and game.is_over


def test_a_tie_after_drive_4_goes_on_to_drive_5() -> None:
    game = at_snap(4, (6, 3), dice=three_d6(13))
    events = field_goal(game)
    assert not game.is_over and game.state.scores == (6, 6)
    start = drive_start(events)
    assert (start.drive, start.offense, start.spot) == (5, FIRST, OVERTIME_SPOT)


def test_the_second_team_wins_an_overtime_pair_by_scoring_more() -> None:
    yards = 30  # a 30-yard run from the 75: a touchdown, then a good extra point
    dice = pct(percent_for_yards(OffCall.INSIDE_RUN, 0, yards)) + three_d6(10)
    game = at_snap(4, (6, 3), dice=dice)
    step(game, ChooseSnap(SnapChoice.PLAY))
    step(game, *even_hands())
    step(game, *keep_both())
    events = final_calls(game, OffCall.INSIDE_RUN, RUN_EVEN)
    over = outcome_of(events).outcome
    assert (over.scores, over.winner, over.end) == ((6, 10), SECOND, GameEnd.BOTH_DRIVES)


def test_a_safety_in_overtime_ends_the_game_at_once() -> None:
    """Not reachable from the 75 in four downs (sacks lose at most 12 yards each), but the rule
    is the rules': a safety ends the game whenever it happens."""
    dice = pct(1) + d6(6, 6)  # a sack of 12 from the 5
    game = at_snap(3, (3, 3), line=5, dice=dice)
    step(game, ChooseSnap(SnapChoice.PLAY))
    step(game, *even_hands(OffCall.SCREEN))
    step(game, *keep_both())
    events = final_calls(game, OffCall.SCREEN, SCREEN_EVEN)
    assert game.rng.exhausted
    over = outcome_of(events).outcome
    assert (over.scores, over.winner, over.end) == ((3, 5), SECOND, GameEnd.SAFETY)
    assert only(events, ev.DriveEnded).reason is DriveEnd.SAFETY


def test_a_safety_in_regulation_still_ends_the_game_with_overtime_on() -> None:
    dice = pct(1) + d6(6, 6)
    game = at_snap(1, (0, 0), line=5, dice=dice)
    step(game, ChooseSnap(SnapChoice.PLAY))
    step(game, *even_hands(OffCall.SCREEN))
    step(game, *keep_both())
    over = outcome_of(final_calls(game, OffCall.SCREEN, SCREEN_EVEN)).outcome
    assert (over.scores, over.winner, over.end) == ((0, 2), SECOND, GameEnd.SAFETY)


def test_conceding_in_overtime_gives_the_other_team_the_game() -> None:
    game = at_snap(5, (10, 10))
    over = outcome_of(game.apply({SECOND: Concede()})).outcome
    assert (over.scores, over.winner, over.end) == ((10, 10), FIRST, GameEnd.CONCEDED)


def test_after_the_cap_of_overtime_pairs_the_tie_stands() -> None:
    drives = LAST_OVERTIME_DRIVE - 1  # drive 2 and every overtime drive: all punts
    game = at_snap(2, (0, 0), line=30, dice=three_d6(10) * drives)
    for drive in range(2, LAST_OVERTIME_DRIVE):
        events = punt(game)
        assert drive_start(events).drive == drive + 1 and drive_start(events).spot == OVERTIME_SPOT
    assert game.state.drive == LAST_OVERTIME_DRIVE and game.state.offense is SECOND
    events = punt(game)
    assert game.rng.exhausted and game.is_over
    over = outcome_of(events).outcome
    assert (over.scores, over.winner, over.end) == ((0, 0), None, GameEnd.BOTH_DRIVES)
    assert overtime_period(LAST_OVERTIME_DRIVE) == MAX_OVERTIME_PAIRS


# -- the coach in overtime -------------------------------------------------------------------


def fourth_and_five(drive: int, scores: tuple[int, int], overtime: bool) -> GameState:
    offense = FIRST if drive % 2 else SECOND
    return GameState(phase=Phase.SNAP_CHOICE, scores=scores, drive=drive, offense=offense,
                     down=Down(4, 80, 85), overtime=overtime)


def coach_snap(state: GameState) -> SnapChoice:
    return SmartPolicy(random.Random(0)).choose_snap(state, tuple(SnapChoice))


def test_the_coach_goes_for_it_behind_by_a_touchdown_on_the_last_drive_of_a_pair() -> None:
    # A field goal cannot win or tie: no ball comes back after drive 4 or drive 2.
    assert coach_snap(fourth_and_five(4, (7, 0), True)) is SnapChoice.PLAY
    assert coach_snap(fourth_and_five(2, (7, 0), True)) is SnapChoice.PLAY
    assert coach_snap(fourth_and_five(2, (7, 0), False)) is SnapChoice.PLAY
    # The first drive of a pair: the other team still has its ball, so take the points.
    assert coach_snap(fourth_and_five(3, (0, 0), True)) is SnapChoice.FIELD_GOAL
    # Behind by a field goal on the last drive of a pair: kick and play another pair.
    assert coach_snap(fourth_and_five(4, (3, 0), True)) is SnapChoice.FIELD_GOAL


# -- whole games ---------------------------------------------------------------------------------


def computers_game(seed: int, home: str, away: str) -> Match:
    """A whole game between two computers, from the coin toss, with overtime on."""
    return Match(Game(random.Random(seed), overtime=True), {
        Team.HOME: make_computer(home, random.Random(f"home:{seed}")),
        Team.AWAY: make_computer(away, random.Random(f"away:{seed}")),
    })


def check_overtime_game(log: list[ev.Event]) -> None:
    """The rule's invariants over one finished game."""
    over = log[-1]
    assert isinstance(over, ev.GameOver) and sum(isinstance(e, ev.GameOver) for e in log) == 1
    outcome = over.outcome
    starts = [e for e in log if isinstance(e, ev.DriveStarted)]
    ended = [e for e in log if isinstance(e, ev.DriveEnded)]
    assert [s.drive for s in starts] == list(range(1, len(starts) + 1))
    assert len(ended) == len(starts)
    first = starts[0].offense
    for start in starts:  # the regulation order, all the way
        assert start.offense is (first if start.drive % 2 else first.other)
        if is_overtime(start.drive):
            assert (start.spot, start.touchback) == (OVERTIME_SPOT, False)
    last = starts[-1].drive
    scores = [0, 0]
    for event in log:
        if isinstance(event, ev.ScoreChanged):
            scores[event.team] += event.points
        elif isinstance(event, ev.DriveEnded) and event.drive != last:
            # A drive that did not end the game: never a safety, and never after an even drive
            # with the scores apart.
            assert event.reason is not DriveEnd.SAFETY
            if is_last_drive(event.drive, overtime=True):
                assert scores[0] == scores[1]
    assert list(outcome.scores) == scores
    if outcome.end is GameEnd.BOTH_DRIVES:
        assert is_last_drive(last, overtime=True)
    if outcome.winner is None:  # only at the cap
        assert (outcome.end, last) == (GameEnd.BOTH_DRIVES, LAST_OVERTIME_DRIVE)
    else:
        assert outcome.scores[outcome.winner] > outcome.scores[outcome.winner.other]


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=2**32),
       st.sampled_from([RANDOM, COACH]), st.sampled_from([RANDOM, COACH]))
def test_every_whole_game_between_computers_ends_with_a_winner_in_the_regulation_order(
        seed: int, home: str, away: str) -> None:
    match = computers_game(seed, home, away)
    match.advance()
    assert match.is_over
    check_overtime_game(match.game.log)


def test_many_seeded_games_reach_overtime_and_a_second_pair() -> None:
    """The property above is not empty: the seeds do play overtime, and more than one pair."""
    pairs = []
    for seed in range(300):
        match = computers_game(seed, RANDOM, RANDOM)
        match.advance()
        check_overtime_game(match.game.log)
        pairs.append(overtime_period(match.state.drive))
    assert sum(p >= 1 for p in pairs) > 50 and sum(p >= 2 for p in pairs) > 10


def overtime_log(pairs: int) -> list[ev.Event]:
    """The events of the first seeded coach-against-random game that needed `pairs` pairs."""
    for seed in range(200):
        match = computers_game(seed, COACH, RANDOM)
        match.advance()
        if overtime_period(match.state.drive) >= pairs:
            return match.game.log
    raise AssertionError(f"no seed needed {pairs} overtime pairs")


def test_the_events_of_an_overtime_game_go_over_the_network_and_back_unchanged() -> None:
    log = overtime_log(2)
    assert events_from_list(json.loads(json.dumps(events_to_list(log)))) == log


def test_a_regulation_game_is_the_same_with_the_rule_on_until_a_tie_after_drive_2() -> None:
    """Overtime changes nothing before it starts: the same seeds give the same events up to the
    end of drive 2, and the same whole game unless it was tied then."""
    for seed in range(60):
        off = Match(Game(random.Random(seed)), {
            team: make_computer(COACH, random.Random(f"{team}:{seed}")) for team in Team})
        on = Match(Game(random.Random(seed), overtime=True), {
            team: make_computer(COACH, random.Random(f"{team}:{seed}")) for team in Team})
        off.advance()
        on.advance()
        regulation = off.game.log
        assert off.state.outcome is not None
        if off.state.outcome.winner is not None:
            assert on.game.log == regulation
        else:  # the same up to drive 2's end, which now says where drive 3 starts
            assert on.game.log[:len(regulation) - 2] == regulation[:-2]
            assert on.game.log[len(regulation) - 2] == dataclasses.replace(
                regulation[-2], next_spot=OVERTIME_SPOT)


# -- snapshots -----------------------------------------------------------------------------------





def match_in_overtime(computer: str) -> tuple[Match, random.Random]:
    """The first seeded match against `computer` that reaches the selection step of drive 3."""
    for seed in range(200):
        match = Match.against_computer(seed, computer=computer, overtime=True)
        match.advance()
        human = random.Random(f"human:{seed}")
        while match.pending() is not None:
            state = match.state
            if state.drive == 3 and state.phase is Phase.SUBSTITUTION:
                return match, human
            match.act(human_action(match, human))
    raise AssertionError("no seed reached overtime")


@pytest.mark.parametrize("computer", [RANDOM, COACH])
def test_a_match_restored_mid_overtime_continues_with_exactly_the_same_events(
        computer: str) -> None:
    match, human = match_in_overtime(computer)
    saved = match.to_json()
    assert json.loads(saved)["game"]["state"]["overtime"] is True
    restored = Match.from_json(saved)
    assert restored.state == match.state and restored.state.overtime
    twin = random.Random()
    twin.setstate(human.getstate())
    while match.pending() is not None:
        assert restored.pending() == match.pending()
        assert restored.act(human_action(restored, twin)) == match.act(
            human_action(match, human))
    assert restored.is_over and restored.state == match.state
    assert restored.game.rng.getstate() == match.game.rng.getstate()


def test_a_game_snapshot_keeps_the_rule_and_a_regulation_one_is_as_before() -> None:
    on = Game.from_kickoff(random.Random(3), FIRST, overtime=True)
    assert Game.from_json(on.to_json()).state.overtime
    off = Game.from_kickoff(random.Random(3), FIRST)
    assert "overtime" not in json.loads(off.to_json())["state"]  # the format it always had
    assert not Game.from_json(off.to_json()).state.overtime
    assert "overtime" not in state_to_dict(off.state)


def snapshot_with(**changes: object) -> str:
    data = json.loads(at_snap(3, (7, 7)).to_json())
    data["state"].update(changes)
    return json.dumps(data)


def test_an_old_snapshot_without_the_field_reads_as_off_and_a_bad_value_is_refused() -> None:
    data = json.loads(Game.from_kickoff(random.Random(3), FIRST).to_json())
    data["state"]["overtime"] = False
    assert not Game.from_json(json.dumps(data)).state.overtime
    for bad in ("yes", 1, None, [True]):
        with pytest.raises(SnapshotError, match="not true or false"):
            Game.from_json(snapshot_with(overtime=bad))


def test_an_overtime_drive_is_a_position_only_with_the_rule_on() -> None:
    assert Game.from_json(snapshot_with()).state.drive == 3
    assert Game.from_json(snapshot_with(drive=LAST_OVERTIME_DRIVE)).state.drive == \
        LAST_OVERTIME_DRIVE
    for changes in ({"overtime": False}, {"drive": LAST_OVERTIME_DRIVE + 1}):
        with pytest.raises(SnapshotError, match="the drive are out of range"):
            Game.from_json(snapshot_with(**changes))
    with pytest.raises(SnapshotError, match="the drive are out of range"):
        data = json.loads(snapshot_with())
        del data["state"]["overtime"]  # an old snapshot: off, so drive 3 cannot be
        Game.from_json(json.dumps(data))


# -- the simulator -------------------------------------------------------------------------------


def run_cli(*args: str) -> dict:
    result = subprocess.run([sys.executable, "-m", "sudden_death.simulate", *args],
                            capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def test_the_simulator_with_overtime_gives_the_same_json_for_the_same_seed() -> None:
    args = ("--games", "300", "--seed", "3", "--json", "--overtime", "--second-team", "smart")
    data = run_cli(*args)
    assert run_cli(*args) == data
    overtime = data["overtime"]
    assert set(overtime) == {"tie_rate", "games", "share", "by_pairs", "outcomes",
                             "game_length"}
    assert overtime["tie_rate"] == data["outcomes"]["ties"] / 300 == 0
    assert 0 < overtime["games"] == sum(overtime["by_pairs"].values()) < 300
    assert overtime["share"] == round(overtime["games"] / 300, 6)
    assert sum(overtime["outcomes"].values()) == overtime["games"]
    length = overtime["game_length"]
    assert set(length) == {"drives", "snaps"}
    assert length["drives"]["max"] == 2 * (1 + max(int(p) for p in overtime["by_pairs"]))
    assert length["drives"]["median"] == 2


def test_the_simulator_with_overtime_is_the_same_whatever_the_number_of_processes() -> None:
    one = simulate(2400, seed=9, jobs=1, overtime=True).as_json()
    assert simulate(2400, seed=9, jobs=2, overtime=True).as_json() == one
    assert one["outcomes"]["ties"] == 0 and one["overtime"]["games"] > 0


# Made by the simulator before the house rule existed: overtime off must give these still (a
# change to the rules' data or the computers changes them, and then this table with it).
REGULATION_300_SEED_5 = {
    ("random", "coach"): ({"first_team_wins": 42, "second_team_wins": 162, "ties": 96},
                          {"first_team": 583, "second_team": 1283}, 2712),
    ("coach", "random"): ({"first_team_wins": 139, "second_team_wins": 81, "ties": 80},
                          {"first_team": 1132, "second_team": 741}, 2613),
}


@pytest.mark.parametrize(("first", "second"), list(REGULATION_300_SEED_5))
def test_without_overtime_the_simulator_gives_what_it_always_gave(first: str,
                                                                  second: str) -> None:
    data = simulate(300, 5, first, second, 1).as_json()
    assert "overtime" not in data
    outcomes, points, plays = REGULATION_300_SEED_5[first, second]
    assert (data["outcomes"], data["points"], data["plays"]["count"]) == (
        outcomes, points, plays)
    assert sum(data["drives"].values()) <= 600


def test_the_off_json_has_no_overtime_key_and_the_report_says_the_rule_is_off() -> None:
    assert "overtime" not in run_cli("--games", "50", "--seed", "2", "--json")
    report = subprocess.run(
        [sys.executable, "-m", "sudden_death.simulate", "--games", "200", "--seed", "2",
         "--report", "--overtime"], capture_output=True, text=True, check=True).stdout
    assert "Overtime: on;" in report and "went to overtime" in report
    assert "Game length" in report and "drives mean" in report and "snaps  mean" in report
    plain = subprocess.run(
        [sys.executable, "-m", "sudden_death.simulate", "--games", "50", "--seed", "2",
         "--report"], capture_output=True, text=True, check=True).stdout
    assert "Overtime: off" in plain and "drives mean 2.00, median 2, max 2" in plain


def test_a_tally_of_overtime_games_merges_only_with_another() -> None:
    with pytest.raises(ValueError, match="merges only"):
        Tally(overtime=True).merge(Tally())


@pytest.mark.parametrize(("histogram", "expected"), [
    ({}, {"mean": 0.0, "median": 0.0, "max": 0}),
    ({2: 3}, {"mean": 2.0, "median": 2.0, "max": 2}),
    ({2: 1, 4: 1}, {"mean": 3.0, "median": 3.0, "max": 4}),
    ({2: 2, 4: 1, 10: 1}, {"mean": 4.5, "median": 3.0, "max": 10}),
    ({1: 1, 2: 5, 9: 1}, {"mean": 2.857, "median": 2.0, "max": 9}),  # 20 / 7
])
def test_the_spread_of_a_histogram(histogram: dict[int, int],
                                   expected: dict[str, float]) -> None:
    assert spread(Counter(histogram)) == expected
