"""What a seat sees of its game, told from the engine's own values (`SeatView`).

The page has no rules engine and no words of its own for the game: for each change it is
told, it is sent one `view` with the events in words (the desktop game's own narrator, in the
page's language), the score and situation, the cards on the table, and the decision the seat
owes as a form (its options, each with the engine action it sends). This module makes that
view from a `GameState`, the events and the teams' `Names` alone, importing nothing of the
table protocol (msgspec, which Pyodide's core lacks): the table server's `view.Viewer` tells
it what a seat's line is sent, and the page's own game in the browser (issue 74) tells it
what its engine plays, so a page hears the same words either way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ..engine import events as ev
from ..engine.actions import (
    SNAP_ACTIONS,
    CallCoin,
    ChooseSide,
    PickFinal,
    PickSwap,
    actors,
    legal_actions,
)
from ..engine.card_model import OffCall, Player, Role
from ..engine.cards import calls_for, card_name, players_for
from ..engine.field import LAST_DOWN
from ..engine.snapshot import action_to_dict, card_to_str
from ..engine.state import (
    CoinFace,
    GameState,
    Hand,
    Phase,
    Side,
    SnapChoice,
    Swap,
    SwapKind,
    Team,
)
from ..language import ENGLISH, Language, _, active, available, english, load, match_code, p_
from ..resources import sounds_dir
from ..ui.words.cards import band_summary, player_effect_words, strengths_words
from ..ui.words.kicks import field_goal_option, punt_option
from ..ui.words.line import Line
from ..ui.words.narration import Narrator
from ..ui.words.phrases import Names, hand_words
from ..ui.words.picking import answer_cards_words
from ..ui.words.seats import waiting_words, watching_screen_words
from ..ui.words.situation import concede_words, outcome_words, situation_words

PLAYERS_PER_HAND, CALLS_PER_HAND = 2, 3


@lru_cache(maxsize=1)
def cue_files() -> frozenset[str]:
    """The cues the page can play: the desktop game's sounds/<name>.wav, by name."""
    return frozenset(path.stem for path in sounds_dir().glob("*.wav"))


@lru_cache(maxsize=8)
def language_of(tag: str) -> Language:
    """A page's language by its tag ("es", "es-MX"): English when there is no catalog for it,
    never the server's own."""
    code = match_code(tag, available())
    return english() if code is None or code == ENGLISH else load(code)


def card(item: Player | OffCall | Any) -> dict[str, str]:
    """A card as the page shows it: its engine name (what an action carries), its name in
    words and what it does (band 0's figures for an offensive call, as the seed's rules do)."""
    return card_in(item, active().code)


@lru_cache(maxsize=256)
def card_in(item: Player | OffCall | Any, code: str) -> dict[str, str]:
    """`card` in the language `code`, made once: a hand's ten cards are shown at every down,
    and their figures are most of a view's cost on the server (benchmarks/browser_seat.py)."""
    if isinstance(item, Player):
        detail = player_effect_words(item)
    elif isinstance(item, OffCall):
        detail = f"{band_summary(item, 0)} {strengths_words(item)}"
    else:
        detail = strengths_words(item)
    return {"id": card_to_str(item), "name": _(card_name(item)), "detail": detail}


def option(label: str, actions: list[Any]) -> dict[str, Any]:
    return {"label": label, "actions": [action_to_dict(action) for action in actions]}


@dataclass
class SeatView:
    """One seat's picture of its game (`names.you`'s, or a spectator's when `names.watching`),
    kept up to date by `begin` and `played`. `language`: the page's language tag; its
    caller runs every method in it (`using(language_of(language))`), as words are made."""

    language: str
    names: Names | None = None
    state: GameState | None = None
    narrator: Narrator | None = None
    step: int = 0
    held: int | None = None  # the step whose choice is held for this seat (it waits)
    turn_s: int = 0  # the table's turn limit (0: none): the page offers More time
    swap_step: int | None = None  # the step of the game's first swap: its whole prompt
    # The sounds of the change being told, in order (the desktop's cue names), and the
    # pips of each roll among them: the page plays them with its lines.
    cues: list[str] = field(default_factory=list)
    rolls: list[list[int]] = field(default_factory=list)
    # The cues the page can play, by name: the desktop game's sound files by default.
    known_cues: frozenset[str] = field(default_factory=cue_files, repr=False)

    def begin(self, names: Names, state: GameState, step: int, events: Sequence[ev.Event],
              held: int | None = None) -> list[str]:
        """A game begins, or goes on from `step` (a resume): its narrator new, and the lines
        for `events` (what a resumed seat missed)."""
        self.names, self.state, self.step, self.held = names, state, step, held
        self.narrator = Narrator(names, state.offense)
        if step == 0:  # a new game (a rematch too): its first swap is taught
            self.swap_step = None
        return self.heard(self.narrator.lines(events))

    def played(self, state: GameState, step: int, events: Sequence[ev.Event]) -> list[str]:
        """A step was played: the new state, and its events in words."""
        assert self.narrator is not None, "a step is played in a game that began"
        self.state, self.step = state, step
        return self.heard(self.narrator.lines(events))

    def fresh(self) -> None:
        """A new change is being told: no sounds yet."""
        self.cues, self.rolls = [], []

    def heard(self, lines: list[Line]) -> list[str]:
        """The narrator's lines in words, their sounds kept for the view: a roll's dice
        before its result's cue, as the desktop plays them (ui/app.py)."""
        for line in lines:
            if line.dice:
                self.sound("dice")
                self.rolls.append(list(line.dice))
            if line.cue:
                self.sound(line.cue)
        return [line.text for line in lines]

    def sound(self, cue: str) -> None:
        if cue in self.known_cues:
            self.cues.append(cue)

    def view(self, lines: list[str]) -> dict[str, Any]:
        """The page's whole picture after a message: it redraws from this alone."""
        state, names = self.state, self.names
        assert state is not None and names is not None
        return {"type": "view", "lines": lines, "step": self.step,
                "situation": situation_words(state, names),
                "decision": self.decision(state, names), "turn_s": self.turn_s,
                "cards": self.cards(state, names), "concede": concede_question(state, names),
                "waiting": self.waiting(names), "cues": self.cues, "rolls": self.rolls}

    @staticmethod
    def waiting(names: Names) -> str:
        """What this seat's page says while the other team chooses ("" for a spectator)."""
        return "" if names.watching else waiting_words(names.theirs)

    def cards(self, state: GameState, names: Names) -> dict[str, str]:
        """The hands on the table, once revealed: the player's own and the other team's."""
        hands: dict[Team, Hand | None] = {}
        if state.offense is not None:
            hands = {state.offense: state.offense_hand, state.offense.other: state.defense_hand}
        mine, theirs = hands.get(names.you), hands.get(names.you.other)
        return {"mine": hand_words(mine) if mine else "",
                "theirs": hand_words(theirs) if theirs else ""}

    def decision(self, state: GameState, names: Names) -> dict[str, Any]:
        """The decision this seat owes now, as the page's form; `wait` when it owes none."""
        team = names.you
        if names.watching:  # after the final, its result: no longer "Watching..."
            return {"kind": "watch", "over": state.outcome is not None,
                    "question": watching_screen_words(names) if state.outcome is None
                    else outcome_words(state.outcome, names)}
        if state.outcome is not None:
            return {"kind": "over", "question": outcome_words(state.outcome, names)}
        if team not in actors(state) or not legal_actions(state, team) or \
                self.held == self.step:
            return {"kind": "wait", "question": self.waiting(names)}
        phase = state.phase
        if phase is Phase.COIN_TOSS:
            return {"kind": "choice", "question": _("Coin toss: heads or tails?"),
                    "options": [option(_("Heads"), [CallCoin(CoinFace.HEADS)]),
                                option(_("Tails"), [CallCoin(CoinFace.TAILS)])]}
        if phase is Phase.SIDE_CHOICE:
            return {"kind": "choice", "question": _("Take the ball first, or defend first?"),
                    "options": [
                        option(_("Offense: take the ball first"), [ChooseSide(Side.OFFENSE)]),
                        option(_("Defense: defend first"), [ChooseSide(Side.DEFENSE)])]}
        role = Role.OFFENSE if state.offense is team else Role.DEFENSE
        down = state.down
        if phase is Phase.SNAP_CHOICE and down is not None and down.number == LAST_DOWN:
            return {"kind": "choice", "question": _("Fourth down"),
                    "options": [option(_("Go for it"), [SNAP_ACTIONS[SnapChoice.PLAY]]),
                                *self.kicks(state, names)]}
        if phase in (Phase.SNAP_CHOICE, Phase.SELECTION):
            before = [action_to_dict(SNAP_ACTIONS[SnapChoice.PLAY])] if phase is Phase.SNAP_CHOICE \
                else []
            return {"kind": "hand", "question": (
                        _("Your offense cards") if role is Role.OFFENSE
                        else _("Your defense cards")),
                    "players": [card(item) for item in players_for(role)],
                    "calls": [card(item) for item in calls_for(role)],
                    "limits": [PLAYERS_PER_HAND, CALLS_PER_HAND], "before": before,
                    "kicks": self.kicks(state, names) if before else []}
        if phase is Phase.SUBSTITUTION:
            if self.swap_step is None:
                self.swap_step = self.step
            return {"kind": "choice", "question": self.swap_question(),
                    "options": [swap_option(action) for action in legal_actions(state, team)
                                if isinstance(action, PickSwap)]}
        return {"kind": "choice", "question": _("Final call?"),
                "options": [{**option(_(card_name(action.call)), [action]),
                             "detail": card(action.call)["detail"]}
                            for action in legal_actions(state, team)
                            if isinstance(action, PickFinal)]}

    def swap_question(self) -> str:
        """The desktop game's swap prompt: whole while the game's first swap is asked (its
        key the page's Down arrow, which reaches the cards in the page's list), then short."""
        if self.swap_step == self.step:
            return answer_cards_words().format(next_item=p_("key", "Down"))
        return _("Keep or replace?")

    def kicks(self, state: GameState, names: Names) -> list[dict[str, Any]]:
        """The punt and the field goal, each labelled with what it would do."""
        found = []
        for choice, kick in ((SnapChoice.PUNT, punt_option(state, names, with_odds=True)),
                             (SnapChoice.FIELD_GOAL, field_goal_option(state, names))):
            if kick.available:
                found.append(option(kick.label, [SNAP_ACTIONS[choice]]))
        return found


def concede_question(state: GameState, names: Names) -> str:
    """The desktop game's question before a concession, while this seat may concede (it
    plays, and the game goes on); "" when it may not, and the page offers no Concede."""
    if names.watching or state.outcome is not None:
        return ""
    return concede_words(names)


def swap_option(action: PickSwap) -> dict[str, Any]:
    """A swap as the page offers it, with what the card brought in does (Keep: no detail)."""
    found = option(swap_label(action.swap), [action])
    if action.swap.into is not None:
        found["detail"] = card(action.swap.into)["detail"]
    return found


def swap_label(swap: Swap) -> str:
    if swap.kind is SwapKind.KEEP or swap.out is None or swap.into is None:
        return _("Keep")
    # Translators: a substitution in the browser page: "Replace Power Back with Scatback".
    return _("Replace {out} with {into}").format(out=_(card_name(swap.out)),
                                                 into=_(card_name(swap.into)))
