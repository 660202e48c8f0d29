"""The language setting and `--lang`: heard at once in the new language and voice, saved, and
the system's language by default."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from app_driver import press, started_app
from recording import RecordingSpeaker

from sudden_death import language
from sudden_death.storage.settings import Settings, load_settings, save_settings
from sudden_death.ui.aids.settings_screen import SETTING_KEYS
from sudden_death.ui.run.cli import parse_options

ROOT = Path(__file__).resolve().parent.parent
SPANISH_VOICE = "roa/es-419"


def spanish(message: str, **fields: object) -> str:
    with language.using(language.load("es")):
        return language._(message).format(**fields)


def test_the_language_is_the_first_setting_and_changes_at_once(tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    press(app, "o")
    entries = len(SETTING_KEYS) + 4  # and Keys, Report a problem, Reset, Done
    assert speaker.spoken[-1].text.endswith(f"Language: English, 1 of {entries}")
    press(app, "right")
    heard = speaker.spoken[-1].text
    assert heard == spanish("Language: {language}", language="Español")
    assert heard.startswith("Idioma")
    assert speaker.voice == SPANISH_VOICE  # set before the words were said
    assert load_settings(tmp_path)[0].language == "es"
    press(app, "down")  # the menu itself is Spanish now
    rate = Settings().speech_rate
    with language.using(language.load("es")):
        expected = language.n_("Speech rate: {rate} word per minute",
                               "Speech rate: {rate} words per minute", rate).format(rate=rate)
    assert speaker.spoken[-1].text.startswith(expected)
    press(app, "up", "left")  # and back: English words, the engine's own voice again
    assert speaker.spoken[-1].text == "Language: English"
    assert speaker.voice == ""
    assert load_settings(tmp_path)[0].language == "en"


def test_a_voice_chosen_by_the_player_wins_until_the_language_changes(tmp_path: Path) -> None:
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    press(app, "o", "down", "down", "right")  # Voice: the first installed one
    assert speaker.voice == "fake/alto"
    press(app, "up", "up", "right")  # Spanish: its own voice, and the chosen one is forgotten
    assert speaker.voice == SPANISH_VOICE
    assert load_settings(tmp_path)[0].voice == ""


def test_a_saved_language_that_is_gone_is_named_and_english_is_spoken(tmp_path: Path) -> None:
    chosen, notice = language.choose("xx")
    assert chosen.code == "en"
    assert notice is not None and "no catalog for language 'xx'" in notice
    assert language.choose("") == (language.english(), None)  # the test session is in C.UTF-8


def test_lang_on_the_command_line() -> None:
    assert parse_options(["--lang", "es"]).lang == "es"
    assert parse_options([]).lang is None


def test_an_unknown_lang_is_refused_with_the_choices(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        parse_options(["--lang", "xx"])
    assert stopped.value.code == 2
    assert "no catalog for 'xx'; the game has: en, es" in capsys.readouterr().err


def _first_words(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """The first line a headless launch speaks, with no keys (Escape would quit)."""
    environ = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                   PYGAME_HIDE_SUPPORT_PROMPT="1", **(env or {}))
    result = subprocess.run(
        [sys.executable, "-m", "sudden_death", "--headless", "--no-sound", "--keys", "-",
         "--transcript", "-", "--config", str(tmp_path), *args],
        input="", cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    return next(line["text"] for line in lines if line.get("kind") == "speech")


def test_the_system_language_is_the_default_and_a_setting_or_lang_overrides_it(
        tmp_path: Path) -> None:
    welcome = _first_words(tmp_path / "a")
    assert welcome.startswith("Welcome to Sudden Death")
    spanish_welcome = _first_words(tmp_path / "b", env={"LANG": "es_MX.UTF-8"})
    assert spanish_welcome != welcome and "Sudden Death" in spanish_welcome
    save_settings(Settings(language="en"), tmp_path / "c")
    assert _first_words(tmp_path / "c", env={"LANG": "es_MX.UTF-8"}) == welcome
    assert _first_words(tmp_path / "c", "--lang", "es") == spanish_welcome


def test_the_spanish_voice_really_speaks_and_the_default_comes_back() -> None:
    """Real eSpeak NG (one engine per process, so in a child): the language's voice is the one
    eSpeak NG reports while it renders, and "" brings the engine's own voice back."""
    script = textwrap.dedent("""
        from sudden_death.audio.synth import start_synth
        synth = start_synth()
        def heard(voice):
            synth.apply(175, voice)  # as the game does: a voice resets the rate
            samples = len(synth.render("primera y diez en tu propia 25"))
            return synth.engine.getProperty("voice"), samples > 20000
        print(*heard(None), *heard("roa/es-419"), *heard(""), synth.default_voice)
    """)
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    default, spoke, chosen, spoke_spanish, back, spoke_again, own = result.stdout.split()
    assert chosen == SPANISH_VOICE and spoke_spanish == "True"
    assert default == back == own != SPANISH_VOICE
    assert spoke == spoke_again == "True"


def test_the_window_font_draws_every_letter_of_every_catalog() -> None:
    """The window shows the same words: pygame's bundled font must have a glyph for each
    character a translation uses (accents, ñ, ¿ and ¡ in Spanish)."""
    import pygame
    from babel.messages.pofile import read_po

    pygame.font.init()
    font = pygame.font.Font(None, 30)
    for code in language.available()[1:]:
        path = language.locale_dir() / code / "LC_MESSAGES" / f"{language.DOMAIN}.po"
        with path.open("rb") as handle:
            catalog = read_po(handle, locale=code)
        used = sorted({char for message in catalog if message.id
                       for text in ([message.string] if isinstance(message.string, str)
                                    else message.string)
                       for char in text if not char.isspace()})
        missing = [char for char, metrics in zip(used, font.metrics("".join(used)), strict=True)
                   if metrics is None]
        assert missing == [], code
        assert any(ord(char) > 127 for char in used)  # the check saw the accents
