"""The stores seam's contract (server/stores/seam.py): one suite per Protocol, run against every
implementation listed here, each of which passes it unchanged. A store is made by a factory
from a place (where its data lives: a folder for SQLite, a fresh database's URL for PostgreSQL),
named as "module:callable" so a child process can make one too: the child writes, is SIGKILLed,
and a new store on the same place must read every write whose call had returned. A second store
on the same place stands for a second server process. Games are played by the engine's coach
from seeds, so every run plays the same steps.

A store's call may answer with an awaitable (stores.py: a database server's store); `answer`
awaits it on the test's own event loop, so each assertion reads the same for every store. The
PostgreSQL stores run against a private cluster (tests/postgres_places.py): without PostgreSQL
they skip, unless SUDDEN_DEATH_REQUIRE_POSTGRES is set, when they fail.
"""

from __future__ import annotations

import asyncio
import importlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from coach_steps import advance, hold
from hypothesis import given, settings
from hypothesis import strategies as st
from postgres_places import new_database, postgres_server  # noqa: F401 (a fixture)

from sudden_death.engine.state import Team
from sudden_death.server.stores.seam import (
    START,
    AccountError,
    AccountStore,
    Rating,
    Result,
    StoreError,
    TableStore,
    TakenOver,
    answered,
)
from sudden_death.server.tables import Seat, Table, new_game

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent

# Every implementation of each seam: "module:callable" taking the place its data lives in (a
# folder for "sqlite", a database's URL for "postgres"), returning the store or an awaitable of it.
TABLE_STORES = {"sqlite": "sudden_death.server.stores.sqlite_tables:TableStore",
                "postgres": "sudden_death.server.stores.postgres_tables:opened",
                # Two databases, each table in the one its code belongs to (issue 73).
                "sharded": "postgres_places:sharded_opened"}
ACCOUNT_STORES = {"sqlite": "sudden_death.server.stores.ratings:RatedAccounts",
                  "postgres": "sudden_death.server.stores.postgres_accounts:PgAccounts"}
CODE = "424242"
T = TypeVar("T")
Place = Any  # a Path (sqlite) or a URL (postgres)


class Answers:
    """The test's own event loop: a store call's answer, awaited there when the store gave
    an awaitable of it (a database server's store), else as it is."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()

    def __call__(self, value: T | Awaitable[T]) -> T:
        if isinstance(value, Awaitable):
            return self.loop.run_until_complete(_awaited(value))
        return value

    def close(self) -> None:
        self.loop.run_until_complete(self.loop.shutdown_asyncgens())
        self.loop.close()


async def _awaited(value: Awaitable[T]) -> T:
    return await value


@pytest.fixture
def answer() -> Iterator[Answers]:
    answers = Answers()
    yield answers
    answers.close()


@pytest.fixture
def places(kind: str, tmp_path_factory: pytest.TempPathFactory,
           request: pytest.FixtureRequest) -> Callable[[], Place]:
    """A new, empty place for a store of `kind` at each call."""
    if kind == "sqlite":
        return lambda: tmp_path_factory.mktemp("store")
    cluster = request.getfixturevalue("postgres_server")  # skips without PostgreSQL
    if kind == "sharded":
        return lambda: f"{new_database(cluster)} {new_database(cluster)}"
    return lambda: new_database(cluster)


@pytest.fixture
def place(places: Callable[[], Place]) -> Place:
    return places()


def placed(kind: str, text: str) -> Place:
    """A place handed to a child process as text, as its store takes it."""
    return Path(text) if kind == "sqlite" else text


def made(spec: str, place: Place, answer: Answers) -> Any:
    module, name = spec.split(":")
    return answer(getattr(importlib.import_module(module), name)(place))


def table_store(kind: str, place: Place, answer: Answers) -> TableStore:
    store: TableStore = made(TABLE_STORES[kind], place, answer)
    return store


def account_store(kind: str, place: Place, answer: Answers) -> AccountStore:
    store: AccountStore = made(ACCOUNT_STORES[kind], place, answer)
    return store


# -- tables played by the coach ----------------------------------------------------------------

def seated(code: str = CODE, seed: int = 11) -> Table:
    return Table(code, new_game(seed), {Team.HOME: Seat("Hawks"), Team.AWAY: Seat("Bears")})


def rematched(table: Table, seed: int) -> None:
    """Both seats ask to play again after the game: a new game at the same table."""
    assert table.game.is_over and not table.left
    for team in Team:
        table.ask_rematch(team, lambda: new_game(seed))
    assert table.step == 0 and not table.game.is_over


def scripted(seed: int = 11) -> Iterator[Table]:
    """One table, yielded after every change (the same object): each step, and each rematch
    once a game is over, for as long as the caller takes."""
    table = seated(seed=seed)
    yield table
    while True:
        if not advance(table):
            rematched(table, seed + table.games + 1)
        yield table


def point(table: Table) -> tuple[int, int]:
    return table.games, table.step


def same_play(found: Table, expected: Table) -> None:
    """The same game at the same point: game number, every step's actions and events in order,
    and the game state the steps lead to."""
    assert point(found) == point(expected)
    assert found.log == expected.log
    assert found.told == expected.told
    assert found.game.to_json() == expected.game.to_json()
    assert found.first == expected.first


def as_is(value: T | Awaitable[T]) -> T:
    """A store call's answer from a store that answers at once (SQLite's)."""
    assert not isinstance(value, Awaitable), "an awaitable: answer it on the test's loop"
    return value


def reloaded(store: TableStore, code: str = CODE,
             answer: Callable[[Any], Any] = as_is) -> Table:
    found = [table for table in answer(store.open_tables()) if table.code == code]
    if found:
        return found[0]
    ended = answer(store.ended(code))
    assert ended is not None, f"table {code} was not kept"
    return ended


# -- a child process that writes, then is killed --------------------------------------------------

def child_saves(kind: str, place: str) -> None:
    """Run in a child: save the scripted table after every change, and say so on stdout only
    once the save has returned (on the child's own event loop); forever, until killed."""
    answer = Answers()
    store = made(TABLE_STORES[kind], placed(kind, place), answer)
    for table in scripted():
        answer(store.save(table))
        print(*point(table), flush=True)


def child_signs_up(kind: str, place: str) -> None:
    """Run in a child: two accounts and a rated game; what the calls returned on stdout, once
    they have returned; then wait to be killed."""
    store = made(ACCOUNT_STORES[kind], placed(kind, place), Answers())
    anna = store.sign_up("Anna", "anna's password")
    store.sign_up("Ben", "ben's password")
    after, _ = store.record("anna", "ben", 1.0)
    print(json.dumps({"token": anna.token, "rating": [after.rating, after.deviation,
                                                      after.volatility]}), flush=True)
    time.sleep(120)


def child(function: str, kind: str, place: Place) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(TESTS), str(ROOT)])}
    return subprocess.Popen(
        [sys.executable, "-c", f"import test_contract_stores as t; t.{function}"
                               f"({kind!r}, {str(place)!r})"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def killed(process: subprocess.Popen[str]) -> str:
    """SIGKILL, and what the child said on stderr (its pipes closed)."""
    os.kill(process.pid, signal.SIGKILL)
    _out, err = process.communicate(timeout=20)
    assert process.returncode == -signal.SIGKILL, err
    return err


# -- the table store's contract ---------------------------------------------------------------

@pytest.mark.parametrize("kind", TABLE_STORES)
def test_contract_tables_every_saved_step_survives_a_sigkill(kind: str, place: Place,
                                                            answer: Answers) -> None:
    """Killed while it saves one step after another (across rematches), a process loses none
    that save() had returned for: a new store reads the table at that point or later, with
    exactly the steps that were played."""
    process = child("child_saves", kind, place)
    assert process.stdout is not None
    said = [tuple(map(int, process.stdout.readline().split())) for _ in range(150)]
    err = killed(process)  # at once: most likely in the middle of a save
    assert all(len(each) == 2 for each in said), err
    last = said[-1]
    assert last[0] >= 1  # the kill came after at least one rematch
    store = table_store(kind, place, answer)
    found = reloaded(store, answer=answer)
    assert point(found) >= last, (point(found), last)
    for count, expected in enumerate(scripted()):
        assert count < 100_000, f"no point {point(found)} in the script"
        if point(expected) == point(found):
            same_play(found, expected)
            break
    answer(store.close())


@pytest.mark.parametrize("kind", TABLE_STORES)
@pytest.mark.parametrize("every", [1, 3])
def test_contract_tables_steps_come_back_in_order(kind: str, every: int,
                                                  place: Place, answer: Answers) -> None:
    """Saved after every step or every third, a table comes back with its steps in the order
    they were played, to a store that did not write them (a second process)."""
    store = table_store(kind, place, answer)
    table = seated()
    answer(store.save(table))
    played = 0
    while advance(table) and played < 30:
        played += 1
        if played % every == 0:
            answer(store.save(table))
    answer(store.save(table))
    other = table_store(kind, place, answer)
    found = reloaded(other, answer=answer)
    same_play(found, table)
    assert [list(entry) for entry in found.log] == [list(entry) for entry in table.log]
    answer(other.close())
    answer(store.close())


async def _deferred_then(store: TableStore, table: Table, then_step: bool) -> None:
    """A held choice deferred (on the loop, as the seats role defers it), nobody waiting on
    it; then, with `then_step`, the step played and saved; the store closed."""
    store.defer(table)
    if then_step:
        advance(table)
        await answered(store.save(table))
    await answered(store.close())


@pytest.mark.parametrize("kind", TABLE_STORES)
@pytest.mark.parametrize("then_step", [False, True])
def test_contract_tables_a_deferred_save_is_kept_at_close_or_by_the_next_save(
        kind: str, then_step: bool, place: Place, answer: Answers) -> None:
    """Issue 73: a held choice handed to `defer` and never awaited is in the store once it
    has closed; a save of the table made after it holds it (the step it led to), so a
    second store reads the table as it was last handed over either way."""
    store = table_store(kind, place, answer)
    table = seated()
    for _ in range(2):
        advance(table)
    answer(store.save(table))
    hold(table)
    answer(_deferred_then(store, table, then_step))
    reader = table_store(kind, place, answer)
    found = reloaded(reader, answer=answer)
    same_play(found, table)
    assert found.held == table.held and bool(found.held) != then_step
    answer(reader.close())


@pytest.mark.parametrize("kind", TABLE_STORES)
def test_contract_tables_a_rematch_keeps_its_game_apart(kind: str, place: Place,
                                                        answer: Answers) -> None:
    """A rematch's new game at the same table comes back with its own steps only, never the
    earlier game's (saved or not at the rematch itself)."""
    store = table_store(kind, place, answer)
    table = seated()
    while advance(table):
        answer(store.save(table))
    old_first = table.first
    assert table.step > 3
    rematched(table, 12)
    for _ in range(2):
        advance(table)
    answer(store.save(table))  # no save between the rematch and these steps
    reader = table_store(kind, place, answer)
    found = reloaded(reader, answer=answer)
    assert point(found) == (1, 2) and found.first != old_first
    same_play(found, table)
    assert not found.game.is_over
    answer(reader.close())
    answer(store.close())


@pytest.mark.parametrize("kind", TABLE_STORES)
def test_contract_tables_a_claim_is_held_by_one_owner(kind: str, place: Place,
                                                      answer: Answers) -> None:
    """Two stores on the same data stand for two server processes: while one holds a table,
    the other is refused it, until the holder releases it; a claim outlives the store."""
    first, second = table_store(kind, place, answer), table_store(kind, place, answer)
    assert answer(first.claim(CODE, "alpha"))
    assert not answer(second.claim(CODE, "beta"))
    assert answer(first.claim(CODE, "alpha"))  # holding it already: still held
    assert answer(second.claim("515151", "beta"))  # another table is free
    answer(second.release(CODE, "beta"))  # not beta's to release
    assert not answer(second.claim(CODE, "beta"))
    answer(first.close())
    third = table_store(kind, place, answer)  # the holder's process gone: the claim stands
    assert not answer(third.claim(CODE, "gamma"))
    answer(third.release(CODE, "alpha"))
    assert answer(second.claim(CODE, "beta"))
    assert not answer(third.claim(CODE, "alpha"))
    answer(second.close())
    answer(third.close())


@pytest.mark.parametrize("kind", TABLE_STORES)
def test_contract_tables_a_lost_holders_table_is_taken_over_once(kind: str, place: Place,
                                                                 answer: Answers) -> None:
    """A server whose holder of a table was lost (its lease ran out) takes the claim over and
    reads the table as it was last saved; of two taking over at once, one gets it; a table
    nobody lost, or another still holds, is not taken."""
    lost, beta, gamma = (table_store(kind, place, answer) for _ in range(3))
    playing = seated(CODE, 7)
    for _ in range(12):
        advance(playing)
    assert answer(lost.claim(CODE, "alpha"))
    answer(lost.save(playing))
    assert answer(beta.table("999999")) is None
    assert not answer(beta.take_over(CODE, "beta", "delta"))  # delta never held it
    assert answer(beta.take_over(CODE, "beta", "alpha"))
    assert not answer(gamma.take_over(CODE, "gamma", "alpha"))  # beta's now
    assert answer(beta.take_over(CODE, "beta", "alpha"))  # beta's already: still held
    assert not answer(gamma.claim(CODE, "gamma")) and not answer(lost.claim(CODE, "alpha"))
    found = answer(beta.table(CODE))
    assert found is not None and found.step == playing.step
    same_play(found, playing)
    advance(found)  # played on by its new holder, from where the lost one left it
    answer(beta.save(found))
    again = answer(gamma.table(CODE))
    assert again is not None and again.step == playing.step + 1
    assert not answer(gamma.take_over("515151", "gamma", "alpha"))  # nobody's claim
    for store in (lost, beta, gamma):
        answer(store.close())


@pytest.mark.parametrize("kind", TABLE_STORES)
def test_contract_tables_a_save_is_fenced_by_its_owners_claim(kind: str, place: Place,
                                                              answer: Answers) -> None:
    """A process stalled past its lease, its table taken over meanwhile, that saves on
    resuming (its header changed and steps of its own appended) is refused with TakenOver
    and writes nothing: the table stays exactly as its new holder has it, whose fenced saves
    go on; a table whose claim was let go is refused too. Unfenced saves are not checked."""
    alpha, beta, reader = (table_store(kind, place, answer) for _ in range(3))
    mine = seated(CODE, 7)
    for _ in range(10):
        advance(mine)
    assert answer(alpha.claim(CODE, "alpha"))
    answer(alpha.save(mine, "alpha"))
    assert answer(beta.take_over(CODE, "beta", "alpha"))  # alpha's lease ran out
    theirs = answer(beta.table(CODE))
    assert theirs is not None
    for _ in range(2):
        advance(theirs)
    answer(beta.save(theirs, "beta"))
    for _ in range(5):  # alpha, resumed, plays on a copy no longer its own
        advance(mine)
    mine.public = True
    with pytest.raises(TakenOver) as refused:
        answer(alpha.save(mine, "alpha"))
    assert isinstance(refused.value, StoreError) and refused.value.code == CODE
    assert "beta" in str(refused.value)
    found = reloaded(reader, CODE, answer)
    same_play(found, theirs)
    assert found.header_record() == theirs.header_record() and not found.public
    advance(theirs)  # the new holder's saves are its own as before
    answer(beta.save(theirs, "beta"))
    same_play(reloaded(reader, CODE, answer), theirs)
    answer(beta.release(CODE, "beta"))
    with pytest.raises(TakenOver):  # nobody's now: nobody's saves but unfenced ones
        answer(beta.save(theirs, "beta"))
    with pytest.raises(TakenOver):
        answer(alpha.save(mine, "alpha"))
    same_play(reloaded(reader, CODE, answer), theirs)
    for store in (alpha, beta, reader):
        answer(store.close())


@pytest.mark.parametrize("kind", TABLE_STORES)
def test_contract_tables_ended_ones_are_found_by_code_only(kind: str, place: Place,
                                                           answer: Answers) -> None:
    store = table_store(kind, place, answer)
    left, finished, playing = seated("100001"), seated("100002", 5), seated("100003", 6)
    advance(left)
    left.leave(Team.HOME)
    while advance(finished):
        pass
    advance(playing)
    for table in (left, finished, playing):
        answer(store.save(table))
    other = table_store(kind, place, answer)
    assert [table.code for table in answer(other.open_tables())] == ["100003"]
    kept_left, kept_finished = (answer(other.ended("100001")),
                                   answer(other.ended("100002")))
    assert kept_left is not None and kept_left.left and kept_left.left_by == Team.HOME
    assert kept_finished is not None and kept_finished.game.is_over
    same_play(kept_finished, finished)
    assert answer(other.ended("100003")) is None and answer(other.ended("999999")) is None
    answer(other.close())
    answer(store.close())


# A round: steps played, then a seat away or not, a rematch (once the game is over) or not,
# and a save or not.
ROUNDS = st.lists(st.tuples(st.integers(0, 50), st.booleans(), st.booleans(), st.booleans()),
                  min_size=1, max_size=8)


@pytest.mark.parametrize("kind", TABLE_STORES)
def test_contract_tables_any_saves_reload_to_the_same_record(
        kind: str, places: Callable[[], Place], answer: Answers) -> None:
    """Whatever happens between saves (steps, a seat away, rematches, a leave at the end), the
    table a second store reads after each save has the record the table had when saved."""
    saved_points: set[tuple[int, int]] = set()

    @settings(max_examples=30, deadline=None)
    @given(ROUNDS, st.booleans(), st.integers(0, 1000))
    def check(rounds: list[tuple[int, bool, bool, bool]], leave: bool, seed: int) -> None:
        place = places()
        store = table_store(kind, place, answer)
        table = seated(seed=seed)

        def saved() -> None:
            answer(store.save(table))
            saved_points.add(point(table))
            reader = table_store(kind, place, answer)
            assert (json.loads(reloaded(reader, answer=answer).to_record())
                    == json.loads(table.to_record()))
            answer(reader.close())

        for steps, away, again, save in rounds:
            for _ in range(steps):
                advance(table)
            if away:
                table.seats[Team.AWAY].away_since = 1_000_000.0 + table.step
            if again and table.game.is_over:
                rematched(table, seed + table.games + 1)
            if save:
                saved()
        if leave:
            table.leave(Team.AWAY)
        saved()
        answer(store.close())

    check()
    assert any(games >= 1 and step > 0 for games, step in saved_points)  # rematches were kept


# -- the account store's contract -------------------------------------------------------------

@pytest.mark.parametrize("kind", ACCOUNT_STORES)
def test_contract_accounts_an_account_and_its_rating_survive_a_sigkill(
        kind: str, place: Place, answer: Answers) -> None:
    process = child("child_signs_up", kind, place)
    assert process.stdout is not None
    line = process.stdout.readline()
    err = killed(process)
    assert line, err
    said = json.loads(line)
    store = account_store(kind, place, answer)
    assert store.name_of("anna") == "Anna"
    assert store.rating("anna") == Rating(*said["rating"])
    standing = store.standing("anna")
    assert standing is not None and standing.rank == 1 and standing.of == 2
    assert standing.recent == (Result("Ben", 1.0),)
    assert store.sign_in("Anna", "anna's password").name == "Anna"
    assert store.sign_in("Anna", token=said["token"]).name == "Anna"  # its token too
    store.close()


@pytest.mark.parametrize("kind", ACCOUNT_STORES)
def test_contract_accounts_a_token_is_spent_once(kind: str, place: Place,
                                                 answer: Answers) -> None:
    store = account_store(kind, place, answer)
    first = store.sign_up("Cleo", "cleo's password")
    renewed = store.sign_in("Cleo", token=first.token)
    assert renewed.token != first.token
    with pytest.raises(AccountError):
        store.sign_in("Cleo", token=first.token)
    other = account_store(kind, place, answer)  # another process sees it spent, and the new one
    with pytest.raises(AccountError):
        other.sign_in("Cleo", token=first.token)
    assert other.sign_in("Cleo", token=renewed.token).name == "Cleo"
    with pytest.raises(AccountError):
        other.sign_up("cleo", "another password")  # taken, folded
    with pytest.raises(AccountError):
        other.sign_in("Cleo", "a wrong password")
    assert other.name_of("Dora") is None
    other.close()
    store.close()


@pytest.mark.parametrize("kind", ACCOUNT_STORES)
def test_contract_accounts_ratings_are_kept_as_returned(kind: str, place: Place,
                                                        answer: Answers) -> None:
    """Any sequence of rated games: each rating a store reads back, in this process or the
    next, is the one `record` last returned for it; results come back newest first."""
    store = account_store(kind, place, answer)
    for name in ("Anna", "Ben", "Cleo"):
        store.sign_up(name, "a fine password")
    assert store.standing("anna") is None and store.rating("anna") == Rating(*START)
    last: dict[str, Rating] = {}
    games: list[tuple[str, str, float]] = []

    @settings(max_examples=20, deadline=None)
    @given(st.lists(st.tuples(st.sampled_from(["anna", "ben", "cleo"]),
                              st.sampled_from(["anna", "ben", "cleo"]),
                              st.sampled_from([0.0, 0.5, 1.0])), max_size=6))
    def check(played: list[tuple[str, str, float]]) -> None:
        for first, second, score in played:
            if first == second:
                continue
            last[first], last[second] = store.record(first, second, score)
            games.append((first, second, score))
        for key, rating in last.items():
            assert store.rating(key) == rating

    check()
    reopened = account_store(kind, place, answer)
    for key, rating in last.items():
        assert reopened.rating(key) == rating
    names = {"anna": "Anna", "ben": "Ben", "cleo": "Cleo"}
    anna = [(names[second if first == "anna" else first],
             score if first == "anna" else 1.0 - score)
            for first, second, score in reversed(games) if "anna" in (first, second)]
    standing = reopened.standing("anna")
    assert (standing is None) == (not anna)
    if standing is not None:
        assert [(kept.opponent, kept.score) for kept in standing.recent] == anna[:10]
    reopened.close()
    store.close()
