"""The language module: finding catalogs, the system's language, and the active language."""

from __future__ import annotations

import gettext
import io
import threading
from contextvars import copy_context
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from sudden_death import language
from sudden_death.language import (
    ENGLISH,
    LanguageChoice,
    _,
    available,
    down_ordinal,
    join_words,
    load,
    match_code,
    n_,
    p_,
    system_code,
    using,
)


def _catalog_folder(tmp_path: Path, code: str,
                    messages: dict[str | tuple[str, str], str]) -> Path:
    """A compiled catalog for `code`; a tuple key is (context, English)."""
    catalog = Catalog(locale=code, domain=language.DOMAIN)
    for key, value in messages.items():
        context, msgid = key if isinstance(key, tuple) else (None, key)
        catalog.add(msgid, value, context=context)
    folder = tmp_path / "locale" / code / "LC_MESSAGES"
    folder.mkdir(parents=True)
    out = io.BytesIO()
    write_mo(out, catalog)
    (folder / f"{language.DOMAIN}.mo").write_bytes(out.getvalue())
    return tmp_path / "locale"


def test_english_is_the_source_text_when_nothing_is_chosen() -> None:
    assert _("Kickoff.") == "Kickoff."
    assert n_("{count} yard", "{count} yards", 1) == "{count} yard"
    assert n_("{count} yard", "{count} yards", 3) == "{count} yards"
    assert [down_ordinal(n) for n in (1, 2, 3, 4)] == ["1st", "2nd", "3rd", "4th"]
    assert join_words(["a", "b", "c"]) == "a, b and c"
    assert join_words(["a", "b"]) == "a and b"
    assert join_words(["a"]) == "a"
    assert join_words([]) == ""


def test_a_catalog_speaks_through_every_helper(tmp_path: Path) -> None:
    folder = _catalog_folder(tmp_path, "xx", {
        "Kickoff.": "Saque.",
        ("down", "1st"): "primera",
        "{items} and {last}": "{items} y {last}",
        (language.NAME_CONTEXT, "English"): "Equis",
        (language.VOICE_CONTEXT, language.DEFAULT_VOICE): "roa/es",
    })
    assert available(folder) == ("en", "xx")
    xx = load("xx", folder)
    assert xx.name == "Equis"
    assert xx.voice == "roa/es"
    assert load(ENGLISH).voice == ""
    with using(xx):
        assert _("Kickoff.") == "Saque."
        assert p_("down", "1st") == "primera"
        assert down_ordinal(1) == "primera"
        assert join_words(["a", "b"]) == "a y b"
        assert _("Not in the catalog.") == "Not in the catalog."
    assert _("Kickoff.") == "Kickoff."  # the block's language ends with it


def test_plural_forms_follow_the_catalogs_rule(tmp_path: Path) -> None:
    catalog = Catalog(locale="pl", domain=language.DOMAIN)  # three forms: 1, 2-4, 5+
    catalog.add(("{count} yard", "{count} yards"), ("{count} jard", "{count} jardy",
                                                    "{count} jardów"))
    folder = tmp_path / "pl" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    with (folder / f"{language.DOMAIN}.mo").open("wb") as handle:
        write_mo(handle, catalog)
    with using(load("pl", tmp_path)):
        forms = [n_("{count} yard", "{count} yards", n) for n in (1, 3, 5, 22)]
    assert forms == ["{count} jard", "{count} jardy", "{count} jardów", "{count} jardy"]


def test_a_missing_or_damaged_catalog_is_named(tmp_path: Path) -> None:
    with pytest.raises(LookupError, match="no catalog for language 'zz'"):
        load("zz", tmp_path)
    folder = tmp_path / "qq" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / f"{language.DOMAIN}.mo").write_bytes(b"not a catalog at all")
    with pytest.raises(LookupError, match="the qq catalog cannot be read"):
        load("qq", tmp_path)


@pytest.mark.parametrize(("tag", "expected"), [
    ("es_MX.UTF-8", "es"), ("es-419", "es"), ("ES", "es"), ("pt_BR", "pt_BR"), ("pt", None),
    ("C", None), ("POSIX", None), ("", None), ("de_DE@euro", None),
])
def test_match_code(tag: str, expected: str | None) -> None:
    assert match_code(tag, ("en", "es", "pt_BR")) == expected


def test_system_language_when_a_catalog_exists_else_english() -> None:
    codes = ("en", "es")
    assert system_code(codes, {"LANG": "es_AR.UTF-8"}) == "es"
    assert system_code(codes, {"LANGUAGE": "fr:es", "LANG": "fr_FR"}) == "es"
    assert system_code(codes, {"LANG": "fr_FR.UTF-8"}) == "en"
    assert system_code(codes, {"LC_ALL": "C", "LANG": "es_ES"}) == "en"


def test_a_thread_started_in_the_loops_context_follows_a_change() -> None:
    spanish = language.Language("es", gettext.NullTranslations())
    choice = LanguageChoice(language.english())
    heard: list[str] = []
    started = threading.Event()
    go = threading.Event()

    def worker() -> None:
        started.set()
        go.wait(5)
        heard.append(language.active().code)

    context = copy_context()
    context.run(language.install, choice)
    thread = threading.Thread(target=context.copy().run, args=(worker,))
    thread.start()
    started.wait(5)
    choice.language = spanish  # the setting changes it in place
    go.set()
    thread.join(5)
    assert heard == ["es"]
    assert language.active().code == "en"  # this test's own context never had it installed
