"""The card data meets SPEC's design rules, checked by code rather than by eye."""

from __future__ import annotations

import itertools

import pytest
from scripts import load_script

from sudden_death.engine import BANDS, DefCall, OffCall, PlayKind, Role
from sudden_death.engine.cards import (
    DEFENSIVE_CALLS,
    MATCHUPS,
    OFFENSIVE_CALLS,
    PLAYERS,
    calls_for,
    players_for,
)
from sudden_death.engine.resolve import Band, compute_band
from sudden_death.engine.stats import band_stats, matchup_stats


def test_pools_have_the_sizes_the_rules_name():
    assert len(players_for(Role.OFFENSE)) == 4 and len(players_for(Role.DEFENSE)) == 4
    assert len(calls_for(Role.OFFENSE)) == 6 and len(calls_for(Role.DEFENSE)) == 6
    assert len(OFFENSIVE_CALLS) == 6 and len(DEFENSIVE_CALLS) == 6
    assert all(isinstance(card.call, OffCall) for card in PLAYERS.values())
    names = [c.name for c in OFFENSIVE_CALLS.values()] + [c.name for c in DEFENSIVE_CALLS.values()]
    names += [c.name for c in PLAYERS.values()]
    assert len(set(names)) == len(names)


@pytest.mark.parametrize("call", list(OffCall))
def test_every_band_table_is_complete_and_weights_sum_to_100(call):
    card = OFFENSIVE_CALLS[call]
    assert sorted(card.bands) == list(BANDS)
    for table in card.bands.values():
        assert sum(weight for _, weight in table.yards) == 100
        assert all(weight >= 0 for _, weight in table.yards)
        if card.kind is PlayKind.RUN:
            assert table.incomplete == table.interception == table.sack == 0
        else:
            assert table.sack + table.interception + table.incomplete < 100


@pytest.mark.parametrize("call", list(OffCall))
def test_higher_bands_are_never_worse_for_the_offense(call):
    for low, high in itertools.pairwise(BANDS):
        worse, better = band_stats(call, low), band_stats(call, high)
        assert better.mean_yards > worse.mean_yards
        assert better.interception <= worse.interception
        assert better.sack <= worse.sack
        assert better.incomplete <= worse.incomplete
        low_table = OFFENSIVE_CALLS[call].bands[low]
        high_table = OFFENSIVE_CALLS[call].bands[high]
        # the chance a ball carrier fumbles (per run, catch or sack) never rises
        assert high_table.fumble <= low_table.fumble


def test_every_call_beats_at_least_one_opposing_call_and_loses_to_at_least_one():
    for off in OffCall:
        row = MATCHUPS[off].values()
        assert max(row) > 0 and min(row) < 0, off
    for defense in DefCall:
        column = [MATCHUPS[off][defense] for off in OffCall]
        assert max(column) > 0 and min(column) < 0, defense


def test_no_offensive_call_is_dominated_by_another():
    for weak, strong in itertools.permutations(OffCall, 2):
        pairs = [(matchup_stats(weak, d).value, matchup_stats(strong, d).value) for d in DefCall]
        assert not all(s >= w for w, s in pairs), f"{strong} dominates {weak}"


def test_no_defensive_call_is_dominated_by_another():
    for weak, strong in itertools.permutations(DefCall, 2):
        pairs = [(matchup_stats(o, weak).value, matchup_stats(o, strong).value) for o in OffCall]
        assert not all(s <= w for w, s in pairs), f"{strong} dominates {weak}"


def test_band_zero_feels_like_football():
    runs = [band_stats(c, 0) for c, card in OFFENSIVE_CALLS.items() if card.kind is PlayKind.RUN]
    passes = [band_stats(c, 0) for c, card in OFFENSIVE_CALLS.items() if card.kind is PlayKind.PASS]
    carry = sum(s.mean_yards for s in runs) / len(runs)
    assert 3.5 <= carry <= 5
    attempts = [1 - s.sack for s in passes]
    completion = sum(
        (1 - s.sack - s.interception - s.incomplete) / a
        for s, a in zip(passes, attempts, strict=True)
    ) / len(passes)
    assert 0.55 <= completion <= 0.7
    assert all(s.interception <= 0.06 and s.sack <= 0.1 for s in passes)


def test_band_is_matchup_plus_offense_bonus_minus_defense_bonus_clamped():
    from sudden_death.engine import Player

    call, defense = OffCall.DEEP_PASS, DefCall.STACK_THE_BOX
    assert MATCHUPS[call][defense] == 2
    boosted = compute_band(call, defense, (Player.DEEP_THREAT, Player.SCATBACK), ())
    assert (boosted.offense_bonus, boosted.value) == (1, 3)
    assert (boosted.offense_player, boosted.defense_player) == (Player.DEEP_THREAT, None)
    lowest = compute_band(call, DefCall.PREVENT, (), (Player.CENTER_FIELDER, Player.NOSE_TACKLE))
    assert (lowest.matchup, lowest.defense_bonus, lowest.value) == (-2, 1, -3)
    assert (lowest.offense_player, lowest.defense_player) == (None, Player.CENTER_FIELDER)
    # the card data never goes past +-3 on its own, so the clamp is shown on a made-up band
    assert Band(4, 1, 0, None, None).value == 3 and Band(-3, 0, 1, None, None).value == -3
    unrelated = compute_band(
        OffCall.DRAW, DefCall.BLITZ, (Player.POWER_BACK,), (Player.NOSE_TACKLE,)
    )
    assert (unrelated.offense_bonus, unrelated.defense_bonus) == (0, 0)
    for off, defense_call in itertools.product(OffCall, DefCall):
        for oplayers in itertools.combinations(players_for(Role.OFFENSE), 2):
            for dplayers in itertools.combinations(players_for(Role.DEFENSE), 2):
                band = compute_band(off, defense_call, oplayers, dplayers)
                raw = MATCHUPS[off][defense_call] + band.offense_bonus - band.defense_bonus
                assert band.value == max(-3, min(3, raw))


def test_band_tables_are_what_the_documented_recipe_gives():
    """docs/balance.md explains the tables through tools/card_tables.py; keep the two in step."""

    recipe = load_script("tools/card_tables.py")
    for call, tables in recipe.all_tables().items():
        assert OFFENSIVE_CALLS[call].bands == tables, call
    assert "_DEEP_PASS = _pass_bands(" in recipe.source()
