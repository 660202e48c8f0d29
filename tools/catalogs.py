"""Extract, update, compile and check the game's translation catalogs (Babel).

Why one tool: the template (`sudden_death/locale/sudden_death.pot`), each language's `.po` and
its compiled `.mo` must always agree with the code, and CI checks exactly what this tool makes.

Usage: python tools/catalogs.py            extract the template, update every .po, compile .mo
       python tools/catalogs.py --check    exit 1, naming each problem, if anything is stale,
                                           missing, fuzzy, untranslated or mismatched
       python tools/catalogs.py --new CODE start locale/CODE/LC_MESSAGES/sudden_death.po
       python tools/catalogs.py --voices   list the bundled eSpeak NG voices and their languages
(`python3 tasks.py catalogs` runs it inside the project's environment.)
"""

from __future__ import annotations

import ast
import io
import re
import string
import sys
from collections.abc import Iterable
from datetime import datetime, timezone
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sudden_death.engine.cards import DEFENSIVE_CALLS, OFFENSIVE_CALLS, PLAYERS  # noqa: E402
from sudden_death.language import (  # noqa: E402
    DEFAULT_VOICE,
    DOMAIN,
    NAME_CONTEXT,
    VOICE_CONTEXT,
    locale_dir,
)

PACKAGE = ROOT / "sudden_death"
KEYWORDS = {"_": None, "n_": (1, 2), "p_": ((1, "c"), 2), "N_": None}
COMMENT_TAG = "Translators:"
PROJECT = "Sudden Death"
WIDTH = 100
FIXED_DATE = datetime(2026, 1, 1, tzinfo=timezone.utc)


def template_path(folder: Path | None = None) -> Path:
    return (locale_dir() if folder is None else folder) / f"{DOMAIN}.pot"


def po_paths(folder: Path | None = None) -> list[Path]:
    root = locale_dir() if folder is None else folder
    return sorted(root.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def extract() -> Catalog:
    """Every message in the code, plus the card texts (the engine stays free of gettext) and
    the two entries that describe a language."""
    catalog = Catalog(project=PROJECT, domain=DOMAIN, charset="utf-8")
    found = extract_from_dir(
        str(PACKAGE), method_map=[("**.py", "python")], keywords=KEYWORDS,
        comment_tags=(COMMENT_TAG,), strip_comment_tags=True,
    )
    for filename, lineno, message, comments, context in found:
        location = (f"sudden_death/{filename}", lineno)
        catalog.add(message, None, [location], auto_comments=comments, context=context)
    cards = "sudden_death/engine/cards.py"
    for table, kind in ((OFFENSIVE_CALLS, "offensive call"), (DEFENSIVE_CALLS, "defensive call"),
                        (PLAYERS, "featured player")):
        for card in table.values():
            catalog.add(card.name, None, [(cards, 0)],
                        auto_comments=[f"The name of a card: an {kind}."
                                       if kind[0] == "o" else f"The name of a card: a {kind}."])
            catalog.add(card.blurb, None, [(cards, 0)],
                        auto_comments=[f"What the card {card.name} does, in one sentence."])
    here = "sudden_death/language.py"
    catalog.add("English", None, [(here, 0)], context=NAME_CONTEXT,
                auto_comments=["The name of your language as its speakers write it: Español."])
    catalog.add(DEFAULT_VOICE, None, [(here, 0)], context=VOICE_CONTEXT,
                auto_comments=["The eSpeak NG voice that speaks this language, such as "
                               "roa/es-419 (docs/translating.md lists how to find one), or "
                               "'default' for the synthesizer's own."])
    return catalog


def _keys(catalog: Catalog) -> set[tuple[str | None, str]]:
    return {(m.context, _msgid(m)) for m in catalog if m.id}


def _msgid(message: Message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def _po_bytes(catalog: Catalog, template: bool) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=WIDTH, sort_output=True, include_lineno=False,
             omit_header=False, ignore_obsolete=not template)
    return out.getvalue()


def _mo_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as handle:
        catalog = read_po(handle, locale=locale, domain=DOMAIN)
    # The files carry no dates; without a fixed one Babel writes "now" into the .mo's header,
    # and the compiled file would change every minute.
    catalog.creation_date = FIXED_DATE
    return catalog


def update(folder: Path | None = None) -> list[Path]:
    """Write the template, merge it into every .po, and compile each; returns what changed."""
    changed: list[Path] = []
    template = extract()
    pot = template_path(folder)
    changed += _write_if_new(pot, _strip_dates(_po_bytes(template, template=True)))
    for po in po_paths(folder):
        code = po.parent.parent.name
        catalog = _read(po, code)
        catalog.update(template, update_header_comment=False)
        changed += _write_if_new(po, _strip_dates(_po_bytes(catalog, template=False)))
        changed += _write_if_new(po.with_suffix(".mo"), _mo_bytes(_read(po, code)))
    return changed


_DATE_LINE = re.compile(rb'^"(POT-Creation-Date|PO-Revision-Date): [^"]*\\n"\n', re.MULTILINE)


def _strip_dates(data: bytes) -> bytes:
    """No dates in the files, so regenerating unchanged catalogs changes nothing."""
    return _DATE_LINE.sub(b"", data)


def _write_if_new(path: Path, data: bytes) -> list[Path]:
    if path.exists() and path.read_bytes() == data:
        return []
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return [path]


def new_language(code: str, folder: Path | None = None) -> Path:
    """Start a catalog for `code` from the template (Babel knows its plural rule)."""
    po = (locale_dir() if folder is None else folder) / code / "LC_MESSAGES" / f"{DOMAIN}.po"
    if po.exists():
        raise SystemExit(f"{po} already exists")
    template = extract()
    catalog = Catalog(locale=code, project=PROJECT, domain=DOMAIN, charset="utf-8")
    catalog.update(template)
    po.parent.mkdir(parents=True, exist_ok=True)
    po.write_bytes(_strip_dates(_po_bytes(catalog, template=False)))
    return po


# -- checks ------------------------------------------------------------------------------------


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def _strings(value: str | tuple[str, ...] | list[str] | None) -> list[str]:
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def message_problems(message: Message, nplurals: int) -> list[str]:
    """What is wrong with one translated message: untranslated, fuzzy, wrong placeholders."""
    where = f"{message.context + ' | ' if message.context else ''}{_msgid(message)!r}"
    if message.fuzzy:
        return [f"fuzzy (needs review): {where}"]
    forms = _strings(message.string)
    if not forms or any(not form for form in forms):
        return [f"untranslated: {where}"]
    if message.pluralizable and len(forms) != nplurals:
        return [f"has {len(forms)} plural forms, the language has {nplurals}: {where}"]
    try:
        wanted = set().union(*(_fields(text) for text in _strings(message.id)))
        problems = []
        for form in forms:
            got = _fields(form)
            extra = got - wanted
            if extra:
                problems.append(f"placeholder {sorted(extra)} not in the English: {where}")
            if not message.pluralizable and got != wanted:
                problems.append(f"placeholders {sorted(wanted - got)} missing: {where}")
        return problems
    except ValueError as exc:
        return [f"broken braces ({exc}): {where}"]


def unextractable(package: Path = PACKAGE) -> list[str]:
    """Calls whose text the extractor cannot see: `_(f"...")` or `_("a" + b)` would be spoken
    in English whatever the language."""
    found = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in KEYWORDS):
                texts = node.args[1:] if node.func.id == "p_" else node.args[:2]
                if any(isinstance(arg, (ast.JoinedStr, ast.BinOp)) for arg in texts):
                    where = f"{path.relative_to(package.parent)}:{node.lineno}"
                    found.append(f"{where}: {node.func.id}() needs literal text, with "
                                 "named placeholders filled in by .format()")
    return found


def problems(folder: Path | None = None) -> list[str]:
    """Everything CI refuses, each as one line a translator or developer can act on."""
    found: list[str] = unextractable()
    template = extract()
    wanted = _keys(template)
    pot = template_path(folder)
    if not pot.exists() or _keys(_read(pot)) != wanted:
        found.append(f"{pot.name} is stale: run python3 tasks.py catalogs")
    for po in po_paths(folder):
        code = po.parent.parent.name
        catalog = _read(po, code)
        have = {(m.context, _msgid(m)) for m in catalog if m.id}
        for context, msgid in sorted(wanted - have, key=str):
            found.append(f"{code}: missing {msgid!r}" + (f" ({context})" if context else ""))
        for context, msgid in sorted(have - wanted, key=str):
            found.append(f"{code}: stale {msgid!r}" + (f" ({context})" if context else ""))
        if catalog.obsolete:
            found.append(f"{code}: {len(catalog.obsolete)} obsolete messages: run "
                         "python3 tasks.py catalogs")
        for message in catalog:
            if message.id:
                found += [f"{code}: {p}" for p in message_problems(message, catalog.num_plurals)]
        mo = po.with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != _mo_bytes(catalog):
            found.append(f"{code}: {mo.name} is not compiled from the .po: run "
                         "python3 tasks.py catalogs")
    return found


def main(argv: Iterable[str]) -> int:
    args = list(argv)
    if args[:1] == ["--check"]:
        found = problems()
        for line in found:
            print(line)
        print(f"{len(found)} problems" if found else "catalogs are complete and current")
        return 1 if found else 0
    if args[:1] == ["--new"] and len(args) == 2:
        print(f"started {new_language(args[1])}; now translate it and run this tool again")
        return 0
    if args == ["--voices"]:
        from sudden_death.audio.synth import start_synth  # starts eSpeak NG: only when asked

        for voice in start_synth().voices():
            print(f"{voice.id:24} {voice.name}")
        return 0
    if args:
        print(__doc__)
        return 2
    for path in update():
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
