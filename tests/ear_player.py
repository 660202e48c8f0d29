"""A player who only hears: picks keys from the spoken lines alone, and splits a game into downs.

`EarPlayer` never looks at the engine, the screens or the menus. It recognises each decision by
the question the game speaks, learns the list sizes from the positions it hears ("1 of 4"), and
presses only what a keyboard player would: arrows, Space and Enter (the expert also uses number
keys for the first hand of a drive). Three styles:

- careful: arrows through a list to the card it wants, hearing each one. On the first down of
  a drive it picks random cards; later, last down's cards come checked again and it plays them,
  unless the last down went badly for it (as heard: on offense no gain or worse, or an
  incompletion, sack or interception; on defense a first down or a gain of 10 or more): then it
  changes one card, arrowing to a checked one to uncheck it and on to an unchecked one to check.
  It replaces a card after the reveal one time in four, and chooses any of its three calls.
- tinkerer: the careful player, but changes a card before every down and replaces one after
  the reveal one time in three (no target; it shows what a restless player pays).
- expert: number keys for a drive's first cards, then last down's cards again, keeps them,
  plays the first call.

Both kick on fourth down when the field goal they heard is at least even money, else punt, and
confirm a kick the game asks about. `Downs` groups the lines heard and the keys pressed by down:
a down opens with its first question (the snap choice on offense, the cards on defense) and
takes the lines of its result, up to the next down's first question.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

CAREFUL, TINKERER, EXPERT = "careful", "tinkerer", "expert"

SNAP_PROMPTS = ("Play or kick?", "Before each down on offense", "Fourth down,",
                "Fourth down:")  # the short question, and the first one with its keys
CARD_PROMPTS = ("Your cards", "Pick your", "A fresh pick")
# At short verbosity a pick with last down's cards opens on its focus, the players list.
SHORT_CARD_PROMPT = "Players: "
SWAP_PROMPTS = ("Keep or replace?", "Now you may answer their cards")
FINAL_PROMPTS = ("Final call?", "Final call: which")
CONFIRM_ENDINGS = ("Punt anyway?", "Kick anyway?")
GAME_OVER = "Play again or quit?"
POSITION = re.compile(r"(\d+) of (\d+)$")
# A play's gain as a listener hears it, in any of the broadcast's phrasings ("A gain of 4
# yards.", "Picks up 4 yards.", "Off to the races, 20 yards!"); punts and kicks say yards too.
GAIN = re.compile(r"(?:gain of|for|^|up|Gains|, |! ) ?(\d+) yards?\b")
NOT_A_GAIN = ("punt", "Punt", "kick", "to the end zone", "to go")
NOTHING_GAINED = ("Incomplete", "incomplete", "Sacked", "loss of", "No gain", "no gain",
                  "Intercepted", "Picked off", "pick it off", "Loses", "Thrown back",
                  "Brought down behind the line", "The quarterback goes down")
FIRST_DOWN = re.compile(r"(?i)\bfirst (down|and goal) at\b")
BIG_GAIN = 10
MAX_PRESSES = 40  # keys without a new question: the player has lost its way
OUR_BALL = re.compile(r"Drive \d( of 2)?: (\w+) ball")
FIELD_GOAL_CHANCE = re.compile(r"field goal is (\d+) percent")


@dataclass
class Down:
    """One down as the player lived it: what was said and which keys were pressed."""

    lines: list[str] = field(default_factory=list)
    keys: list[str] = field(default_factory=list)

    @property
    def words(self) -> int:
        return sum(len(line.split()) for line in self.lines)


class Downs:
    """Splits what was heard and pressed into downs (see the module docstring)."""

    def __init__(self) -> None:
        self.downs: list[Down] = []
        self.open = False  # a down has started and its last choice is not made yet
        self.over = False
        self.before: list[str] = []  # before the first down: the lines since the last menu

    def hear(self, line: str) -> None:
        if self.over or line.startswith(GAME_OVER):
            self.over = True  # the game-over question and what follows belong to no down
            return
        if not self.open and line.startswith((*SNAP_PROMPTS, *CARD_PROMPTS, SHORT_CARD_PROMPT)):
            self.downs.append(Down(lines=[] if self.downs else self.before))
            self.open = True
        if self.downs:
            self.downs[-1].lines.append(line)
        elif _is_focus(line) or _is_question(line):
            self.before = []  # the pre-game menus are not part of the first down
        else:
            self.before.append(line)  # "Drive 1 of 2: ..." opens the first down

    def press(self, key: str, ends_down: bool) -> None:
        if self.open:
            self.downs[-1].keys.append(key)
        if ends_down:
            self.open = False


def _is_focus(line: str) -> bool:
    return bool(POSITION.search(line))


def _is_question(line: str) -> bool:
    return line.startswith(QUESTIONS) or any(end in line for end in CONFIRM_ENDINGS)


@dataclass
class EarPlayer:
    """Chooses the next key from the lines heard since the last one (see the module docstring)."""

    style: str = CAREFUL
    seed: int = 0
    plan: list[str] = field(default_factory=list)
    rng: random.Random = field(init=False)
    seen_prompts: set[str] = field(default_factory=set)
    ends_down: bool = False  # whether the key just chosen is a down's last choice
    finished: bool = False
    team: str = "Hawks"  # the default name the player keeps
    on_offense: bool = True
    last_gain: int | None = None  # the offense's gain on the last play, as heard
    moved_chains: bool = False  # the last play made a first down
    changing: str = ""  # changing one card: "" (not), "uncheck", "check" or "done"
    step: str = "down"  # the arrow it walks a list with (turned round at an end)
    last_label: str = ""
    dropped: str = ""  # the card it just unchecked, not to be checked again
    picked_this_drive: bool = False  # after that, last down's cards come checked again
    presses_without_question: int = 0
    between_downs: bool = False  # a down's last choice is made; the next one has not begun

    def __post_init__(self) -> None:
        self.rng = random.Random(f"{self.style}:{self.seed}")

    def next_key(self, heard: list[str]) -> str | None:
        """The next key, given every line heard since the previous key; None when done."""
        self.ends_down = False
        self._listen(heard)
        prompt = _last_prompt(heard)
        if prompt is None and self.between_downs:
            prompt = next((line for line in heard if line.startswith(SHORT_CARD_PROMPT)), None)
        if prompt is not None:
            self.between_downs = False
        self.presses_without_question += 1
        if prompt is not None:
            self.presses_without_question = 0
            self.changing = ""
            self.plan = self._plan(prompt, heard)
        if self.presses_without_question > MAX_PRESSES or any(
                line.startswith("Not yet:") for line in heard):
            raise RuntimeError(f"the player is lost: {heard[-3:]}")
        if self.changing and not self.plan:
            return self._change_one(heard)
        if not self.plan:
            if self.finished:
                return None
            self.plan = ["return"]  # nothing recognised: press on, as a player would
        key = self.plan.pop(0)
        if key == "END_DOWN":
            self.ends_down = self.between_downs = True
            key = self.plan.pop(0)
        return key

    def _listen(self, heard: list[str]) -> None:
        """Follow who has the ball and how the last play went, from the words alone."""
        for line in heard:
            ball = OUR_BALL.match(line)
            if ball:
                self.on_offense = ball.group(2) == self.team
                self.picked_this_drive = False
            gain = GAIN.search(line)
            if any(words in line for words in NOTHING_GAINED):
                self.last_gain = 0
            elif gain and not any(words in line for words in NOT_A_GAIN):
                self.last_gain = int(gain.group(1))
            self.moved_chains = self.moved_chains or bool(FIRST_DOWN.search(line)) or (
                line.startswith("1st and"))  # short verbosity: a new set of downs

    def _went_badly(self) -> bool:
        if self.style == TINKERER:
            return True
        if self.last_gain is None:
            return False
        if self.on_offense:
            return self.last_gain <= 0
        return self.moved_chains or self.last_gain >= BIG_GAIN

    # -- one plan per question ---------------------------------------------------------------

    def _plan(self, prompt: str, heard: list[str]) -> list[str]:
        if prompt.startswith(GAME_OVER):
            self.finished = True
            return []
        if any(end in prompt for end in CONFIRM_ENDINGS):
            return ["down", "return"]  # "Yes, kick"
        if prompt.startswith(SNAP_PROMPTS):
            return self._snap(prompt)
        if prompt.startswith((*CARD_PROMPTS, SHORT_CARD_PROMPT)):
            return self._cards(prompt, heard)
        if prompt.startswith(SWAP_PROMPTS):
            return self._swap()
        if prompt.startswith(FINAL_PROMPTS):
            downs = 0 if self.style == EXPERT else self.rng.randrange(3)
            return ["down"] * downs + ["END_DOWN", "return"]
        if prompt.startswith("Take the ball first"):
            return ["down"] * self.rng.randrange(2) + ["return"]
        return ["return"]  # welcome, names (defaults), coin toss

    def _snap(self, prompt: str) -> list[str]:
        if not prompt.startswith("Fourth down"):
            return ["return"]
        chance = FIELD_GOAL_CHANCE.search(prompt)
        if chance and int(chance.group(1)) >= 50:
            return ["down", "down", "END_DOWN", "return"]  # the field goal
        # A kick that can only lose is confirmed in a dialog, which ends the down instead.
        return ["down", "END_DOWN", "return"]

    def _cards(self, prompt: str, heard: list[str]) -> list[str]:
        checked_again = self.picked_this_drive
        self.picked_this_drive = True
        went_badly = self._went_badly()
        self.last_gain, self.moved_chains = None, False
        if checked_again:
            if self.style == EXPERT or not went_badly:
                return ["return"]  # last down's cards, checked again
            self.changing, self.step, self.last_label = "uncheck", "down", ""
            return ["tab"] if self.rng.random() < 0.7 else []  # a call, or a player
        if self.style == EXPERT:
            return ["1", "2", "1", "2", "3", "return"]
        keys: list[str] = []
        for size, count in ((4, 2), (6, 3)):  # a full players list moves on to the calls
            position = 0
            for target in sorted(self.rng.sample(range(size), count)):
                keys += ["down"] * (target - position) + ["space"]
                position = target
        return [*keys, "return"]

    def _change_one(self, heard: list[str]) -> str:
        """One key of changing one card, chosen from the line just heard."""
        line = heard[-1] if heard else ""
        label = line.split(":")[-1].split(",")[0].strip()
        checked = ", checked" in line
        if self.changing == "done" or "Enter confirms" in line:
            self.changing, self.ends_down = "", False
            return "return"
        if label == self.last_label and not line.startswith(("Checked", "Unchecked")):
            self.step = "up" if self.step == "down" else "down"  # an end of the list
        self.last_label = label
        if self.changing == "uncheck" and checked:
            self.changing, self.dropped = "check", label
            return "space"
        if self.changing == "check" and line and not checked and label != self.dropped and \
                not line.startswith(("Unchecked", "Checked", "You already")):
            self.changing = "done"
            return "space"
        return self.step

    def _swap(self) -> list[str]:
        """Keep, or now and then replace a card: below Keep come the 2 players, then the 3
        calls; 2 players or 3 calls can come in for it."""
        replace = {CAREFUL: 0.25, TINKERER: 0.33}.get(self.style, 0.0)
        if self.rng.random() >= replace:
            return ["return"]  # keep
        out = self.rng.randrange(1, 6)
        coming = 2 if out <= 2 else 3
        return ["down"] * out + ["return"] + ["down"] * self.rng.randrange(coming) + ["return"]


QUESTIONS = (*SNAP_PROMPTS, *CARD_PROMPTS, *SWAP_PROMPTS, *FINAL_PROMPTS, GAME_OVER,
             "Welcome to", "Your team's name", "The computer team's name", "Coin toss",
             "Take the ball first")


def _last_prompt(heard: list[str]) -> str | None:
    """The newest question among the lines (the focus line after it is not a question)."""
    for line in reversed(heard):
        if _is_question(line):
            return line
    return None
