"""What a browser seat sees, told from what its line is sent (`Viewer`).

The page has no rules engine and no words of its own for the game: for each message the
server sends its line, the viewer adds one `view` message with the events in words (the
desktop game's own narrator, in the page's language), the score and situation, the cards on
the table, and the decision the seat owes as a form (its options, each with the engine
action it sends). It reads only the frames that line is sent, so it can never tell the page
more than the seat may know (docs/protocol.md, "What a seat may know").
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

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
from ..language import (
    ENGLISH,
    Language,
    _,
    active,
    available,
    english,
    load,
    match_code,
    p_,
    using,
)
from ..resources import sounds_dir
from ..ui.words.cards import band_summary, player_effect_words, strengths_words
from ..ui.words.kicks import field_goal_option, punt_option
from ..ui.words.line import Line
from ..ui.words.narration import Narrator
from ..ui.words.online import (
    game_played_words,
    here_words,
    open_table_words,
    signed_in_words,
    standing_words,
)
from ..ui.words.phrases import Names, hand_words
from ..ui.words.picking import answer_cards_words
from ..ui.words.situation import concede_words, outcome_words, situation_words
from ..ui.words.table import (
    away_words,
    back_words,
    busy_words,
    chosen_words,
    left_words,
    paired_words,
    refusal_words,
    rematch_asked_words,
    said_words,
    stand_in_words,
    steady_words,
    table_code_words,
    time_added_words,
    time_up_words,
    time_warning_words,
    timeout_words,
    turn_limit_words,
    waiting_words,
    watching_screen_words,
)
from ..wire import protocol as p
from ..wire.values import events_from_wire, state_from_wire

PLAYERS_PER_HAND, CALLS_PER_HAND = 2, 3
HOST_SEAT = Team.AWAY  # the seat a table's host takes (docs/protocol.md, "Seats")


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
class Viewer:
    """One browser line's view of its table. `language`: the page's language code."""

    language: str
    team: Team | None = None
    names: Names | None = None
    state: GameState | None = None
    narrator: Narrator | None = None
    step: int = 0
    held: int | None = None  # the step whose choice the server holds for this seat
    turn_s: int = 0  # the table's turn limit (0: none): the page offers More time
    # The seat the host's own computer plays (`Host.computer`), set by the server as it seats
    # this line (server/roles/seats.py): it chooses at once, so "has chosen" is never said for it,
    # as the desktop game never says it against the computer. None: a friend's seat.
    computer: Team | None = None
    chosen: int | None = None  # the step whose "has chosen" was said: at most once a step
    swap_step: int | None = None  # the step of the game's first swap: its whole prompt
    # The sounds of the message being told, in order (the desktop's cue names), and the
    # pips of each roll among them: the page plays them with its lines.
    cues: list[str] = field(default_factory=list)
    rolls: list[list[int]] = field(default_factory=list)

    def seen(self, frame: str) -> str | None:
        """The `view` frame to send after `frame` (None when it changes nothing shown)."""
        try:
            message = p.decode_server(frame)
        except p.ProtocolError:
            return None
        with using(language_of(self.language)):
            if isinstance(message, p.LobbyList):
                return json.dumps(self.lobby(message), ensure_ascii=False)
            self.cues, self.rolls = [], []
            lines = self.told(message)
            if lines is None:
                return None
            if self.state is None:  # before a game: a table's code, a refusal, a name
                told: dict[str, Any] = {"type": "told", "lines": lines}
                if self.cues:  # a refusal's, a chat line's
                    told["cues"] = self.cues
                if isinstance(message, p.Seated):  # a page playing the computer says none
                    told["code"] = message.code
                elif isinstance(message, p.Said):  # the lobby's chat: kept in its own list
                    told["chat"] = True
                return json.dumps(told, ensure_ascii=False)
            return json.dumps(self.view(lines), ensure_ascii=False)

    def told(self, message: p.ServerMessage) -> list[str] | None:
        """The lines a message adds to the log (None: the page needs no new view)."""
        names = self.names
        if isinstance(message, p.Seated):
            self.team = Team(message.seat)
            if self.team is HOST_SEAT and self.state is None:  # the code to give a friend
                return [table_code_words(message.code, None), _("Waiting for a player.")]
            return None
        if isinstance(message, p.Start):  # a seat's game, or a spectator's (no seat)
            first = self.names is None
            self.names = names = Names(message.names[0], message.names[1],
                                       you=self.team or Team.HOME, watching=self.team is None)
            self.state = state_from_wire(message.state)
            self.narrator = Narrator(names, self.state.offense)
            self.step = message.step
            self.held = message.step if message.held else None
            self.chosen = None  # a resumed line has heard no "has chosen" yet
            if message.step == 0:  # a new game (a rematch too): its first swap is taught
                self.swap_step = None
            told = self.heard(self.narrator.lines(events_from_wire(message.events)))
            self.turn_s = message.turn_s
            if first and self.team is None:
                told.insert(0, watching_screen_words(names))
            elif first and message.step == 0 and len(message.players) == 2:  # not on a resume
                told.insert(0, paired_words(names.mine, names.theirs,
                                            message.players[names.you.other]))
            if first and message.step == 0 and self.turn_s and self.team is not None:
                told.insert(1, keyed(turn_limit_words(self.turn_s)))
            return told
        if isinstance(message, p.SignedIn):
            return [signed_in_words(message.name)]
        if isinstance(message, p.Standing):  # Your rating, asked in the lobby
            return standing_words(message)
        if isinstance(message, p.Update) and self.narrator is not None:
            self.state, self.step = state_from_wire(message.state), message.step
            return self.heard(self.narrator.lines(events_from_wire(message.events)))
        if isinstance(message, p.Refused) and names is None:
            self.sound("menu_error")
            return [refusal_words(message.code, message.text)]
        if isinstance(message, p.Said):  # the lobby's chat, the other seat's or a spectator's
            self.sound("chat")
            return [said_words(message.name, message.text)]
        if names is None:
            return None
        if isinstance(message, p.Committed):
            return self.committed(message, names)
        return self.table_news(message, names)

    def committed(self, message: p.Committed, names: Names) -> list[str] | None:
        """A seat's choice is in: this seat's own (it now waits), or the other's, said once a
        step and only of a friend (the desktop game's rule: a spectator hears the reveal, and
        the computer has always chosen)."""
        if message.seat == self.team:
            self.held = message.step
            return []
        if self.team is None or message.seat == self.computer or self.chosen == message.step:
            return None
        self.chosen = message.step
        return [chosen_words(names.theirs)]

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
        if cue in cue_files():
            self.cues.append(cue)

    def lobby(self, lobby: p.LobbyList) -> dict[str, Any]:
        """The lobby as the page lists it: the tables to join and the games to watch, each
        with the desktop game's words for it, and who is here."""
        return {"type": "lobby_view",
                "summary": _("Lobby: {tables} open, {games} playing.").format(
                    tables=lobby.open, games=lobby.playing),
                "tables": [{"code": table.code, "label": open_table_words(table)}
                           for table in lobby.tables],
                "games": [{"code": game.code, "label": game_played_words(game)}
                          for game in lobby.games],
                "here": here_words(lobby.here, "")}

    def table_news(self, message: p.ServerMessage, names: Names) -> list[str] | None:
        """What the desktop game says for the table's other news, in the same words."""
        if isinstance(message, p.Refused):
            self.sound("menu_error")
            return [refusal_words(message.code, message.text)]
        if isinstance(message, p.Left):
            return [timeout_words(message.name) if message.reason == "timeout"
                    else left_words(message.name)]
        if isinstance(message, p.Away):
            return [away_words(message.name)]
        if isinstance(message, p.Back):
            return [back_words(message.name)]
        if isinstance(message, p.StandIn):
            return [stand_in_words(message.name, message.reason)]
        if isinstance(message, p.RematchAsked):
            self.sound("chat")
            return [rematch_asked_words(message.name)]
        if isinstance(message, p.TimeWarning):
            self.sound("waiting")
            return [keyed(time_warning_words(message.seconds, message.extensions))]
        if isinstance(message, p.TimeAdded):
            return [time_added_words(message.seconds, message.extensions)]
        if isinstance(message, p.TimeUp):
            self.sound("menu_error")
            return [time_up_words(message.name, message.name == names.mine)]
        if isinstance(message, p.Busy):
            return [busy_words()]
        if isinstance(message, p.Steady):
            return [steady_words()]
        return None

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


def keyed(words: str) -> str:
    """The desktop game's words with its key for more time as the page's button."""
    return words.replace("{more_time}", _("More time"))


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
