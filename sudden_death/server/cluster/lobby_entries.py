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
