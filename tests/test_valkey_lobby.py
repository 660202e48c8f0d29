"""The lobby across processes (issue 62, `--valkey`): the merge of several processes' entries
keeps the lobby's caps and its true totals, and `ValkeyLobby` on a real Valkey lists another
process's entries while its key lives, and not once it has expired or been taken out. From
MERGE_FROM processes (issue 73) one merges the lobby for all: the others read its one value,
each sees every other process's entries but its own, and a merger lost is replaced."""

from __future__ import annotations

import asyncio
import secrets
import time

import msgspec
import pytest
from redis.asyncio import Redis
from server_lab import run, until
from valkey_server import ValkeyServer

from sudden_death.server.cluster import valkey_lobby
from sudden_death.server.cluster.lobby_entries import Listed, Merged, merge_for_all, others_in
from sudden_death.server.cluster.stopping import stop
from sudden_death.server.cluster.valkey_lobby import ValkeyLobby
from sudden_death.server.roles.lobby import merged
from sudden_death.server.service import TableService
from sudden_death.wire import protocol as p

pytestmark = pytest.mark.timeout(60)


def tables(prefix: str, count: int) -> list[p.OpenTable]:
    return [p.OpenTable(f"{prefix}{n:03d}", "Hawks") for n in range(count)]


def games(prefix: str, count: int) -> list[p.GamePlayed]:
    return [p.GamePlayed(f"{prefix}{n:03d}", ["Hawks", "Bears"], [0, 7], 1)
            for n in range(count)]


def test_the_merge_caps_each_list_this_process_first_and_sums_the_totals() -> None:
    own = Listed(tables("A", 30), games("A", 10), open=70, playing=10)
    other = Listed(tables("B", 40), games("B", 50), open=40, playing=90)
    third = Listed(tables("C", 5), [], open=5, playing=0)
    listed = merged([own, other, third])
    assert len(listed.tables) == p.MAX_LISTED_TABLES
    assert listed.tables[:30] == own.tables and listed.tables[30:] == other.tables[:20]
    assert len(listed.games) == p.MAX_LISTED_GAMES
    assert listed.games[:10] == own.games and listed.games[10:] == other.games[:40]
    assert (listed.open, listed.playing) == (115, 100)  # all of them, not the listed ones
    assert merged([]) == Listed()


def test_the_lobby_lists_its_own_tables_and_the_others_sorted_with_their_totals() -> None:
    service = TableService(seed=1)
    lobby = service.lobby
    assert lobby.listing() == p.LobbyList([], [], [], 0, 0)
    lobby.elsewhere = lambda: [Listed(tables("B", 2), games("B", 1), open=9, playing=4)]
    listing = lobby.listing()
    assert [table.code for table in listing.tables] == ["B000", "B001"]
    assert [game.code for game in listing.games] == ["B000"]
    assert (listing.open, listing.playing) == (9, 4)
    heard: list[None] = []
    lobby.shared = lambda: heard.append(None)
    lobby.changed()  # no line in the lobby: still shared with the other processes
    assert heard == [None]
    service.close()  # its accounts' database: left open, Python 3.13 warns of it later


def test_another_process_is_listed_while_its_key_lives_and_gone_once_it_expires(
        valkey: ValkeyServer) -> None:
    prefix = f"t{secrets.token_hex(4)}:"
    b_entries = Listed(tables("B", 1), [], open=1, playing=0)

    async def scenario() -> None:
        heard: list[None] = []
        a = await ValkeyLobby.open(valkey.url, "a", lambda: Listed(tables("A", 1), [], 1, 0),
                                   lambda: heard.append(None), prefix)
        b = await ValkeyLobby.open(valkey.url, "b", lambda: b_entries, lambda: None, prefix)
        try:
            took = await until(lambda: a.others() == [b_entries])
            assert took < 1.5 and heard  # read within a second, and the lobby told
            assert b.others() == [Listed(tables("A", 1), [], 1, 0)]
            await b.close()  # taken out at once
            await until(lambda: a.others() == [], timeout=2)
            # A process that stops renewing (killed): gone once its key expires, although
            # A goes on reading (each read renews A's copy while the key is there).
            c = await ValkeyLobby.open(valkey.url, "c", lambda: b_entries, lambda: None, prefix)
            try:
                await until(lambda: a.others() == [b_entries], timeout=2)
                assert c._task is not None
                # As if SIGKILLed: no more writes, its key left to expire. Stopped for
                # certain: a single cancel can be lost (server/cluster/stopping.py), and a loop
                # that goes on renewing its key is never gone.
                await stop(c._task)
                gone = await until(lambda: a.others() == [],
                                   timeout=valkey_lobby.TTL_MS / 1000 + 2)
                assert gone > 1.5  # not before its key expired
            finally:
                await c._client.aclose()
        finally:
            await a.close()
            await b.close()

    run(scenario)


def test_a_copy_read_is_trusted_for_its_ttl_only(valkey: ValkeyServer) -> None:
    """A reader whose reads stop (cut off from Valkey) forgets the others' entries by itself."""
    async def scenario() -> None:
        a = await ValkeyLobby.open(valkey.url, "a", Listed, lambda: None,
                                   f"t{secrets.token_hex(4)}:")
        try:
            listed = Listed(tables("B", 1), [], 1, 0)
            a._others = {"b": (time.monotonic() + 0.2, b"x", listed)}
            assert a.others() == [listed]
            await asyncio.sleep(0.25)
            assert a.others() == []
        finally:
            await a.close()

    run(scenario)


def test_a_quiet_process_renews_its_entries_before_they_run_out(valkey: ValkeyServer) -> None:
    """Issue 71, 8: a process whose entries never change still writes them again before
    their expiry, or every other process forgets its tables while it is alive. Watched in
    Valkey itself, the key's time to live, for longer than one: it must go up (renewed) and
    the key never be missing; a loop that writes only on a change lets it run out at TTL_MS,
    and this fails then, however the machine is loaded."""
    prefix = f"t{secrets.token_hex(4)}:"
    entries = Listed(tables("Q", 1), [], open=1, playing=0)

    async def scenario() -> None:
        quiet = await ValkeyLobby.open(valkey.url, "quiet", lambda: entries, lambda: None,
                                       prefix)
        watcher = Redis.from_url(valkey.url)
        key = f"{prefix}lobby:quiet"
        try:
            renewals, last, start = 0, valkey_lobby.TTL_MS + 1, time.monotonic()
            while time.monotonic() - start < 1.5 * valkey_lobby.TTL_MS / 1000 or renewals < 2:
                left = await watcher.pttl(key)
                assert left > 0, f"the quiet process's entries ran out after {renewals} renewals"
                renewals += left > last  # written again since the last look
                last = left
                await asyncio.sleep(0.05)
            assert await watcher.get(key) == msgspec.json.encode(entries)
        finally:
            await watcher.aclose()
            await quiet.close()

    run(scenario)


def test_the_merged_lobby_leaves_each_reader_its_own_out_and_never_starves_the_others() -> None:
    """A process with full lists does not crowd the others out of what a reader sees: each
    list of the merged value holds twice its cap."""
    full = Listed(tables("A", p.MAX_LISTED_TABLES), games("A", p.MAX_LISTED_GAMES), 80, 60,
                  [f"a{n:03d}" for n in range(p.MAX_LISTED_HERE)])
    small = Listed(tables("B", 3), games("B", 2), 3, 2, ["Bea"])
    late = Listed(tables("C", 4), [], 4, 0, ["Cy", "a001"])
    merged_value = merge_for_all({"c": late, "a": full, "b": small})
    assert msgspec.json.decode(msgspec.json.encode(merged_value), type=Merged) == merged_value
    for_a = others_in(merged_value, "a")
    assert for_a == Listed(small.tables + late.tables, small.games, 7, 2, ["Bea", "Cy", "a001"])
    for_b = others_in(merged_value, "b")
    assert for_b.tables == full.tables  # capped at one cap: A's, the first by name
    assert (for_b.open, for_b.playing) == (84, 60)  # the totals are all
    assert len(for_b.here) == p.MAX_LISTED_HERE


def test_from_merge_from_processes_one_merges_and_every_other_reads_all_but_its_own(
        valkey: ValkeyServer) -> None:
    prefix = f"t{secrets.token_hex(4)}:"
    count = valkey_lobby.MERGE_FROM + 1
    entries = {f"p{n:02d}": Listed(tables(f"{n:02d}", 2), [], 2, n, [f"Player{n:02d}"])
               for n in range(count)}

    def expected(name: str) -> Listed:
        return merged(listed for other, listed in sorted(entries.items()) if other != name)

    async def scenario() -> None:
        lobbies = {name: await ValkeyLobby.open(valkey.url, name, lambda e=listed: e,
                                                lambda: None, prefix)
                   for name, listed in entries.items()}
        try:
            def all_see_the_others() -> bool:
                return all(merged(lobby.others()) == expected(name)
                           for name, lobby in lobbies.items())

            await until(all_see_the_others, timeout=6)
            mergers = [name for name, lobby in lobbies.items() if lobby.merging]
            assert len(mergers) == 1, mergers
            readers = [name for name, lobby in lobbies.items() if not lobby.merging]
            assert all(list(lobbies[name]._others) == [""] for name in readers)  # one value
            # The merger lost (killed): another takes over, and every reader sees the others.
            lost = lobbies.pop(mergers[0])
            assert lost._task is not None
            await stop(lost._task)
            await lost._client.aclose()
            del entries[mergers[0]]
            await until(lambda: all_see_the_others() and sum(
                lobby.merging for lobby in lobbies.values()) == 1,
                timeout=valkey_lobby.TTL_MS / 1000 * 2 + 4)
        finally:
            for lobby in lobbies.values():
                await lobby.close()

    run(scenario)


def test_unchanged_entries_are_renewed_and_a_key_gone_is_written_again(
        valkey: ValkeyServer) -> None:
    """Issue 73: a quiet process renews its key without sending its entries again, so a key
    that vanished meanwhile (Valkey restarted empty, between two of its rounds) would renew
    nothing: it is written again at once, never left missing until the entries change."""
    prefix = f"t{secrets.token_hex(4)}:"
    entries = Listed(tables("R", 2), [], open=2, playing=0)

    async def scenario() -> None:
        quiet = await ValkeyLobby.open(valkey.url, "quiet", lambda: entries, lambda: None,
                                       prefix)
        watcher = Redis.from_url(valkey.url)
        key = f"{prefix}lobby:quiet"
        try:
            await asyncio.sleep(valkey_lobby.EVERY_S * 1.5)  # renewed at least once
            assert await watcher.get(key) == msgspec.json.encode(entries)
            await watcher.delete(key)
            gone = time.monotonic()
            while not await watcher.exists(key):
                assert time.monotonic() - gone < valkey_lobby.EVERY_S * 3, "never written again"
                await asyncio.sleep(0.02)
            assert await watcher.get(key) == msgspec.json.encode(entries)
        finally:
            await watcher.aclose()
            await quiet.close()

    run(scenario)
