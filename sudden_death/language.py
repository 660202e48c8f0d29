"""The player's language: gettext catalogs under `locale/`, and the few helpers every word
module uses (`_`, `n_`, `p_`, `N_`, `down_ordinal`, `join_words`).

Why a context variable rather than a translator passed to every call: the words are built by
about a hundred free functions across many modules, and the active language is one fact about
the whole run. A `ContextVar` holds a `LanguageChoice` (set once by the game loop, changed by the
language setting); with none set, every helper speaks English, so the engine's tools, the
simulator and most tests need no set-up. Threads that build words start inside a copy of the
loop's context, so they share the same choice.

Adding a language is one folder: `locale/<code>/LC_MESSAGES/sudden_death.po` and its compiled
`.mo` (docs/translating.md). The catalog itself names the language and its eSpeak NG voice.
"""

from __future__ import annotations

import ctypes
import gettext
import locale
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar, Token
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

DOMAIN = "sudden_death"
ENGLISH = "en"
# The catalog's own entries that describe the language (docs/translating.md).
NAME_CONTEXT = "name of this language, in this language"
VOICE_CONTEXT = "eSpeak NG voice for this language, or default"
DEFAULT_VOICE = "default"


def locale_dir() -> Path:
    """Beside this module, so a wheel or a PyInstaller bundle finds it (never the working dir)."""
    return Path(__file__).resolve().parent / "locale"


@dataclass(frozen=True)
class Language:
    """One language: its code and its gettext translations (English is the source text)."""

    code: str
    translations: gettext.NullTranslations

    @property
    def name(self) -> str:
        """The language's name in itself: "English", "Español"."""
        return self.translations.pgettext(NAME_CONTEXT, "English")

    @property
    def voice(self) -> str:
        """The eSpeak NG voice the catalog asks for ("" keeps the synthesizer's default)."""
        voice = self.translations.pgettext(VOICE_CONTEXT, DEFAULT_VOICE)
        return "" if voice == DEFAULT_VOICE else voice


class LanguageChoice:
    """The run's language, changed in place by the setting so every thread sees the change."""

    def __init__(self, language: Language) -> None:
        self.language = language


_CHOICE: ContextVar[LanguageChoice | None] = ContextVar("sudden_death_language", default=None)


@lru_cache(maxsize=1)
def english() -> Language:
    return Language(ENGLISH, gettext.NullTranslations())


def available(folder: Path | None = None) -> tuple[str, ...]:
    """English, then every language with a compiled catalog, by code."""
    root = locale_dir() if folder is None else folder
    found = sorted(
        path.parent.parent.name
        for path in root.glob(f"*/LC_MESSAGES/{DOMAIN}.mo")
        if path.parent.parent.name != ENGLISH
    )
    return (ENGLISH, *found)


def load(code: str, folder: Path | None = None) -> Language:
    """The language `code`; English for "en". Raises `LookupError` with the reason if there is
    no catalog for it, or if the catalog cannot be read."""
    if code == ENGLISH:
        return english()
    root = locale_dir() if folder is None else folder
    path = root / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
    if code not in available(root):
        raise LookupError(f"no catalog for language {code!r}; "
                          f"there are: {', '.join(available(root))}")
    try:
        with path.open("rb") as handle:
            return Language(code, gettext.GNUTranslations(handle))
    except (OSError, ValueError, UnicodeError) as exc:  # a damaged .mo names itself
        raise LookupError(f"the {code} catalog cannot be read: {exc}") from exc


def match_code(tag: str, codes: Sequence[str]) -> str | None:
    """The catalog for a language tag: "es_MX.UTF-8" finds "es_MX", else "es"; None if none."""
    tag = tag.split(".")[0].split("@")[0].replace("-", "_")
    if not tag or tag in ("C", "POSIX"):
        return None
    for candidate in (tag, tag.split("_")[0]):
        for code in codes:
            if code.lower() == candidate.lower():
                return code
    return None


def system_tags(environ: Mapping[str, str] | None = None) -> list[str]:
    """The player's preferred languages, best first, from the environment or the system."""
    environ = os.environ if environ is None else environ
    tags: list[str] = []
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            tags.extend(part for part in value.split(":") if part)
            if name != "LANGUAGE":
                break
    if not tags and sys.platform == "win32":
        tags.extend(_windows_tags())
    if not tags:
        found = locale.getlocale()[0]
        if found:
            tags.append(found)
    return tags


def _windows_tags() -> list[str]:
    # Windows only: the user's display language (there is no environment variable for it).
    lcid = ctypes.windll.kernel32.GetUserDefaultUILanguage()  # type: ignore[attr-defined]
    tag = locale.windows_locale.get(lcid)
    return [tag] if tag else []


def system_code(codes: Sequence[str] | None = None,
                environ: Mapping[str, str] | None = None) -> str:
    """The system's language when a catalog exists for it, else English."""
    codes = available() if codes is None else codes
    for tag in system_tags(environ):
        found = match_code(tag, codes)
        if found:
            return found
    return ENGLISH


# -- the active language -----------------------------------------------------------------------


def active() -> Language:
    choice = _CHOICE.get()
    return english() if choice is None else choice.language


def install(choice: LanguageChoice) -> Token[LanguageChoice | None]:
    """Make `choice` the language of this context (the game loop, once per run); the token
    puts the previous one back (`restore`)."""
    return _CHOICE.set(choice)


def restore(token: Token[LanguageChoice | None]) -> None:
    _CHOICE.reset(token)


def switch(language: Language) -> None:
    """Change the installed choice in place (the language setting), so threads started in its
    context hear the change too; with nothing installed, install one."""
    choice = _CHOICE.get()
    if choice is None:
        _CHOICE.set(LanguageChoice(language))
    else:
        choice.language = language


def choose(wanted: str, folder: Path | None = None) -> tuple[Language, str | None]:
    """The language for a setting or `--lang` value ("" for the system's), and what to tell the
    player if it cannot be had (then English)."""
    code = wanted or system_code(available(folder))
    try:
        return load(code, folder), None
    except LookupError as exc:
        # Always English: the wanted language is the one that failed.
        return english(), (f"The game speaks English: {exc}." if wanted else None)


@contextmanager
def using(language: Language) -> Iterator[LanguageChoice]:
    """Speak `language` inside the block (tests, tools); the previous choice comes back after."""
    choice = LanguageChoice(language)
    token = _CHOICE.set(choice)
    try:
        yield choice
    finally:
        _CHOICE.reset(token)


# -- the helpers the word modules call ---------------------------------------------------------


def _(message: str) -> str:
    """`message` in the active language."""
    return active().translations.gettext(message)


def n_(singular: str, plural: str, count: int) -> str:
    """The form of a message for `count`, by the active language's plural rule."""
    return active().translations.ngettext(singular, plural, count)


def p_(context: str, message: str) -> str:
    """`message` in the active language, told apart from the same English in another role."""
    return active().translations.pgettext(context, message)


def N_(message: str) -> str:
    """Marks text for the catalog where it is defined; it is translated where it is used."""
    return message


def down_ordinal(number: int, spelled: bool = False) -> str:
    """The down as the play-by-play says it ("1st" ... "4th" in English), or `spelled` out as
    the rules say it ("first" ... "fourth")."""
    if spelled:
        words = {
            # Translators: a down spelled out, as in "Fall short on {down} down".
            1: p_("down, spelled out", "first"),
            2: p_("down, spelled out", "second"),
            3: p_("down, spelled out", "third"),
            4: p_("down, spelled out", "fourth"),
        }
    else:
        words = {
            # Translators: the downs as said before "and 10"; see "{down} and {distance} at
            # {spot}".
            1: p_("down", "1st"),
            2: p_("down", "2nd"),
            3: p_("down", "3rd"),
            4: p_("down", "4th"),
        }
    return words.get(number, str(number))


def join_words(items: Sequence[str]) -> str:
    """ "a", "a and b", "a, b and c", with the active language's joining words."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    # Translators: joins all but the last item of a list: "Power Back, Scatback".
    head = _(", ").join(items[:-1])
    # Translators: joins the last item of a list: "Power Back, Scatback and Deep Pass".
    return _("{items} and {last}").format(items=head, last=items[-1])
