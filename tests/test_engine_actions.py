"""The one action model: `legal_actions` lists exactly what `Game.apply` accepts, a refused step
names what is wrong and changes nothing, and a saved game or match continues exactly as the
unsaved one would have.
"""

from __future__ import annotations

import contextlib
import json
import math
import random
from collections.abc import Callable
from typing import Any

import pytest
from engine_helpers import human_action, in_card_order, snap_game, step
from hypothesis import given, settings
from hypothesis import strategies as st

from sudden_death.engine import (
    Action,
    CallCoin,
    ChooseSide,
    ChooseSnap,
    CoinFace,
    Concede,
    DefCall,
    Game,
    GameOverError,
    Hand,
    IllegalCallError,
    IllegalChoiceError,
    IllegalSelectionError,
    IllegalSubstitutionError,
    Match,
    OffCall,
    Phase,
    PickFinal,
    PickHand,
    PickSwap,
    Player,
    RandomComputer,
    Role,
    RulesError,
    Side,
    SnapChoice,
    SnapshotError,
    Swap,
    SwapKind,
    Team,
    WrongPhaseError,
    actors,
    legal_actions,
)
from sudden_death.engine import events as ev
from sudden_death.engine.actions import PHASE_ACTION, hand_actions, role_of
from sudden_death.engine.cards import calls_for, players_for
from sudden_death.engine.field import field_goal_distance, field_goal_needs
from sudden_death.engine.smart import SmartPolicy
from sudden_death.engine.snapshot import MAX_SNAPSHOT_CHARS, OPTIONAL_STATE_FIELDS
from sudden_death.engine.state import STATE_FIELDS

ALL_PLAYERS = tuple(Player)
ALL_CALLS = (*OffCall, *DefCall)
ALL_CARDS = (*ALL_PLAYERS, *ALL_CALLS)
PLAYERS_PER_SIDE = len(players_for(Role.OFFENSE))  # 4
CALLS_PER_SIDE = len(calls_for(Role.OFFENSE))  # 6
# The rules' option counts: 2 of 4 players times 3 of 6 calls; keep, or one of 2 held players for
# one of the 2 not held, or one of 3 held calls for one of the 3 not held; one of 3 calls held.
HANDS = math.comb(PLAYERS_PER_SIDE, 2) * math.comb(CALLS_PER_SIDE, 3)
SWAPS = 1 + 2 * (PLAYERS_PER_SIDE - 2) + 3 * (CALLS_PER_SIDE - 3)
FINALS = 3
COUNTS = {Phase.COIN_TOSS: 2, Phase.SIDE_CHOICE: 2, Phase.SELECTION: HANDS,
          Phase.SUBSTITUTION: SWAPS, Phase.FINAL_CALL: FINALS}


def test_the_option_counts_are_the_rules_counts():
    assert (PLAYERS_PER_SIDE, CALLS_PER_SIDE) == (4, 6)
    assert (HANDS, SWAPS, FINALS) == (120, 14, 3)


# -- helpers -------------------------------------------------------------------------------------


def copy_of(game: Game) -> Game:
    """A game at the same state with dice of its own (the original's are never touched)."""
    return Game(random.Random(0), game.state)


def assert_refused(game: Game, error: type[RulesError], actions: object) -> None:
    """`game.apply(actions)` raises exactly `error` and changes nothing, dice and log included."""
    state, log, dice = game.state, list(game.log), game.rng.getstate()
    with pytest.raises(RulesError) as raised:
        game.apply(actions)  # type: ignore[arg-type]
    assert type(raised.value) is error, f"{type(raised.value).__name__}: {raised.value}"
    assert game.state is state and game.log == log and game.rng.getstate() == dice


def same_cards(one: Hand, two: Hand) -> bool:
    """The same cards, whatever their order (duplicates counted)."""
    def key(hand: Hand) -> tuple[list[str], list[str]]:
        return (sorted(repr(p) for p in hand.players), sorted(repr(c) for c in hand.calls))
    return key(one) == key(two)


def listed(action: Action, legal: tuple[Action, ...]) -> bool:
    """`action` is among `legal`; a hand counts in any order of its cards."""
    if isinstance(action, PickHand):
        return any(isinstance(a, PickHand) and same_cards(a.hand, action.hand) for a in legal)
    return action in legal


def selection_game(offense: Team = Team.HOME) -> Game:
    game = Game.from_kickoff(random.Random(3), offense)
    step(game, ChooseSnap(SnapChoice.PLAY))
    assert game.phase is Phase.SELECTION
    return game


OFFENSE_HAND = Hand(
    (Player.POWER_BACK, Player.SCATBACK), (OffCall.INSIDE_RUN, OffCall.DRAW, OffCall.SCREEN)
)
DEFENSE_HAND = Hand(
    (Player.NOSE_TACKLE, Player.EDGE_SETTER), (DefCall.BLITZ, DefCall.PREVENT, DefCall.CONTAIN)
)


def substitution_game() -> Game:
    game = selection_game()
    step(game, PickHand(OFFENSE_HAND), PickHand(DEFENSE_HAND))
    assert game.phase is Phase.SUBSTITUTION
    return game


def final_game() -> Game:
    game = substitution_game()
    step(game, PickSwap(Swap.keep()), PickSwap(Swap.keep()))
    assert game.phase is Phase.FINAL_CALL
    return game


# -- every listed action is accepted, at every step of random games ------------------------------


def check_step(game: Game) -> None:
    """The legal lists at this step are well formed and `apply` accepts every entry."""
    state = game.state
    acting = actors(state)
    assert len(set(acting)) == len(acting)
    lists = {}
    for team in Team:
        legal = legal_actions(state, team)
        assert game.legal_actions(team) == legal
        if team not in acting:
            assert legal == ()
            continue
        lists[team] = legal
        assert legal, f"{team} must act at {state.phase} but has nothing to do"
        assert len(set(legal)) == len(legal), "a legal list repeats an action"
        assert all(type(action) is PHASE_ACTION[state.phase] for action in legal)
        assert not any(isinstance(action, Concede) for action in legal)
        if state.phase is Phase.SNAP_CHOICE:
            assert state.down is not None
            in_range = field_goal_needs(field_goal_distance(state.down.line)) is not None
            assert len(legal) == (3 if in_range else 2)
        else:
            assert len(legal) == COUNTS[state.phase]
        if state.phase is Phase.SELECTION:
            assert all(isinstance(a, PickHand) and in_card_order(a.hand) == a for a in legal)
    if state.phase is Phase.GAME_OVER:
        assert acting == () and lists == {}
        return
    for team, legal in lists.items():
        others = {other: lists[other][-1] for other in acting if other is not team}
        for action in legal:
            trial = copy_of(game)
            events = trial.apply({**others, team: action})
            assert events and trial.log == events and trial.state != state
            assert game.state is state  # the original is untouched
    for team in Team:  # never listed, always allowed
        trial = copy_of(game)
        trial.apply({team: Concede()})
        assert trial.state.outcome is not None and trial.state.outcome.winner is team.other


POLICIES: dict[str, Callable[[random.Random], Any]] = {
    "random": RandomComputer,
    "smart": SmartPolicy,
}


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    kinds=st.tuples(st.sampled_from(sorted(POLICIES)), st.sampled_from(sorted(POLICIES))),
)
def test_every_listed_action_is_accepted_at_every_step_of_random_games(seed, kinds):
    game = Game(random.Random(seed))
    policies = {team: POLICIES[kind](random.Random(f"{team.name}:{seed}"))
                for team, kind in zip(Team, kinds, strict=True)}
    for _ in range(1000):
        check_step(game)
        if game.is_over:
            return
        state = game.state
        choices = {}
        for team in actors(state):
            legal = legal_actions(state, team)
            choice = policies[team].choose(state, team, legal)
            assert listed(choice, legal), f"{kinds} chose {choice} outside the legal list"
            choices[team] = choice
        game.apply(choices)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("line", range(1, 100))
def test_a_field_goal_is_listed_exactly_within_range(line):
    game = snap_game(line)
    legal = game.legal_actions(Team.HOME)
    in_range = field_goal_needs(field_goal_distance(line)) is not None
    assert (ChooseSnap(SnapChoice.FIELD_GOAL) in legal) is in_range is (line >= 52)
    assert legal[:2] == (ChooseSnap(SnapChoice.PLAY), ChooseSnap(SnapChoice.PUNT))
    check_step(game)


def test_legal_lists_name_the_acting_teams_only_and_both_roles_differ():
    game = selection_game(Team.AWAY)
    offense, defense = game.legal_actions(Team.AWAY), game.legal_actions(Team.HOME)
    assert actors(game.state) == (Team.AWAY, Team.HOME)  # offense first
    assert offense == hand_actions(Role.OFFENSE) and defense == hand_actions(Role.DEFENSE)
    assert not set(offense) & set(defense)
    game = Game(random.Random(1))
    assert actors(game.state) == (Team.HOME,) and game.legal_actions(Team.AWAY) == ()
    assert game.legal_actions(Team.HOME) == (CallCoin(CoinFace.HEADS), CallCoin(CoinFace.TAILS))


# -- what is not listed is refused -----------------------------------------------------------------


NOT_LISTED_HANDS = [
    (Team.HOME, Hand((Player.POWER_BACK, Player.POWER_BACK), OFFENSE_HAND.calls),
     "duplicate player"),
    (Team.HOME, Hand(OFFENSE_HAND.players, (OffCall.DRAW, OffCall.DRAW, OffCall.SCREEN)),
     "duplicate call"),
    (Team.HOME, Hand((Player.POWER_BACK, Player.NOSE_TACKLE), OFFENSE_HAND.calls),
     "a defensive player"),
    (Team.HOME, Hand(OFFENSE_HAND.players, (OffCall.DRAW, OffCall.SCREEN, DefCall.BLITZ)),
     "a defensive call"),
    (Team.HOME, DEFENSE_HAND, "the other side's whole hand"),
    (Team.HOME, Hand(OFFENSE_HAND.players, OFFENSE_HAND.calls[:2]), "two calls"),
    (Team.HOME, Hand((*OFFENSE_HAND.players, Player.DEEP_THREAT), OFFENSE_HAND.calls),
     "three players"),
    (Team.AWAY, Hand((Player.NOSE_TACKLE, Player.NOSE_TACKLE), DEFENSE_HAND.calls),
     "defense: duplicate player"),
    (Team.AWAY, Hand(DEFENSE_HAND.players, (DefCall.BLITZ, DefCall.PREVENT, OffCall.DRAW)),
     "defense: an offensive call"),
    (Team.AWAY, OFFENSE_HAND, "defense: the offense's whole hand"),
]


@pytest.mark.parametrize(("team", "hand", "why"), NOT_LISTED_HANDS)
def test_a_hand_not_listed_is_refused_and_changes_nothing(team, hand, why):
    game = selection_game()
    assert not listed(PickHand(hand), game.legal_actions(team)), why
    good = OFFENSE_HAND if team is Team.AWAY else DEFENSE_HAND
    assert_refused(game, IllegalSelectionError, {team: PickHand(hand), team.other: PickHand(good)})


@pytest.mark.parametrize(
    ("team", "swap", "why"),
    [
        (Team.HOME, Swap.player(Player.POWER_BACK, Player.SCATBACK), "player already held"),
        (Team.HOME, Swap.call(OffCall.DRAW, OffCall.SCREEN), "call already held"),
        (Team.HOME, Swap.player(Player.DEEP_THREAT, Player.SLOT_RECEIVER), "player not held"),
        (Team.HOME, Swap.call(OffCall.DEEP_PASS, OffCall.QUICK_SLANT), "call not held"),
        (Team.HOME, Swap.player(Player.POWER_BACK, Player.NOSE_TACKLE), "other side's player"),
        (Team.HOME, Swap.call(OffCall.DRAW, DefCall.ZONE_COVERAGE), "other side's call"),
        (Team.HOME, Swap.player(Player.POWER_BACK, Player.POWER_BACK), "itself"),
        (Team.HOME, Swap(SwapKind.PLAYER, OffCall.DRAW, OffCall.DEEP_PASS), "kind of card"),
        (Team.HOME, Swap(SwapKind.KEEP, OffCall.DRAW, OffCall.DEEP_PASS), "keep that replaces"),
        (Team.AWAY, Swap.call(DefCall.BLITZ, DefCall.PREVENT), "defense: call already held"),
        (Team.AWAY, Swap.call(DefCall.BLITZ, OffCall.DEEP_PASS), "defense: offense's call"),
        (Team.AWAY, Swap.player(Player.POWER_BACK, Player.SCATBACK), "defense: offense's cards"),
    ],
)
def test_a_swap_not_listed_is_refused_and_changes_nothing(team, swap, why):
    game = substitution_game()
    assert PickSwap(swap) not in game.legal_actions(team), why
    actions = {team: PickSwap(swap), team.other: PickSwap(Swap.keep())}
    assert_refused(game, IllegalSubstitutionError, actions)


def test_a_final_call_not_held_is_refused_and_changes_nothing():
    game = final_game()
    for team, call in ((Team.HOME, OffCall.DEEP_PASS), (Team.AWAY, DefCall.ZONE_COVERAGE),
                       (Team.HOME, DefCall.BLITZ), (Team.AWAY, OffCall.DRAW)):
        assert PickFinal(call) not in game.legal_actions(team)
        held = game.legal_actions(team.other)[0]
        assert_refused(game, IllegalCallError, {team: PickFinal(call), team.other: held})


def test_a_listed_hand_in_another_order_is_the_same_hand_and_is_accepted():
    """The computer keeps its draw order, so the engine takes a hand's cards in any order."""
    game = selection_game()
    shuffled = Hand(OFFENSE_HAND.players[::-1], OFFENSE_HAND.calls[::-1])
    assert PickHand(shuffled) not in game.legal_actions(Team.HOME)
    assert in_card_order(shuffled) in game.legal_actions(Team.HOME)
    (revealed,) = step(game, PickHand(shuffled), PickHand(DEFENSE_HAND))
    assert isinstance(revealed, ev.HandsRevealed) and revealed.offense == shuffled


@st.composite
def edited_hands(draw: st.DrawFn) -> Hand:
    """A listed hand of either side, then maybe one edit: reorder, replace, add, drop or repeat a
    card, so about half the hands are legal and the rest are wrong in one way."""
    role = draw(st.sampled_from(Role))
    base = draw(st.sampled_from(hand_actions(role)))
    assert isinstance(base, PickHand)
    players, calls = list(base.hand.players), list(base.hand.calls)
    edit = draw(st.sampled_from(("none", "reorder", "player", "call", "add", "drop", "repeat")))
    cards = draw(st.sampled_from((players, calls)))
    if edit == "reorder":
        cards.reverse()
    elif edit in ("player", "call"):
        target, pool = (players, ALL_PLAYERS) if edit == "player" else (calls, ALL_CALLS)
        target[draw(st.integers(0, len(target) - 1))] = draw(st.sampled_from(pool))
    elif edit == "add":
        cards.append(draw(st.sampled_from(ALL_PLAYERS if cards is players else ALL_CALLS)))
    elif edit == "drop":
        cards.pop(draw(st.integers(0, len(cards) - 1)))
    elif edit == "repeat":
        cards[-1] = cards[0]
    return Hand(tuple(players), tuple(calls))


@settings(max_examples=300, deadline=None)
@given(hand=edited_hands(), team=st.sampled_from(Team))
def test_apply_accepts_a_hand_exactly_when_its_cards_are_listed(hand, team):
    game = selection_game()
    legal = game.legal_actions(team)
    is_listed = any(isinstance(a, PickHand) and same_cards(a.hand, hand) for a in legal)
    actions = {team: PickHand(hand), team.other: game.legal_actions(team.other)[0]}
    if is_listed:
        (revealed,) = game.apply(actions)
        assert isinstance(revealed, ev.HandsRevealed)
        assert (revealed.offense if team is Team.HOME else revealed.defense) == hand
    else:
        assert_refused(game, IllegalSelectionError, actions)


@st.composite
def edited_swaps(draw: st.DrawFn) -> tuple[Team, Swap]:
    """A listed swap of either side, then maybe its kind, card out or card in replaced."""
    team = draw(st.sampled_from(Team))
    legal = substitution_game().legal_actions(team)
    base = draw(st.sampled_from(legal))
    assert isinstance(base, PickSwap)
    kind, out, into = base.swap.kind, base.swap.out, base.swap.into
    edit = draw(st.sampled_from(("none", "kind", "out", "into")))
    if edit == "kind":
        kind = draw(st.sampled_from(SwapKind))
    elif edit == "out":
        out = draw(st.one_of(st.none(), st.sampled_from(ALL_CARDS)))
    elif edit == "into":
        into = draw(st.one_of(st.none(), st.sampled_from(ALL_CARDS)))
    return team, Swap(kind, out, into)


@settings(max_examples=300, deadline=None)
@given(edited_swaps())
def test_apply_accepts_a_swap_exactly_when_it_is_listed(team_swap):
    team, swap = team_swap
    game = substitution_game()
    actions = {team: PickSwap(swap), team.other: PickSwap(Swap.keep())}
    if PickSwap(swap) in game.legal_actions(team):
        game.apply(actions)
        hand = game.state.offense_hand if team is Team.HOME else game.state.defense_hand
        assert hand is not None
        assert len(set(hand.players)) == 2 and len(set(hand.calls)) == 3
    else:
        assert_refused(game, IllegalSubstitutionError, actions)


@given(call=st.sampled_from(ALL_CALLS), team=st.sampled_from(Team))
def test_apply_accepts_a_final_call_exactly_when_it_is_listed(call, team):
    game = final_game()
    actions = {team: PickFinal(call), team.other: game.legal_actions(team.other)[0]}
    if PickFinal(call) in game.legal_actions(team):
        assert any(isinstance(e, ev.PlayResolved) for e in copy_of(game).apply(actions))
    else:
        assert_refused(game, IllegalCallError, actions)


# -- a step of the wrong shape ---------------------------------------------------------------------


def games_at_every_phase() -> dict[Phase, Game]:
    """A real game at each step, from a seeded game between two computers."""
    found: dict[Phase, Game] = {}
    for seed in range(20):
        game = Game(random.Random(seed))
        policies = {team: RandomComputer(random.Random(f"{team.name}{seed}")) for team in Team}
        while True:
            found.setdefault(game.phase, copy_of(game))
            if game.is_over:
                break
            state = game.state
            game.apply({team: policies[team].choose(state, team, legal_actions(state, team))
                        for team in actors(state)})
        if len(found) == len(Phase):
            return found
    raise AssertionError(f"only reached {sorted(found)}")


GAMES = games_at_every_phase()
ONE_OF_EACH: tuple[Action, ...] = (
    CallCoin(CoinFace.HEADS),
    ChooseSide(Side.OFFENSE),
    ChooseSnap(SnapChoice.PLAY),
    PickHand(OFFENSE_HAND),
    PickSwap(Swap.keep()),
    PickFinal(OffCall.DRAW),
)
PLAYING = [phase for phase in Phase if phase is not Phase.GAME_OVER]


def whole_step(game: Game, pick: Callable[[tuple[Action, ...]], Action]) -> dict[Team, Action]:
    return {team: pick(game.legal_actions(team)) for team in actors(game.state)}


@pytest.mark.parametrize("phase", PLAYING)
@pytest.mark.parametrize("action", ONE_OF_EACH, ids=lambda a: type(a).__name__)
def test_an_action_of_another_step_is_a_wrong_phase_error(phase, action):
    if PHASE_ACTION[phase] is type(action):
        return
    game = GAMES[phase]
    wrong = {team: action for team in actors(game.state)}
    assert_refused(game, WrongPhaseError, wrong)
    # also when only one of two simultaneous actions is of the wrong step
    if len(wrong) == 2:
        offense, defense = actors(game.state)
        good = whole_step(game, lambda legal: legal[0])
        assert_refused(game, WrongPhaseError, {offense: good[offense], defense: action})


BARE_VALUES = (CoinFace.HEADS, Side.OFFENSE, SnapChoice.PLAY, OFFENSE_HAND, Swap.keep(),
               OffCall.DRAW, DefCall.BLITZ, None, "heads", 0, CallCoin, Concede)


@pytest.mark.parametrize("phase", PLAYING)
@pytest.mark.parametrize("value", BARE_VALUES, ids=repr)
def test_a_bare_value_is_not_an_action(phase, value):
    game = GAMES[phase]
    assert_refused(game, IllegalChoiceError, {team: value for team in actors(game.state)})
    if len(actors(game.state)) == 2:  # next to a good action, in either seat
        offense, defense = actors(game.state)
        good = whole_step(game, lambda legal: legal[0])
        assert_refused(game, IllegalChoiceError, {offense: good[offense], defense: value})
        assert_refused(game, IllegalChoiceError, {offense: value, defense: good[defense]})


@pytest.mark.parametrize("phase", PLAYING)
def test_a_step_with_the_wrong_teams_is_an_illegal_choice(phase):
    game = GAMES[phase]
    teams = actors(game.state)
    good = whole_step(game, lambda legal: legal[0])
    assert_refused(game, IllegalChoiceError, {})
    if len(teams) == 2:
        offense, defense = teams
        assert_refused(game, IllegalChoiceError, {offense: good[offense]})  # the defense's missing
        assert_refused(game, IllegalChoiceError, {defense: good[defense]})
    else:
        (team,) = teams
        assert_refused(game, IllegalChoiceError, {team.other: good[team]})  # out of turn
        assert_refused(game, IllegalChoiceError, {team: good[team], team.other: good[team]})
    assert_refused(game, IllegalChoiceError, {"home": good[teams[0]]})
    for junk in (None, 7, "x", object()):
        assert_refused(game, IllegalChoiceError, junk)


@pytest.mark.parametrize("phase", PLAYING)
def test_a_concession_comes_on_its_own(phase):
    game = GAMES[phase]
    good = whole_step(game, lambda legal: legal[0])
    for team in Team:
        assert_refused(game, IllegalChoiceError, {**good, team: Concede(), team.other: Concede()})
        others = {t: a for t, a in good.items() if t is not team}
        if others:
            assert_refused(game, IllegalChoiceError, {**others, team: Concede()})
    assert_refused(game, IllegalChoiceError, {"home": Concede()})
    for team in Team:  # on its own it is always allowed, in turn or not
        trial = copy_of(game)
        assert ev.Conceded(team) in trial.apply({team: Concede()})
        assert trial.is_over and trial.state.outcome is not None
        assert trial.state.outcome.winner is team.other


def test_nothing_is_accepted_after_the_end():
    game = GAMES[Phase.GAME_OVER]
    assert game.legal_actions(Team.HOME) == game.legal_actions(Team.AWAY) == ()
    for actions in ({Team.HOME: Concede()}, {Team.AWAY: CallCoin(CoinFace.HEADS)}, {}, None):
        assert_refused(game, GameOverError, actions)


# -- saving and restoring a game -------------------------------------------------------------------


def restored_game(game: Game) -> Game:
    text = game.to_json()
    again = Game.from_json(text)
    assert again.state == game.state and again.to_json() == text
    assert again.rng.getstate() == game.rng.getstate() and again.log == []
    return again


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_a_restored_game_makes_the_same_next_step_at_every_step(seed):
    game = Game(random.Random(seed))
    policies = {team: RandomComputer(random.Random(f"{team.name}{seed}")) for team in Team}
    while not game.is_over:
        state = game.state
        choices = {team: policies[team].choose(state, team, legal_actions(state, team))
                   for team in actors(state)}
        again = restored_game(game)
        assert again.apply(choices) == game.apply(choices)
        assert again.state == game.state
    again = restored_game(game)
    assert again.is_over and again.state.outcome == game.state.outcome
    probe = random.Random()
    probe.setstate(game.rng.getstate())
    assert [again.rng.random() for _ in range(20)] == [probe.random() for _ in range(20)]


def test_a_restored_game_rolls_the_same_dice():
    game = Game(random.Random(99))
    for _ in range(7):
        game.rng.random()  # a generator part way through its stream
    again = Game.from_json(game.to_json())
    assert [again.rng.random() for _ in range(50)] == [game.rng.random() for _ in range(50)]
    kickoff = Game.from_kickoff(random.Random(5), Team.AWAY)
    assert Game.from_json(kickoff.to_json()).state == kickoff.state


# -- saving and restoring a match against the computer --------------------------------------------





Stop = Callable[[Match, int], bool]


def play_until(seed: int, stop: Stop) -> tuple[Match, random.Random]:
    """A match of `seed` with the simple human, paused at the first decision `stop` likes (or
    at the end). `stop` sees the match and the number of decisions made so far."""
    match = Match.against_computer(seed)
    match.advance()
    human = random.Random(f"human:{seed}")
    decisions = 0
    while match.pending() is not None and not stop(match, decisions):
        match.act(human_action(match, human))
        decisions += 1
    return match, human


def assert_continues_alike(match: Match, human: random.Random) -> Match:
    """Save `match`, restore it, play both to the end with the same human actions, and check
    every step's events, the final state and every generator agree. Returns the restored one."""
    text = match.to_json()
    restored = Match.from_json(text)
    assert restored.to_json() == text
    assert restored.state == match.state and restored.pending() == match.pending()
    for team in Team:
        assert restored.committed(team) == match.committed(team)
    seen = len(match.game.log)
    while match.pending() is not None:
        action = human_action(match, human)
        expected = match.act(action)
        assert restored.act(action) == expected, f"the restored match differs after {action}"
    assert restored.pending() is None and restored.game.is_over
    assert restored.state == match.state
    assert restored.game.log == match.game.log[seen:]
    assert restored.game.rng.getstate() == match.game.rng.getstate()
    for team, policy in match.policies.items():
        assert restored.policies[team].rng.getstate() == policy.rng.getstate()
    return restored


def decisions_in(seed: int) -> int:
    count = []
    play_until(seed, lambda match, decisions: bool(count.append(decisions)))
    return len(count)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32), where=st.floats(0, 1))
def test_a_match_saved_at_any_human_decision_continues_exactly(seed, where):
    total = decisions_in(seed)
    stop_at = min(int(where * total), total - 1)
    match, human = play_until(seed, lambda _, decisions: decisions == stop_at)
    assert match.pending() is not None
    assert_continues_alike(match, human)


def nth(phase: Phase, n: int = 1) -> Stop:
    """Stop at the n-th human decision of `phase`."""
    seen = []

    def stop(match: Match, _: int) -> bool:
        decision = match.pending()
        assert decision is not None
        if decision.phase is phase:
            seen.append(decision)
        return len(seen) == n

    return stop


STOPS = [
    (Phase.COIN_TOSS, 1),
    (Phase.SIDE_CHOICE, 1),
    (Phase.SNAP_CHOICE, 1),
    (Phase.SELECTION, 1),
    (Phase.SUBSTITUTION, 1),
    (Phase.FINAL_CALL, 1),
    (Phase.SUBSTITUTION, 3),
    (Phase.FINAL_CALL, 5),
]


@pytest.mark.parametrize(("phase", "n"), STOPS, ids=lambda value: getattr(value, "value", value))
@pytest.mark.parametrize("first_seed", [0, 100, 2024])
def test_a_match_saved_mid_down_continues_exactly(phase, n, first_seed):
    for seed in range(first_seed, first_seed + 50):
        match, human = play_until(seed, nth(phase, n))
        decision = match.pending()
        if decision is not None and decision.phase is phase:
            break
    else:  # pragma: no cover - the seeds must reach every stop
        raise AssertionError(f"no seed reached {phase} #{n}")
    computer = decision.team.other
    if phase in (Phase.SELECTION, Phase.SUBSTITUTION, Phase.FINAL_CALL):
        fixed = match.committed(computer)
        assert fixed is not None and listed(fixed, legal_actions(match.state, computer))
        assert type(fixed) is PHASE_ACTION[phase]
    else:
        assert match.committed(computer) is None
    assert_continues_alike(match, human)


def test_a_match_saved_before_it_starts_continues_exactly():
    match = Match.against_computer(8)
    restored = Match.from_json(match.to_json())
    assert restored.advance() == match.advance()
    assert_continues_alike(match, random.Random("human:8"))


def test_a_match_saved_after_a_refused_action_keeps_the_computers_fixed_choice():
    match, human = play_until(5, nth(Phase.SELECTION))
    decision = match.pending()
    assert decision is not None and decision.role is not None
    fixed = match.committed(decision.team.other)
    bad = PickHand(Hand((players_for(decision.role)[0],) * 2, calls_for(decision.role)[:3]))
    with pytest.raises(IllegalSelectionError):
        match.act(bad)
    assert match.committed(decision.team.other) == fixed
    restored = assert_continues_alike(match, human)
    revealed = next(e for e in restored.game.log if isinstance(e, ev.HandsRevealed))
    computer_hand = revealed.defense if decision.role is Role.OFFENSE else revealed.offense
    assert isinstance(fixed, PickHand) and computer_hand == fixed.hand


def test_a_match_saved_at_the_end_stays_over():
    match, _ = play_until(12, lambda *_: False)
    assert match.game.is_over
    restored = Match.from_json(match.to_json())
    assert restored.state == match.state and restored.pending() is None
    assert restored.advance() == []


def test_a_match_of_two_computers_restores_each_ones_kind_and_dice():
    match = Match(Game(random.Random(4)), {Team.HOME: SmartPolicy(random.Random(1)),
                                           Team.AWAY: RandomComputer(random.Random(2))})
    for _ in range(3):
        match.game.apply({team: match.policies[team].choose(match.state, team,
                                                            legal_actions(match.state, team))
                          for team in actors(match.state)})
    restored = Match.from_json(match.to_json())
    assert {team: type(p) for team, p in restored.policies.items()} == {
        Team.HOME: SmartPolicy, Team.AWAY: RandomComputer}
    assert restored.advance() == match.advance()
    assert restored.state == match.state and match.game.is_over


# -- hostile snapshots ----------------------------------------------------------------------------


GOOD_GAME = json.loads(GAMES[Phase.SUBSTITUTION].to_json())
GOOD_MATCH = json.loads(play_until(3, nth(Phase.SUBSTITUTION))[0].to_json())


def edited(data: dict[str, Any], path: tuple[Any, ...], value: Any) -> str:
    """`data` as JSON with the value at `path` replaced (or removed, for `...`)."""
    data = json.loads(json.dumps(data))
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    if value is ...:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return json.dumps(data)


def assert_snapshot_error(text: object, kind: type = Game) -> None:
    with pytest.raises(RulesError) as raised:
        kind.from_json(text)  # type: ignore[attr-defined]
    assert type(raised.value) is SnapshotError, f"{type(raised.value).__name__}: {raised.value}"


def test_the_good_snapshots_decode():
    assert Game.from_json(json.dumps(GOOD_GAME)).phase is Phase.SUBSTITUTION
    assert Match.from_json(json.dumps(GOOD_MATCH)).pending() is not None


HOSTILE_GAMES = {
    "empty": "",
    "not json": "{not json",
    "a number": "7",
    "a list": "[1, 2]",
    "null": "null",
    "a string": '"game"',
    "no format": edited(GOOD_GAME, ("format",), ...),
    "format 2": edited(GOOD_GAME, ("format",), 2),
    "format 0": edited(GOOD_GAME, ("format",), 0),
    "format as text": edited(GOOD_GAME, ("format",), "1"),
    "no state": edited(GOOD_GAME, ("state",), ...),
    "state null": edited(GOOD_GAME, ("state",), None),
    "state a list": edited(GOOD_GAME, ("state",), []),
    "an extra state field": edited(GOOD_GAME, ("state", "weather"), "rain"),
    "no dice": edited(GOOD_GAME, ("dice",), ...),
    "a match, not a game": json.dumps(GOOD_MATCH),
    "bad phase": edited(GOOD_GAME, ("state", "phase"), "half_time"),
    "bad team": edited(GOOD_GAME, ("state", "offense"), 2),
    "team by name": edited(GOOD_GAME, ("state", "offense"), "HOME"),
    "drive as text": edited(GOOD_GAME, ("state", "drive"), "1"),
    "drive a float": edited(GOOD_GAME, ("state", "drive"), 1.0),
    "drive a bool": edited(GOOD_GAME, ("state", "drive"), True),
    "scores as text": edited(GOOD_GAME, ("state", "scores"), "07"),
    "three scores": edited(GOOD_GAME, ("state", "scores"), [0, 0, 0]),
    "one score": edited(GOOD_GAME, ("state", "scores"), [0]),
    "a negative score": edited(GOOD_GAME, ("state", "scores"), [-3, 0]),
    "outcome of three scores": edited(GOOD_GAME, ("state", "outcome"), {
        "scores": [1, 2, 3], "winner": None, "end": "both_drives"}),
    "drive 3": edited(GOOD_GAME, ("state", "drive"), 3),
    "a fifth down": edited(GOOD_GAME, ("state", "down", 0), 5),
    "a down past the goal line": edited(GOOD_GAME, ("state", "down", 1), 100),
    "a marker behind the ball": edited(GOOD_GAME, ("state", "down", 2), 1),
    "substitution without hands": edited(GOOD_GAME, ("state", "offense_hand"), None),
    "substitution without a down": edited(GOOD_GAME, ("state", "down"), None),
    "substitution without an offense": edited(GOOD_GAME, ("state", "offense"), None),
    "a hand holding a card twice": edited(
        GOOD_GAME, ("state", "offense_hand", "players"), ["Player.scatback"] * 2),
    "a hand of the other side's cards": edited(
        GOOD_GAME, ("state", "offense_hand"), GOOD_GAME["state"]["defense_hand"]),
    "a hand of four calls": edited(
        GOOD_GAME, ("state", "offense_hand", "calls"),
        [*GOOD_GAME["state"]["offense_hand"]["calls"], "OffCall.draw"]),
    "an end without its outcome": edited(GOOD_GAME, ("state", "phase"), "game_over"),
    "a side choice without the toss's winner": edited(
        GOOD_GAME, ("state",), {**GOOD_GAME["state"], "phase": "side_choice",
                                "coin_winner": None}),
    "short down": edited(GOOD_GAME, ("state", "down"), [1, 25]),
    "down a number": edited(GOOD_GAME, ("state", "down"), 25),
    "bad card name": edited(GOOD_GAME, ("state", "offense_hand", "players", 0), "Player.kicker"),
    "bad card kind": edited(GOOD_GAME, ("state", "offense_hand", "players", 0), "Coach.x"),
    "a card without kind": edited(GOOD_GAME, ("state", "offense_hand", "calls", 0), "draw"),
    "a defensive call as offensive": edited(
        GOOD_GAME, ("state", "offense_hand", "calls", 0), "OffCall.blitz"),
    "a card a number": edited(GOOD_GAME, ("state", "offense_hand", "calls", 0), 3),
    "a card a list": edited(GOOD_GAME, ("state", "offense_hand", "calls", 0), ["x"]),
    "hand without calls": edited(GOOD_GAME, ("state", "offense_hand", "calls"), ...),
    "hand a list": edited(GOOD_GAME, ("state", "offense_hand"), ["Player.scatback"]),
    "bad outcome": edited(GOOD_GAME, ("state", "outcome"), {"scores": [0, 0]}),
    "outcome a string": edited(GOOD_GAME, ("state", "outcome"), "won"),
    "dice null": edited(GOOD_GAME, ("dice",), None),
    "dice a string": edited(GOOD_GAME, ("dice",), "abc"),
    "dice too short": edited(GOOD_GAME, ("dice", 1), [1, 2, 3]),
    "dice bad version": edited(GOOD_GAME, ("dice", 0), 99),
    "dice negative words": edited(GOOD_GAME, ("dice", 1), [-1] * 625),
    "dice huge words": edited(GOOD_GAME, ("dice", 1), [2**40] * 625),
    "dice float words": edited(GOOD_GAME, ("dice", 1), [0.5] * 625),
    "dice index past the end": edited(GOOD_GAME, ("dice", 1), [1] * 624 + [625]),
    "dice an object": edited(GOOD_GAME, ("dice",), {"a": 1, "b": 2, "c": 3}),
    "a 5000-digit number": json.dumps(GOOD_GAME).replace('"drive": 1', '"drive": ' + "9" * 5000),
    "NaN": json.dumps(GOOD_GAME).replace('"drive": 1', '"drive": NaN'),
    "over 1 MiB": json.dumps(GOOD_GAME) + " " * MAX_SNAPSHOT_CHARS,
    "over 1 MiB of JSON": json.dumps({**GOOD_GAME, "pad": "x" * MAX_SNAPSHOT_CHARS}),
    "a lone surrogate": json.dumps({**GOOD_GAME, "format": "\ud800"}),
}


@pytest.mark.parametrize("text", HOSTILE_GAMES.values(), ids=HOSTILE_GAMES.keys())
def test_a_hostile_game_snapshot_is_a_snapshot_error(text):
    assert_snapshot_error(text, Game)


@pytest.mark.parametrize("value", [None, 7, b'{"format": 1}', ["{}"], {"format": 1}],
                         ids=repr)
def test_a_snapshot_that_is_not_text_is_a_snapshot_error(value):
    assert_snapshot_error(value, Game)
    assert_snapshot_error(value, Match)


@pytest.mark.parametrize("field", sorted(STATE_FIELDS - OPTIONAL_STATE_FIELDS))
def test_a_snapshot_missing_any_state_field_is_a_snapshot_error(field):
    """Every field but the optional ones (tests/test_overtime.py: missing means off)."""
    assert_snapshot_error(edited(GOOD_GAME, ("state", field), ...), Game)
    assert_snapshot_error(edited(GOOD_MATCH, ("game", "state", field), ...), Match)


HOSTILE_MATCHES = {
    "not json": "]",
    "format 2": edited(GOOD_MATCH, ("format",), 2),
    "a game, not a match": json.dumps(GOOD_GAME),
    "no game": edited(GOOD_MATCH, ("game",), ...),
    "game of format 2": edited(GOOD_MATCH, ("game", "format"), 2),
    "game a string": edited(GOOD_MATCH, ("game",), json.dumps(GOOD_GAME)),
    "no computers": edited(GOOD_MATCH, ("computers",), ...),
    "computers a list": edited(GOOD_MATCH, ("computers",), []),
    "an unknown computer": edited(GOOD_MATCH, ("computers", "AWAY", "kind"), "Cheater"),
    "a computer of no kind": edited(GOOD_MATCH, ("computers", "AWAY", "kind"), ...),
    "an unknown team": edited(GOOD_MATCH, ("computers",), {
        "VISITORS": GOOD_MATCH["computers"]["AWAY"]}),
    "a computer's bad dice": edited(GOOD_MATCH, ("computers", "AWAY", "rng"), [3, [], None]),
    "a computer without dice": edited(GOOD_MATCH, ("computers", "AWAY", "rng"), ...),
    "no committed": edited(GOOD_MATCH, ("committed",), ...),
    "committed a list": edited(GOOD_MATCH, ("committed",), []),
    "an unknown action": edited(GOOD_MATCH, ("committed", "AWAY", "action"), "Cheat"),
    "an action a string": edited(GOOD_MATCH, ("committed", "AWAY"), "PickSwap"),
    "a swap without its card": edited(GOOD_MATCH, ("committed", "AWAY", "swap", "into"), ...),
    "a swap of a bad kind": edited(GOOD_MATCH, ("committed", "AWAY", "swap", "kind"), "steal"),
    "a swap of a bad card": edited(
        GOOD_MATCH, ("committed", "AWAY", "swap"),
        {"kind": "player", "out": "Player.nobody", "into": None}),
    "a swap a number": edited(GOOD_MATCH, ("committed", "AWAY", "swap"), 4),
    "a bad hand": edited(GOOD_MATCH, ("committed", "AWAY"), {"action": "PickHand", "hand": 1}),
    "a bad coin": edited(GOOD_MATCH, ("committed", "AWAY"), {"action": "CallCoin",
                                                              "face": "edge"}),
    "a bad final": edited(GOOD_MATCH, ("committed", "AWAY"), {"action": "PickFinal",
                                                               "call": "DefCall.nothing"}),
    "bad game dice": edited(GOOD_MATCH, ("game", "dice"), [3, "x", None]),
    "a choice of another step": edited(
        GOOD_MATCH, ("committed", "AWAY"), {"action": "PickFinal", "call": "DefCall.blitz"}),
    "a choice fixed for the human": edited(
        GOOD_MATCH, ("committed",), {"HOME": GOOD_MATCH["committed"]["AWAY"]}),
    "a concession as the fixed choice": edited(
        GOOD_MATCH, ("committed", "AWAY"), {"action": "Concede"}),
    "over 1 MiB": json.dumps(GOOD_MATCH) + "\n" * MAX_SNAPSHOT_CHARS,
}


@pytest.mark.parametrize("text", HOSTILE_MATCHES.values(), ids=HOSTILE_MATCHES.keys())
def test_a_hostile_match_snapshot_is_a_snapshot_error(text):
    assert GOOD_MATCH["committed"], "the good match must hold a computer's fixed choice"
    assert_snapshot_error(text, Match)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
    | st.sampled_from(["Player.scatback", "OffCall.draw", "DefCall.blitz", "HOME", "keep"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=3),
    max_leaves=8,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a part of `value`, the root's children first."""
    found = []
    items = value.items() if isinstance(value, dict) else (
        enumerate(value) if isinstance(value, list) else ())
    for key, child in items:
        found.append((*prefix, key))
        found.extend(paths(child, (*prefix, key)))
    return found


GAME_PATHS = paths(GOOD_GAME)
MATCH_PATHS = paths(GOOD_MATCH)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), replacement=JSON_VALUES, of_match=st.booleans())
def test_any_one_part_replaced_is_a_snapshot_error_or_a_game_that_goes_on(
        data, replacement, of_match):
    good, kind = (GOOD_MATCH, Match) if of_match else (GOOD_GAME, Game)
    path = data.draw(st.sampled_from(MATCH_PATHS if of_match else GAME_PATHS))
    text = edited(good, path, data.draw(st.sampled_from([replacement, ...])))
    try:
        restored = kind.from_json(text)
    except SnapshotError:
        return
    game = restored.game if isinstance(restored, Match) else restored
    # what decodes must not crash later: the rules list and take a step from it
    lists = {team: game.legal_actions(team) for team in Team}
    if game.is_over:
        return
    with contextlib.suppress(RulesError):
        game.apply({team: lists[team][0] for team in actors(game.state)})
    if isinstance(restored, Match):
        with contextlib.suppress(RulesError):
            restored.advance()


# -- refusals of malformed input (engine bugs found while writing these tests, now fixed) ----------


@pytest.mark.parametrize("opener", ["[", '{"a":'])
def test_deeply_nested_json_is_a_snapshot_error(opener):
    text = opener * 200_000
    assert len(text) <= MAX_SNAPSHOT_CHARS
    assert_snapshot_error(text, Game)


@pytest.mark.parametrize("how", ["hand", "swap", "lists"])
def test_cards_given_as_their_text_are_refused_or_stored_as_cards(how):
    game = selection_game()
    offense = OFFENSE_HAND
    if how == "hand":
        offense = Hand(tuple(p.value for p in offense.players),  # type: ignore[misc]
                       tuple(c.value for c in offense.calls))  # type: ignore[misc]
    elif how == "lists":
        offense = Hand(list(offense.players), list(offense.calls))  # type: ignore[arg-type]
    try:
        step(game, PickHand(offense), PickHand(DEFENSE_HAND))
        if how == "swap":
            step(game, PickSwap(Swap(SwapKind.CALL, "draw", "deep_pass")),  # type: ignore[arg-type]
                 PickSwap(Swap.keep()))
    except RulesError:
        return
    hand = game.state.offense_hand
    assert hand is not None
    assert isinstance(hand.players, tuple) and isinstance(hand.calls, tuple)
    assert all(isinstance(card, (Player, OffCall)) for card in (*hand.players, *hand.calls))
    assert game.legal_actions(Team.HOME)
    assert Game.from_json(game.to_json()).state == game.state


@pytest.mark.parametrize("hand", [Hand(None, None), Hand(([1], [2]), OFFENSE_HAND.calls)],  # type: ignore[arg-type]
                         ids=["fields None", "unhashable cards"])
def test_a_malformed_hand_is_an_illegal_selection(hand):
    game = selection_game()
    assert_refused(game, IllegalSelectionError,
                   {Team.HOME: PickHand(hand), Team.AWAY: PickHand(DEFENSE_HAND)})


@pytest.mark.parametrize("actions", [[CallCoin(CoinFace.HEADS)], {0: CallCoin(CoinFace.HEADS)},
                                     {1.0: Concede()}], ids=["a list", "int key", "float key"])
def test_a_step_maps_teams_themselves_to_actions(actions):
    """A team's number is not the team: a list or a mapping keyed by numbers is refused."""
    game = Game(random.Random(1))
    assert_refused(game, IllegalChoiceError, actions)


def test_role_of_and_actors_agree_with_the_state():
    game = selection_game(Team.AWAY)
    assert role_of(game.state, Team.AWAY) is Role.OFFENSE
    assert role_of(game.state, Team.HOME) is Role.DEFENSE
    assert role_of(Game(random.Random(0)).state, Team.HOME) is None


def test_the_step_helper_gives_the_offense_the_first_action():
    game = selection_game(Team.AWAY)
    (revealed,) = step(game, PickHand(OFFENSE_HAND), PickHand(DEFENSE_HAND))
    assert isinstance(revealed, ev.HandsRevealed) and revealed.offense == OFFENSE_HAND


# -- what each refusal says (the reason a maintainer or a player reads) --------------------------

def refusal(text: str) -> str:
    with pytest.raises(SnapshotError) as raised:
        Game.from_json(text)
    return str(raised.value)


def state_edited(**changes: Any) -> str:
    data = json.loads(json.dumps(GOOD_GAME))
    data["state"].update(changes)
    return json.dumps(data)


CANNOT = "the saved game cannot go on: "
UNREACHABLE = CANNOT + "the down is not one the rules can reach"


@pytest.mark.parametrize(("changes", "reason"), [
    ({"drive": 3}, CANNOT + "the scores or the drive are out of range"),  # 2 drives, from 0
    ({"drive": -1}, CANNOT + "the scores or the drive are out of range"),
    ({"scores": [-1, 0]}, CANNOT + "the scores or the drive are out of range"),
    ({"phase": "side_choice", "coin_winner": None}, CANNOT + "the side choice needs the "
     "toss's winner"),
    ({"offense_hand": None}, CANNOT + "the substitution step needs both hands"),
    ({"phase": "game_over"}, CANNOT + "a finished game needs its outcome"),
    ({"down": [1, 0, 10]}, UNREACHABLE),  # on the goal line itself
    ({"down": [1, 100, 101]}, UNREACHABLE),  # in the end zone
    ({"down": [1, 25, 25]}, UNREACHABLE),  # the marker must be ahead of the ball
    ({"down": [0, 25, 35]}, UNREACHABLE),
    ({"down": [5, 25, 35]}, UNREACHABLE),
    ({"offense_hand": {"players": ["Player.slot_receiver", "Player.slot_receiver"],
                       "calls": ["OffCall.draw", "OffCall.deep_pass", "OffCall.quick_slant"]}},
     CANNOT + "the offense picked the same card twice"),
])
def test_a_snapshot_the_rules_cannot_go_on_from_says_why(changes: dict[str, Any],
                                                         reason: str) -> None:
    assert refusal(state_edited(**changes)) == reason


@pytest.mark.parametrize("changes", [
    {"down": [1, 1, 11]}, {"down": [1, 99, 100]}, {"down": [4, 25, 35]}, {"drive": 0},
    {"drive": 2}, {"phase": "side_choice"}])
def test_the_edges_the_rules_can_reach_are_accepted(changes: dict[str, Any]) -> None:
    assert Game.from_json(state_edited(**changes)).phase.value == \
        changes.get("phase", "substitution")


def test_the_field_goal_distance_is_from_the_line_and_none_between_downs() -> None:
    at_25 = Game.from_json(state_edited(down=[1, 25, 35]))
    assert at_25.field_goal_distance() == 100 - 25 + 17  # 92 yards
    assert Game.from_json(state_edited(down=[3, 80, 90])).field_goal_distance() == 37
    assert GAMES[Phase.COIN_TOSS].state.down is None
    assert GAMES[Phase.COIN_TOSS].field_goal_distance() is None


def refused_step(game: Game, actions: object) -> str:
    with pytest.raises(RulesError) as raised:
        game.apply(actions)  # type: ignore[arg-type]
    return f"{type(raised.value).__name__}: {raised.value}"


def test_a_refused_step_says_what_is_wrong() -> None:
    game = Game.from_json(json.dumps(GOOD_GAME))  # at the substitution step
    keep = PickSwap(Swap(SwapKind.KEEP, None, None))
    assert refused_step(game, 7) == \
        "IllegalChoiceError: a step maps teams to actions, not 7"
    assert refused_step(game, {Team.HOME: Concede(), Team.AWAY: keep}) == \
        "IllegalChoiceError: a concession is made on its own"
    assert refused_step(game, {Team.HOME: keep, Team.AWAY: 7}) == \
        "IllegalChoiceError: 7 is not an action"
    assert refused_step(game, {Team.HOME: keep, Team.AWAY: CallCoin(CoinFace.HEADS)}) == \
        "WrongPhaseError: this action belongs to the coin_toss step, but the game is at " \
        "substitution"
    assert refused_step(game, {Team.HOME: keep}) == \
        "IllegalChoiceError: the substitution step takes one action each from home and away"


def test_only_the_snap_step_lists_snaps() -> None:
    assert GAMES[Phase.SUBSTITUTION].state.down is not None
    assert GAMES[Phase.SUBSTITUTION].legal_snaps() == ()
    assert GAMES[Phase.COIN_TOSS].legal_snaps() == ()
    assert GAMES[Phase.SNAP_CHOICE].legal_snaps()


def test_a_refused_hand_names_the_card_as_the_player_knows_it() -> None:
    game = selection_game()
    hand = game.legal_actions(Team.HOME)[0].hand  # type: ignore[union-attr]
    wrong = PickHand(Hand((Player.SHUTDOWN_CORNER, hand.players[1]), hand.calls))
    assert refused_step(game, {Team.HOME: wrong, Team.AWAY: game.legal_actions(Team.AWAY)[0]}) \
        == "IllegalSelectionError: Shutdown Corner is not one of the offense's players"


def test_both_hands_and_both_swaps_are_revealed_together() -> None:
    game = selection_game()
    assert step(game, PickHand(OFFENSE_HAND), PickHand(DEFENSE_HAND)) == [
        ev.HandsRevealed(1, OFFENSE_HAND, DEFENSE_HAND)]
    assert game.phase is Phase.SUBSTITUTION
    swap = Swap(SwapKind.PLAYER, Player.SCATBACK, Player.SLOT_RECEIVER)
    events = step(game, PickSwap(swap), PickSwap(Swap.keep()))
    new_offense = Hand((Player.POWER_BACK, Player.SLOT_RECEIVER), OFFENSE_HAND.calls)
    assert events == [ev.HandsRevealed(2, new_offense, DEFENSE_HAND, swap, Swap.keep())]
    assert game.phase is Phase.FINAL_CALL and game.state.offense_hand == new_offense


@pytest.mark.parametrize(("swap", "reason"), [
    (Swap(SwapKind.KEEP, Player.SCATBACK, None), "keeping the hand replaces nothing"),
    (Swap(SwapKind.PLAYER, Player.SCATBACK, Player.POWER_BACK),
     "Power Back is already in the offense's hand"),
    (Swap(SwapKind.PLAYER, Player.DEEP_THREAT, Player.SLOT_RECEIVER),
     "the offense can only replace a player it holds"),
    (Swap(SwapKind.CALL, OffCall.DRAW, DefCall.BLITZ),
     "an offense call swap takes two offense call cards"),
    (Swap(SwapKind.PLAYER, Player.SCATBACK, OffCall.DRAW),
     "an offense player swap takes two offense player cards"),
])
def test_a_refused_swap_says_why(swap: Swap, reason: str) -> None:
    game = substitution_game()
    assert refused_step(game, {Team.HOME: PickSwap(swap), Team.AWAY: PickSwap(Swap.keep())}) \
        == f"IllegalSubstitutionError: {reason}"


def test_a_substitution_that_is_not_a_swap_says_what_it_was() -> None:
    game = substitution_game()
    assert refused_step(game, {Team.HOME: PickSwap(7), Team.AWAY: PickSwap(Swap.keep())}) \
        == "IllegalSubstitutionError: a substitution must be a Swap, not 7"


def test_a_refused_defensive_swap_names_the_defense() -> None:
    game = substitution_game()
    wrong = Swap(SwapKind.PLAYER, DEFENSE_HAND.players[0], OffCall.DRAW)
    assert refused_step(game, {Team.HOME: PickSwap(Swap.keep()), Team.AWAY: PickSwap(wrong)}) \
        == "IllegalSubstitutionError: a defense player swap takes two defense player cards"


OFF_PLAYERS, OFF_CALLS = OFFENSE_HAND.players, OFFENSE_HAND.calls


@pytest.mark.parametrize(("hand", "reason"), [
    (Hand(OFF_PLAYERS, list(OFF_CALLS)),  # type: ignore[arg-type]
     "the offense's players and calls must each be a tuple"),
    (Hand(list(OFF_PLAYERS), OFF_CALLS),  # type: ignore[arg-type]
     "the offense's players and calls must each be a tuple"),
    (Hand(OFF_PLAYERS, ("inside_run", *OFF_CALLS[1:])),  # type: ignore[arg-type]
     "'inside_run' is not a card of the offense's"),
    (Hand(OFF_PLAYERS[:1], OFF_CALLS), "the offense must pick exactly 2 players, not 1"),
    (Hand(OFF_PLAYERS, OFF_CALLS[:2]), "the offense must pick exactly 3 calls, not 2"),
    (Hand(OFF_PLAYERS, (OFF_CALLS[0], OFF_CALLS[0], OFF_CALLS[1])),
     "the offense picked the same card twice"),
])
def test_a_refused_hand_says_why(hand: Hand, reason: str) -> None:
    game = selection_game()
    assert refused_step(game, {Team.HOME: PickHand(hand), Team.AWAY: PickHand(DEFENSE_HAND)}) \
        == f"IllegalSelectionError: {reason}"


def test_a_call_from_outside_the_offense_pool_is_named() -> None:
    # The offense's pool of calls is every offensive call, so a call outside it can only be
    # reached through a swap: the incoming card must come from the side's own pool.
    game = substitution_game()
    wrong = Swap(SwapKind.PLAYER, Player.SCATBACK, Player.NOSE_TACKLE)
    assert refused_step(game, {Team.HOME: PickSwap(wrong), Team.AWAY: PickSwap(Swap.keep())}) \
        == "IllegalSubstitutionError: the incoming card is not one of the offense's players"


def test_a_finished_game_refuses_any_step_and_a_read_only_mapping_is_a_step() -> None:
    from types import MappingProxyType

    game = selection_game()
    events = game.apply(MappingProxyType(  # type: ignore[arg-type]
        {Team.HOME: PickHand(OFFENSE_HAND), Team.AWAY: PickHand(DEFENSE_HAND)}))
    assert events == [ev.HandsRevealed(1, OFFENSE_HAND, DEFENSE_HAND)]
    game.apply({Team.AWAY: Concede()})
    with pytest.raises(GameOverError) as raised:
        game.apply({Team.HOME: Concede()})
    assert str(raised.value) == "the game is already over"
