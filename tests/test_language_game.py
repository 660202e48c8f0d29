"""A whole scripted game in every translated language: it reaches its final score, and no word
of English is left in what the player hears.

The English words are taken from the catalogs themselves: every word of the English source
text (the template) that the language's own translations never use. So a message that slipped
past `_()`, or a translation left in English, shows up as its English words.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from game_script import plan_game, spoken_lines

from sudden_death import language
from sudden_death.engine.events import ExtraPoint, FieldGoal, Fumble, GameOver, Punt, Touchdown
from sudden_death.ui.screens.welcome import DEFAULT_AWAY, DEFAULT_HOME
from sudden_death.ui.words.phrases import Names
from sudden_death.ui.words.situation import outcome_words

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = [code for code in language.available() if code != language.ENGLISH]
# Between them: a touchdown and its extra point, field goals, a punt and fumbles (checked below).
SEEDS = (10, 13)
WORD = re.compile(r"[^\W\d_]{2,}")  # words of two or more letters, accents included


def words(text: str) -> set[str]:
    return set(WORD.findall(text.lower()))


def _texts(value: object) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else [str(v) for v in value]  # type: ignore[union-attr]


@cache
def english_only(code: str) -> frozenset[str]:
    """Words of the English source text that `code`'s translations never use."""
    locale = language.locale_dir()
    with (locale / f"{language.DOMAIN}.pot").open("rb") as handle:
        template = read_po(handle)
    with (locale / code / "LC_MESSAGES" / f"{language.DOMAIN}.po").open("rb") as handle:
        catalog = read_po(handle, locale=code)
    placeholder = re.compile(r"\{[^{}]*\}")
    english = set().union(*(words(placeholder.sub(" ", text)) for m in template if m.id
                            for text in _texts(m.id)))
    translated = set().union(*(words(placeholder.sub(" ", text)) for m in catalog if m.id
                               for text in _texts(m.string)))
    return frozenset(english - translated)


def play(tmp_path: Path, code: str, seed: int) -> tuple[list[str], list[object], Names]:
    with language.using(language.load(code)):
        names = Names(language._(DEFAULT_HOME), language._(DEFAULT_AWAY))
    keys, events = plan_game(seed, home=names.home)
    return spoken_lines(seed, keys, code, tmp_path / "cfg"), list(events), names


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("code", LANGUAGES)
def test_a_whole_game_speaks_only_the_language(tmp_path: Path, code: str, seed: int) -> None:
    spoken, events, names = play(tmp_path, code, seed)
    assert len(spoken) > 100
    english = english_only(code)
    assert len(english) > 200  # the check has words to look for
    left = sorted({word for line in spoken for word in words(line) & english})
    assert left == [], [line for line in spoken if words(line) & english][:10]
    over = next(event for event in events if isinstance(event, GameOver))
    with language.using(language.load(code)):
        final = outcome_words(over.outcome, names)
    score = final.split(". ")[0] + ". "  # the call on the winner after it varies
    assert any(line.startswith(score) for line in spoken), score


def test_the_seeds_cover_the_scoring_plays() -> None:
    kinds = {type(event) for seed in SEEDS for event in plan_game(seed)[1]}
    assert {Touchdown, ExtraPoint, FieldGoal, Punt, Fumble} <= kinds


def test_the_check_would_see_english(tmp_path: Path) -> None:
    """The same game in English is full of the words the check looks for."""
    english = english_only("es")
    lines, _events, _names = play(tmp_path, "en", SEEDS[0])
    heard = set().union(*(words(line) for line in lines))
    assert len(heard & english) > 100


@pytest.mark.parametrize("code", LANGUAGES)
def test_hostile_keys_all_over_the_game_find_no_english(monkeypatch: pytest.MonkeyPatch,
                                                        tmp_path: Path, code: str) -> None:
    """Beyond the scripted game: the fuzz player presses every key anywhere (F1 on each screen,
    the explorer, sections, history, settings, M, D, refusals) for three games. The language is
    the only one the settings offer here, so the fuzz cannot switch away from it."""
    import random

    from recording import RecordingCues, RecordingSpeaker
    from reliability_helpers import FuzzSource, make_tracking_app

    from sudden_death.audio.protocols import Message
    from sudden_death.ui.aids import settings_screen as settings_menu
    from sudden_death.ui.run import loop as loop_module
    from sudden_death.ui.run.cli import Options

    source = FuzzSource(random.Random(20), 3, 12_000, hostile=0.6)
    heard: list[Message] = []
    monkeypatch.setattr(loop_module, "App", make_tracking_app(loop_module.App, source, heard))
    monkeypatch.setattr(loop_module, "_key_source", lambda _keys: source)
    monkeypatch.setattr(settings_menu, "available", lambda: (code,))
    options = Options(seed=20, headless=True, keys="fuzz", config=tmp_path / "cfg", lang=code)
    assert loop_module.run_app(options, speaker=RecordingSpeaker(), cues=RecordingCues()) == 0
    assert source.finished_by == "games" and len(heard) > 1000
    english = english_only(code)
    left = {word: line.text for line in heard for word in words(line.text) & english}
    assert left == {}


@pytest.mark.parametrize("code", LANGUAGES)
def test_help_rules_and_lesson_have_no_english(code: str) -> None:
    """What the fuzz rarely reaches: every screen's F1, every key, How to play, and the lesson."""
    from sudden_death.ui.aids import lesson as tutorial
    from sudden_death.ui.keys.keymap import KeyMap
    from sudden_death.ui.words import help as help_text
    from sudden_death.ui.words.rules import rules_sections

    with language.using(language.load(code)):
        names = {"home": language._(DEFAULT_HOME), "away": language._(DEFAULT_AWAY),
                 "lesson": "G"}
        keys = KeyMap.default()
        texts = [*(help_text.screen_help(key, keys) for key in help_text.SCREENS),
                 keys.key_list(), *(tutorial.tip(key, keys) for key in tutorial.TIPS),
                 language._(tutorial.LESSON_START).format(**names),
                 tutorial.lesson_end(keys),
                 *(part for section in rules_sections(keys) for part in section)]
    assert len(texts) > 30
    english = english_only(code)
    left = {word: text[:80] for text in texts for word in words(text) & english}
    assert left == {}
