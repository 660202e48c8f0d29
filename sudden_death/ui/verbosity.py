"""Verbosity: how much the game says after each step, layered over the normal narration.

Short keeps only what changed (the other side's cards, the yards, the new down); normal is the
narration as written; detailed adds the reasoning a learner wants (what a band means, how far
to the goal and what a kick would take). Cues and dice sounds are never dropped.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from ..engine import events as ev
from ..engine.cards import card_name
from ..engine.field import field_goal_distance, field_goal_needs
from ..engine.state import Hand, Swap, SwapKind
from .narration import HUMAN, Line, Narrator, ordinal, spot_words, yards_words

SHORT, NORMAL, DETAILED = "short", "normal", "detailed"

VERBOSITY_WORDS = {
    SHORT: "short: only what changed",
    NORMAL: "normal",
    DETAILED: "detailed: with the reasons and the field",
}


def narrate(narrator: Narrator, events: Sequence[ev.Event], verbosity: str) -> list[Line]:
    """The lines for `events` at `verbosity` (the narrator still tracks the game as usual)."""
    out: list[Line] = []
    for event in events:
        lines = narrator.line(event)
        if verbosity == SHORT:
            lines = _short(narrator, event, lines)
        elif verbosity == DETAILED:
            lines = lines + _detail(narrator, event)
        out.extend(lines)
    return out


def _retext(lines: list[Line], text: str) -> list[Line]:
    """Keep every cue and dice sound; put `text` on the last spoken line, drop other words."""
    spoken = [i for i, line in enumerate(lines) if line.text]
    if not spoken:
        return lines
    out: list[Line] = []
    for i, line in enumerate(lines):
        if i == spoken[-1]:
            out.append(replace(line, text=text))
        elif line.cue or line.dice:
            out.append(replace(line, text=""))
        elif not line.text:
            out.append(line)
    return out


def _hand(hand: Hand) -> str:
    return ", ".join(card_name(card) for card in (*hand.players, *hand.calls))


def _swap(swap: Swap | None) -> str:
    if swap is None or swap.kind is SwapKind.KEEP or swap.out is None or swap.into is None:
        return "kept"
    return f"{card_name(swap.out)} out, {card_name(swap.into)} in"


def _short(narrator: Narrator, event: ev.Event, lines: list[Line]) -> list[Line]:
    away = narrator.names.away
    if isinstance(event, ev.HandsRevealed):
        human_offense = narrator.offense is HUMAN
        theirs = event.defense if human_offense else event.offense
        if event.step == 1:
            return _retext(lines, f"{away}: {_hand(theirs)}.")
        mine_swap, their_swap = ((event.offense_swap, event.defense_swap) if human_offense
                                 else (event.defense_swap, event.offense_swap))
        return _retext(lines, f"You {_swap(mine_swap)}; {away} {_swap(their_swap)}.")
    if isinstance(event, ev.FinalCallsRevealed):
        return _retext(lines, f"{card_name(event.offense_call)} against "
                              f"{card_name(event.defense_call)}.")
    if isinstance(event, ev.BandSet):
        return _retext(lines, f"Band {event.band:+d}." if event.band else "Band 0.")
    if isinstance(event, ev.PlayResolved):
        words = {
            "incomplete": "Incomplete.",
            "interception": "Intercepted!",
            "sack": f"Sacked, {yards_words(event.yards)}.",
        }.get(event.result, f"{yards_words(event.yards).capitalize()}.")
        return _retext(lines, words)
    if isinstance(event, ev.DownStarted):
        distance = "goal" if event.down.goal_to_go else str(event.down.distance)
        return _retext(lines, f"{ordinal(event.down.number)} and {distance}, "
                              f"{spot_words(event.down.line, event.offense)}.")
    if isinstance(event, ev.FieldGoal):
        return _retext(lines, "Field goal good." if event.good else "Field goal no good.")
    if isinstance(event, ev.ExtraPoint):
        return _retext(lines, "Extra point good." if event.good else "Extra point no good.")
    if isinstance(event, ev.Punt):
        return _retext(lines, "Punt, touchback." if event.touchback
                       else f"Punt, {event.net} yards.")
    return lines


def _detail(narrator: Narrator, event: ev.Event) -> list[Line]:
    if isinstance(event, ev.BandSet):
        if event.band > 0:
            lean = "favours the offense: better yardage, fewer mistakes"
        elif event.band < 0:
            lean = "favours the defense: shorter gains, more turnovers"
        else:
            lean = "is even: ordinary football"
        return [Line(f"The band runs from minus 3 to plus 3; this one {lean}.")]
    if isinstance(event, ev.DownStarted):
        to_goal = 100 - event.down.line
        words = f"{to_goal} yards to the goal line."
        if event.offense is HUMAN:
            distance = field_goal_distance(event.down.line)
            needs = field_goal_needs(distance)
            words += (f" A field goal would be {distance} yards, needing {needs} on 3 dice."
                      if needs is not None else
                      f" A field goal would be {distance} yards: too far to try.")
        return [Line(words)]
    if (isinstance(event, ev.PlayResolved) and event.result in ("run", "complete", "sack")
            and 0 < event.spot < 100):
        return [Line(f"The ball is now at {spot_words(event.spot, event.offense)}.")]
    return []
