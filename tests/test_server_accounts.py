"""Players' names on the table server (issue 49): sign up and sign in by ear, with nothing but a
name and a password, kept as argon2id in a real SQLite file; and the same through a real
WebSocket server on loopback, where a guesser is slowed down per name and per address."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import string
import threading
from pathlib import Path

import pytest
from argon2 import PasswordHasher
from hypothesis import given, settings
from hypothesis import strategies as st
from server_lab import receive, run, server

from sudden_death.server.lines.limits import Limits
from sudden_death.server.stores import accounts as accounts_module
from sudden_death.server.stores.accounts import FILE_NAME, TOKENS_KEPT, Accounts
from sudden_death.server.stores.seam import AccountError
from sudden_death.server.tables import seal_token
from sudden_death.wire import protocol as p
from sudden_death.wire.look_alike import prototypes, skeleton
from sudden_death.wire.names import folded, same_name

PASSWORD = "correct horse"


def test_a_name_signs_up_signs_in_and_its_token_is_renewed(tmp_path: Path) -> None:
    accounts = Accounts(tmp_path)
    made = accounts.sign_up("  Anna   Lee ", PASSWORD)
    assert made.name == "Anna Lee" and len(made.token) >= 24
    again = accounts.sign_in("anna lee", PASSWORD)  # folded: case and spaces
    assert again.name == "Anna Lee" and again.token != made.token
    renewed = accounts.sign_in("ANNA LEE", token=again.token)
    assert renewed.token not in (made.token, again.token)
    with pytest.raises(AccountError) as used:
        accounts.sign_in("Anna Lee", token=again.token)  # renewed: the old one is spent
    assert used.value.code == p.BAD_SIGN_IN
    assert accounts.sign_in("Anna Lee", token=made.token).name == "Anna Lee"  # another device
    accounts.close()
    reopened = Accounts(tmp_path)  # the file outlives the server
    assert reopened.sign_in("Anna Lee", PASSWORD).name == "Anna Lee"
    reopened.close()


def test_wrong_passwords_tokens_and_names_are_one_refusal(tmp_path: Path) -> None:
    with Accounts(tmp_path) as accounts:
        accounts.sign_up("Anna", PASSWORD)
        for name, password, token in (("Anna", "wrong one", ""), ("Nobody", PASSWORD, ""),
                                      ("Anna", "", "not-a-token"), ("Anna", "", "")):
            with pytest.raises(AccountError) as refused:
                accounts.sign_in(name, password, token)
            assert refused.value.code == p.BAD_SIGN_IN and "do not match" in str(refused.value)


@pytest.mark.parametrize(("name", "code"), [
    ("", p.BAD_NAME), ("   ", p.BAD_NAME), ("x" * 25, p.BAD_NAME), ("Ann\ta", p.BAD_NAME),
    ("Ann\na", p.BAD_NAME), ("Anna\u202egnip", p.BAD_NAME), ("An\u200fna", p.BAD_NAME),
    ("\u0301\u0301", p.BAD_NAME), ("Anna\x07", p.BAD_NAME)])
def test_names_that_cannot_be_read_aloud_are_refused_with_the_reason(
        tmp_path: Path, name: str, code: str) -> None:
    with Accounts(tmp_path) as accounts, pytest.raises(AccountError) as refused:
        accounts.sign_up(name, PASSWORD)
    assert refused.value.code == code and str(refused.value)


@pytest.mark.parametrize("password", ["", "short", "x" * (p.MAX_PASSWORD + 1), "tab\there!"])
def test_a_weak_or_unprintable_password_is_refused(tmp_path: Path, password: str) -> None:
    with Accounts(tmp_path) as accounts, pytest.raises(AccountError) as refused:
        accounts.sign_up("Anna", password)
    assert refused.value.code == p.WEAK_PASSWORD


def test_the_file_keeps_argon2id_hashes_never_a_password_or_a_token(tmp_path: Path) -> None:
    accounts = Accounts(tmp_path)
    tokens = [accounts.sign_up("Anna", PASSWORD).token]
    tokens += [accounts.sign_in("Anna", PASSWORD).token for _ in range(TOKENS_KEPT + 1)]
    accounts.close()
    raw = b"".join(path.read_bytes() for path in tmp_path.iterdir())
    assert PASSWORD.encode() not in raw
    assert not any(token.encode() in raw for token in tokens)
    db = sqlite3.connect(tmp_path / FILE_NAME)
    (locked,) = db.execute("SELECT password FROM accounts").fetchone()
    sealed = [row[0] for row in db.execute("SELECT sealed FROM tokens")]
    db.close()
    assert locked.startswith("$argon2id$")
    assert len(sealed) == TOKENS_KEPT and all(s.startswith("$argon2id$") for s in sealed)
    with Accounts(tmp_path) as again, pytest.raises(AccountError):
        again.sign_in("Anna", token=tokens[0])  # the oldest token went when a sixth was made


@settings(max_examples=25, deadline=None)
@given(st.text(min_size=1, max_size=12), st.text(min_size=1, max_size=12))
def test_two_names_an_ear_cannot_tell_apart_are_never_two_accounts(
        first: str, second: str) -> None:
    outcomes = []
    with Accounts() as accounts:  # in memory: the property needs no file
        for name in (first, second):
            try:
                outcomes.append(accounts.sign_up(name, PASSWORD).name)
            except AccountError as error:
                outcomes.append(error.code)
    if folded(first) == folded(second) and outcomes[0] != p.BAD_NAME:
        assert outcomes[1] == p.NAME_TAKEN
    signed = [name for name in outcomes if name not in (p.BAD_NAME, p.NAME_TAKEN)]
    assert len({folded(name) for name in signed}) == len(signed)


# -- through the server -------------------------------------------------------------------------


def test_sign_up_then_host_on_the_same_line_and_sign_in_from_another() -> None:
    async def scenario() -> None:
        async with server() as lab:
            first = await lab.connect()
            await first.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, "Anna", PASSWORD)))
            signed = await receive(first)
            assert signed["type"] == "signed_in" and signed["name"] == "Anna"
            await first.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            assert (await receive(first))["type"] == "seated"
            second = await lab.connect()
            await second.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, "ANNA", PASSWORD)))
            taken = await receive(second)
            assert taken["type"] == "refused" and taken["code"] == p.NAME_TAKEN
            assert taken["fatal"] is False  # the player may type another name
            await second.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "anna",
                                                token=signed["token"])))
            again = await receive(second)
            assert again["type"] == "signed_in" and again["token"] != signed["token"]
            old = await lab.connect()
            await old.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "anna",
                                             token=signed["token"])))
            assert (await receive(old))["code"] == p.BAD_SIGN_IN  # renewed: spent

    run(scenario)


def test_guessers_at_a_name_are_slowed_together_and_its_owner_still_signs_in() -> None:
    """Issue 59, 3: eight addresses guessing at once got eight guesses (counted after the
    hash), and then the owner's own password and kept token were refused `slow_down` too.
    Now a try is counted before its hash, the strangers share the name's count, and the
    owner's token, and their password from their usual address or a clean new one, still
    sign in; a guessing address gets at most one guess past the name's count a minute."""
    now = [1000.0]
    owner_at, guessers = "127.0.0.2", [f"127.0.0.{10 + n}" for n in range(8)]

    async def scenario() -> None:
        async with server(limits=Limits(failed_tries=3, tries_window_s=60)) as lab:
            desk = lab.service.desk
            desk.account_tries.clock = desk.name_tries.clock = lambda: now[0]
            owner = await lab.connect(owner_at)
            await owner.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, "Anna", PASSWORD)))
            token = (await receive(owner))["token"]
            lines = [await lab.connect(source) for source in guessers]
            for number, line in enumerate(lines * 2):  # all at once, before any hash is done
                await line.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "Anna", f"guess {number}")))
            codes = sorted([(await receive(line))["code"] for line in lines * 2])
            # 3 fill the name's count, and each address's first past it is checked once (it
            # is clean: issue 71); none gets a second guess.
            assert codes == [p.BAD_SIGN_IN] * 8 + [p.SLOW_DOWN] * 8
            again = await lab.connect(owner_at)  # the owner's usual address, their password
            await again.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "anna", PASSWORD)))
            assert (await receive(again))["type"] == "signed_in"
            travelling = await lab.connect("127.0.0.3")  # the kept token, from anywhere
            await travelling.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "Anna", token=token)))
            assert (await receive(travelling))["type"] == "signed_in"
            guesser = lines[0]  # a guesser's address has tried: held with the name
            await guesser.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "anna", PASSWORD)))
            slowed = await receive(guesser)
            assert slowed["code"] == p.SLOW_DOWN and "wait" in slowed["text"]
            new_place = await lab.connect("127.0.0.4")  # a clean new address: checked (71)
            await new_place.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "anna", PASSWORD)))
            assert (await receive(new_place))["type"] == "signed_in"
            now[0] += 61
            await guesser.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "anna", PASSWORD)))
            assert (await receive(guesser))["type"] == "signed_in"

    run(scenario)


def test_the_owner_at_a_new_address_signs_in_within_a_second_of_a_guessing_storm() -> None:
    """Issue 71, 5: 100 guesses in a minute at "Anna" from 25 addresses (4 each, in turn),
    the limits' clock a minute long. The first 10 fill the name's count; each other address's
    first guess is checked once (clean), and wrong it counts; every later guess is refused
    `slow_down` without a hash. Midway the owner, from an address never seen, signs in with
    their password within a second, costing the name's count nothing: it still holds the
    guessers, and a clean stranger's wrong password spends that address's one check."""
    now = [1000.0]
    guessers = [f"127.0.1.{10 + n}" for n in range(25)]

    async def scenario() -> None:
        async with server(limits=Limits(greeting_s=120)) as lab:  # the defaults else
            desk = lab.service.desk
            desk.account_tries.clock = desk.name_tries.clock = lambda: now[0]
            first = await lab.connect("127.0.0.2")
            await first.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, "Anna", PASSWORD)))
            assert (await receive(first))["type"] == "signed_in"
            lines = [await lab.connect(source) for source in guessers]
            codes: list[str] = []
            owner_took = -1.0
            for guess in range(100):
                line = lines[guess % len(lines)]
                await line.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "Anna",
                                                  f"guess {guess}")))
                if guess == 50:  # the storm goes on while the owner's sign-in is answered
                    owner = await lab.connect("127.0.2.1")
                    started = asyncio.get_running_loop().time()
                    await owner.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "anna", PASSWORD)))
                    signed = await receive(owner)
                    owner_took = asyncio.get_running_loop().time() - started
                    assert signed["type"] == "signed_in", signed
                codes.append((await receive(line))["code"])
                now[0] += 0.6  # 100 a minute
            assert owner_took < 1.0, owner_took
            checked = codes.count(p.BAD_SIGN_IN)
            assert checked == len(guessers)  # 10 counted, then one each clean address
            assert checked <= Limits().failed_tries + len(guessers)
            assert codes.count(p.SLOW_DOWN) == 100 - checked
            assert all(code == p.SLOW_DOWN for code in codes[len(guessers):])
            await lines[0].send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "Anna", "one more")))
            assert (await receive(lines[0]))["code"] == p.SLOW_DOWN  # the name still held
            stranger = await lab.connect("127.0.3.1")
            for expected in (p.BAD_SIGN_IN, p.SLOW_DOWN):  # one check, then held
                await stranger.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "Anna", "guess")))
                assert (await receive(stranger))["code"] == expected

    run(scenario)


def test_sign_ups_from_one_address_are_limited_since_each_costs_a_slow_hash() -> None:
    async def scenario() -> None:
        async with server(limits=Limits(failed_tries=3)) as lab:
            client = await lab.connect()
            answers = []
            for number in range(4):
                await client.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, f"Player {number}",
                                                    PASSWORD)))
                answers.append((await receive(client))["type"])
            assert answers == ["signed_in"] * 3 + ["refused"]
            assert lab.service.accounts.name_of("player 3") is None

    run(scenario)


def test_an_older_game_signing_in_hears_the_version_code() -> None:
    async def scenario() -> None:
        async with server() as lab:
            old = await lab.connect()
            await old.send('{"type": "sign_in", "version": 2, "name": "Anna", "password": "x"}')
            refused = await receive(old)
            assert refused["code"] == p.WRONG_VERSION and refused["fatal"] is True

    run(scenario)


def test_an_accounts_file_that_fails_is_a_refusal_in_words_and_the_line_lives(
        tmp_path: Path) -> None:
    async def scenario() -> None:
        async with server(accounts=Accounts(tmp_path)) as lab:
            lab.service.accounts.close()  # every query now fails as a broken file would
            client = await lab.connect()
            await client.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, "Anna", PASSWORD)))
            refused = await receive(client)
            assert refused["code"] == p.NO_ROOM and refused["fatal"] is False
            await client.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            assert (await receive(client))["type"] == "seated"  # tables do not need names

    run(scenario)


def test_one_sign_in_token_sent_on_two_lines_at_once_signs_in_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 59: both lines found the token before either spent it, and both got a new one.
    A barrier holds each check until both have read the kept tokens, so the race is certain."""
    both_read = threading.Barrier(2, timeout=5)
    real = accounts_module.token_opens

    def opens_after_both_read(sealed: str, token: str) -> bool:
        with contextlib.suppress(threading.BrokenBarrierError):
            both_read.wait()
        return real(sealed, token)

    async def scenario() -> None:
        async with server() as lab:
            owner = await lab.connect()
            await owner.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, "Anna", PASSWORD)))
            token = (await receive(owner))["token"]
            monkeypatch.setattr(accounts_module, "token_opens", opens_after_both_read)
            lines = [await lab.connect() for _ in range(2)]
            for line in lines:
                await line.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "Anna", token=token)))
            answers = sorted([(await receive(line)).get("code", "signed_in")
                              for line in lines])
            assert answers == [p.BAD_SIGN_IN, "signed_in"]

    run(scenario)


# -- names that look or sound the same (issue 59, 6) --------------------------------------------

LOOK_ALIKES = ["\u0410nna", "\u0391nna", "\u1d00nna", "Anna\ufe0f", "An\u034fna", "ANNA\U000e0100"]


def test_look_alike_names_are_one_name_at_sign_up_and_at_a_table() -> None:
    """Beside "Anna", the same name with a Cyrillic А, a Greek Α, a small-capital ᴀ or an
    invisible character was a new account; "Anтon" (a Cyrillic т) beside "Anton" too; and a
    team "Наwks" (a Cyrillic Н) could join the "Hawks"."""
    async def scenario() -> None:
        async with server(limits=Limits(failed_tries=100)) as lab:
            client = await lab.connect()
            for name in ("Anna", "Anton"):
                await client.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, name, PASSWORD)))
                assert (await receive(client))["type"] == "signed_in"
            for name in [*LOOK_ALIKES, "An\u0442on"]:
                await client.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, name, PASSWORD)))
                refused = await receive(client)
                assert refused.get("code") == p.NAME_TAKEN, (name, refused)
            await client.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "\u0410nna", PASSWORD)))
            assert (await receive(client))["name"] == "Anna"  # the one account it looks like
            host = await lab.connect()
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            code = (await receive(host))["code"]
            guest = await lab.connect()
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "\u041dawks")))
            assert (await receive(guest))["code"] == p.SAME_NAME

    run(scenario)


def test_an_accounts_file_of_the_old_schema_keeps_its_keys_and_gains_skeletons(
        tmp_path: Path) -> None:
    """A file written before skeletons: its password and token still sign in, its two
    look-alike accounts (made before they were refused) each still sign in by their own
    name, and a new look-alike of either is refused."""
    with Accounts() as maker:  # the hashes as the old server made them
        locked = maker._hasher.hash(PASSWORD)
    token = "t" * 24
    db = sqlite3.connect(tmp_path / FILE_NAME)
    db.execute("CREATE TABLE accounts (folded TEXT PRIMARY KEY, name TEXT NOT NULL, "
               "password TEXT NOT NULL, created REAL NOT NULL)")
    db.execute("CREATE TABLE tokens (folded TEXT NOT NULL, sealed TEXT NOT NULL, "
               "made REAL NOT NULL)")
    for number, name in enumerate(("Anna", "\u0410nna")):
        db.execute("INSERT INTO accounts VALUES (?, ?, ?, ?)",
                   (folded(name), name, locked, 1000.0 + number))
    db.execute("INSERT INTO tokens VALUES (?, ?, ?)", ("anna", seal_token(token), 1000.0))
    db.commit()
    db.close()
    with Accounts(tmp_path) as accounts:
        assert accounts.sign_in("anna", token=token).name == "Anna"
        assert accounts.sign_in("Anna", PASSWORD).name == "Anna"
        assert accounts.sign_in("\u0410NNA", PASSWORD).name == "\u0410nna"  # its own key
        for name in ("\u0391nna", "Anna\ufe0f"):
            with pytest.raises(AccountError) as taken:
                accounts.sign_up(name, PASSWORD)
            assert taken.value.code == p.NAME_TAKEN
    db = sqlite3.connect(tmp_path / FILE_NAME)
    assert db.execute("SELECT DISTINCT skeleton, skeleton_folded FROM accounts").fetchall() \
        == [("anna", "anna")]
    db.close()


def _look_alikes() -> dict[str, list[str]]:
    """Each ASCII letter and digit's look-alikes, in either case, from Unicode's data."""
    by_skeleton: dict[str, list[str]] = {}
    for source, target in prototypes().items():
        by_skeleton.setdefault(target, []).append(source)
    return {char: sorted({alike for case in {char, char.upper(), char.lower()}
                          for alike in by_skeleton.get(skeleton(case), [])})
            for char in string.ascii_letters + string.digits}


LOOKS = _look_alikes()
INVISIBLE = ["\ufe00", "\ufe0f", "\u034f", "\u180b", "\U000e0100", "\u200b", "\u2060"]


@st.composite
def look_alike_pair(draw: st.DrawFn) -> tuple[str, str]:
    """A name, and the same name with some of its letters swapped for look-alikes and
    invisible characters put in."""
    name = draw(st.text(string.ascii_letters + string.digits, min_size=1, max_size=12))
    written = ""
    for char in name:
        if LOOKS[char] and draw(st.booleans()):
            char = draw(st.sampled_from(LOOKS[char]))
        written += char + draw(st.sampled_from(["", "", *INVISIBLE]))
    return name, written


@settings(max_examples=300, deadline=None)
@given(look_alike_pair())
def test_a_name_and_any_look_alike_of_it_are_one_name(pair: tuple[str, str]) -> None:
    name, written = pair
    assert same_name(name, written) and same_name(written, name)
    with Accounts() as accounts:
        accounts._hasher = PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)  # quick
        accounts.sign_up(name, PASSWORD)
        with pytest.raises(AccountError) as refused:
            accounts.sign_up(written, PASSWORD)
        assert refused.value.code in (p.NAME_TAKEN, p.BAD_NAME)  # an invisible control: bad


def test_a_player_signing_in_often_with_the_right_password_is_never_slowed() -> None:
    """A right sign-in is counted when it arrives and given back once right: only wrong ones
    make an address wait (its hashes are bounded apart: test_server_hashing.py)."""
    async def scenario() -> None:
        async with server(limits=Limits(failed_tries=3)) as lab:
            line = await lab.connect()
            await line.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, "Anna", PASSWORD)))
            assert (await receive(line))["type"] == "signed_in"
            for _ in range(5):
                await line.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "Anna", PASSWORD)))
                assert (await receive(line))["type"] == "signed_in"
            for guess in range(3):
                await line.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "Anna", f"guess {guess}")))
                assert (await receive(line))["code"] in (p.BAD_SIGN_IN, p.SLOW_DOWN)
            await line.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "Anna", PASSWORD)))
            assert (await receive(line))["code"] == p.SLOW_DOWN  # its own guesses count

    run(scenario)
