"""Whole games: invariants over hundreds of seeded and generated games, determinism, and the
computer committing before the human."""

from __future__ import annotations

import random
from collections import Counter

from engine_helpers import in_card_order
from hypothesis import given, settings
from hypothesis import strategies as st

from sudden_death.engine import (
    Action,
    CallCoin,
    ChooseSide,
    ChooseSnap,
    CoinFace,
    DefCall,
    DriveEnd,
    Game,
    GameEnd,
    GameState,
    Hand,
    IllegalSelectionError,
    Match,
    OffCall,
    Phase,
    PickFinal,
    PickHand,
    PickSwap,
    Player,
    RandomComputer,
    Role,
    Side,
    SnapChoice,
    Swap,
    SwapKind,
    Team,
    legal_actions,
)
from sudden_death.engine import events as ev
from sudden_death.engine.cards import calls_for, players_for
from sudden_death.engine.policy import fourth_down_kick

MAX_ACTIONS = 2000


class ChaosPolicy(RandomComputer):
    """Random like the computer, but also kicks on any down and goes for it on fourth down,
    so every drive-ending path (including turnovers on downs) shows up."""

    def choose(self, state: GameState, team: Team, legal: tuple[Action, ...]) -> Action:
        if not isinstance(legal[0], ChooseSnap):
            return super().choose(state, team, legal)
        roll = self.rng.random()
        if roll < 0.8:
            return ChooseSnap(SnapChoice.PLAY)
        return self.rng.choice(legal)


def check_invariants(events: list[ev.Event]) -> None:
    scores = [0, 0]
    drives = 0
    for event in events:
        if isinstance(event, ev.DownStarted):
            assert 0 < event.down.line < 100
            assert 1 <= event.down.number <= 4
            assert 0 < event.down.distance <= event.down.marker - event.down.line
        elif isinstance(event, ev.ScoreChanged):
            assert event.points in (1, 2, 3, 6)
            scores[event.team] += event.points
            assert list(event.scores) == scores
        elif isinstance(event, ev.DriveStarted):
            drives += 1
            assert 0 < event.spot < 100
        elif isinstance(event, ev.PlayResolved):
            assert -3 <= event.band <= 3 and 0 <= event.spot <= 100
            # The yards are what the ball moved: never past either goal line.
            assert event.spot == event.line + event.yards
    over = events[-1]
    assert isinstance(over, ev.GameOver), "the game must end"
    assert sum(isinstance(e, ev.GameOver) for e in events) == 1
    assert list(over.outcome.scores) == scores
    if over.outcome.end is GameEnd.SAFETY:
        assert drives in (1, 2)
    else:
        assert drives == 2
    ended = [e for e in events if isinstance(e, ev.DriveEnded)]
    assert len(ended) == drives
    assert all(e.reason is not DriveEnd.SAFETY for e in ended[:-1])


def play_out(match: Match) -> list[ev.Event]:
    match.advance()
    for _ in range(MAX_ACTIONS):
        if match.game.is_over:
            return match.game.log
        match.advance()
    raise AssertionError("the game did not end")


def computers(policy: type[RandomComputer], seed: int) -> Match:
    game = Game(random.Random(seed))
    return Match(
        game,
        {
            Team.HOME: policy(random.Random(f"home{seed}")),
            Team.AWAY: policy(random.Random(f"away{seed}")),
        },
    )


def test_five_hundred_seeded_games_of_the_rules_computer_keep_every_invariant():
    ends: Counter[str] = Counter()
    for seed in range(500):
        log = play_out(computers(RandomComputer, seed))
        check_invariants(log)
        ends.update(e.reason.value for e in log if isinstance(e, ev.DriveEnded))
    assert ends["touchdown"] and ends["punt"] and ends["field_goal_made"]
    assert ends["downs"] == 0  # the computer never goes for it on fourth down


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_generated_games_with_kicks_on_any_down_keep_every_invariant(seed):
    check_invariants(play_out(computers(ChaosPolicy, seed)))


def test_chaos_games_reach_every_way_a_drive_can_end():
    seen = set()
    for seed in range(1500):
        log = play_out(computers(ChaosPolicy, seed))
        seen.update(e.reason for e in log if isinstance(e, ev.DriveEnded))
        if seen == set(DriveEnd):
            break
    assert seen == set(DriveEnd)


def test_same_seed_same_game():
    first = play_out(computers(RandomComputer, 42))
    again = play_out(computers(RandomComputer, 42))
    assert first == again
    assert play_out(computers(RandomComputer, 43)) != first


# -- the computer of the rules ----------------------------------------------------------------


def state_at(down: int, line: int) -> GameState:
    from sudden_death.engine import Down

    return GameState(
        phase=Phase.SNAP_CHOICE, drive=1, offense=Team.AWAY, down=Down(down, line, line + 10)
    )


def test_computer_plays_downs_one_to_three_then_kicks_on_fourth():
    all_snaps = tuple(SnapChoice)
    no_fg = (SnapChoice.PLAY, SnapChoice.PUNT)
    for down in (1, 2, 3):
        assert fourth_down_kick(state_at(down, 90), all_snaps) is SnapChoice.PLAY
    assert fourth_down_kick(state_at(4, 52), all_snaps) is SnapChoice.FIELD_GOAL
    assert fourth_down_kick(state_at(4, 51), no_fg) is SnapChoice.PUNT


def test_computer_choices_are_legal_and_uniform():
    computer = RandomComputer(random.Random(5))
    team = Team.HOME  # on offense
    selection = GameState(
        phase=Phase.SELECTION, drive=1, offense=team, down=state_at(1, 30).down
    )
    theirs = Hand(players_for(Role.DEFENSE)[:2], calls_for(Role.DEFENSE)[:3])
    hands = legal_actions(selection, team)
    kinds: Counter[SwapKind] = Counter()
    outs: dict[SwapKind, Counter[int]] = {SwapKind.PLAYER: Counter(), SwapKind.CALL: Counter()}
    finals: Counter[object] = Counter()
    picked: Counter[object] = Counter()
    trials = 6000
    for _ in range(trials):
        action = computer.choose(selection, team, hands)
        assert isinstance(action, PickHand) and in_card_order(action.hand) in hands
        hand = action.hand
        assert len(set(hand.players)) == 2 and set(hand.players) <= set(players_for(Role.OFFENSE))
        assert len(set(hand.calls)) == 3 and set(hand.calls) <= set(calls_for(Role.OFFENSE))
        picked.update(hand.players)
        substitution = GameState(
            phase=Phase.SUBSTITUTION, drive=1, offense=team, down=selection.down,
            offense_hand=hand, defense_hand=theirs,
        )
        swaps = legal_actions(substitution, team)
        action = computer.choose(substitution, team, swaps)
        assert isinstance(action, PickSwap) and action in swaps
        swap = action.swap
        kinds[swap.kind] += 1
        if swap.kind is not SwapKind.KEEP:
            held = hand.players if swap.kind is SwapKind.PLAYER else hand.calls
            assert swap.out in held and swap.into not in held
            outs[swap.kind][held.index(swap.out)] += 1
        final_call = GameState(
            phase=Phase.FINAL_CALL, drive=1, offense=team, down=selection.down,
            offense_hand=hand, defense_hand=theirs,
        )
        calls = legal_actions(final_call, team)
        action = computer.choose(final_call, team, calls)
        assert isinstance(action, PickFinal) and action in calls
        finals[hand.calls.index(action.call)] += 1
    for count in (*kinds.values(), *finals.values()):
        assert abs(count / trials - 1 / 3) < 0.03
    for count in picked.values():
        assert abs(count / trials - 1 / 2) < 0.03  # each of 4 players is in half the hands
    for kind, held_count in ((SwapKind.PLAYER, 2), (SwapKind.CALL, 3)):
        replaced = outs[kind]
        assert len(replaced) == held_count  # any held card may go out, each equally often
        for count in replaced.values():
            assert abs(count / kinds[kind] - 1 / held_count) < 0.05


def test_computer_defends_with_defensive_cards():
    computer = RandomComputer(random.Random(6))
    state = GameState(phase=Phase.SELECTION, drive=1, offense=Team.HOME, down=state_at(1, 30).down)
    for _ in range(200):
        action = computer.choose(state, Team.AWAY, legal_actions(state, Team.AWAY))
        assert isinstance(action, PickHand)
        assert in_card_order(action.hand) in legal_actions(state, Team.AWAY)
        assert set(action.hand.players) <= set(players_for(Role.DEFENSE))
        assert set(action.hand.calls) <= set(calls_for(Role.DEFENSE))
        assert all(isinstance(call, DefCall) for call in action.hand.calls)


def test_computer_picks_its_side_at_random_when_it_wins_the_toss():
    sides = Counter()
    for seed in range(200):
        match = Match.against_computer(seed)
        match.advance()
        match.act(CallCoin(CoinFace.HEADS))
        if match.game.state.coin_winner is Team.AWAY:
            (chosen,) = [e for e in match.game.log if isinstance(e, ev.SideChosen)]
            assert chosen.team is Team.AWAY
            sides[chosen.side] += 1
        else:
            assert match.pending().phase is Phase.SIDE_CHOICE
    assert sides[Side.OFFENSE] > 20 and sides[Side.DEFENSE] > 20


# -- the human and the computer ----------------------------------------------------------------


def human_match(seed: int) -> Match:
    """A match where the human won the toss and is on offense at its first selection."""
    for attempt in range(seed, seed + 50):
        match = Match.against_computer(attempt)
        match.advance()
        match.act(CallCoin(CoinFace.HEADS))
        if match.pending() and match.pending().phase is Phase.SIDE_CHOICE:
            match.act(ChooseSide(Side.OFFENSE))
            match.act(ChooseSnap(SnapChoice.PLAY))
            assert match.pending().phase is Phase.SELECTION
            return match
    raise AssertionError("no seed gave the human the toss")


HAND_A = Hand(
    (Player.POWER_BACK, Player.SCATBACK), (OffCall.INSIDE_RUN, OffCall.DRAW, OffCall.SCREEN)
)
HAND_B = Hand(
    (Player.DEEP_THREAT, Player.SLOT_RECEIVER),
    (OffCall.DEEP_PASS, OffCall.QUICK_SLANT, OffCall.OUTSIDE_RUN),
)


def revealed_defense(events: list[ev.Event], step: int) -> Hand:
    return next(e.defense for e in events if isinstance(e, ev.HandsRevealed) and e.step == step)


def test_different_human_choices_meet_the_same_computer_choice_at_that_step():
    one, two = human_match(7), human_match(7)
    assert one.committed(Team.AWAY) == two.committed(Team.AWAY)
    reveal_one = one.act(PickHand(HAND_A))
    reveal_two = two.act(PickHand(HAND_B))
    assert revealed_defense(reveal_one, 1) == revealed_defense(reveal_two, 1)
    # the next step too: the computer's substitution does not depend on the human's cards
    assert one.committed(Team.AWAY) == two.committed(Team.AWAY)
    final_one = one.act(PickSwap(Swap.keep()))
    final_two = two.act(PickSwap(Swap.call(OffCall.DEEP_PASS, OffCall.SCREEN)))
    assert revealed_defense(final_one, 2) == revealed_defense(final_two, 2)


def test_the_computer_choice_is_fixed_before_the_human_and_survives_an_illegal_one():
    match = human_match(11)
    committed = match.committed(Team.AWAY)
    assert committed is not None
    bad = Hand((Player.POWER_BACK,), HAND_A.calls)
    try:
        match.act(PickHand(bad))
    except IllegalSelectionError:
        pass
    else:  # pragma: no cover - the engine must refuse
        raise AssertionError("an illegal hand was accepted")
    assert match.committed(Team.AWAY) == committed
    assert isinstance(committed, PickHand)
    events = match.act(PickHand(HAND_A))
    assert revealed_defense(events, 1) == committed.hand
