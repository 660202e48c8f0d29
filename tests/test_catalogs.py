"""The translation catalogs match the code: nothing missing, stale, fuzzy, or mismatched."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import catalogs  # noqa: E402

from sudden_death import language  # noqa: E402


def test_every_catalog_is_complete_and_current() -> None:
    """The CI check of issue 20: run `python3 tasks.py catalogs` and translate what it lists."""
    assert catalogs.problems() == []


# A gettext call inside an f-string's braces: Python 3.12 and later read f-strings as code
# (PEP 701), so their extractor finds the message and 3.10 and 3.11's does not, and the
# catalogs can be current on one Python and stale on another.
GETTEXT_IN_FSTRING = re.compile(r"""\bf(["'])[^"'\n]*\{\s*(?:_|n_|p_|N_)\(""")


def test_no_message_hides_inside_an_f_string() -> None:
    found = [f"{path.relative_to(ROOT)}:{number}"
             for path in sorted((ROOT / "sudden_death").rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if GETTEXT_IN_FSTRING.search(line)]
    assert found == []
    assert GETTEXT_IN_FSTRING.search('return f"{_(\'Your record.\')} {x}"')


def test_spanish_is_shipped_and_names_itself() -> None:
    assert "es" in language.available()
    spanish = language.load("es")
    assert spanish.name == "Español"
    assert spanish.voice == "roa/es-419"


def _message(msgid: str | tuple[str, str], string: str | tuple[str, ...],
             fuzzy: bool = False) -> list[str]:
    catalog = Catalog(locale="de")  # two plural forms, as gettext gives Spanish
    flags = ["fuzzy"] if fuzzy else []
    message = catalog.add(msgid, string, flags=flags)
    assert message is not None
    return catalogs.message_problems(message, catalog.num_plurals)


def test_a_good_translation_passes() -> None:
    assert _message("{team} ball at {spot}.", "Balón de {team} en {spot}.") == []
    assert _message(("{count} yard", "{count} yards"), ("{count} yarda", "{count} yardas")) == []
    # A plural form may leave the count out ("one yard"), but never add a new name.
    assert _message(("{count} yard", "{count} yards"), ("una yarda", "{count} yardas")) == []


@pytest.mark.parametrize(("msgid", "string", "fuzzy", "why"), [
    ("{team} ball.", "Balón de {equipo}.", False, "not in the English"),
    ("{team} ball at {spot}.", "Balón de {team}.", False, "missing"),
    ("Kickoff.", "", False, "untranslated"),
    ("Kickoff.", "Saque.", True, "fuzzy"),
    ("Kickoff.", "Saque {.", False, "broken braces"),
    (("{count} yard", "{count} yards"), ("{count} yarda",), False, "plural forms"),
    (("{count} yard", "{count} yards"), ("{count} yarda", "{n} yardas"), False, "not in the"),
])
def test_a_bad_translation_is_named(msgid: str | tuple[str, str], string: str | tuple[str, ...],
                                    fuzzy: bool, why: str) -> None:
    found = _message(msgid, string, fuzzy)
    assert len(found) >= 1
    assert why in found[0]


def test_text_the_extractor_cannot_see_is_refused(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "words.py").write_text(
        'def f(x):\n'
        '    ok = _("Fine {x}.").format(x=x) + _(LABEL)\n'
        '    return _(f"Gain of {x}.") + n_("a" + x, "b", 2) + p_("key", f"{x}")\n'
    )
    found = catalogs.unextractable(package)
    assert [line.split(": ", 1)[0].rsplit(":", 1)[1] for line in found] == ["3", "3", "3"]


def test_a_missing_or_stale_message_is_listed(tmp_path: Path) -> None:
    """Against a copy of the real catalogs: drop one message, add one the code never says."""
    from babel.messages.pofile import read_po, write_po

    source = language.locale_dir()
    for path in source.rglob("*"):
        if path.is_file():
            target = tmp_path / path.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
    po = tmp_path / "es" / "LC_MESSAGES" / f"{language.DOMAIN}.po"
    with po.open("rb") as handle:
        catalog = read_po(handle, locale="es")
    gone = next(m for m in catalog if m.id and isinstance(m.id, str) and not m.context)
    catalog.delete(gone.id)
    catalog.add("A line the code no longer says.", "Una línea que ya no se dice.")
    with po.open("wb") as handle:
        write_po(handle, catalog)
    found = catalogs.problems(tmp_path)
    assert f"es: missing {gone.id!r}" in found
    assert "es: stale 'A line the code no longer says.'" in found
    assert any("not compiled from the .po" in line for line in found)


# Spanish that is spelled as the English: names, and words both languages share.
# Key names too: Spanish keyboards label Escape and Control as English ones do.
SAME_IN_SPANISH = {"No", "Sudden Death", "eSpeak NG", "normal", "speech-dispatcher",
                   "Escape", "Control"}


def test_no_spanish_message_is_the_english_copied() -> None:
    """A msgstr copied from its msgid passes every other check and puts its words into the
    Spanish vocabulary the no-English test subtracts; only the listed names may match."""
    from babel.messages.pofile import read_po

    path = language.locale_dir() / "es" / "LC_MESSAGES" / f"{language.DOMAIN}.po"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale="es")
    placeholder = re.compile(r"\{[^{}]*\}")
    copied = set()
    for message in catalog:
        if not message.id:
            continue
        english = [message.id] if isinstance(message.id, str) else list(message.id)
        spanish = [message.string] if isinstance(message.string, str) else list(message.string)
        copied |= {text for text in spanish if text in english
                   and re.search(r"[A-Za-z]{2,}", placeholder.sub("", text))}
    assert copied == SAME_IN_SPANISH


def test_no_message_passes_a_librarys_own_words_to_the_player() -> None:
    """Players hear plain sentences; what a library said when it failed goes to the log
    (audio/notices.said_reason). A placeholder for an error's or a problem's text would let
    it through, so none is left in the catalog."""
    from babel.messages.pofile import read_po

    with (language.locale_dir() / f"{language.DOMAIN}.pot").open("rb") as handle:
        template = read_po(handle)
    leaky = re.compile(r"\{(error|problem|exception|detail)\}")
    found = [m.id for m in template if m.id and leaky.search(
        m.id if isinstance(m.id, str) else " ".join(m.id))]
    assert found == []


# docs/translating.md: the Spanish is Mexican broadcast Spanish. Words of another variety that
# once crept in (Spain's coin toss and software words, vosotros) must not come back.
NOT_MEXICAN = ("cruz", "ajustes", "ordenador", "pulsa", "vosotros", "vale,", "coger", "móvil")


def test_the_spanish_keeps_its_one_usage() -> None:
    from babel.messages.pofile import read_po

    path = language.locale_dir() / "es" / "LC_MESSAGES" / f"{language.DOMAIN}.po"
    with path.open("rb") as handle:
        catalog = read_po(handle, locale="es")
    found = {word: message.id for message in catalog if message.id
             for text in ([message.string] if isinstance(message.string, str)
                          else list(message.string))
             for word in NOT_MEXICAN if re.search(rf"\b{word}", text.lower())}
    assert found == {}
    heads = catalog.get("Heads")
    assert heads is not None and heads.string == "Águila"
