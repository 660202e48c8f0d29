"""Learning without a manual: the rules read aloud section by section, and a guided first down.

The guided first down is a real game with a teacher at your shoulder: each decision screen gets
one extra explanation the first time it appears, results are narrated in detail, and after the
first play the lesson ends and the game simply carries on.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pygame

from ..engine import events as ev
from ..engine.actions import CALLS_PER_HAND, PLAYERS_PER_HAND
from ..language import N_, _, n_
from .help_text import LazyTexts
from .menu import Group, Item, ItemKind, Menu
from .rules_text import rules_sections
from .screens import DEFAULT_AWAY, DEFAULT_HOME, Host, Screen

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
                     category="tutorial")
        self.app.names_chosen(_(DEFAULT_HOME), _(DEFAULT_AWAY))

    def on_show(self, screen: Screen) -> None:
        tip = TIPS.get(screen.help_key)
        if self.active and tip and screen.help_key not in self.told:
            self.told.add(screen.help_key)
            self.app.say(tip, interrupt=False, category="tutorial")

    def after_events(self, events: Sequence[ev.Event]) -> None:
        if self.active and any(isinstance(event, _PLAY_OVER) for event in events):
            self.active = False
            self.app.say(_(LESSON_END), interrupt=False, category="tutorial")


class RulesScreen(Screen):
    """How to play: one section per item; arrows step through, Enter reads again."""

    help_key = "rules"

    def __init__(self, host: Host) -> None:
        items = [Item(title, ItemKind.TEXT, index, note=text)
                 for index, (title, text) in enumerate(rules_sections())]
        super().__init__(host, Menu(_("How to play"), [Group(_("Sections"), items)]))

    def section_words(self) -> str:
        """ "Title. Text 3 of 12." for the focused section."""
        group = self.menu.group
        item = group.items[group.focus]
        # Translators: a section of the rules: its title, its text, then "3 of 12".
        return _("{title}. {text} {number} of {count}.").format(
            title=item.label, text=item.note, number=group.focus + 1, count=len(group.items))

    def intro(self) -> str:
        count = len(self.menu.group.items)
        # Translators: {section} is the first section, read after this introduction.
        return n_("How to play, {count} short section. Down reads the next, Up the one "
                  "before, Enter reads it again, Escape returns. {section}",
                  "How to play, {count} short sections. Down reads the next, Up the one "
                  "before, Enter reads it again, Escape returns. {section}",
                  count).format(count=count, section=self.section_words())

    def handle_key(self, key: int, mod: int) -> bool:
        moves = {pygame.K_UP: -1, pygame.K_LEFT: -1, pygame.K_DOWN: 1, pygame.K_RIGHT: 1}
        if key in moves:
            cue = self.menu.move(moves[key]).cue
        elif key == pygame.K_HOME:
            cue = self.menu.home().cue
        elif key == pygame.K_END:
            cue = self.menu.end().cue
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            cue = None
        else:
            return False
        if cue:
            self.host.cue(cue)
        self.host.say(self.section_words())
        return True

    def on_escape(self) -> bool:
        self.host.pop()
        return True
