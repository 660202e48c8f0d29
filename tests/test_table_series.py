"""A series with a friend at a table: the server counts each game for it (and keeps it in
the table's record), both seats hear its score, and the next game says where it stands."""

from __future__ import annotations

import random
from pathlib import Path

from table_driver import JOIN_KEYS, Seat, Server, start_playing

from sudden_death.engine.actions import Concede
from sudden_death.engine.game import Game
from sudden_death.engine.state import Team
from sudden_death.server.tables import Seat as TableSeat
from sudden_death.server.tables import Table
from sudden_death.wire import protocol as p

# Title: Play a friend; Host a series (below Host and Join); Best of 3 (focused); the name.
SERIES_KEYS = ["end", "up", "return", "down", "down", "return", "return", "type Hawks",
               "return"]


def conceded_by(game: Game, team: Team) -> None:
    game.apply({team: Concede()})


def series_table(best_of: int = 3, replay_ties: bool = False) -> Table:
    games = iter(Game.from_kickoff(random.Random(seed), Team.HOME) for seed in range(100))
    table = Table("12345", next(games), {Team.HOME: TableSeat("Hawks"),
                                          Team.AWAY: TableSeat("Bears")},
                  best_of=best_of, replay_ties=replay_ties)
    table.new_game = lambda: next(games)  # type: ignore[attr-defined]
    return table


def rematch(table: Table) -> list[p.Start]:
    out = table.ask_rematch(Team.HOME, table.new_game)  # type: ignore[attr-defined]
    out += table.ask_rematch(Team.AWAY, table.new_game)  # type: ignore[attr-defined]
    return [message for _, message in out if isinstance(message, p.Start)]


def test_the_table_counts_each_game_and_begins_a_new_series_after_one_ends() -> None:
    table = series_table()
    (start, _) = table.start()
    assert (start[1].best_of, start[1].results) == (3, [])
    conceded_by(table.game, Team.AWAY)  # the Hawks win game 1
    starts = rematch(table)
    assert len(starts) == 2 and all(s.results == [0] for s in starts)
    conceded_by(table.game, Team.AWAY)  # and game 2: the series is theirs
    assert all(s.results == [] for s in rematch(table))  # game 3 begins a new series
    again = Table.from_record(table.to_record())
    assert (again.best_of, again.replay_ties, again.results) == (3, False, [])


def test_single_games_and_unknown_lengths_have_no_series() -> None:
    table = series_table(best_of=1)
    conceded_by(table.game, Team.HOME)
    assert all(s.results == [] and s.best_of == 1 for s in rematch(table))
    assert series_table(best_of=4).series() is None


def test_a_hosted_series_is_scored_on_both_seats(tmp_path: Path) -> None:
    with Server("--seed", "4") as server, \
            Seat(tmp_path / "host", "--server", server.url) as host, \
            Seat(tmp_path / "guest", "--server", server.url) as guest:
        host.send(*SERIES_KEYS)
        code = host.next("table")["code"]
        guest.send(*JOIN_KEYS, f"type {code}", "return")
        host.rematches = guest.rematches = 1
        for thread in start_playing(host, guest):
            thread.join(180)
        assert (host.finish(), guest.finish()) == (0, 0)
        for seat in (host, guest):
            said = seat.speech()
            assert "A series, best of 3; a tied game counts." in said
            assert sum(line.startswith("Final score:") for line in said) == 2
            first_final = next(i for i, line in enumerate(said)
                               if line.startswith("Final score:"))
            after = said[first_final:]
            assert any("the series" in line and ("lead" in line or "level" in line)
                       for line in after), after[:6]
            assert "Game 2 of the series." in said
