"""A process's lobby entries as the other processes of a cluster read them (`Listed`): the
shape the lobby role writes and Valkey's lobby (valkey_lobby.py) carries between processes.

Its own module, below both, so the lobby never imports Valkey's module and Valkey's never
imports the lobby role: each knows only this value.
"""

from __future__ import annotations

import msgspec

from ...wire import protocol as p


class Listed(msgspec.Struct, forbid_unknown_fields=True):
    """One process's lobby entries: its public tables waiting and games played (each list
    capped, the longest waiting or played first) and its true totals; what a process shares
    with the others, so the same caps and counts hold across them."""

    tables: list[p.OpenTable] = []
    games: list[p.GamePlayed] = []
    open: int = 0
    playing: int = 0
    # The players signed in in its lobby (`present`). Last, with a default: an older
    # process's entries, which lack it, still decode here.
    here: list[str] = []


class Merged(msgspec.Struct, forbid_unknown_fields=True):
    """The whole cluster's lobby entries, merged by one process for all the others to read in
    one key (issue 73): each process's totals, and each list's entries with the name of the
    process that listed them, so a reader leaves its own out (its fresh ones take their place).
    Each list holds up to twice its cap, so that one process's own, at most one cap, never
    leave the others short."""

    totals: dict[str, tuple[int, int]] = {}  # name: (open, playing)
    tables: list[tuple[str, p.OpenTable]] = []
    games: list[tuple[str, p.GamePlayed]] = []
    here: list[tuple[str, str]] = []  # (name, a player): sorted by the player's name


def merge_for_all(entries: dict[str, Listed]) -> Merged:
    """Every process's entries (by name) as `Merged`: the processes in the order of their
    names, each list in its own order, capped at twice each list's cap."""
    ordered = sorted(entries.items())
    return Merged(
        totals={name: (listed.open, listed.playing) for name, listed in ordered},
        tables=[(name, table) for name, listed in ordered
                for table in listed.tables][:2 * p.MAX_LISTED_TABLES],
        games=[(name, game) for name, listed in ordered
               for game in listed.games][:2 * p.MAX_LISTED_GAMES],
        here=sorted(((name, player) for name, listed in ordered for player in listed.here),
                    key=lambda pair: (pair[1], pair[0]))[:2 * p.MAX_LISTED_HERE])


def others_in(merged: Merged, me: str) -> Listed:
    """What `Merged` holds of every process but `me`, as one process's entries would: each
    list capped, the totals summed."""
    return Listed(
        [table for name, table in merged.tables if name != me][:p.MAX_LISTED_TABLES],
        [game for name, game in merged.games if name != me][:p.MAX_LISTED_GAMES],
        sum(open_count for name, (open_count, _p) in merged.totals.items() if name != me),
        sum(playing for name, (_o, playing) in merged.totals.items() if name != me),
        [player for name, player in merged.here if name != me][:p.MAX_LISTED_HERE])
