"""Blank and invisible characters in names (issue 71): "Anna⠀", with a braille display's blank
cell (U+2800) after it, was a new account beside "Anna". Every character Unicode draws as
nothing or as a blank (spaces, format and control characters, line and paragraph separators,
default-ignorable marks and fillers, the braille blank and the other printable blanks in
wire/names.BLANKS) is either refused, in words the game says, or folded away, so the name is
the one without it: a second account, or a second team at a table, is refused as taken.
Each character is walked by the name checks of both the accounts and the tables, a sample by a
real sign-up and a real join on a real server."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st
from server_lab import receive, run, server

from sudden_death.server.lines.limits import Limits
from sudden_death.server.roles import checks
from sudden_death.server.stores import accounts
from sudden_death.server.stores.accounts import Accounts
from sudden_death.server.stores.seam import AccountError
from sudden_death.ui.words.table import name_refusal_words, refusal_words
from sudden_death.wire import protocol as p
from sudden_death.wire.look_alike import ignorable
from sudden_death.wire.names import BLANKS, same_name

PASSWORD = "correct horse"
NAMED = ("\u2800", "\u3164", "\u115f", "\u1160", "\uffa0", "\ufeff", "\u180e", "\u034f",
         "\u00a0", "\u1680", "\u3000", "\U0001d159", "\U00016fe4", "\U0001d173",
         *map(chr, range(0x2000, 0x2010)), *map(chr, range(0x205F, 0x2070)),
         *map(chr, range(0xE0020, 0xE0080)), *map(chr, range(0xFE00, 0xFE10)))


def blanks() -> list[str]:
    """Every character drawn as nothing or as a blank, from Unicode's own data: separators
    (Zs, Zl, Zp), controls (Cc), format characters (Cf), marks with no form of their own
    (default-ignorable Mn), and the named ones (fillers, the braille blank)."""
    found = {chr(point) for point in range(0x110000)
             if unicodedata.category(chr(point)) in ("Zs", "Zl", "Zp", "Cc", "Cf")
             or (unicodedata.category(chr(point)) == "Mn" and ignorable(chr(point)))}
    return sorted(found | set(NAMED) | BLANKS)


BLANK = blanks()


def in_words(name: str, check: Callable[[str], str]) -> str | None:
    """None when `check` takes `name`; else the words the player hears why not, which must be
    the game's own (never the server's English reason said as it came)."""
    try:
        check(name)
    except (AccountError, p.ProtocolError) as error:
        assert error.code == p.BAD_NAME
        words = name_refusal_words(str(error))
        assert "did not take that name:" not in words, (name, words)
        return words
    return None


def ways(blank: str) -> list[str]:
    return [f"Anna{blank}", f"{blank}Anna", f"An{blank}na", f"Anna{blank * 3}"]


def test_the_walk_holds_every_kind_of_blank() -> None:
    assert len(BLANK) > 300 and {"\u2800", "\u3164", "\u200b", "\u00a0", "\ufeff",
                                 "\u2028", "\u0000", "\U000e0041"} <= set(BLANK)


@pytest.mark.parametrize("blank", BLANK, ids=lambda char: f"U+{ord(char):04X}")
def test_a_blank_in_a_player_s_or_a_team_s_name_is_refused_or_folded(blank: str) -> None:
    for name in ways(blank):
        if in_words(name, accounts.checked_name) is None:  # taken: the same as "Anna"
            assert same_name(name, "Anna"), name  # its skeletons: taken (accounts.taken)
        if in_words(name, checks.checked_name) is None:
            assert same_name(name, "Anna"), name
    for alone in (blank, blank * 3):  # nothing but blanks: never a name
        assert in_words(alone, accounts.checked_name) is not None
        assert in_words(alone, checks.checked_name) is not None


def test_no_blank_signs_up_a_second_anna() -> None:
    """Every blank, every way, through the accounts' own sign-up: taken or refused, never a
    second account (a taken name costs no hash, so all of them are quick)."""
    with Accounts() as kept:  # in memory
        kept.sign_up("Anna", PASSWORD)
        for blank in BLANK:
            for name in ways(blank):
                with pytest.raises(AccountError) as refused:
                    kept.sign_up(name, PASSWORD)
                assert refused.value.code in (p.NAME_TAKEN, p.BAD_NAME), name


@given(st.text(st.characters(categories=("L", "N")), min_size=1, max_size=12),
       st.lists(st.tuples(st.integers(0, 12), st.sampled_from(BLANK)), min_size=1, max_size=4))
def test_blanks_anywhere_in_any_name_never_make_it_new(
        name: str, inserted: list[tuple[int, str]]) -> None:
    blanked = name
    for where, blank in inserted:
        blanked = blanked[:where] + blank + blanked[where:]
    if in_words(blanked, accounts.checked_name) is None and len(blanked) <= p.MAX_NAME:
        assert same_name(blanked, name)


def test_a_blank_cell_is_taken_at_sign_up_and_at_a_table_in_the_player_s_words() -> None:
    async def scenario() -> None:
        async with server(limits=Limits(failed_tries=100)) as lab:
            client = await lab.connect()
            await client.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, "Anna", PASSWORD)))
            assert (await receive(client))["type"] == "signed_in"
            said = set()
            for blank in ("\u2800", "\u3164", "\U0001d159", "\u200b", "\u00a0", "\u2028"):
                await client.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, f"Anna{blank}",
                                                    PASSWORD)))
                refused = await receive(client)
                assert refused["code"] in (p.NAME_TAKEN, p.BAD_NAME), (blank, refused)
                said.add(refusal_words(refused["code"], refused["text"]))
            assert "Another player has that name. Type another." in said
            assert any("letters, digits, marks and spaces" in words for words in said)
            host = await lab.connect()
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            code = (await receive(host))["code"]
            for blank, answer in (("\u2800", p.SAME_NAME), ("\u200b", p.BAD_NAME)):
                guest = await lab.connect()
                await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, f"Hawks{blank}")))
                refused = await receive(guest)
                assert refused["code"] == answer
                assert "refused:" not in refusal_words(refused["code"], refused["text"])

    run(scenario)
