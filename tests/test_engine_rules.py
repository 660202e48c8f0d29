"""One test per rule, with the dice forced (see engine_helpers.ForcedDice)."""

from __future__ import annotations

import pytest
from engine_helpers import (
    ForcedDice,
    d6,
    drive_start,
    even_defense,
    final_call_game,
    final_calls,
    only,
    pct,
    percent_for_yards,
    snap_game,
    step,
    three_d6,
)

from sudden_death.engine import (
    CallCoin,
    ChooseSide,
    ChooseSnap,
    CoinFace,
    Concede,
    DefCall,
    DriveEnd,
    Game,
    GameEnd,
    IllegalCallError,
    IllegalChoiceError,
    IllegalSelectionError,
    OffCall,
    Phase,
    PickHand,
    Player,
    PlayResult,
    Side,
    SnapChoice,
    Team,
)
from sudden_death.engine import events as ev
from sudden_death.engine.cards import OFFENSIVE_CALLS
from sudden_death.engine.dice import Roll
from sudden_death.engine.field import Down
from sudden_death.engine.resolve import pick_yards, resolve_play

# Defensive calls that leave these offensive calls at band 0, whatever the card data says.
RUN_EVEN = even_defense(OffCall.INSIDE_RUN)
SCREEN_EVEN = even_defense(OffCall.SCREEN)





# -- coin toss and the opening drive ---------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "coin_draw", "winner"),
    [
        (CoinFace.HEADS, 0.25, Team.HOME),
        (CoinFace.HEADS, 0.75, Team.AWAY),
        (CoinFace.TAILS, 0.75, Team.HOME),
    ],
)
def test_coin_toss_winner_chooses_and_first_drive_starts_at_own_25(call, coin_draw, winner):
    game = Game(ForcedDice([coin_draw]))
    tossed = only(step(game, CallCoin(call)), ev.CoinTossed)
    assert tossed.winner is winner and game.phase is Phase.SIDE_CHOICE
    events = step(game, ChooseSide(Side.DEFENSE))
    start = drive_start(events)
    assert start.offense is winner.other and start.spot == 25 and start.drive == 1
    assert game.state.down.number == 1 and game.state.down.marker == 35
    assert game.phase is Phase.SNAP_CHOICE


# -- touchdowns and extra points ---------------------------------------------------------------


@pytest.mark.parametrize(("total", "good"), [(5, False), (6, True), (18, True)])
def test_touchdown_scores_six_then_extra_point_needs_six_and_drive_two_starts_at_25(total, good):
    yards = 8
    dice = pct(percent_for_yards(OffCall.INSIDE_RUN, 0, yards)) + three_d6(total)
    game = final_call_game(95, OffCall.INSIDE_RUN, RUN_EVEN, dice)
    events = final_calls(game, OffCall.INSIDE_RUN, RUN_EVEN)
    assert game.rng.exhausted  # no fumble check was rolled on a touchdown run
    play = only(events, ev.PlayResolved)
    assert (play.yards, play.spot) == (5, 100)  # an 8-yard row from the 95 gains only 5
    assert only(events, ev.ExtraPoint).good is good
    assert game.state.scores == (7 if good else 6, 0)
    start = drive_start(events)
    assert (start.offense, start.spot, start.after) == (Team.AWAY, 25, DriveEnd.TOUCHDOWN)
    assert [e.points for e in events if isinstance(e, ev.ScoreChanged)] == [6, 1][: 1 + good]


def test_touchdown_on_the_second_drive_still_kicks_the_extra_point_then_ends_the_game():
    dice = pct(percent_for_yards(OffCall.INSIDE_RUN, 0, 8)) + three_d6(10)
    game = final_call_game(
        95,
        OffCall.INSIDE_RUN,
        RUN_EVEN,
        dice,
        drive=2,
        offense=Team.AWAY,
        scores=(7, 0),
    )
    events = final_calls(game, OffCall.INSIDE_RUN, RUN_EVEN)
    outcome = only(events, ev.GameOver).outcome
    assert outcome.scores == (7, 7) and outcome.winner is None  # a tie
    assert outcome.end is GameEnd.BOTH_DRIVES and game.is_over


# -- field goals --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "distance", "needed"),
    [(78, 39, 6), (77, 40, 8), (68, 49, 8), (67, 50, 10), (58, 59, 10), (57, 60, 13), (52, 65, 13)],
)
def test_field_goal_thresholds_at_their_edges(line, distance, needed):
    miss = snap_game(line, dice=three_d6(needed - 1))
    missed = only(step(miss, ChooseSnap(SnapChoice.FIELD_GOAL)), ev.FieldGoal)
    assert (missed.distance, missed.needed, missed.good) == (distance, needed, False)
    make = snap_game(line, dice=three_d6(needed))
    events = step(make, ChooseSnap(SnapChoice.FIELD_GOAL))
    assert only(events, ev.FieldGoal).good
    assert make.state.scores == (3, 0)
    start = drive_start(events)
    assert (start.offense, start.spot, start.after) == (Team.AWAY, 25, DriveEnd.FIELD_GOAL_MADE)


def test_a_66_yard_field_goal_is_refused_and_changes_nothing():
    game = snap_game(51)
    assert SnapChoice.FIELD_GOAL not in game.legal_snaps()
    before = game.state
    from sudden_death.engine import KickUnavailableError

    with pytest.raises(KickUnavailableError, match="66"):
        step(game, ChooseSnap(SnapChoice.FIELD_GOAL))
    assert game.state is before and game.log == []
    assert SnapChoice.FIELD_GOAL in snap_game(52).legal_snaps()


@pytest.mark.parametrize(("line", "spot"), [(60, 47), (80, 27), (86, 21), (87, 20), (95, 20)])
def test_missed_field_goal_gives_the_kicking_spot_or_the_own_20(line, spot):
    game = snap_game(line, dice=three_d6(3))
    start = drive_start(step(game, ChooseSnap(SnapChoice.FIELD_GOAL)))
    assert (start.spot, start.after) == (spot, DriveEnd.FIELD_GOAL_MISSED)


# -- punts --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("total", "net"), [(3, 30), (7, 30), (8, 40), (13, 40), (14, 50), (18, 50)]
)
def test_punt_net_by_three_dice(total, net):
    game = snap_game(20, dice=three_d6(total))
    events = step(game, ChooseSnap(SnapChoice.PUNT))
    punt = only(events, ev.Punt)
    assert punt.net == net and not punt.touchback
    start = drive_start(events)
    assert (start.spot, start.after) == (100 - (20 + net), DriveEnd.PUNT)


@pytest.mark.parametrize(("line", "touchback"), [(59, False), (60, True), (75, True)])
def test_punt_into_the_end_zone_is_a_touchback_at_the_20(line, touchback):
    game = snap_game(line, dice=three_d6(10))  # 40 net
    start = drive_start(step(game, ChooseSnap(SnapChoice.PUNT)))
    assert start.touchback is touchback
    assert start.spot == (20 if touchback else 100 - (line + 40))


# -- turnovers, downs, safety -----------------------------------------------------------------


def test_interception_gives_the_ball_at_the_previous_line():
    table = OFFENSIVE_CALLS[OffCall.SCREEN].bands[0]
    game = final_call_game(37, OffCall.SCREEN, SCREEN_EVEN, pct(table.sack + 1))
    events = final_calls(game, OffCall.SCREEN, SCREEN_EVEN)
    assert only(events, ev.PlayResolved).result is PlayResult.INTERCEPTION
    start = drive_start(events)
    assert (start.offense, start.spot, start.after) == (Team.AWAY, 63, DriveEnd.INTERCEPTION)


def test_lost_fumble_gives_the_ball_at_the_resulting_spot():
    dice = pct(percent_for_yards(OffCall.INSIDE_RUN, 0, 5)) + pct(1) + d6(4)
    game = final_call_game(30, OffCall.INSIDE_RUN, RUN_EVEN, dice)
    events = final_calls(game, OffCall.INSIDE_RUN, RUN_EVEN)
    assert only(events, ev.Fumble).lost
    start = drive_start(events)
    assert (start.spot, start.after) == (65, DriveEnd.FUMBLE_LOST)


def test_recovered_fumble_keeps_the_drive_going_at_the_spot():
    dice = pct(percent_for_yards(OffCall.INSIDE_RUN, 0, 5)) + pct(1) + d6(3)
    game = final_call_game(30, OffCall.INSIDE_RUN, RUN_EVEN, dice)
    events = final_calls(game, OffCall.INSIDE_RUN, RUN_EVEN)
    assert not only(events, ev.Fumble).lost
    assert game.state.down.number == 2 and game.state.down.line == 35 and game.state.drive == 1


def test_failed_fourth_down_gives_the_ball_at_the_resulting_spot():
    dice = pct(percent_for_yards(OffCall.INSIDE_RUN, 0, 2)) + pct(100)
    game = final_call_game(40, OffCall.INSIDE_RUN, RUN_EVEN, dice, down=4, marker=45)
    events = final_calls(game, OffCall.INSIDE_RUN, RUN_EVEN)
    assert only(events, ev.TurnoverOnDowns).spot == 42
    start = drive_start(events)
    assert (start.spot, start.after) == (58, DriveEnd.DOWNS)


def test_gaining_the_marker_on_fourth_down_is_a_first_down():
    dice = pct(percent_for_yards(OffCall.INSIDE_RUN, 0, 5)) + pct(100)
    game = final_call_game(40, OffCall.INSIDE_RUN, RUN_EVEN, dice, down=4, marker=45)
    events = final_calls(game, OffCall.INSIDE_RUN, RUN_EVEN)
    assert only(events, ev.FirstDown).spot == 45
    assert game.state.down.number == 1 and game.state.down.marker == 55


def test_a_short_gain_uses_up_a_down_and_keeps_the_marker():
    dice = pct(percent_for_yards(OffCall.INSIDE_RUN, 0, 3)) + pct(100)
    game = final_call_game(40, OffCall.INSIDE_RUN, RUN_EVEN, dice)
    final_calls(game, OffCall.INSIDE_RUN, RUN_EVEN)
    down = game.state.down
    assert (down.number, down.line, down.marker, down.distance) == (2, 43, 50, 7)


def test_goal_to_go_when_the_marker_passes_the_goal_line():
    dice = pct(percent_for_yards(OffCall.INSIDE_RUN, 0, 6)) + pct(100)
    game = final_call_game(85, OffCall.INSIDE_RUN, RUN_EVEN, dice, marker=90)
    final_calls(game, OffCall.INSIDE_RUN, RUN_EVEN)
    down = game.state.down
    assert down.number == 1 and down.goal_to_go and down.distance == 9


def test_sack_into_the_end_zone_is_a_safety_that_ends_the_game_at_once():
    table = OFFENSIVE_CALLS[OffCall.SCREEN].bands[0]
    assert table.sack >= 1
    game = final_call_game(5, OffCall.SCREEN, SCREEN_EVEN, pct(1) + d6(3, 4))
    events = final_calls(game, OffCall.SCREEN, SCREEN_EVEN)
    assert game.rng.exhausted  # no fumble check on a safety
    play = only(events, ev.PlayResolved)
    # Sack dice of 7 from the 5: the ball stops in the end zone, so the loss is 5 yards.
    assert (play.result, play.yards, play.spot) == (PlayResult.SACK, -5, 0)
    assert play.result is PlayResult.SACK  # the enum member, not only an equal string
    assert play.yardage_roll is not None and play.yardage_roll.total == 7
    assert only(events, ev.Safety).team is Team.AWAY
    outcome = only(events, ev.GameOver).outcome
    assert (
        outcome.end is GameEnd.SAFETY and outcome.scores == (0, 2) and outcome.winner is Team.AWAY
    )
    assert only(events, ev.DriveEnded).next_spot is None and game.is_over


def test_sack_that_stays_in_the_field_loses_two_dice_of_yards():
    game = final_call_game(30, OffCall.SCREEN, SCREEN_EVEN, pct(1) + d6(6, 5) + pct(100))
    events = final_calls(game, OffCall.SCREEN, SCREEN_EVEN)
    assert only(events, ev.PlayResolved).spot == 19 and game.state.down.distance == 21


def test_incomplete_pass_keeps_the_line():
    table = OFFENSIVE_CALLS[OffCall.SCREEN].bands[0]
    game = final_call_game(
        30, OffCall.SCREEN, SCREEN_EVEN, pct(table.sack + table.interception + 1)
    )
    events = final_calls(game, OffCall.SCREEN, SCREEN_EVEN)
    assert only(events, ev.PlayResolved).result is PlayResult.INCOMPLETE
    assert game.state.down.number == 2 and game.state.down.line == 30


def test_a_tie_when_both_drives_end_level():
    game = snap_game(60, drive=2, offense=Team.AWAY, scores=(3, 0), dice=three_d6(13))
    outcome = only(step(game, ChooseSnap(SnapChoice.FIELD_GOAL)), ev.GameOver).outcome
    assert outcome.scores == (3, 3) and outcome.winner is None


def test_the_second_drive_ending_any_way_ends_the_game():
    game = snap_game(30, drive=2, offense=Team.AWAY, scores=(0, 0), dice=three_d6(10))
    events = step(game, ChooseSnap(SnapChoice.PUNT))
    assert only(events, ev.DriveEnded).next_spot is None
    assert game.is_over and not any(isinstance(e, ev.DriveStarted) for e in events)


def test_conceding_ends_the_game_for_the_other_team_whatever_the_score():
    game = snap_game(30, scores=(7, 0))
    outcome = only(game.apply({Team.HOME: Concede()}), ev.GameOver).outcome
    assert outcome.winner is Team.AWAY and outcome.end is GameEnd.CONCEDED


def test_a_run_stopped_on_its_own_goal_line_is_a_safety_and_never_checks_for_a_fumble() -> None:
    # Inside Run at band 0: a roll of 1 is the first row, a loss of 3. From the 3 it ends at 0
    # (the goal line: a safety, which stands, so no fumble die); from the 4 it ends at the 1,
    # a play like any other, so the fumble check is rolled (100: held on to).
    safety = resolve_play(OffCall.INSIDE_RUN, 0, 3, ForcedDice(pct(1)))
    assert (safety.yards, safety.fumble_roll) == (-3, None)
    at_one = ForcedDice(pct(1) + pct(100))
    held = resolve_play(OffCall.INSIDE_RUN, 0, 4, at_one)
    assert held.yards == -3 and not held.fumbled
    assert held.outcome_roll is None  # a run has no pass roll
    assert held.yardage_roll is not None and held.yardage_roll.total == 1
    assert held.fumble_roll is not None and held.fumble_roll.total == 100
    assert at_one.exhausted


def test_a_pass_that_is_fumbled_keeps_every_roll_in_order() -> None:
    # Quick Slant at band 0: sack 4, interception 2 and incomplete 28 percent, so a pass roll
    # of 35 is complete; a yardage roll of 1 is its first row, 4 yards; a fumble check of 1
    # (its fumble chance is 1 percent) fumbles, and a recovery die of 5 goes to the defense.
    dice = ForcedDice(pct(35) + pct(1) + pct(1) + d6(5))
    play = resolve_play(OffCall.QUICK_SLANT, 0, 40, dice)
    assert (play.result, play.yards) == (PlayResult.COMPLETE, 4)
    assert [r.total if r else None for r in (play.outcome_roll, play.yardage_roll,
                                              play.fumble_roll, play.recovery_roll)] == [
        35, 1, 1, 5]
    assert play.recovery_roll is not None and play.recovery_roll.sides == 6
    assert play.fumbled and play.fumble_lost and dice.exhausted


def test_a_yardage_roll_past_the_table_is_refused_by_name() -> None:
    table = OFFENSIVE_CALLS[OffCall.INSIDE_RUN].bands[0]
    total = sum(weight for _yards, weight in table.yards)
    assert total == 100 and pick_yards(table, 100) == table.yards[-1][0]
    with pytest.raises(ValueError) as raised:
        pick_yards(table, 101)
    assert str(raised.value) == "weights of the table sum to 100, below the roll 101"


@pytest.mark.parametrize(("draw", "face"), [
    (0.0, CoinFace.HEADS), (0.49, CoinFace.HEADS), (0.5, CoinFace.TAILS),
    (0.99, CoinFace.TAILS)])
@pytest.mark.parametrize("call", list(CoinFace))
def test_the_coin_is_an_even_chance_and_the_caller_wins_on_a_match(
        draw: float, face: CoinFace, call: CoinFace) -> None:
    dice = ForcedDice([draw])
    game = Game(dice)
    events = step(game, CallCoin(call))
    winner = Team.HOME if face is call else Team.AWAY
    assert events == [ev.CoinTossed(call, face, winner)] and dice.exhausted
    assert game.state.coin_winner is winner and game.phase is Phase.SIDE_CHOICE


def test_a_first_down_step_says_every_part_of_it_in_order() -> None:
    # Inside Run against Man Coverage is band +1; the Power Back adds 1 and the Nose Tackle
    # takes 1 away: band +1. A 12-yard row from the 40 passes the marker at the 50.
    yardage = percent_for_yards(OffCall.INSIDE_RUN, 1, 12)
    game = final_call_game(40, OffCall.INSIDE_RUN, DefCall.MAN_COVERAGE,
                           pct(yardage) + pct(100),
                           offense_players=(Player.POWER_BACK, Player.SCATBACK),
                           defense_players=(Player.NOSE_TACKLE, Player.SHUTDOWN_CORNER))
    events = final_calls(game, OffCall.INSIDE_RUN, DefCall.MAN_COVERAGE)
    assert events == [
        ev.FinalCallsRevealed(OffCall.INSIDE_RUN, DefCall.MAN_COVERAGE),
        ev.BandSet(1, 1, 1, 1, Player.POWER_BACK, Player.NOSE_TACKLE),
        ev.PlayResolved(Team.HOME, OffCall.INSIDE_RUN, 1, PlayResult.RUN, 40, 12, 52, None,
                        Roll((yardage,), 100)),
        ev.FirstDown(Team.HOME, 52),
        ev.DownStarted(Team.HOME, Down(1, 52, 62)),
    ]
    assert game.state.offense_hand is None and game.state.defense_hand is None  # played


def test_a_touchdown_tries_the_extra_point_for_the_scorer() -> None:
    # Three dice must total 6 or more for the extra point: 3 misses, 6 is good.
    for total, good in ((3, False), (6, True)):
        dice = pct(percent_for_yards(OffCall.INSIDE_RUN, 0, 3)) + three_d6(total)
        game = final_call_game(98, OffCall.INSIDE_RUN, RUN_EVEN, dice)
        kick = only(final_calls(game, OffCall.INSIDE_RUN, RUN_EVEN), ev.ExtraPoint)
        assert kick == ev.ExtraPoint(Team.HOME, kick.roll, 6, good)  # type: ignore[attr-defined]
        assert kick.roll.total == total  # type: ignore[attr-defined]


def test_a_loss_to_the_one_is_a_down_like_any_other_and_a_fumble_says_where() -> None:
    # From the 4, Inside Run at band 0 with a roll of 1 loses 3: the 1-yard line, no safety.
    game = final_call_game(4, OffCall.INSIDE_RUN, RUN_EVEN, pct(1) + pct(100))
    events = final_calls(game, OffCall.INSIDE_RUN, RUN_EVEN)
    assert not any(isinstance(e, ev.Safety) for e in events)
    assert events[-1] == ev.DownStarted(Team.HOME, Down(2, 1, 14))
    # The same loss, fumbled (check 1 of 100, its chance is 1 percent) and kept (die 2).
    game = final_call_game(4, OffCall.INSIDE_RUN, RUN_EVEN, pct(1) + pct(1) + d6(2))
    fumble = only(final_calls(game, OffCall.INSIDE_RUN, RUN_EVEN), ev.Fumble)
    assert fumble == ev.Fumble(Team.HOME, 1, Roll((1,), 100), Roll((2,), 6), False)


@pytest.mark.parametrize("side", ["offense", "defense"])
def test_a_final_call_outside_the_hand_is_refused_by_side(side: str) -> None:
    game = final_call_game(40, OffCall.INSIDE_RUN, RUN_EVEN, [])
    hand = game.state.offense_hand if side == "offense" else game.state.defense_hand
    assert hand is not None
    offense = next(c for c in OffCall if c not in hand.calls) if side == "offense" \
        else OffCall.INSIDE_RUN
    defense = next(c for c in DefCall if c not in hand.calls) if side == "defense" \
        else RUN_EVEN
    with pytest.raises(IllegalCallError) as raised:
        final_calls(game, offense, defense)
    assert str(raised.value) == f"the {side}'s final call must be one of its three calls"


def test_a_punt_hands_the_ball_over_where_the_rules_say() -> None:
    # Three dice totalling 10 punt 40 yards. From the 30 the ball lands at the 70: the
    # receivers start at their own 30. From the 75 it would land past the goal: a touchback,
    # at their own 20.
    for line, spot, touchback in ((30, 30, False), (75, 20, True)):
        game = snap_game(line, dice=three_d6(10))
        events = step(game, ChooseSnap(SnapChoice.PUNT))
        assert events == [
            ev.SnapChosen(Team.HOME, SnapChoice.PUNT),
            ev.Punt(Team.HOME, line, Roll((6, 3, 1), 6), 40, touchback, spot),
            ev.DriveEnded(1, Team.HOME, DriveEnd.PUNT, spot, touchback),
            ev.DriveStarted(2, Team.AWAY, spot, DriveEnd.PUNT, touchback),
            ev.DownStarted(Team.AWAY, Down(1, spot, spot + 10)),
        ]


def test_a_punt_on_the_last_drive_ends_the_game_with_no_down_left() -> None:
    game = snap_game(30, drive=2, scores=(3, 0), dice=three_d6(10))
    events = step(game, ChooseSnap(SnapChoice.PUNT))
    outcome = ev.GameOver(game.state.outcome)  # type: ignore[arg-type]
    assert events[-2:] == [ev.DriveEnded(2, Team.HOME, DriveEnd.PUNT, None, False), outcome]
    assert game.state.outcome is not None and game.state.outcome.winner is Team.HOME
    assert game.state.down is None and game.phase is Phase.GAME_OVER


def test_a_failed_fourth_down_is_no_touchback() -> None:
    # No gain on 4th and 10 at the 40: the other side starts at the spot, its own 60.
    dice = pct(percent_for_yards(OffCall.INSIDE_RUN, 0, 0)) + pct(100)
    game = final_call_game(40, OffCall.INSIDE_RUN, RUN_EVEN, dice, down=4)
    events = final_calls(game, OffCall.INSIDE_RUN, RUN_EVEN)
    assert events[-4:-1] == [
        ev.TurnoverOnDowns(Team.HOME, 40),
        ev.DriveEnded(1, Team.HOME, DriveEnd.DOWNS, 60, False),
        ev.DriveStarted(2, Team.AWAY, 60, DriveEnd.DOWNS, False),
    ]


def test_a_selection_that_is_not_a_hand_says_what_it_was() -> None:
    game = snap_game(40, dice=[])
    step(game, ChooseSnap(SnapChoice.PLAY))
    with pytest.raises(IllegalSelectionError) as raised:
        game.apply({Team.HOME: PickHand(7), Team.AWAY: PickHand(7)})  # type: ignore[arg-type]
    assert str(raised.value) == "a selection must be a Hand, not 7"


def test_a_field_goal_is_kicked_from_the_line_plus_17() -> None:
    # From the 82: 18 yards to the goal + 17 = 35 yards, which needs 6 on three dice.
    for total, good in ((5, False), (6, True)):
        game = snap_game(82, dice=three_d6(total))
        kick = only(step(game, ChooseSnap(SnapChoice.FIELD_GOAL)), ev.FieldGoal)
        assert kick == ev.FieldGoal(Team.HOME, 82, 35, 6, kick.roll, good)  # type: ignore[attr-defined]
        assert kick.roll.total == total  # type: ignore[attr-defined]


def test_the_opening_drive_starts_at_the_25_with_first_and_10() -> None:
    game = Game(ForcedDice([0.0]))  # the coin shows heads
    step(game, CallCoin(CoinFace.HEADS))  # the home team calls it and wins
    events = step(game, ChooseSide(Side.DEFENSE))  # and gives the ball to the away team
    assert events == [
        ev.SideChosen(Team.HOME, Side.DEFENSE),
        ev.DriveStarted(1, Team.AWAY, 25, None, False),
        ev.DownStarted(Team.AWAY, Down(1, 25, 35)),
    ]


def test_a_choice_given_by_its_value_is_taken_and_a_wrong_one_is_named() -> None:
    game = Game(ForcedDice([0.0]))
    events = game.apply({Team.HOME: CallCoin("heads")})  # type: ignore[arg-type]
    assert events == [ev.CoinTossed(CoinFace.HEADS, CoinFace.HEADS, Team.HOME)]
    with pytest.raises(IllegalChoiceError) as raised:
        game.apply({Team.HOME: ChooseSide("sideways")})  # type: ignore[arg-type]
    assert str(raised.value) == "'sideways' is not a valid Side"
