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
from ..keys.keymap import KeyMap
from ..screens.base import Host, Screen
from ..screens.welcome import DEFAULT_AWAY, DEFAULT_HOME
from ..words.help import LazyTexts
from ..words.phrases import Names

# Translators: {home} and {away} are the two teams' names; the player's team is {home};
# {lesson} is the key that pauses and resumes the lesson, as "G".
LESSON_START = N_(
    "Guided first drive. We will play a real game, and I will explain each step as you reach "
    "it, until your first drive on offense is over. {lesson} pauses the lesson, and resumes "
    "it. The teams are the {home}, yours, and the {away}."
)


def _tips() -> dict[str, str]:
    """Each explanation, its keys as placeholders ({activate}, {toggle}...) that the key map
    fills in where it is said (`tip`)."""
    return {
        # Translators: names in braces like {activate} are keys (the player's own fill them
        # in): {previous_item}, {next_item} and {activate} as "Up", "Down" and "Enter".
        "coin": _(
            "Lesson: the coin toss decides who chooses to take the ball first. {previous_item} "
            "and {next_item} move between Heads and Tails; {activate} calls it."
        ),
        # Translators: {previous_item}, {next_item} and {activate} are keys, as "Up", "Down"
        # and "Enter".
        "side": _(
            "Lesson: you won the toss, so you choose. Offense means you carry the ball first; "
            "defense means you try to stop them first and then know what score you need. "
            "Either is fine. Pick one with {previous_item} and {next_item} and press "
            "{activate}."
        ),
        # Translators: {players} is how many featured players to check (2), {calls} how many
        # play calls (3); {toggle}, {details} and {activate} are keys, as "Space", "D" and
        # "Enter".
        "selection": _(
            "Lesson: now choose your cards in secret. {toggle} checks a player; check "
            "{players}, and the focus moves on to the calls: check {calls}. "
            "After every change you hear your count. Press {details} on a card to hear what it "
            "is good against. {activate} confirms when you have {players} and {calls}. On "
            "offense, a punt or a field goal waits past Confirm; either ends your drive, so not "
            "now."
        ),
        # Translators: {matchups} is a key, as "M".
        "substitution": _(
            "Lesson: both hands were just revealed, so you know the computer's cards. You may "
            "answer them by replacing one player or one call, or keep everything. Keep "
            "is the easy choice while learning. Press {matchups} to hear how your calls meet "
            "theirs: the best one first."
        ),
        "snap": _(
            "Lesson: fourth down, your last try to make the line to gain. Go for it with your "
            "cards, or kick: a punt sends the ball far down the field, and a field goal in "
            "range scores 3 points if it is good. Each kick's label says where it lands or "
            "its chance. Failing on fourth down hands them the ball where you stopped."
        ),
        # Translators: {activate}, {explorer} and {back} are keys, as "Enter", "E" and
        # "Escape".
        "explorer": _(
            "Lesson: last down's cards come checked again, so {activate} plays them. Press "
            "{explorer} any time to open the explorer of play cards and bands: it never "
            "changes the game, and {back} brings you back here."
        ),
        # Translators: {situation}, {last_play}, {history_back} and {history_forward} are
        # keys, as "S", "L", "Comma" and "Period".
        "result": _(
            "Lesson: that was a whole down. {situation} reads the score and the down, "
            "{last_play} tells the last play again in full, and {history_back} and "
            "{history_forward} step back and forward through everything said."
        ),
        "kick": _(
            "Lesson: a kick ends the drive. After a punt the other side starts where the ball "
            "came down; after a field goal, good or not, they start deep in their own half."
        ),
        # Translators: {activate} is a key, as "Enter".
        "final": _(
            "Lesson: last step of the down. Pick the one call you actually play. Your call "
            "meets theirs in a matchup, featured players whose card names the offense's call "
            "push it up or down, and the result is the band: the higher, the better for the "
            "offense. Press {activate}, then listen to the dice and the yards."
        ),
    }


# One explanation per decision screen, by help key: built in the active language at each look-up,
# its keys still placeholders (`tip` fills them in).
TIPS: Mapping[str, str] = LazyTexts(_tips)
# Translators: {situation}, {field_tone}, {history_back}, {history_forward}, {settings} and
# {help} are keys, as "S", "F", "Comma", "Period", "O or F2" and "F1".
LESSON_END = N_(
    "That was your guided first drive, and the lesson is over. The game carries on with the "
    "same steps. {situation} reads the score and down, {field_tone} plays the field tone, "
    "{history_back} and {history_forward} replay what was said, {settings} opens settings, and "
    "{help} helps on every screen."
)


def tip(key: str, keys: KeyMap) -> str:
    """The explanation `key` (a help key, or "result", "kick", "explorer") as it is said: its
    keys as `keys` binds them, its counts filled in."""
    return keys.fill(TIPS[key], players=PLAYERS_PER_HAND, calls=CALLS_PER_HAND)


def lesson_end(keys: KeyMap) -> str:
    """The lesson's last words, its keys as `keys` binds them."""
    return keys.fill(_(LESSON_END))


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
        self.app.say(self.app.keys.fill(_(LESSON_START), home=_(DEFAULT_HOME),
                                        away=_(DEFAULT_AWAY)), category=Category.TUTORIAL)
        self.app.names_chosen(_(DEFAULT_HOME), _(DEFAULT_AWAY))

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
            # Translators: {lesson} is the key that resumes it, as "G".
            self.app.say(self.app.keys.fill(_("Lesson paused. The game goes on; {lesson} "
                                              "resumes it.")), category=Category.TUTORIAL)

    def _tell(self, key: str) -> None:
        if self.active and key not in self.told:
            self.told.add(key)
            self.app.say(tip(key, self.app.keys), interrupt=False, category=Category.TUTORIAL)

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
                self.app.say(lesson_end(self.app.keys), interrupt=False,
                             category=Category.TUTORIAL)
            self.started = self.active = False

