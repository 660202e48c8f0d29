"""All game wording: engine events, spots, downs and card details as short spoken sentences.

The engine emits data, never prose; this module is the one place that turns it into English,
always from the human player's point of view ("your own 25", "their 30").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..audio.protocols import Priority
from ..engine import events as ev
from ..engine.card_model import DefCall, OffCall, Player, Role
from ..engine.cards import card_name
from ..engine.field import Down, field_goal_needs
from ..engine.state import DriveEnd, GameEnd, GameState, Hand, Outcome, SwapKind, Team
from . import explorer_words
from .explorer_words import signed

HUMAN = Team.HOME


@dataclass(frozen=True)
class Line:
    """One spoken line with its cue (played just before it) and how urgent it is."""

    text: str
    cue: str | None = None
    priority: Priority = Priority.ALERT
    category: str = "result"
    dice: tuple[int, ...] = ()  # when set, the dice cue is played for these dice


@dataclass(frozen=True)
class Names:
    """The two team names: the player's first."""

    home: str
    away: str

    def of(self, team: Team) -> str:
        return self.home if team is Team.HOME else self.away


# -- numbers, spots, downs ---------------------------------------------------------------------


def ordinal(number: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(number, f"{number}th")


def spot_words(spot: int, offense: Team) -> str:
    """A spot (yards from the offense's goal line) as the player hears it."""
    if spot == 50:
        return "midfield"
    mine = offense is HUMAN
    if spot < 50:
        return f"your own {spot}" if mine else f"their own {spot}"
    return f"their {100 - spot}" if mine else f"your {100 - spot}"


def down_words(down: Down, offense: Team) -> str:
    """ "2nd and 7 at your own 31", "1st and goal at their 6"."""
    distance = "goal" if down.goal_to_go else str(down.distance)
    return f"{ordinal(down.number)} and {distance} at {spot_words(down.line, offense)}"


def yards_words(yards: int) -> str:
    if yards > 0:
        return f"a gain of {yards} {'yard' if yards == 1 else 'yards'}"
    if yards < 0:
        return f"a loss of {-yards} {'yard' if yards == -1 else 'yards'}"
    return "no gain"


def dice_words(dice: Sequence[int]) -> str:
    if len(dice) == 1:
        return str(dice[0])
    return f"{', '.join(str(d) for d in dice)}, total {sum(dice)}"


def score_words(scores: tuple[int, int], names: Names) -> str:
    return f"{names.home} {scores[0]}, {names.away} {scores[1]}"


def hand_words(hand: Hand) -> str:
    players = " and ".join(card_name(p) for p in hand.players)
    calls = ", ".join(card_name(c) for c in hand.calls)
    return f"{players}; {calls}"


def kick_option_words(distance: int) -> tuple[bool, str]:
    """Whether a field goal can be tried, and the words for it (distance and roll, or why not)."""
    needed = field_goal_needs(distance)
    if needed is None:
        return False, (
            f"Field goal unavailable: it would be {distance} yards, past the 65 yard limit"
        )
    return True, f"Field goal, {distance} yards, needs {needed} or more on 3 dice"


def situation_words(state: GameState, names: Names) -> str:
    """What S says: the score, the drive, who has the ball and the down."""
    words = f"Score: {score_words(state.scores, names)}."
    if state.outcome is not None:
        return words + " The game is over."
    if state.offense is None:
        return words + " The game has not kicked off yet."
    role = "on offense" if state.offense is HUMAN else "on defense"
    words += f" Drive {state.drive} of 2, you are {role}."
    if state.down is not None:
        words += f" {names.of(state.offense)} ball, {down_words(state.down, state.offense)}."
    return words


def outcome_words(outcome: Outcome, names: Names) -> str:
    """The game-over message; it always begins with "Final score"."""
    words = f"Final score: {score_words(outcome.scores, names)}."
    if outcome.end is GameEnd.CONCEDED:
        loser = outcome.winner.other if outcome.winner is not None else HUMAN
        words += f" {names.of(loser)} conceded."
    elif outcome.end is GameEnd.SAFETY:
        words += " The game ended on a safety."
    if outcome.winner is None:
        return words + " It's a tie."
    if outcome.winner is HUMAN:
        return words + f" You win! The {names.home} take it."
    return words + f" The {names.away} win."


# -- events ------------------------------------------------------------------------------------

_DRIVE_END = {
    DriveEnd.TOUCHDOWN: "touchdown",
    DriveEnd.FIELD_GOAL_MADE: "field goal",
    DriveEnd.FIELD_GOAL_MISSED: "missed field goal",
    DriveEnd.PUNT: "punt",
    DriveEnd.INTERCEPTION: "interception",
    DriveEnd.FUMBLE_LOST: "lost fumble",
    DriveEnd.DOWNS: "turnover on downs",
    DriveEnd.SAFETY: "safety",
}

_NEXT_START_WHY = {
    DriveEnd.TOUCHDOWN: "after a score the next drive starts at the 25",
    DriveEnd.FIELD_GOAL_MADE: "after a score the next drive starts at the 25",
    DriveEnd.FIELD_GOAL_MISSED: "at the kicking spot, or the 20 if that is farther out",
    DriveEnd.PUNT: "where the punt came down",
    DriveEnd.INTERCEPTION: "where the pass was thrown",
    DriveEnd.FUMBLE_LOST: "where the ball came loose",
    DriveEnd.DOWNS: "where the fourth down was stopped",
}


class Narrator:
    """Turns engine events into `Line`s for one game, from the player's side."""

    def __init__(self, names: Names, offense: Team | None = None) -> None:
        self.names = names
        self.offense = offense  # who has the ball, followed through DriveStarted events

    def lines(self, events: Sequence[ev.Event]) -> list[Line]:
        out: list[Line] = []
        for event in events:
            out.extend(self.line(event))
        return out

    def line(self, event: ev.Event) -> list[Line]:
        n = self.names
        if isinstance(event, ev.CoinTossed):
            who = "You win the toss." if event.winner is HUMAN else f"The {n.away} win the toss."
            return [Line(f"You called {event.call.value}. The coin shows {event.face.value}. "
                         f"{who}", cue="coin")]
        if isinstance(event, ev.SideChosen):
            first = "take the ball first" if event.side.value == "offense" else "defend first"
            if event.team is HUMAN:
                return [Line(f"You chose to {first}.")]
            return [Line(f"The {n.away} chose to {first}.", category="computer")]
        if isinstance(event, ev.DriveStarted):
            self.offense = event.offense
            if event.drive == 1:
                return [Line(f"Drive 1 of 2: the {n.of(event.offense)} have the ball.",
                             cue="whistle")]
            return [Line(f"Drive 2 of 2: the {n.of(event.offense)} have the ball.",
                         cue="whistle")]
        if isinstance(event, ev.DownStarted):
            return [Line(f"{n.of(event.offense)} ball, "
                         f"{down_words(event.down, event.offense)}.")]
        if isinstance(event, ev.SnapChosen):
            if event.choice.value == "play":
                return []
            kick = "punt" if event.choice.value == "punt" else "try a field goal"
            if event.team is HUMAN:
                return [Line(f"You {kick}.")]
            return [Line(f"The {n.away} {kick}.", category="computer")]
        if isinstance(event, ev.HandsRevealed):
            return [self._reveal(event)]
        if isinstance(event, ev.FinalCallsRevealed):
            return [Line(f"Final calls: {card_name(event.offense_call)} against "
                         f"{card_name(event.defense_call)}.", cue="reveal")]
        if isinstance(event, ev.BandSet):
            return [Line(self._band(event))]
        if isinstance(event, ev.PlayResolved):
            return self._play(event)
        if isinstance(event, ev.Fumble):
            rec = dice_words(event.recovery_roll.dice)
            if event.lost:
                return [Line(f"Fumble! Recovery die {rec}: the defense has it.", cue="fumble",
                             dice=event.recovery_roll.dice)]
            return [Line(f"Fumble! Recovery die {rec}: the {n.of(event.offense)} fall on it.",
                         cue="fumble", dice=event.recovery_roll.dice)]
        if isinstance(event, ev.FirstDown):
            return [Line("First down!")]
        if isinstance(event, ev.Touchdown):
            return [Line(f"Touchdown, {n.of(event.team)}!", cue="touchdown")]
        if isinstance(event, ev.ExtraPoint):
            verdict = "good" if event.good else "no good"
            return [Line(f"Extra point: dice {dice_words(event.roll.dice)}, needs "
                         f"{event.needed}: {verdict}.", dice=event.roll.dice,
                         cue="field_goal_good" if event.good else "field_goal_no_good")]
        if isinstance(event, ev.Safety):
            return [Line(f"Safety! Tackled in the end zone: 2 points to the "
                         f"{n.of(event.team)}, and the game ends at once.", cue="safety")]
        if isinstance(event, ev.FieldGoal):
            verdict = "it's good!" if event.good else "no good."
            return [Line(f"Field goal from {event.distance} yards: dice "
                         f"{dice_words(event.roll.dice)}, needs {event.needed}: {verdict}",
                         dice=event.roll.dice,
                         cue="field_goal_good" if event.good else "field_goal_no_good")]
        if isinstance(event, ev.Punt):
            tail = " Into the end zone: touchback." if event.touchback else ""
            return [Line(f"Punt: dice {dice_words(event.roll.dice)}, {event.net} net yards."
                         f"{tail}", cue="punt", dice=event.roll.dice)]
        if isinstance(event, ev.TurnoverOnDowns):
            return [Line(f"Stopped short on fourth down: the {n.of(event.team)} turn it over "
                         f"on downs.")]
        if isinstance(event, ev.ScoreChanged):
            return [Line(f"{n.of(event.team)} score {event.points}. "
                         f"Score: {score_words(event.scores, n)}.")]
        if isinstance(event, ev.DriveEnded):
            return [self._drive_end(event)]
        if isinstance(event, ev.Conceded):
            return [Line(f"The {n.of(event.team)} concede.")]
        if isinstance(event, ev.GameOver):
            return [Line(outcome_words(event.outcome, n), cue="whistle", category="game_over")]
        return []

    def _reveal(self, event: ev.HandsRevealed) -> Line:
        n = self.names
        human_offense = self._human_is(event, Role.OFFENSE)
        mine, theirs = (
            (event.offense, event.defense) if human_offense else (event.defense, event.offense)
        )
        if event.step == 1:
            text = (f"Cards revealed. You: {hand_words(mine)}. "
                    f"The {n.away}: {hand_words(theirs)}.")
            return Line(text, cue="reveal")
        my_swap, their_swap = (
            (event.offense_swap, event.defense_swap)
            if human_offense
            else (event.defense_swap, event.offense_swap)
        )
        text = (f"Second reveal. {self._swap_words(my_swap, 'You', 'kept')} "
                f"{self._swap_words(their_swap, f'The {n.away}', 'kept')} "
                f"You now hold {hand_words(mine)}. The {n.away} hold {hand_words(theirs)}.")
        return Line(text, cue="reveal")

    def _human_is(self, event: ev.HandsRevealed, role: Role) -> bool:
        """Whether the player holds `role`'s hand: the offense is tracked from DriveStarted."""
        human_offense = self.offense is HUMAN
        return human_offense if role is Role.OFFENSE else not human_offense

    @staticmethod
    def _swap_words(swap: object, who: str, kept: str) -> str:
        from ..engine.state import Swap

        if not isinstance(swap, Swap) or swap.kind is SwapKind.KEEP:
            return f"{who} {kept} all cards."
        assert swap.out is not None and swap.into is not None
        return f"{who} replaced {card_name(swap.out)} with {card_name(swap.into)}."

    def _band(self, event: ev.BandSet) -> str:
        parts = [f"matchup {signed(event.matchup)}"]
        if event.offense_player is not None:
            parts.append(f"{card_name(event.offense_player)} adds 1")
        if event.defense_player is not None:
            parts.append(f"{card_name(event.defense_player)} takes 1 away")
        words = f"Band {signed(event.band)}: " + ", ".join(parts)
        if event.raw != event.band:
            words += f", capped at {signed(event.band)}"
        return words + "."

    def _play(self, event: ev.PlayResolved) -> list[Line]:
        name = card_name(event.call)
        outcome = event.outcome_roll.total if event.outcome_roll else None
        yardage = event.yardage_roll
        dice: tuple[int, ...] = ()
        for roll in (event.outcome_roll, event.yardage_roll):
            if roll is not None:
                dice += roll.dice
        if event.result == "run":
            assert yardage is not None
            text = f"{name}: yardage roll {yardage.total}, {yards_words(event.yards)}."
            cue = None
        elif event.result == "complete":
            assert yardage is not None
            text = (f"{name}: pass roll {outcome}, complete. Yardage roll {yardage.total}, "
                    f"{yards_words(event.yards)}.")
            cue = None
        elif event.result == "incomplete":
            text = f"{name}: pass roll {outcome}, incomplete. No gain."
            cue = None
        elif event.result == "interception":
            text = (f"{name}: pass roll {outcome}, intercepted! The defense takes over where "
                    f"the ball was snapped.")
            cue = "interception"
        else:
            assert yardage is not None
            text = (f"{name}: pass roll {outcome}, sacked! Sack dice "
                    f"{dice_words(yardage.dice)}, {yards_words(event.yards)}.")
            cue = "sack"
        lines = [Line(text, dice=dice)]
        if cue is not None:
            lines.insert(0, Line("", cue=cue))
        return lines

    def _drive_end(self, event: ev.DriveEnded) -> Line:
        n = self.names
        words = f"End of drive {event.drive}: {_DRIVE_END[event.reason]}."
        if event.next_spot is None:
            return Line(words, category="result")
        other = event.offense.other
        why = _NEXT_START_WHY.get(event.reason, "")
        if event.reason is DriveEnd.PUNT and event.touchback:
            why = "a touchback puts the ball at the 20"
        start = spot_words(event.next_spot, other)
        return Line(f"{words} The {n.of(other)} start drive 2 at {start}: {why}.")


# -- card details (D) --------------------------------------------------------------------------


def card_details(card: OffCall | DefCall | Player) -> str:
    """Band 0 statistics and matchups of a card: the explorer's own words, so they always agree."""
    return explorer_words.card_details(card)


def card_label(card: OffCall | DefCall | Player) -> tuple[str, str]:
    """A card's name and kind ("player" or "call") for menus."""
    return card_name(card), ("player" if isinstance(card, Player) else "call")
