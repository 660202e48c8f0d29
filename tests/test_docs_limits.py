"""The limits the docs state are the ones the code sets (issue 71, 4): a server at the default
`--per-address 32` took 32 new lines at once and 8 waiting tables from one address while
docs/protocol.md said 20 and 4, the numbers of `--per-address 1`. Here the numbers are read
from the docs' own words (the limits table's two columns, the marked lines) and from the code
(`Limits.shared` of the command line's default and of 1, the modules' constants), so a change
to either that the other does not follow fails."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sudden_death.server.__main__ import parse
from sudden_death.server.lines.limits import Limits
from sudden_death.server.roles import chat, gallery
from sudden_death.wire import protocol as p

DOCS = Path(__file__).resolve().parent.parent / "docs"
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")
MARKED = re.compile(r"<!-- limits-at-default -->(.*?)<!-- /limits-at-default -->", re.S)


def numbers(text: str) -> list[float]:
    return [float(found.replace(",", "")) for found in NUMBER.findall(text)]


def stated(limits: Limits) -> dict[str, list[float]]:
    """Each row of the limits table, by its first words: the numbers its cell must give, in
    order, for `limits`."""
    return {
        "WebSocket handshake": [limits.handshake_s],
        "greeting": [limits.greeting_s],
        "messages that do not move the game": [limits.messages_per_s, limits.burst],
        "lines from one address": [limits.per_address],
        "new lines from one address": [limits.connects_per_s, limits.connect_burst],
        "a table's password checked": [limits.hashes_per_address, limits.hashes_queued],
        "wrong codes, tokens and passwords": [limits.failed_tries],
        "data a client leaves unread": [limits.send_queue_bytes / 1024],
        "a frame": [p.MAX_MESSAGE_BYTES / 1024],
        "tables waiting for a player, hosted": [limits.open_tables],
        "public tables waiting for a player": [limits.public_tables],
        "the lobby's lists": [p.MAX_LISTED_TABLES, p.MAX_LISTED_GAMES, p.MAX_LISTED_HERE],
        "lobby and spectators' chat": [chat.CHAT_PER_S, chat.CHAT_BURST],
        "`watching`": [],  # "at most once a minute": in words (below)
    }


def limits_table() -> tuple[list[str], dict[str, list[str]]]:
    """docs/protocol.md's limits table: its header's cells, and each row's by its first."""
    text = (DOCS / "protocol.md").read_text(encoding="utf-8")
    section = text[text.index("\n## Limits\n"):]
    section = section[:section.index("\n## ", 1)]
    lines = [line for line in section.splitlines() if line.startswith("| ")]
    cells = [[cell.strip() for cell in line.strip("|").split(" | ")] for line in lines]
    return cells[0], {row[0]: row for row in cells[1:]}


def test_the_default_per_address_is_the_documented_one() -> None:
    default = parse([]).per_address
    assert default == Limits.per_address  # the defaults' own lines limit: see the docs' why
    header, _rows = limits_table()
    assert header[1] == f"default (`--per-address {default}`)" and \
        header[2] == "`--per-address 1`"
    server = (DOCS / "server.md").read_text(encoding="utf-8")
    assert f"| `--per-address N` | {default} |" in server
    protocol = (DOCS / "protocol.md").read_text(encoding="utf-8")
    assert f"runs with `--per-address {default}` unless told otherwise" in protocol
    assert f"its limits are `Limits.shared({default})`" in protocol


@pytest.mark.parametrize(("column", "players"), [(1, None), (2, 1)])
def test_every_row_of_the_limits_table_gives_the_code_s_numbers(
        column: int, players: int | None) -> None:
    """Column 1 is the default's, `Limits.shared` of the command line's default; column 2
    `--per-address 1`'s, where "the same" is a limit that does not grow with players."""
    limits = Limits.shared(parse([]).per_address if players is None else players)
    _header, rows = limits_table()
    expected = stated(limits)
    for start, want in expected.items():
        found = [row for name, row in rows.items() if name.startswith(start)]
        assert len(found) == 1, f"no single row of the limits table begins {start!r}"
        row = found[0]
        cell = row[column] if row[column] != "the same" else row[1]
        if row[column] == "the same":  # only a limit no player count changes says so
            assert stated(Limits.shared(1))[start] == stated(Limits.shared(1000))[start], start
        assert numbers(cell)[:len(want)] == [float(value) for value in want], (start, cell)
    assert gallery.ANONYMOUS_WATCH_S == 60 and "at most once a minute" in rows["`watching`"][1]
    unchecked = [name for name in rows if not any(name.startswith(start) for start in expected)]
    assert not unchecked, f"rows this test does not read: {unchecked}"


def test_the_marked_lines_say_what_grows_at_the_default() -> None:
    """The words that say which limits the default lifts above one player's, in both docs."""
    default, one = Limits.shared(parse([]).per_address), Limits.shared(1)
    grown = [name for name in ("connect_burst", "open_tables")
             if getattr(default, name) != getattr(one, name)]
    assert grown == ["connect_burst", "open_tables"]  # else the marked words must change
    lifted = [name for name in Limits.__dataclass_fields__
              if getattr(default, name) != getattr(one, name) and name != "per_address"]
    assert lifted == grown, "a limit the default lifts is missing from the docs' words"
    for doc in ("protocol.md", "server.md"):
        marked = MARKED.findall((DOCS / doc).read_text(encoding="utf-8"))
        assert marked, f"{doc} has no marked line of the limits at the default"
        for words in marked:
            said = numbers(words)
            assert said == [default.connect_burst, one.connect_burst,
                            default.open_tables, one.open_tables], (doc, words)
