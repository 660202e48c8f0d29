"""The guided first drive: a real game with a teacher at your shoulder.

Each decision screen gets one extra explanation the first time it appears, and each thing
worth knowing once (M, the explorer, S and the history, fourth down, a kick) when its moment
comes; results are narrated in detail. The lesson lasts until your first drive on offense is
over, then the game simply carries on. G pauses it (the game goes on as usual) and resumes it
where it was."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from ...audio.protocols import Category
from ...engine import events as ev
from ...engine.actions import CALLS_PER_HAND, PLAYERS_PER_HAND
from ...language import N_, _
from ..keymap import Command, KeyMap
from ..screens.base import Host, Screen
from ..screens.welcome import DEFAULT_AWAY, DEFAULT_HOME
from ..words.help import LazyTexts
from ..words.phrases import Names

# Translators: {home} and {away} are the two teams' names; the player's team is {home};
# {lesson} is the key that pauses and resumes the lesson.
LESSON_START = N_(
    "Guided first drive. We will play a real game, and I will explain each step as you reach "
    "it, until your first drive on offense is over. {lesson} pauses the lesson, and resumes "
    "it. The teams are the {home}, yours, and the {away}."
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
            "is the easy choice while learning. Press M to hear how your calls meet theirs: "
            "the best one first."
        ),
        "snap": _(
            "Lesson: fourth down, your last try to make the line to gain. Go for it with your "
            "cards, or kick: a punt sends the ball far down the field, and a field goal in "
            "range scores 3 points if it is good. Each kick's label says where it lands or "
            "its chance. Failing on fourth down hands them the ball where you stopped."
        ),
        "explorer": _(
            "Lesson: last down's cards come checked again, so Enter plays them. Press E any "
            "time to open the explorer of play cards and bands: it never changes the game, "
            "and Escape brings you back here."
        ),
        "result": _(
            "Lesson: that was a whole down. S reads the score and the down, L tells the last "
            "play again in full, and comma and period step back and forward through "
            "everything said."
        ),
        "kick": _(
            "Lesson: a kick ends the drive. After a punt the other side starts where the ball "
            "came down; after a field goal, good or not, they start deep in their own half."
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
    "That was your guided first drive, and the lesson is over. The game carries on with the "
    "same steps. S reads the score and down, F plays the field tone, comma and period replay "
    "what was said, O opens settings, and F1 helps on every screen."
)

_PLAY_OVER = (ev.PlayResolved, ev.FieldGoal, ev.Punt)
_KICKS = (ev.FieldGoal, ev.Punt)


class LessonHost(Host, Protocol):
    """What the lesson asks of the app beyond a screen's needs: which team is the player's,
    and the keys (to name the one that pauses it)."""

    names: Names
    keys: KeyMap


class TutorialGuide:
    """The teacher of a guided game: one explanation per thing, each the first time it comes,
    from the coin toss to the end of the player's first drive on offense."""

    def __init__(self, app: LessonHost) -> None:
        self.app = app
        self.started = False  # this game is a lesson (paused or not)
        self.active = False  # teaching now
        self.told: set[str] = set()
        self.selections = 0  # card screens seen: the second teaches the explorer

    def begin(self) -> None:
        self.started, self.active = True, True
        self.told, self.selections = set(), 0
        self.app.say(_(LESSON_START).format(home=_(DEFAULT_HOME), away=_(DEFAULT_AWAY),
                                            lesson=self.key_name),
                     category=Category.TUTORIAL)
        self.app.names_chosen(_(DEFAULT_HOME), _(DEFAULT_AWAY))

    @property
    def key_name(self) -> str:
        return self.app.keys.names(Command.LESSON)

    def toggle(self) -> None:
        """G: pause the lesson (the game goes on, in the player's own verbosity), or resume
        it where it stopped; outside a lesson, say how to start one."""
        if not self.started:
            self.app.cue("menu_error")
            self.app.say(_("There is no lesson in this game. Guided first drive, on the title "
                           "screen, starts one."), category=Category.INFO)
            return
        self.active = not self.active
        if self.active:
            self.app.say(_("Lesson resumed."), category=Category.TUTORIAL)
        else:
            # Translators: {lesson} is the key that resumes it.
            self.app.say(_("Lesson paused. The game goes on; {lesson} resumes it.").format(
                lesson=self.key_name), category=Category.TUTORIAL)

    def _tell(self, key: str) -> None:
        if self.active and key not in self.told:
            self.told.add(key)
            self.app.say(TIPS[key], interrupt=False, category=Category.TUTORIAL)

    def on_show(self, screen: Screen) -> None:
        key = screen.help_key
        if key == "selection":
            self.selections += 1
            if self.selections > 1:
                key = "explorer"  # the second card screen: last down's cards come back
        if key in TIPS:
            self._tell(key)

    def after_events(self, events: Sequence[ev.Event]) -> None:
        if not self.started:
            return
        if any(isinstance(event, _KICKS) for event in events):
            self._tell("kick")
        elif any(isinstance(event, _PLAY_OVER) for event in events):
            self._tell("result")
        mine = self.app.names.you
        if any(isinstance(event, ev.GameOver) for event in events) or any(
                isinstance(event, ev.DriveEnded) and event.offense is mine for event in events):
            if self.active:
                self.app.say(_(LESSON_END), interrupt=False, category=Category.TUTORIAL)
            self.started = self.active = False

