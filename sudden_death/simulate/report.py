"""The simulator's readable balance report: is it football, and do choices matter?"""

from __future__ import annotations

from typing import Any

from ..engine.card_model import DefCall, OffCall
from ..engine.cards import card_name
from ..engine.field import MAX_OVERTIME_PAIRS
from .tally import Tally


def _pct(part: float, whole: float) -> str:
    return f"{100 * part / whole:5.1f}%" if whole else "   n/a"


def _spread(name: str, numbers: dict[str, Any]) -> str:
    return (f"{name} mean {numbers['mean']:.2f}, median {numbers['median']:g},"
            f" max {numbers['max']}")


def _length_lines(tally: Tally) -> list[str]:
    """How long games run: a tie played off makes them longer, so the report says by how much."""
    length = tally.length_json()
    return [
        "Game length (per game):",
        f"  {_spread('drives', length['drives'])}",
        f"  {_spread('snaps ', length['snaps'])}  (plays and kicks)",
    ]


def _overtime_lines(tally: Tally, first: str, second: str) -> list[str]:
    """What the overtime house rule did (only when it was on)."""
    if not tally.overtime:
        return ["Overtime: off (the rules' tie stands; --overtime plays it off)"]
    data = tally.overtime_json()
    went, games = data["games"], tally.games
    pairs = data["by_pairs"]
    more = sum(n for pair, n in pairs.items() if int(pair) > 1)
    longest = max((int(pair) for pair in pairs), default=0)
    won = data["outcomes"]
    decided = won["first_team_wins"] + won["second_team_wins"]
    return [
        f"Overtime: on; {_pct(went, games)} of games went to overtime,"
        f" {_pct(more, games)} needed more than one pair; longest {longest} pairs",
        f"  ties left: {_pct(data['outcomes']['ties'], games)} of games"
        f" (only a game still tied after {MAX_OVERTIME_PAIRS} pairs)",
        f"  overtime won by the first team ({first}) {_pct(won['first_team_wins'], decided)},"
        f" the second ({second}) {_pct(won['second_team_wins'], decided)}",
    ]


def format_report(tally: Tally, first: str, second: str) -> str:
    data = tally.as_json()
    games = data["games"]
    drives = data["drives"]
    n_drives = sum(drives.values())
    outcomes = data["outcomes"]
    decided = outcomes["first_team_wins"] + outcomes["second_team_wins"]
    plays = data["plays"]
    zero = tally.band_zero
    attempts = zero["passes"] - zero["sack"]
    points = data["points"]["first_team"] + data["points"]["second_team"]
    lines = [
        f"Sudden Death balance report: {games} games, first team {first}, second team {second}",
        "",
        "Drive outcomes (share of all drives):",
        *(f"  {reason:<18} {_pct(count, n_drives)}" for reason, count in drives.items()),
        f"  turnovers          {_pct(drives['interception'] + drives['fumble_lost'], n_drives)}",
        f"Points per drive: {points / n_drives:.2f}" if n_drives else "Points per drive: n/a",
        "",
        f"Ties: {_pct(outcomes['ties'], games)} of games",
        f"First team ({first}) wins {_pct(outcomes['first_team_wins'], decided)} of decided games;"
        f" second team ({second}) {_pct(outcomes['second_team_wins'], decided)}",
        *_overtime_lines(tally, first, second),
        *_length_lines(tally),
        "",
        f"Average band: {tally.band_total / plays['count']:+.2f} over {plays['count']} plays"
        if plays["count"]
        else "Average band: n/a",
        "At band 0:",
        f"  yards per carry      {zero['carry_yards'] / zero['carries']:.2f}"
        if zero["carries"]
        else "  yards per carry      n/a",
        f"  yards per completion {zero['completion_yards'] / zero['complete']:.2f}"
        if zero["complete"]
        else "  yards per completion n/a",
        f"  completions          {_pct(zero['complete'], attempts)} of attempts",
        f"  interceptions        {_pct(zero['interception'], attempts)} of attempts",
        f"  sacks                {_pct(zero['sack'], zero['passes'])} of pass plays",
        "",
        "Offensive calls: share of plays, yards per play, turnovers per 100 plays",
    ]
    total = plays["count"] or 1
    for call in OffCall:
        n = tally.call_plays[call.value]
        per = tally.call_yards[call.value] / n if n else 0.0
        lost = 100 * tally.call_turnovers[call.value] / n if n else 0.0
        lines.append(f"  {card_name(call):<14} {_pct(n, total)}  {per:5.2f}  {lost:4.1f}")
    lines.append("Defensive calls: share of plays, yards allowed per play")
    for defense in DefCall:
        n = tally.defense_plays[defense.value]
        per = tally.defense_yards[defense.value] / n if n else 0.0
        lines.append(f"  {card_name(defense):<14} {_pct(n, total)}  {per:5.2f}")
    return "\n".join(lines)
