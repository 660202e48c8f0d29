"""What each down must still say, at every verbosity, when a player plays by ear alone.

Whole games are played in this process by tests/ear_player.py (it chooses keys from the spoken
lines only) while the engine's events are recorded per down. For every down the spoken lines must
carry: the computer's revealed cards and its swap, both final calls, the band, the result (with
the yards the ball really moved), the new down and spot or the new drive, any score, any kick,
fumble and the final score. And no game line is said twice within one down.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from ear_player import CAREFUL, EXPERT, Downs, EarPlayer
from recording import RecordingCues, RecordingSpeaker

from sudden_death.audio.protocols import Message
from sudden_death.engine import events as ev
from sudden_death.engine.cards import card_name
from sudden_death.engine.state import SwapKind, Team
from sudden_death.storage.settings import Settings, save_settings
from sudden_death.ui.run import loop as loop_module
from sudden_death.ui.run.cli import Options
from sudden_death.ui.run.key_script import KeySource, Step, parse_step
from sudden_death.ui.words.numbers import signed
from sudden_death.ui.words.phrases import Names, spot_words

YOU = Team.HOME  # the player's team in a game against the computer

VERBOSITIES = ("short", "normal", "detailed")
GAME_LINES = frozenset({"result", "computer", "decision", "game_over"})
NAMES = Names("Hawks", "Bears")


@dataclass
class EarGame:
    """One game played by ear: its downs, the events of each down, every message and cue."""

    downs: Downs = field(default_factory=Downs)
    events: dict[int, list[ev.Event]] = field(default_factory=dict)
    messages: list[Message] = field(default_factory=list)
    per_down_messages: dict[int, list[Message]] = field(default_factory=dict)
    stream: list[str] = field(default_factory=list)  # "say:<text>" and "cue:<name>" in order
    first_offense: Team | None = None


class EarSource(KeySource):
    """Keys from the ear player, chosen each time the game has gone quiet."""

    def __init__(self, player: EarPlayer, game: EarGame) -> None:
        super().__init__([], live=False)
        self.player, self.game = player, game
        self.heard: list[str] = []

    def next(self, timeout: float | None) -> Step | bool | None:
        key = self.player.next_key(self.heard)
        self.heard = []
        if key is None:
            return None
        self.game.downs.press(key, self.player.ends_down)
        return parse_step(key)

    def empty(self) -> bool:
        return False


def play_by_ear(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, seed: int, verbosity: str,
                style: str = CAREFUL) -> EarGame:
    game = EarGame()
    player = EarPlayer(style, seed)
    source = EarSource(player, game)
    downs = game.downs

    def heard(message: Message) -> None:
        game.messages.append(message)
        game.stream.append(f"say:{message.text}")
        if message.category in ("history", "repeat"):
            return
        source.heard.append(message.text)
        downs.hear(message.text)
        if downs.downs and not downs.over:
            game.per_down_messages.setdefault(len(downs.downs) - 1, []).append(message)

    class EarApp(loop_module.App):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self.speaker.add_listener(heard)
            self.cues.add_listener(lambda name: game.stream.append(f"cue:{name}"))

        def after(self, events: list[ev.Event]) -> None:
            if downs.downs:
                game.events.setdefault(len(downs.downs) - 1, []).extend(events)
            elif self.match is not None:
                game.first_offense = self.match.state.offense
            super().after(events)

    monkeypatch.setattr(loop_module, "App", EarApp)
    monkeypatch.setattr(loop_module, "_key_source", lambda _keys: source)
    config = tmp_path / f"{verbosity}-{seed}-{style}"
    save_settings(Settings(verbosity=verbosity), config)
    options = Options(seed=seed, headless=True, keys="ear", no_sound=True, config=config)
    assert loop_module.run_app(options, speaker=RecordingSpeaker(), cues=RecordingCues()) == 0
    assert downs.over and len(downs.downs) > 3
    return game


def must_say(events: list[ev.Event], offense: Team | None, brief: bool = False,
             ) -> tuple[list[tuple[str, tuple[str, ...]]], Team | None]:
    """(what, any of these words) for each thing the player must hear about these events, and
    who has the ball after them (`offense`: who had it before). `brief`: short verbosity,
    where the player's own swap is heard in the lists it was chosen from, not echoed."""
    wanted: list[tuple[str, tuple[str, ...]]] = []
    scores = [e for e in events if isinstance(e, ev.ScoreChanged)]
    for event in events:
        if isinstance(event, ev.DriveStarted):
            offense = event.offense
            wanted.append(("new drive", (f"Drive {event.drive}",)))
            wanted.append(("drive spot", (spot_words(event.spot, event.offense, YOU),)))
        elif isinstance(event, ev.DownStarted):
            offense = event.offense
            wanted.append(("new spot", (spot_words(event.down.line, event.offense, YOU),)))
        elif isinstance(event, ev.HandsRevealed):
            computer_offense = offense is not YOU
            hand = event.offense if computer_offense else event.defense
            swap = event.offense_swap if computer_offense else event.defense_swap
            if event.step == 1:
                for card in (*hand.players, *hand.calls):
                    wanted.append(("computer card", (card_name(card),)))
            else:
                if swap is None or swap.kind is SwapKind.KEEP:
                    wanted.append(("computer keeps", ("keep",)))
                else:
                    assert swap.out is not None and swap.into is not None
                    wanted.append(("computer swap out", (card_name(swap.out),)))
                    wanted.append(("computer swap in", (card_name(swap.into),)))
                own = event.defense_swap if computer_offense else event.offense_swap
                if own is not None and own.kind is not SwapKind.KEEP:  # your own, confirmed
                    assert own.out is not None and own.into is not None
                    if brief:
                        wanted.append(("own swap out", (card_name(own.out),)))
                        wanted.append(("own swap in", (card_name(own.into),)))
                    else:
                        wanted.append(("own swap", (f"{card_name(own.into)} for "
                                                    f"{card_name(own.out)}",)))
        elif isinstance(event, ev.FinalCallsRevealed):
            wanted.append(("offense call", (card_name(event.offense_call),)))
            wanted.append(("defense call", (card_name(event.defense_call),)))
        elif isinstance(event, ev.BandSet):
            wanted.append(("band", (f"Band {signed(event.band)}",)))
        elif isinstance(event, ev.PlayResolved):
            wanted.append(("result", _result_words(event)))
        elif isinstance(event, ev.Fumble):
            keeper = event.offense.other if event.lost else event.offense
            wanted.append(("fumble", ("Fumble",)))
            wanted.append(("fumble keeper", (NAMES.of(keeper),)))
        elif isinstance(event, ev.Punt):
            wanted.append(("punt", ("punt", "Punt")))
            wanted.append(("punt result", ("touchback",) if event.touchback
                           else (f"{event.net} yards", f"Punt, {event.net}")))
        elif isinstance(event, ev.FieldGoal):
            wanted.append(("field goal", ("Field goal", "kick from")))
            wanted.append(("field goal result", ("good", "no good")))
        elif isinstance(event, ev.Touchdown):
            wanted.append(("touchdown", ("Touchdown",)))
        elif isinstance(event, ev.ExtraPoint):
            wanted.append(("extra point", ("xtra point",)))
        elif isinstance(event, ev.Safety):
            wanted.append(("safety", ("Safety",)))
        elif isinstance(event, ev.GameOver):
            wanted.append(("final score", ("Final score",)))
    if scores:
        home, away = scores[-1].scores
        wanted.append(("score", (f"Hawks {home}, Bears {away}",)))
    return wanted, offense


def _result_words(play: ev.PlayResolved) -> tuple[str, ...]:
    if play.result == "incomplete":
        return ("Incomplete",)
    if play.result == "interception":
        return ("Intercepted", "Picked off", "pick it off")
    if play.yards == 0:
        return ("No gain", "no gain")
    yards = abs(play.yards)
    unit = "yard" if yards == 1 else "yards"
    return (f"{yards} {unit}", f"loss of {yards}") if play.yards < 0 else (f"{yards} {unit}",)


@pytest.mark.parametrize("verbosity", VERBOSITIES)
@pytest.mark.parametrize("style", [CAREFUL, EXPERT])
def test_every_down_still_says_what_the_player_needs(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, verbosity: str, style: str) -> None:
    checked = 0
    for seed in (1, 2, 3):
        game = play_by_ear(monkeypatch, tmp_path, seed, verbosity, style)
        offense = game.first_offense
        for index, down in enumerate(game.downs.downs):
            said = " ".join(down.lines).lower()
            wanted, offense = must_say(game.events.get(index, []), offense,
                                       brief=verbosity == "short")
            for what, words in wanted:
                assert any(word.lower() in said for word in words), (
                    seed, index, what, words, said[:2000])
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("verbosity", VERBOSITIES)
def test_no_game_line_is_said_twice_within_a_down(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, verbosity: str) -> None:
    for seed in (4, 5):
        game = play_by_ear(monkeypatch, tmp_path, seed, verbosity)
        for index, messages in game.per_down_messages.items():
            lines = [m.text for m in messages if m.category in GAME_LINES]
            repeated = {line for line in lines if lines.count(line) > 1}
            assert not repeated, (seed, index, repeated)
            # Nothing twice in a row either, but for a focus said again at a list's edge.
            twice = [a.text for a, b in itertools.pairwise(messages)
                     if a.text == b.text and a.category != "menu"]
            assert not twice, (seed, index, twice)


# How a sack's or an interception's words begin, in each of their phrasings (plays.py).
RESULT_OPENINGS = tuple(f"say:{words}" for words in (
    "Sacked", "Brought down behind the line", "The quarterback goes down", "Intercepted",
    "Picked off", "The Bears pick it off", "The Hawks pick it off", "Pass roll"))


# The final calls line: both calls, or at short verbosity the other team's alone.
FINAL_CALLS = re.compile(r"say:(?:.* against .*|(?:Bears|Hawks): (?![^;,]* for )[^;,]+)\.")


@pytest.mark.parametrize("verbosity", VERBOSITIES)
def test_a_result_cue_follows_its_dice_and_opens_its_words(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, verbosity: str) -> None:
    """Sacks and interceptions: the dice, then the cue, then the words (never the cue first)."""
    seen = calls = 0
    for seed in range(1, 41):
        stream = play_by_ear(monkeypatch, tmp_path, seed, verbosity, EXPERT).stream
        for index, item in enumerate(stream):
            if item in ("cue:sack", "cue:interception"):
                assert stream[index - 1] == "cue:dice", stream[index - 3: index + 2]
                assert stream[index + 1].startswith(RESULT_OPENINGS), stream[index + 1]
                seen += 1
            if FINAL_CALLS.fullmatch(item):  # "Inside Run against Blitz.", short "Bears: Blitz."
                assert "cue:dice" not in stream[index - 3: index], "dice before the calls"
                calls += 1
        if seen >= 2:
            break
    assert seen >= 2 and calls > 0
