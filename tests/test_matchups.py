"""M: matchups on request. Every figure said is the engine's own (the band from compute_band,
the gain and the risk from band_stats), at the swap and the final call, and for a card the
player might bring in."""

from __future__ import annotations

import re
from fractions import Fraction

import pygame
from app_driver import press
from hypothesis import given, settings
from hypothesis import strategies as st
from recording import RecordingCues, RecordingSpeaker

from sudden_death.engine.actions import PickHand, hand_actions, held_hand
from sudden_death.engine.card_model import Call, DefCall, OffCall, PlayKind, PlayResult, Role
from sudden_death.engine.cards import OFFENSIVE_CALLS, card_name
from sudden_death.engine.resolve import compute_band, resolve_play
from sudden_death.engine.state import Hand, Team
from sudden_death.engine.stats import band_stats, gain_chance
from sudden_death.ui.app import App
from sudden_death.ui.screens.decisions import FinalCallScreen
from sudden_death.ui.screens.hands import SubstitutionScreen
from sudden_death.ui.words.matchups import Needed, matchups_words, needed_now, swap_words
from sudden_death.ui.words.numbers import mean_words, percent_words

OFFENSE_HANDS = [action.hand for action in hand_actions(Role.OFFENSE)
                 if isinstance(action, PickHand)]
DEFENSE_HANDS = [action.hand for action in hand_actions(Role.DEFENSE)
                 if isinstance(action, PickHand)]
BAND = r"(?:plus \d|minus \d|0)"
CALL_SENTENCE = re.compile(rf"^([A-Z][A-Za-z ]+): ({BAND}(?:, {BAND})*)"
                           r", (average (?:gain|loss) [\d.]+ yards)(, ([\d.]+ percent) to make the "
                           r"(\d+))?(, turnover ([\d.]+ percent))?\.$")


def band_value(words: str) -> int:
    return 0 if words == "0" else (1 if words.startswith("plus") else -1) * int(words[-1])


def offense_stats(call: Call, other: Call, role: Role, offense: Hand,
                  defense: Hand) -> tuple[OffCall, int]:
    off_call, def_call = (call, other) if role is Role.OFFENSE else (other, call)
    assert isinstance(off_call, OffCall) and isinstance(def_call, DefCall)
    return off_call, compute_band(off_call, def_call, offense.players, defense.players).value


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(OFFENSE_HANDS), st.sampled_from(DEFENSE_HANDS), st.booleans(),
       st.one_of(st.none(), st.tuples(st.integers(1, 99), st.integers(1, 10))))
def test_every_figure_is_the_engines_and_the_answer_comes_first(
        offense: Hand, defense: Hand, on_offense: bool, down: tuple[int, int] | None) -> None:
    role = Role.OFFENSE if on_offense else Role.DEFENSE
    mine, theirs = (offense, defense) if on_offense else (defense, offense)
    needed = None if down is None else Needed(down[0], down[1])
    words = matchups_words(role, mine, theirs, needed)
    sentences = re.split(r"(?<=\.) (?=[A-Z])", words)
    if not on_offense:
        assert sentences.pop(0) == "Bands and gains are the offense's."
    assert sentences[0].startswith("Against ")
    lead = sentences[1]
    averages: dict[Call, tuple[Fraction, Fraction, Fraction]] = {}
    for call, sentence in zip(mine.calls, sentences[2:], strict=True):
        found = CALL_SENTENCE.match(sentence)
        assert found, sentence
        assert found.group(1) == card_name(call)
        bands, stats, chances = [], [], []
        for other in theirs.calls:
            off_call, band = offense_stats(call, other, role, offense, defense)
            bands.append(band)
            stats.append(band_stats(off_call, band))
            if needed is not None:
                chances.append(gain_chance(off_call, band, needed.line, needed.yards))
        assert [band_value(b) for b in found.group(2).split(", ")] == bands
        mean = sum((x.mean_yards for x in stats), Fraction(0)) / len(stats)
        assert found.group(3) == mean_words(mean)
        turnover = sum((x.turnover for x in stats), Fraction(0)) / len(stats)
        if needed is not None:
            assert found.group(5) == percent_words(sum(chances, Fraction(0)) / len(chances))
            assert found.group(6) == str(needed.yards)
        else:
            assert found.group(4) is None
        assert (found.group(8) is not None) is (turnover >= Fraction(5, 100))
        averages[call] = (mean - 40 * turnover, turnover,
                          sum((x.gain_10_plus for x in stats), Fraction(0)) / len(stats))
    if on_offense:
        best = max(averages, key=lambda c: averages[c][0])
        riskiest = max(averages, key=lambda c: averages[c][1])
    else:
        best = min(averages, key=lambda c: averages[c][0])
        riskiest = max(averages, key=lambda c: averages[c][2])
    assert lead.startswith(f"Best: {card_name(best)}, band")
    assert lead.endswith(f"; riskiest: {card_name(riskiest)}.")
    assert len(words.split()) < 110  # the old M ran to 110-130 words with no answer first


def test_the_chance_to_make_it_is_what_the_dice_do() -> None:
    """gain_chance against the engine's own roll of a snap, every roll counted: the outcome
    and yardage percentiles, whether it fumbles and who recovers."""
    for call, band, line, needed in ((OffCall.INSIDE_RUN, 0, 40, 3),
                                     (OffCall.DEEP_PASS, 1, 60, 10),
                                     (OffCall.SCREEN, -2, 95, 5)):
        table = OFFENSIVE_CALLS[call].bands[band]
        passes = OFFENSIVE_CALLS[call].kind is PlayKind.PASS
        total = Fraction(0)
        outcomes = range(1, 101) if passes else [None]
        for outcome in outcomes:
            for yardage in range(1, 101):
                for fumbles, fumble_share in ((True, Fraction(table.fumble, 100)),
                                              (False, Fraction(100 - table.fumble, 100))):
                    for lost in (False, True):
                        if not fumble_share:
                            continue
                        rolls = [*([outcome] if passes else []), yardage,
                                 table.fumble if fumbles else 100, 6 if lost else 1]
                        play = resolve_play(call, band, line, ScriptedDice(rolls))
                        share = Fraction(1, 100) * (Fraction(1, 100) if passes else 1)
                        share *= fumble_share * Fraction(1, 2)
                        if play.yards >= needed and not play.fumble_lost and \
                                play.result in (PlayResult.RUN, PlayResult.COMPLETE):
                            total += share
        assert gain_chance(call, band, line, needed) == total, call


class ScriptedDice:
    """A `random.Random` stand-in whose dice come out as listed (dice.index reads random())."""

    def __init__(self, faces: list[int]) -> None:
        self.faces = faces
        self.sides = [100, 100, 100, 6]

    def random(self) -> float:
        face = self.faces.pop(0)
        sides = 6 if not self.faces else 100  # the recovery die is the last one drawn
        return (face - 0.5) / sides


def app_at(screen_kind: type, seed: int = 3) -> tuple[App, RecordingSpeaker]:
    """A game played by its first legal choices until `screen_kind` asks the player."""
    pygame.display.init()
    speaker = RecordingSpeaker()
    app = App(speaker, RecordingCues(), seed=seed)
    app.start()
    app.names_chosen("Hawks", "Bears")
    while not isinstance(app.top, screen_kind):
        assert app.match is not None
        app.act(app.match.legal_actions()[0])
    return app, speaker


def hands(app: App) -> tuple[Role, Hand, Hand]:
    assert app.match is not None
    state = app.match.state
    role = app.match.role_of(Team.HOME)
    mine, theirs = held_hand(state, Team.HOME), held_hand(state, Team.AWAY)
    assert role is not None and mine is not None and theirs is not None
    return role, mine, theirs


def test_m_at_the_final_call_reads_every_call_against_theirs() -> None:
    app, speaker = app_at(FinalCallScreen)
    press(app, "m")
    role, mine, theirs = hands(app)
    assert app.match is not None
    assert speaker.spoken[-1].text == matchups_words(role, mine, theirs,
                                                     needed_now(app.match.state))
    assert isinstance(app.top, FinalCallScreen)  # reading changes nothing


def test_m_on_a_card_to_bring_in_reads_the_hand_as_it_would_be() -> None:
    app, speaker = app_at(SubstitutionScreen)
    role, mine, theirs = hands(app)
    press(app, "m")
    assert app.match is not None
    assert speaker.spoken[-1].text == matchups_words(role, mine, theirs,
                                                     needed_now(app.match.state))
    screen = app.top
    assert isinstance(screen, SubstitutionScreen)
    press(app, "end", "return")  # Replace the last call held: the bring-in list opens
    press(app, "down", "m")
    swap = screen.considered()
    assert swap is not None and swap.out == mine.calls[-1] and swap.into is not None
    said = speaker.spoken[-1].text
    assert said == swap_words(role, mine, swap, theirs, needed_now(app.match.state))
    assert said.startswith(f"With {card_name(swap.into)} for {card_name(swap.out)}: ")
    assert said.endswith(".") and (said.count(": ") <= 2 or "Best then" in said)
    unchanged = [c for c in mine.calls if c != swap.out]
    for call in unchanged:  # only what the new card changes is read
        assert f"{card_name(call)}: " not in said


def test_m_before_both_hands_are_shown_says_when_it_works() -> None:
    pygame.display.init()
    speaker, cues = RecordingSpeaker(), RecordingCues()
    app = App(speaker, cues, seed=3)
    app.start()
    press(app, "m")
    assert speaker.spoken[-1].text == (
        "Matchups come once both hands are shown: at the swap and the final call.")
    assert cues.played[-1] == "menu_error"
