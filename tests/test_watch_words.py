"""A spectator's game is told as a neutral broadcast (issue 49): both teams by name, never
"you", at every verbosity and in both languages, over whole seeded games (hypothesis), and S
says where the game stands the same way. The words come from the same tellers as a player's."""

from __future__ import annotations

import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from sudden_death import language
from sudden_death.engine import events as ev
from sudden_death.engine.actions import Action, ChooseSnap, Concede, actors, legal_actions
from sudden_death.engine.game import Game
from sudden_death.engine.state import GameState, SnapChoice, Team
from sudden_death.ui.words.narration import Narrator
from sudden_death.ui.words.phrases import Names
from sudden_death.ui.words.situation import situation_words
from sudden_death.ui.words.verbosity import Telling, Verbosity

WATCHING = Names("Hawks", "Bears", watching=True)
YOU = {"en": re.compile(r"\b(you|your|yours)\b", re.IGNORECASE),
       "es": re.compile(r"(?<!\w)(tú|tu|tus|tuyo|tuya|te|ti|contigo)(?!\w)", re.IGNORECASE)}


def random_game(seed: int) -> tuple[list[list[ev.Event]], list[GameState]]:
    """A whole game between two random players who never concede: each step's events, and
    the states between."""
    rng = random.Random(seed)
    game, steps, states = Game(random.Random(seed)), [], []
    while not game.is_over:
        state = game.state
        states.append(state)
        steps.append(game.apply({team: _choice(rng, state, team) for team in actors(state)}))
    states.append(game.state)
    return steps, states


def _choice(rng: random.Random, state: GameState, team: Team) -> Action:
    """Any legal action but a concession; a kick only on fourth down, as a player would."""
    legal = [action for action in legal_actions(state, team) if not isinstance(action, Concede)]
    plays = [action for action in legal if not (isinstance(action, ChooseSnap)
                                                and action.choice is not SnapChoice.PLAY)]
    fourth = state.down is not None and state.down.number == 4
    return rng.choice(legal if fourth or not plays else plays)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["short", "normal", "detailed"]),
       st.sampled_from(["en", "es"]))
def test_a_watched_game_never_says_you_and_names_both_teams(seed: int, verbosity: str,
                                                            code: str) -> None:
    steps, states = random_game(seed)
    telling = Telling.preset(Verbosity.of(verbosity))
    with language.using(language.load(code)):
        narrator = Narrator(WATCHING)
        said = [line.text for step in steps for line in narrator.lines(step, telling)]
        said += [situation_words(state, WATCHING) for state in states]
    heard = [line for line in said if line and YOU[code].search(line)]
    assert not heard, heard[:3]
    both = " ".join(said)
    assert "Hawks" in both and "Bears" in both


def test_a_watched_reveal_names_both_hands_home_first_and_one_line_when_both_keep() -> None:
    for seed in range(40):
        steps, _states = random_game(seed)
        reveals = [event for step in steps for event in step
                   if isinstance(event, ev.HandsRevealed)]
        if len(reveals) >= 2:
            break
    narrator = Narrator(WATCHING)
    lines = [line.text for step in steps for line in narrator.lines(step)]
    first = next(line for line in lines if line.startswith("Hawks: "))
    assert ". Bears: " in first  # both hands, the home team's first
    swaps = [line for line in lines if "keep" in line or "bring in" in line]
    assert swaps and all("Hawks" in line or "Bears" in line or line.startswith("Both teams")
                         for line in swaps)
