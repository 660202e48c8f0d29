"""A series: best of 3, 5 or 7 games, as a rule that can be checked alone.

A series is over as soon as one team has more wins than the other could still reach, or when
every game has been played (a series can then end level, if tied games count and are not
replayed). With "replay a tie", a tied game is played again and does not use up a game of the
series. The same rule serves a series against the computer (kept in series.json by
storage/series_file.py) and a series at a table (the server counts it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .state import Team

LENGTHS = (3, 5, 7)


@dataclass(frozen=True)
class Series:
    best_of: int
    replay_ties: bool
    home: str
    away: str
    computer: str
    results: tuple[Team | None, ...] = ()  # each game's winner, None for a tie, in order

    def wins(self, team: Team) -> int:
        return sum(winner is team for winner in self.results)

    @property
    def ties(self) -> int:
        return sum(winner is None for winner in self.results)

    @property
    def played(self) -> int:
        """The games that used up a game of the series (a replayed tie does not)."""
        return len(self.results) - (self.ties if self.replay_ties else 0)

    @property
    def left(self) -> int:
        return self.best_of - self.played

    @property
    def winner(self) -> Team | None:
        """The team that has won the series: more wins than the other can still reach."""
        for team in Team:
            if self.wins(team) > self.wins(team.other) + self.left:
                return team
        return None

    @property
    def over(self) -> bool:
        return self.winner is not None or self.left <= 0

    def after(self, winner: Team | None) -> Series:
        """The series once a game has ended with `winner` (None: a tie)."""
        if self.over:
            raise ValueError("the series is over")
        return replace(self, results=(*self.results, winner))

    @property
    def next_game(self) -> int:
        """The number of the game to play next (1 for the first), replays counted."""
        return len(self.results) + 1
