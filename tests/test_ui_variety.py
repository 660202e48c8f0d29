"""Play-by-play with variety: each common result has at least four phrasings in every language,
all different; the game's seed picks among them, never the same one twice in a row; short
verbosity always says the plain one; and the facts stay in every phrasing (the "must still
say" test, test_ui_speech_economy.py, checks that over whole games by ear)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

import hypothesis.strategies as st
from hypothesis import given, settings

from sudden_death import language
from sudden_death.engine import events as ev
from sudden_death.engine.actions import Action, ChooseSnap
from sudden_death.engine.match import Match
from sudden_death.engine.state import SnapChoice
from sudden_death.ui.words.narration import Narrator
from sudden_death.ui.words.phrases import Names
from sudden_death.ui.words.variety import Variety
from sudden_death.ui.words.verbosity import Telling, Verbosity

T = TypeVar("T")
NAMES = Names("Hawks", "Bears")
# The news the broadcast varies (plays.py, narration.py, situation.py): each must offer four
# or more phrasings. The rarer calls (a big run or pass, a 4th-down try, the final) vary too.
COMMON = ("gain", "loss", "no_gain", "complete", "incomplete", "sack", "first_down",
          "touchdown", "interception", "fumble", "punt_yours", "punt_theirs", "kick_good",
          "kick_missed", "extra_point_good")


class RecordingVariety(Variety):
    """The game's variety, noting what it was offered and what it picked."""

    def __init__(self, seed: int | None) -> None:
        super().__init__(seed)
        self.offered: dict[str, set[tuple[object, ...]]] = {}
        self.picked: list[tuple[str, object]] = []

    def pick(self, kind: str, phrasings: Sequence[T]) -> T:
        self.offered.setdefault(kind, set()).add(tuple(phrasings))
        choice = super().pick(kind, phrasings)
        self.picked.append((kind, choice))
        return choice


def bold_action(match: Match, rng: random.Random) -> Action:
    """A player who sometimes goes for it on fourth down, and picks cards at random."""
    legal = match.legal_actions()
    if isinstance(legal[0], ChooseSnap):
        down = match.state.down
        assert down is not None
        if down.number < 4 or rng.random() < 0.4:
            return ChooseSnap(SnapChoice.PLAY)
        goal = ChooseSnap(SnapChoice.FIELD_GOAL)
        return goal if goal in legal and rng.random() < 0.6 else ChooseSnap(SnapChoice.PUNT)
    return rng.choice(legal)


def game_events(seed: int) -> list[ev.Event]:
    rng = random.Random(seed)
    match = Match.against_computer(seed)
    events = list(match.advance())
    while not match.is_over:
        events += match.act(bold_action(match, rng))
    return events


def narrate(seeds: range, telling: Telling) -> tuple[RecordingVariety, list[str]]:
    variety = RecordingVariety(7)
    narrator = Narrator(NAMES, variety=variety)
    lines = [line.text for seed in seeds for line in narrator.lines(game_events(seed), telling)]
    return variety, lines


def test_each_common_result_has_four_different_phrasings_in_each_language() -> None:
    for code in ("en", "es"):
        with language.using(language.load(code)):
            variety, _lines = narrate(range(60), Telling())
        missing = [kind for kind in COMMON if kind not in variety.offered]
        assert not missing, (code, missing)  # the games reached every kind of news
        for kind, offers in variety.offered.items():
            for phrasings in offers:
                assert len(set(phrasings)) == len(phrasings), (code, kind, phrasings)
                assert len(phrasings) >= 4, (code, kind, phrasings)


def test_a_fourth_down_conversion_and_the_final_are_called() -> None:
    variety, lines = narrate(range(60), Telling())
    assert any("on fourth down and make it! First down at" in line for line in lines)
    assert {"final_won", "final_lost"} <= set(variety.offered)
    assert {"big_run", "big_pass"} & set(variety.offered)


def test_the_same_phrasing_is_never_picked_twice_in_a_row() -> None:
    variety, _lines = narrate(range(30), Telling())
    last: dict[str, object] = {}
    for kind, choice in variety.picked:
        assert last.get(kind) != choice, kind
        last[kind] = choice
    assert len(variety.picked) > 200


def test_the_same_seed_says_the_same_words() -> None:
    first = narrate(range(5), Telling())[1]
    assert narrate(range(5), Telling())[1] == first
    other = RecordingVariety(8)
    narrator = Narrator(NAMES, variety=other)
    assert [line.text for seed in range(5)
            for line in narrator.lines(game_events(seed))] != first


def test_short_verbosity_always_says_the_plain_words() -> None:
    short = Telling.preset(Verbosity.SHORT)
    variety, lines = narrate(range(10), short)
    assert variety.picked == []
    plain = [line.text for seed in range(10)
             for line in Narrator(NAMES).lines(game_events(seed), short)]
    assert lines == plain


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**31), picks=st.lists(st.tuples(st.sampled_from("abc"),
                                                            st.integers(1, 6)), max_size=60))
def test_a_pick_is_one_of_the_phrasings_and_never_the_last_one(
        seed: int, picks: list[tuple[str, int]]) -> None:
    variety = Variety(seed)
    last: dict[str, int] = {}
    for kind, count in picks:
        choice = variety.pick(kind, list(range(count)))
        assert 0 <= choice < count
        if count > 1 and last.get(kind, -1) >= 0 and last[kind] < count:
            assert choice != last[kind]
        last[kind] = choice
