"""The guided first down: a real game with a teacher at your shoulder.

Each decision screen gets one extra explanation the first time it appears, results are
narrated in detail, and after the first play the lesson ends and the game simply carries on."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ...audio.protocols import Category
from ...engine import events as ev
from ...engine.actions import CALLS_PER_HAND, PLAYERS_PER_HAND
from ...language import N_, _
from ..screens.base import Host, Screen
from ..screens.welcome import DEFAULT_AWAY, DEFAULT_HOME
from ..words.help import LazyTexts

# Translators: {home} and {away} are the two teams' names; the player's team is {home}.
LESSON_START = N_(
    "Guided first down. We will play a real game, and I will explain each step as you reach "
    "it, until the first play is over. The teams are the {home}, yours, and the {away}."
)


def _tips() -> dict[str, str]:
    return {
        "coin": _(
            "Lesson: the coin toss decides who chooses to take the ball first. Up and Down move "
            "between Heads and Tails; Enter calls it."
        ),
        "side": _(
            "Lesson: you won the toss, so you choose. Offense means you carry the ball first; "
            "defense means you try to stop them first and then know what score you need. "
            "Either is fine. Pick one with Up and Down and press Enter."
        ),
        # Translators: {players} is how many featured players to check (2), {calls} how many
        # play calls (3).
        "selection": _(
            "Lesson: now choose your cards in secret. Space checks a player; check "
            "{players}, and the focus moves on to the calls: check {calls}. "
            "After every change you hear your count. Press D on a card to hear what it is good "
            "against. Enter confirms when you have {players} and {calls}. On "
            "offense, a punt or a field goal waits past Confirm; either ends your drive, so not "
            "now."
        ).format(players=PLAYERS_PER_HAND, calls=CALLS_PER_HAND),
        "substitution": _(
            "Lesson: both hands were just revealed, so you know the computer's cards. You may "
            "answer them by replacing one player or one call, or keep everything. Keep "
            "is the easy choice while learning."
        ),
        "final": _(
            "Lesson: last step of the down. Pick the one call you actually play. Your call "
            "meets theirs in a matchup, featured players whose card names the offense's call "
            "push it up or down, and the result is the band: the higher, the better for the "
            "offense. Press Enter, then listen to the dice and the yards."
        ),
    }


# One explanation per decision screen, by help key: built in the active language at each look-up.
TIPS: Mapping[str, str] = LazyTexts(_tips)
LESSON_END = N_(
    "That was your guided first down, and the lesson is over. The game carries on with the "
    "same steps. S reads the score and down, F plays the field tone, comma and period replay "
    "what was said, O opens settings, and F1 helps on every screen."
)


_PLAY_OVER = (ev.PlayResolved, ev.FieldGoal, ev.Punt, ev.GameOver)


class TutorialGuide:
    """Adds one explanation per decision screen during the first down of a guided game."""

    def __init__(self, app: Host) -> None:
        self.app = app
        self.active = False
        self.told: set[str] = set()

    def begin(self) -> None:
        self.active = True
        self.told = set()
        self.app.say(_(LESSON_START).format(home=_(DEFAULT_HOME), away=_(DEFAULT_AWAY)),
                     category=Category.TUTORIAL)
        self.app.names_chosen(_(DEFAULT_HOME), _(DEFAULT_AWAY))

    def on_show(self, screen: Screen) -> None:
        tip = TIPS.get(screen.help_key)
        if self.active and tip and screen.help_key not in self.told:
            self.told.add(screen.help_key)
            self.app.say(tip, interrupt=False, category=Category.TUTORIAL)

    def after_events(self, events: Sequence[ev.Event]) -> None:
        if self.active and any(isinstance(event, _PLAY_OVER) for event in events):
            self.active = False
            self.app.say(_(LESSON_END), interrupt=False, category=Category.TUTORIAL)

