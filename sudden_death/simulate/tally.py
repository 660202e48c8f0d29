"""Counting a stream of engine events into the simulator's JSON object (see SPEC)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from ..engine import BANDS, DriveEnd, Outcome, PlayResult, Team, overtime_period
from ..engine import events as ev

SACK_TOTALS = range(2, 13)
PUNT_NETS = (30, 40, 50)


class Tally:
    """Accumulates whole games. `first` is the team that had the ball first.

    `overtime` says the games were played with the overtime house rule; only then does the
    JSON carry its "overtime" object, so a regulation run's JSON stays exactly SPEC's."""

    def __init__(self, overtime: bool = False) -> None:
        self.overtime = overtime
        self.games = 0
        self.outcomes: Counter[str] = Counter()
        self.drives: Counter[str] = Counter()
        self.extra_points: Counter[str] = Counter()
        self.fg_attempts: Counter[int] = Counter()
        self.fg_made: Counter[int] = Counter()
        self.punt_nets: Counter[int] = Counter()
        self.touchbacks = 0
        self.plays: Counter[str] = Counter()
        self.by_band: Counter[int] = Counter()
        self.sack_yards: Counter[int] = Counter()
        self.points = [0, 0]
        # For the balance report (not part of SPEC's JSON): how each call is picked and fares.
        self.call_plays: Counter[str] = Counter()
        self.call_yards: Counter[str] = Counter()
        self.call_turnovers: Counter[str] = Counter()
        self.defense_plays: Counter[str] = Counter()
        self.defense_yards: Counter[str] = Counter()
        self.band_zero: Counter[str] = Counter()
        self.band_total = 0
        # How long games run, kept as histograms (games by drives, games by snaps) so chunks
        # merge exactly and a median and a maximum can be read back.
        self.game_drives: Counter[int] = Counter()
        self.game_snaps: Counter[int] = Counter()
        # Games that went to overtime, by the overtime pairs they needed, and who won them.
        self.overtime_periods: Counter[int] = Counter()
        self.overtime_outcomes: Counter[str] = Counter()
        self._defense_call = ""
        self._last_call = ""
        self._drives_now = 0
        self._snaps_now = 0
        self._last_drive = 0

    def merge(self, other: Tally) -> None:
        """Add another tally's counts (the simulator runs chunks of games in parallel)."""
        if other.overtime != self.overtime:
            raise ValueError("a tally of overtime games merges only with another")
        self.games += other.games
        for name, counts in vars(self).items():
            if isinstance(counts, Counter):
                counts.update(getattr(other, name))
        self.touchbacks += other.touchbacks
        self.band_total += other.band_total
        self.points = [a + b for a, b in zip(self.points, other.points, strict=True)]

    def add_game(self, events: list[ev.Event], first: Team) -> None:
        self.games += 1
        self._drives_now = self._snaps_now = self._last_drive = 0
        handlers: dict[type[ev.Event], Callable[[Any], None]] = {
            ev.DriveStarted: self._drive_started,
            ev.SnapChosen: self._snap_chosen,
            ev.DriveEnded: self._drive_ended,
            ev.ExtraPoint: self._extra_point,
            ev.FieldGoal: self._field_goal,
            ev.Punt: self._punt,
            ev.PlayResolved: self._play,
            ev.Fumble: self._fumble,
            ev.FinalCallsRevealed: self._final_calls,
        }
        for event in events:
            handler = handlers.get(type(event))
            if handler is not None:
                handler(event)
            elif isinstance(event, ev.GameOver):
                self._finish(event.outcome, first)
        self.game_drives[self._drives_now] += 1
        self.game_snaps[self._snaps_now] += 1

    def _drive_started(self, event: ev.DriveStarted) -> None:
        self._drives_now += 1
        self._last_drive = max(self._last_drive, event.drive)

    def _snap_chosen(self, event: ev.SnapChosen) -> None:
        self._snaps_now += 1

    def _drive_ended(self, event: ev.DriveEnded) -> None:
        self.drives[event.reason.value] += 1

    def _extra_point(self, event: ev.ExtraPoint) -> None:
        self.extra_points["attempts"] += 1
        self.extra_points["made"] += event.good

    def _field_goal(self, event: ev.FieldGoal) -> None:
        self.fg_attempts[event.distance] += 1
        self.fg_made[event.distance] += event.good

    def _punt(self, event: ev.Punt) -> None:
        self.punt_nets[event.net] += 1
        self.touchbacks += event.touchback

    def _final_calls(self, event: ev.FinalCallsRevealed) -> None:
        self._defense_call = event.defense_call.value

    def _play(self, event: ev.PlayResolved) -> None:
        self.plays["count"] += 1
        self.by_band[event.band] += 1
        self.band_total += event.band
        call = self._last_call = event.call.value
        self.call_plays[call] += 1
        self.call_yards[call] += event.yards
        self.call_turnovers[call] += event.result is PlayResult.INTERCEPTION
        self.defense_plays[self._defense_call] += 1
        self.defense_yards[self._defense_call] += event.yards
        if event.band == 0:
            if event.result is PlayResult.RUN:
                self.band_zero["carries"] += 1
                self.band_zero["carry_yards"] += event.yards
            else:
                self.band_zero["passes"] += 1
                self.band_zero[event.result.value] += 1
                if event.result is PlayResult.COMPLETE:
                    self.band_zero["completion_yards"] += event.yards
        if event.result is PlayResult.SACK:
            self.plays["sacks"] += 1
            # The dice total, even when the goal line cut the loss short (a safety).
            assert event.yardage_roll is not None
            self.sack_yards[event.yardage_roll.total] += 1
        elif event.result in (PlayResult.INCOMPLETE, PlayResult.INTERCEPTION):
            self.plays[event.result.value] += 1

    def _fumble(self, event: ev.Fumble) -> None:
        self.plays["fumbles"] += 1
        self.plays["fumbles_lost"] += event.lost
        if event.lost:
            self.call_turnovers[self._last_call] += 1

    def _finish(self, outcome: Outcome, first: Team) -> None:
        if outcome.winner is None:
            result = "ties"
        elif outcome.winner is first:
            result = "first_team_wins"
        else:
            result = "second_team_wins"
        self.outcomes[result] += 1
        period = overtime_period(self._last_drive)
        if period:
            self.overtime_periods[period] += 1
            self.overtime_outcomes[result] += 1
        self.points[0] += outcome.scores[first]
        self.points[1] += outcome.scores[first.other]

    def as_json(self) -> dict[str, Any]:
        """Exactly the object SPEC names, with every fixed key present even when zero; with
        overtime on, also its "overtime" object (`overtime_json`)."""
        data: dict[str, Any] = {
            "games": self.games,
            "outcomes": {
                key: self.outcomes[key] for key in ("first_team_wins", "second_team_wins", "ties")
            },
            "drives": {reason.value: self.drives[reason.value] for reason in DriveEnd},
            "extra_points": {
                "attempts": self.extra_points["attempts"],
                "made": self.extra_points["made"],
            },
            "field_goals": {
                "attempts_by_distance": {
                    str(d): self.fg_attempts[d] for d in sorted(self.fg_attempts)
                },
                "made_by_distance": {str(d): self.fg_made[d] for d in sorted(self.fg_attempts)},
            },
            "punts": {
                "net_yards": {str(net): self.punt_nets[net] for net in PUNT_NETS},
                "touchbacks": self.touchbacks,
            },
            "plays": {
                "count": self.plays["count"],
                "by_band": {str(band): self.by_band[band] for band in BANDS},
                "sacks": self.plays["sacks"],
                "sack_yards": {str(total): self.sack_yards[total] for total in SACK_TOTALS},
                "incomplete": self.plays["incomplete"],
                "interceptions": self.plays["interception"],
                "fumbles": self.plays["fumbles"],
                "fumbles_lost": self.plays["fumbles_lost"],
            },
            "points": {"first_team": self.points[0], "second_team": self.points[1]},
        }
        if self.overtime:
            data["overtime"] = self.overtime_json()
        return data

    def overtime_json(self) -> dict[str, Any]:
        """What the house rule did: ties left (only a game still tied at the cap), games that
        went to overtime (share, by pairs needed, who won them) and how long games ran."""
        went = sum(self.overtime_periods.values())
        return {
            "tie_rate": _share(self.outcomes["ties"], self.games),
            "games": went,
            "share": _share(went, self.games),
            "by_pairs": {str(n): self.overtime_periods[n] for n in sorted(self.overtime_periods)},
            "outcomes": {key: self.overtime_outcomes[key]
                         for key in ("first_team_wins", "second_team_wins", "ties")},
            "game_length": self.length_json(),
        }

    def length_json(self) -> dict[str, dict[str, float]]:
        """Drives and snaps (downs begun: plays and kicks) per game: mean, median, maximum."""
        return {"drives": spread(self.game_drives), "snaps": spread(self.game_snaps)}


def _share(part: int, whole: int) -> float:
    return round(part / whole, 6) if whole else 0.0


def spread(histogram: Counter[int]) -> dict[str, float]:
    """Mean, median and maximum of the values a histogram (value -> how many) counts."""
    count = sum(histogram.values())
    if not count:
        return {"mean": 0.0, "median": 0.0, "max": 0}
    ordered = sorted(histogram.items())
    middle = []
    for wanted in ((count - 1) // 2, count // 2):
        seen = 0
        for value, times in ordered:
            seen += times
            if seen > wanted:
                middle.append(value)
                break
    total = sum(value * times for value, times in ordered)
    return {"mean": round(total / count, 3), "median": sum(middle) / 2, "max": ordered[-1][0]}
