"""The game's voice: engine events turned into short spoken lines at the player's verbosity.

The engine emits data, never prose; this module is the one place that tells a down. Each thing is
said once: the down and spot once per down, the score once per scoring drive, the player's own
cards never read back to them at normal verbosity (they just chose them). Short keeps only what
changed; detailed adds the rolls and the reasons. Cues and dice sounds are the same at every
verbosity and belong to the line they introduce, so they are heard with its words, never before.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import singledispatchmethod

from ...audio.protocols import Category
from ...engine import events as ev
from ...engine.cards import card_name
from ...engine.field import (
    GOAL_LINE,
    LAST_DRIVE,
    OPENING_SPOT,
    TOUCHBACK_SPOT,
    Down,
    is_overtime,
    overtime_period,
)
from ...engine.game import SAFETY_POINTS
from ...engine.resolve import MAX_BAND, MIN_BAND
from ...engine.state import CoinFace, DriveEnd, Hand, Side, SnapChoice, Swap, SwapKind, Team
from ...language import _, n_
from .line import Line
from .numbers import signed
from .phrases import (
    Names,
    down_words,
    hand_words,
    score_words,
    spot_words,
)
from .plays import (
    extra_point_line,
    field_goal_line,
    fumble_lines,
    play_line,
    punt_line,
    side_cue,
    takeaway_cue,
)
from .situation import outcome_words
from .variety import Variety, choose
from .verbosity import Telling


def _next_start_why(after: DriveEnd, touchback: bool) -> str:
    """Detailed: why the new drive starts where it does, as a sentence ("" if not known)."""
    if touchback:
        # Translators: {yards} is a spot counted from the team's own goal line ("the 20").
        return _("The spot: a touchback puts the ball at the {yards}.").format(
            yards=TOUCHBACK_SPOT)
    if after in (DriveEnd.TOUCHDOWN, DriveEnd.FIELD_GOAL_MADE):
        # Translators: {yards} is a spot counted from the team's own goal line ("the 25").
        return _("The spot: after a score the next drive starts at the {yards}.").format(
            yards=OPENING_SPOT)
    if after is DriveEnd.FIELD_GOAL_MISSED:
        # Translators: {yards} is a spot counted from the team's own goal line ("the 20").
        return _("The spot: at the kicking spot, or the {yards} if that is farther "
                 "out.").format(yards=TOUCHBACK_SPOT)
    reasons = {
        DriveEnd.PUNT: _("The spot: where the punt came down."),
        DriveEnd.INTERCEPTION: _("The spot: where the pass was thrown."),
        DriveEnd.FUMBLE_LOST: _("The spot: where the ball came loose."),
        DriveEnd.DOWNS: _("The spot: where the fourth down was stopped."),
    }
    return reasons.get(after, "")


class Narrator:
    """Turns engine events into `Line`s for one game, from the player's side."""

    def __init__(self, names: Names, offense: Team | None = None,
                 variety: Variety | None = None) -> None:
        self.names = names
        self.offense = offense  # who has the ball, followed through DriveStarted events
        self.telling = Telling()
        self.previous: ev.Event | None = None  # the event before the one being told
        # Picks among the phrasings of common news; None says each the plain way (a play
        # told again, the record's play-by-play, tests that pin the words).
        self.variety = variety
        self.down_number: int | None = None  # the down being played, for a 4th-down conversion

    def lines(self, events: Sequence[ev.Event], telling: Telling | None = None) -> list[Line]:
        """The lines for one batch of events (one player action and what followed), with what
        `telling` asks for (the normal preset's by default)."""
        self.telling = telling or Telling()
        game_over = any(isinstance(event, ev.GameOver) for event in events)
        last_score = max(
            (i for i, event in enumerate(events) if isinstance(event, ev.ScoreChanged)),
            default=-1,
        )
        out: list[Line] = []
        previous: ev.Event | None = None
        for index, event in enumerate(events):
            said_with_previous = (
                # A new drive's line already gives its first down and spot.
                (isinstance(event, ev.DownStarted) and isinstance(previous, ev.DriveStarted))
                # The score is said once, after the last points; the final score says it last.
                or (isinstance(event, ev.ScoreChanged) and (index != last_score or game_over))
            )
            if not said_with_previous:
                self.previous = previous
                out.extend(self.tell(event))
            if isinstance(event, ev.DownStarted):  # told or not: the down now being played
                self.down_number = event.down.number
            elif isinstance(event, ev.DriveStarted):
                self.down_number = None
            previous = event
        return out

    @property
    def brief(self) -> bool:
        return self.telling.brief

    @property
    def explains(self) -> bool:
        return self.telling.explanations

    # -- one teller per event type: tests/test_ui_narration.py checks none is missing ----------

    @singledispatchmethod
    def tell(self, event: ev.Event) -> list[Line]:
        """The lines for one event at the current verbosity (`self.previous`: the event just
        before it). An event type with no teller of its own says nothing, which a test forbids."""
        return []

    @tell.register
    def _coin_tossed(self, event: ev.CoinTossed) -> list[Line]:
        return [Line(self._coin(event), cue="coin")]

    @tell.register
    def _side_chosen(self, event: ev.SideChosen) -> list[Line]:
        if self.names.is_mine(event.team):
            return []  # the drive's first line says who has the ball
        team = self.names.of(event.team)
        if event.side is Side.OFFENSE:
            text = _("The {team} take the ball first.").format(team=team)
        else:
            text = _("The {team} defend first.").format(team=team)
        return [Line(text, category=Category.COMPUTER)]

    @tell.register
    def _drive_started(self, event: ev.DriveStarted) -> list[Line]:
        return [self._drive_start(event)]

    @tell.register
    def _down_started(self, event: ev.DownStarted) -> list[Line]:
        converted = self.down_number == 4 and isinstance(self.previous, ev.FirstDown)
        return [self._down(event.down, event.offense, after=self.previous,
                           converted=converted)]

    @tell.register
    def _snap_chosen(self, event: ev.SnapChosen) -> list[Line]:
        return self._snap(event)

    @tell.register
    def _hands_revealed(self, event: ev.HandsRevealed) -> list[Line]:
        return [self._reveal(event)]

    @tell.register
    def _final_calls(self, event: ev.FinalCallsRevealed) -> list[Line]:
        offense, defense = _(card_name(event.offense_call)), _(card_name(event.defense_call))
        if self.explains:
            # Translators: the two calls played, the offense's first: "Final calls: Inside
            # Run against Blitz."
            text = _("Final calls: {offense} against {defense}.")
        else:
            # Translators: the two calls played, the offense's first: "Inside Run against
            # Blitz."
            text = _("{offense} against {defense}.")
        both = text.format(offense=offense, defense=defense)
        if self.brief and not self.names.watching:  # the player's own call was the last
            # thing they chose; the log keeps it
            _mine, theirs = self._mine_theirs(offense, defense)
            # Translators: the other team's final call, short: "Bears: Blitz."
            said = _("{team}: {call}.").format(team=self.names.theirs, call=theirs)
            return [Line(said, cue="reveal", category=Category.COMPUTER, logged=both)]
        return [Line(both, cue="reveal", category=Category.COMPUTER)]

    @tell.register
    def _band_set(self, event: ev.BandSet) -> list[Line]:
        return [Line(self._band(event))]

    @tell.register
    def _play_resolved(self, event: ev.PlayResolved) -> list[Line]:
        return [play_line(event, self.names, self.telling, self.variety)]

    @tell.register
    def _fumble(self, event: ev.Fumble) -> list[Line]:
        return fumble_lines(event, self.names, self.telling, self.variety)

    @tell.register
    def _first_down(self, event: ev.FirstDown) -> list[Line]:
        return []  # the next down's line says it: "First down at their 32."

    @tell.register
    def _touchdown(self, event: ev.Touchdown) -> list[Line]:
        words = choose(self.variety, self.brief, "touchdown", [
            _("Touchdown, {team}!"),
            # Translators: a touchdown, called other ways, like a radio broadcast.
            _("Into the end zone! Touchdown, {team}!"),
            _("{team} touchdown!"),
            _("Six points! Touchdown, {team}!"),
        ])
        return [Line(words.format(team=self.names.of(event.team)),
                     cue=side_cue("touchdown", event.team, self.names))]

    @tell.register
    def _extra_point(self, event: ev.ExtraPoint) -> list[Line]:
        return [extra_point_line(event, self.names, self.telling, self.variety)]

    @tell.register
    def _safety(self, event: ev.Safety) -> list[Line]:
        text = n_("Safety! {count} point to the {team}.",
                  "Safety! {count} points to the {team}.",
                  SAFETY_POINTS).format(count=SAFETY_POINTS, team=self.names.of(event.team))
        return [Line(text, cue="safety")]

    @tell.register
    def _field_goal(self, event: ev.FieldGoal) -> list[Line]:
        return [field_goal_line(event, self.names, self.telling, self.variety)]

    @tell.register
    def _punt(self, event: ev.Punt) -> list[Line]:
        return [punt_line(event, self.names, self.telling, self.variety)]

    @tell.register
    def _turnover_on_downs(self, event: ev.TurnoverOnDowns) -> list[Line]:
        text = (_("Turnover on downs.") if self.brief else
                _("Stopped on fourth down! The {team} take over.").format(
                    team=self.names.of(event.team.other)))
        return [Line(text, cue=takeaway_cue(event.team, self.names))]

    @tell.register
    def _score_changed(self, event: ev.ScoreChanged) -> list[Line]:
        n = self.names
        if self.brief:
            # Translators: the score on its own, the player's team first: "Hawks 7, Bears 3."
            text = _("{home} {home_points}, {away} {away_points}.").format(
                home=n.mine, home_points=event.scores[n.you], away=n.theirs,
                away_points=event.scores[n.you.other])
        else:
            # Translators: {score} is the score, the player's team first: "Hawks 7, Bears 3".
            text = _("Score: {score}.").format(score=score_words(event.scores, n))
        return [Line(text)]

    @tell.register
    def _drive_ended(self, event: ev.DriveEnded) -> list[Line]:
        """The reason was just heard and the next drive's line follows, so only detailed says it."""
        if not self.explains:
            return []
        return [Line(_("End of drive {drive}.").format(drive=event.drive))]

    @tell.register
    def _conceded(self, event: ev.Conceded) -> list[Line]:
        return [Line(_("The {team} concede.").format(team=self.names.of(event.team)))]

    @tell.register
    def _game_over(self, event: ev.GameOver) -> list[Line]:
        winner = event.outcome.winner
        won = self.names.watching or self.names.is_mine(winner)
        cue = "game_tied" if winner is None else ("game_won" if won else "game_lost")
        return [Line(outcome_words(event.outcome, self.names, self.variety, self.brief),
                     cue=cue, category=Category.GAME_OVER)]

    # -- the words ---------------------------------------------------------------------------

    def _coin(self, event: ev.CoinTossed) -> str:
        """ "The coin shows heads: you win the toss." ("Heads: ..." when short)."""
        heads = event.face is CoinFace.HEADS
        you = self.names.is_mine(event.winner)
        team = self.names.of(event.winner)
        if self.brief:
            if heads:
                if you:
                    return _("Heads: you win the toss.")
                return _("Heads: the {team} win the toss.").format(team=team)
            if you:
                return _("Tails: you win the toss.")
            return _("Tails: the {team} win the toss.").format(team=team)
        if heads:
            if you:
                return _("The coin shows heads: you win the toss.")
            return _("The coin shows heads: the {team} win the toss.").format(team=team)
        if you:
            return _("The coin shows tails: you win the toss.")
        return _("The coin shows tails: the {team} win the toss.").format(team=team)

    # -- drives and downs --------------------------------------------------------------------

    def _drive_start(self, event: ev.DriveStarted) -> Line:
        self.offense = event.offense
        team = self.names.of(event.offense)
        down = down_words(Down.first(event.spot), event.offense, self.names.viewer)
        if is_overtime(event.drive):
            return self._overtime_start(event, team, down)
        if self.brief:
            # Translators: a new drive: "Drive 2: Hawks ball, 1st and 10 at your own 25."
            text = _("Drive {drive}: {team} ball, {down}.").format(
                drive=event.drive, team=team, down=down)
        else:
            # Translators: a new drive: "Drive 2 of 2: Hawks ball, 1st and 10 at your own 25."
            text = _("Drive {drive} of {drives}: {team} ball, {down}.").format(
                drive=event.drive, drives=LAST_DRIVE, team=team, down=down)
        if self.explains and event.after is not None:
            why = _next_start_why(event.after, event.touchback)
            text += " " + why if why else ""
        if self.explains:
            text += " " + _to_goal(GOAL_LINE - event.spot)
        return Line(text, cue="whistle")

    def _overtime_start(self, event: ev.DriveStarted, team: str, down: str) -> Line:
        """An overtime drive; its pair's first drive says why the game goes on."""
        # Translators: an overtime drive: "Overtime, drive 3: Hawks ball, 1st and 10 at their
        # 25."
        text = _("Overtime, drive {drive}: {team} ball, {down}.").format(
            drive=event.drive, team=team, down=down)
        if (event.drive - LAST_DRIVE) % 2 == 1:  # a new pair of drives
            if overtime_period(event.drive) == 1:
                opening = _("Tied after both drives: overtime, one more drive each, from the "
                            "other team's 25.")
            else:
                opening = _("Still tied: another drive each.")
            text = f"{opening} {text}"
        if self.explains:
            text += " " + _("The spot: every overtime drive starts at the other team's 25.")
        return Line(text, cue="whistle")

    def _down(self, down: Down, offense: Team, after: ev.Event | None = None,
              converted: bool = False) -> Line:
        # Translators: the down as a sentence: "2nd and 7 at your own 31." ("2nd and 7, your own
        # 31." when short).
        text = _("{down}.").format(down=down_words(down, offense, self.names.viewer,
                                                       short=self.brief))
        if isinstance(after, ev.FirstDown) and not self.brief:  # a new set of downs: cheer it
            where = spot_words(down.line, offense, self.names.viewer)
            if down.goal_to_go:
                text = choose(self.variety, self.brief, "first_and_goal", [
                    # Translators: a new set of downs with the goal line to gain; {spot} is a
                    # spot such as "their 6".
                    _("First and goal at {spot}!"),
                    # Translators: the same, said other ways, like a radio broadcast.
                    _("Goal to go: first and goal at {spot}!"),
                    _("Knocking on the door: first and goal at {spot}!"),
                    _("Close to the end zone: first and goal at {spot}!"),
                ]).format(spot=where)
            elif converted and self.names.watching:
                # Translators: a spectator hears a first down made on fourth down; {team}
                # is the offense, {spot} a spot such as "the defense's 32".
                text = _("The {team} go for it on fourth down and make it! First down at "
                         "{spot}!").format(team=self.names.of(offense), spot=where)
            elif converted and self.names.is_mine(offense):
                # Translators: the player's first down made on fourth down, called like a
                # radio broadcast; {spot} is a spot such as "their 32".
                text = _("You go for it on fourth down and make it! First down at "
                         "{spot}!").format(spot=where)
            elif converted:
                # Translators: the other team's first down made on fourth down, called like
                # a radio broadcast; {spot} is a spot such as "your own 32".
                text = _("They go for it on fourth down and make it! First down at "
                         "{spot}!").format(spot=where)
            else:
                text = choose(self.variety, self.brief, "first_down", [
                    # Translators: a new set of downs; {spot} is a spot such as "their 32".
                    _("First down at {spot}!"),
                    # Translators: a new set of downs, said other ways; {spot} is a spot such
                    # as "their 32".
                    _("That moves the chains: first down at {spot}!"),
                    _("Another first down at {spot}!"),
                    _("A fresh set of downs: first down at {spot}!"),
                ]).format(spot=where)
        if self.explains:
            text += " " + _to_goal(GOAL_LINE - down.line)
        return Line(_capital(text), field_tone=True)

    def _snap(self, event: ev.SnapChosen) -> list[Line]:
        if event.choice is SnapChoice.PLAY or self.names.is_mine(event.team):
            return []  # a play is just the cards that follow; your own kick is its result line
        team = self.names.of(event.team)
        if event.choice is SnapChoice.PUNT:
            text = _("The {team} punt.").format(team=team)
        else:
            text = _("The {team} try a field goal.").format(team=team)
        return [Line(text, category=Category.COMPUTER)]

    # -- the cards ---------------------------------------------------------------------------

    def _mine_theirs(self, offense: object, defense: object) -> tuple[object, object]:
        return (offense, defense) if self.offense is self.names.you else (defense, offense)

    def _reveal(self, event: ev.HandsRevealed) -> Line:
        away = self.names.theirs
        mine, theirs = self._mine_theirs(event.offense, event.defense)
        assert isinstance(mine, Hand) and isinstance(theirs, Hand)
        if self.names.watching:
            return self._reveal_watched(event, mine, theirs)
        if event.step == 1:
            if self.brief:
                # Translators: the other team's cards, short: "Bears: Power Back, Scatback;
                # Inside Run, Draw Play, Deep Pass."
                text = _("{team}: {hand}.").format(team=away, hand=hand_words(theirs))
            elif self.explains:
                # Translators: {mine} and {theirs} are hands of cards: "Power Back, Scatback;
                # Inside Run, Draw Play, Deep Pass".
                text = _("Cards revealed. You: {mine}. The {team}: {theirs}.").format(
                    mine=hand_words(mine), team=away, theirs=hand_words(theirs))
            else:
                # Translators: {hand} is a hand of cards: "Power Back, Scatback; Inside Run,
                # Draw Play, Deep Pass".
                text = _("The {team} show {hand}.").format(team=away, hand=hand_words(theirs))
            return Line(text, cue="reveal", category=Category.COMPUTER)
        my_swap, their_swap = self._mine_theirs(event.offense_swap, event.defense_swap)
        # Your own swap is confirmed in a few words (a keep needs none); theirs is the news.
        # Short verbosity trusts the list the player just chose from; the log keeps it.
        mine_said = _swap_words(my_swap, "")
        theirs_said = (_swap_words(their_swap, away, short=self.brief)
                       if self.telling.computer_swaps else "")
        if self.brief:
            logged = " ".join(said for said in (mine_said, theirs_said) if said)
            said = " ".join(words for words in (_own_swap_brief(my_swap), theirs_said) if words)
            return Line(said, cue="reveal", category=Category.COMPUTER,
                        logged=logged if mine_said else "")
        hands = ""
        if self.explains:
            # Translators: {mine} and {theirs} are hands of cards: "Power Back, Scatback;
            # Inside Run, Draw Play, Deep Pass".
            hands = _("You hold {mine}. The {team} hold {theirs}.").format(
                mine=hand_words(mine), team=away, theirs=hand_words(theirs))
        text = " ".join(said for said in (mine_said, theirs_said, hands) if said)
        return Line(text, cue="reveal", category=Category.COMPUTER)

    def _reveal_watched(self, event: ev.HandsRevealed, home: Hand, away: Hand) -> Line:
        """A spectator's reveal: both teams' cards by name, the home team's first; then
        both swaps, each named."""
        names = self.names
        if event.step == 1:
            # Translators: a spectator hears both hands: "Hawks: Power Back, Scatback; Inside
            # Run, Draw Play, Deep Pass. Bears: ...".
            text = _("{home}: {home_hand}. {away}: {away_hand}.").format(
                home=names.mine, home_hand=hand_words(home), away=names.theirs,
                away_hand=hand_words(away))
            return Line(text, cue="reveal", category=Category.COMPUTER)
        home_swap, away_swap = self._mine_theirs(event.offense_swap, event.defense_swap)
        kept = [not isinstance(swap, Swap) or swap.kind is SwapKind.KEEP
                for swap in (home_swap, away_swap)]
        if all(kept):
            return Line(_("Both teams keep their cards."), cue="reveal",
                        category=Category.COMPUTER)
        said = [_swap_words(home_swap, names.mine, short=self.brief),
                _swap_words(away_swap, names.theirs, short=self.brief)]
        return Line(" ".join(words for words in said if words), cue="reveal",
                    category=Category.COMPUTER)

    def _band(self, event: ev.BandSet) -> str:
        plain = event.offense_player is None and event.defense_player is None
        band = signed(event.band)
        if self.brief or (plain and event.raw == event.band and not self.explains):
            # Translators: the band of the play (how the dice lean): "Band plus 2."
            return _("Band {band}.").format(band=band)  # no players: the band is the matchup
        # Translators: part of the band's sum: "matchup plus 1" (how the two calls meet).
        parts = [_("matchup {value}").format(value=signed(event.matchup))]
        if event.offense_player is not None:
            # Translators: part of the band's sum: a featured player adds 1.
            parts.append(_("{card} plus 1").format(card=_(card_name(event.offense_player))))
        if event.defense_player is not None:
            # Translators: part of the band's sum: a featured player takes 1 away.
            parts.append(_("{card} minus 1").format(card=_(card_name(event.defense_player))))
        if event.raw != event.band:
            # Translators: how the band was made; {parts} is a list such as "matchup plus 2,
            # Power Back plus 1, Nose Tackle minus 1", and the sum is capped at {band}.
            words = _("Band {band}: {parts}, capped at {band}.")
        else:
            # Translators: how the band was made; {parts} is a list such as "matchup plus 2,
            # Power Back plus 1, Nose Tackle minus 1".
            words = _("Band {band}: {parts}.")
        words = words.format(band=band, parts=", ".join(parts))
        if self.explains:
            low, high = signed(MIN_BAND), signed(MAX_BAND)
            if event.band > 0:
                lean = _("Bands run from {low} to {high}; this one favours the offense.")
            elif event.band < 0:
                lean = _("Bands run from {low} to {high}; this one favours the defense.")
            else:
                lean = _("Bands run from {low} to {high}; this one is even.")
            words += " " + lean.format(low=low, high=high)
        return words

    # -- the play ----------------------------------------------------------------------------



def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _to_goal(yards: int) -> str:
    """Detailed: "25 yards to the goal line." """
    return n_("{count} yard to the goal line.", "{count} yards to the goal line.",
              yards).format(count=yards)


def _own_swap_brief(swap: object) -> str:
    """Short verbosity: the card the player brought in, by name ("Slot Receiver in."), before
    the other team's answer ("" for a keep). By name, not a bare "In." (issue 71): the focus
    echo a moment before is not a confirmation, and a player who pressed on through it heard
    nothing that said which card went in. The list's title stays the one word "In:"."""
    if not isinstance(swap, Swap) or swap.kind is SwapKind.KEEP or swap.into is None:
        return ""
    # Translators: short verbosity: the player's own swap went in; {card} is the card brought
    # in ("Blitz in.").
    return _("{card} in.").format(card=_(card_name(swap.into)))


def _swap_words(swap: object, who: str, short: bool = False) -> str:
    """ "The Bears bring in Nose Tackle for Edge Setter." / "You keep your cards." ("" for your
    own keep: nothing changed, so nothing is said)."""
    kept = not isinstance(swap, Swap) or swap.kind is SwapKind.KEEP
    if not who:  # the player's own swap
        if kept:
            return ""
        assert isinstance(swap, Swap) and swap.out is not None and swap.into is not None
        into, out = _(card_name(swap.into)), _(card_name(swap.out))
        # Translators: a swap of cards: {into} comes into the hand, {out} goes out.
        return _("You bring in {into} for {out}.").format(into=into, out=out)
    if kept:
        if short:
            return _("{team} keep.").format(team=who)
        return _("The {team} keep their cards.").format(team=who)
    assert isinstance(swap, Swap) and swap.out is not None and swap.into is not None
    into, out = _(card_name(swap.into)), _(card_name(swap.out))
    if short:
        # Translators: a swap of cards, short: "Bears: Nose Tackle for Edge Setter" ({into}
        # comes into the hand, {out} goes out).
        return _("{team}: {into} for {out}.").format(team=who, into=into, out=out)
    # Translators: a swap of cards: {into} comes into the hand, {out} goes out.
    return _("The {team} bring in {into} for {out}.").format(team=who, into=into, out=out)
