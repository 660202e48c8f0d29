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

from sudden_death.engine.actions import PickHand, hand_actions, held_hand, swapped
from sudden_death.engine.card_model import OffCall, PlayKind, Role
from sudden_death.engine.cards import OFFENSIVE_CALLS, card_name
from sudden_death.engine.resolve import compute_band
from sudden_death.engine.state import Hand, Team
from sudden_death.engine.stats import band_stats
from sudden_death.ui.app import App
from sudden_death.ui.screens.decisions import FinalCallScreen
from sudden_death.ui.screens.hands import SubstitutionScreen
from sudden_death.ui.words.matchups import RISK_WORDS, matchups_words
from sudden_death.ui.words.numbers import mean_words, percent_words

SEGMENT = re.compile(r"against ([A-Za-z ]+?) band (plus \d|minus \d|0), (average (?:gain|loss) "
                     r"[\d.]+ yards), ([a-z ]+?) ([\d.]+ percent)")
OFFENSE_HANDS = [action.hand for action in hand_actions(Role.OFFENSE)
                 if isinstance(action, PickHand)]
DEFENSE_HANDS = [action.hand for action in hand_actions(Role.DEFENSE)
                 if isinstance(action, PickHand)]


def band_value(words: str) -> int:
    return 0 if words == "0" else (1 if words.startswith("plus") else -1) * int(words[-1])


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(OFFENSE_HANDS), st.sampled_from(DEFENSE_HANDS), st.booleans())
def test_every_figure_is_the_engines(offense: Hand, defense: Hand, on_offense: bool) -> None:
    role = Role.OFFENSE if on_offense else Role.DEFENSE
    mine, theirs = (offense, defense) if on_offense else (defense, offense)
    words = matchups_words(role, mine, theirs)
    sentences = [s for s in re.split(r"(?<=\.) (?=[A-Z])", words) if ": against " in s]
    assert [s.split(":")[0] for s in sentences] == [card_name(c) for c in mine.calls]
    for call, sentence in zip(mine.calls, sentences, strict=True):
        found = SEGMENT.findall(sentence)
        assert [name for name, *_ in found] == [card_name(c) for c in theirs.calls]
        for other, (_name, band_words, average, risk, chance) in zip(theirs.calls, found,
                                                                      strict=True):
            off_call, def_call = (call, other) if on_offense else (other, call)
            assert isinstance(off_call, OffCall)
            band = compute_band(off_call, def_call, offense.players, defense.players).value
            assert band_value(band_words) == band
            stats = band_stats(off_call, band)
            assert average == mean_words(stats.mean_yards)
            names = ["loss", "fumble"]
            if OFFENSIVE_CALLS[off_call].kind is PlayKind.PASS:
                names += ["incomplete", "interception", "sack"]
            largest = max(getattr(stats, name) for name in names)
            worst = {RISK_WORDS[name] for name in names if getattr(stats, name) == largest}
            assert risk in worst and chance == percent_words(Fraction(largest))


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
    assert speaker.spoken[-1].text == matchups_words(role, mine, theirs)
    assert isinstance(app.top, FinalCallScreen)  # reading changes nothing


def test_m_on_a_card_to_bring_in_reads_the_hand_as_it_would_be() -> None:
    app, speaker = app_at(SubstitutionScreen)
    role, mine, theirs = hands(app)
    press(app, "m")
    assert speaker.spoken[-1].text == matchups_words(role, mine, theirs)
    screen = app.top
    assert isinstance(screen, SubstitutionScreen)
    press(app, "end", "return")  # Replace the last call held: the bring-in list opens
    press(app, "down", "m")
    swap = screen.considered()
    assert swap is not None and swap.out == mine.calls[-1] and swap.into is not None
    expected = (f"With {card_name(swap.into)} for {card_name(swap.out)}: "
                + matchups_words(role, swapped(mine, swap), theirs))
    assert speaker.spoken[-1].text == expected


def test_m_before_both_hands_are_shown_says_when_it_works() -> None:
    pygame.display.init()
    speaker, cues = RecordingSpeaker(), RecordingCues()
    app = App(speaker, cues, seed=3)
    app.start()
    press(app, "m")
    assert speaker.spoken[-1].text == (
        "Matchups come once both hands are shown: at the swap and the final call.")
    assert cues.played[-1] == "menu_error"
