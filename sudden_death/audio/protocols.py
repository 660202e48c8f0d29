"""The contract between the game and its audio: what the front end may ask of speech and cues.

Real implementations (pyttsx3 + pygame.mixer) and recording fakes for fast tests both meet it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum
from typing import Protocol

# Every event sound SPEC names, and the other side's versions of the news that is good for one
# side and bad for the other (touchdown_theirs...: whose news it is is heard before a word);
# each is a WAV file `sounds/<name>.wav` (the package sudden_death.sounds, resources.sounds_dir()).
CUE_NAMES: tuple[str, ...] = (
    "coin",
    "reveal",
    "dice",
    "whistle",
    "touchdown",
    "field_goal_good",
    "field_goal_no_good",
    "punt",
    "sack",
    "interception",
    "fumble",
    "safety",
    "big_play",
    "turnover",
    "touchdown_theirs",
    "field_goal_theirs",
    "big_play_theirs",
    "turnover_won",
    "game_won",
    "game_lost",
    "game_tied",
    "menu_move",
    "menu_edge",
    "menu_select",
    "menu_error",
    "chat",
    "waiting",
)


class Priority(IntEnum):
    """INFO (focus moves, echoes) may be cut by anything; ALERT (results) is never cut by INFO."""

    INFO = 0
    ALERT = 1


class Category(str, Enum):
    """What a message is, for whoever keeps it: the history's filters, the game log (H), what R
    repeats. A string enum, so a transcript or a test can still read it as its name."""

    RESULT = "result"  # what a play, a kick or a toss did
    COMPUTER = "computer"  # the other side's cards and moves
    GAME_OVER = "game_over"
    NOTICE = "notice"  # a fault or a settings file's problem, said once
    DECISION = "decision"  # the question of a new decision
    MENU = "menu"  # a focus move or a screen's own words
    ECHO = "echo"  # the player's typing echoed
    INFO = "info"  # S, F, M and other answers to a key
    DETAILS = "details"  # D
    HELP = "help"  # F1
    TUTORIAL = "tutorial"  # the lesson's words
    HISTORY = "history"  # the history read back
    REPEAT = "repeat"  # R
    PAGE = "page"  # where the window's text panel was scrolled to
    ERROR = "error"  # the apology after a key failed
    CHAT = "chat"  # a message from the friend at a table, or one sent to them


@dataclass(frozen=True)
class Message:
    """One spoken line as listeners (window text, history, transcript) receive it."""

    text: str
    priority: Priority = Priority.INFO
    category: Category = Category.INFO


@dataclass(frozen=True)
class Voice:
    """An installed synthesizer voice: `id` is what `set_voice` takes, `name` is for menus."""

    id: str
    name: str


class Speaker(Protocol):
    """`say(..., on_start=f)` calls `f` when the words start to be heard (at once when they
    can't be): the cues of a line play with its words, not when the line was queued.

    The voice's settings (rate, voice, volume, engine) are part of it: a speaker that cannot
    change one (a silent one) takes the setting and does nothing with it."""

    @property
    def rate_range(self) -> tuple[int, int]:
        """The words per minute this voice speaks sensibly, lowest and highest."""

    @property
    def notice(self) -> str | None:
        """Why speech is unavailable, to show once; None when all is well."""

    def say(
        self,
        text: str,
        *,
        interrupt: bool = True,
        priority: Priority = Priority.INFO,
        category: Category = Category.INFO,
        on_start: Callable[[], None] | None = None,
    ) -> None: ...

    def silence(self) -> None: ...

    def add_listener(self, listener: Callable[[Message], None]) -> None: ...

    def close(self) -> None: ...

    def set_rate(self, words_per_minute: int) -> None: ...

    def set_voice(self, voice_id: str) -> None: ...

    def set_volume(self, volume: float) -> None: ...

    def set_engine(self, name: str) -> None: ...

    def engine_choices(self) -> list[tuple[str, str]]:
        """(name, label) of the speech engines the player may choose here."""

    def voices(self) -> list[Voice]: ...


class CuePlayer(Protocol):
    """`play_dice(dice, then=cue)` plays the roll, then the cue that tells its result;
    `play_tone` plays a sound made while playing (the field tone, the play's sweep)."""

    notice: str | None

    def play(self, name: str) -> None: ...

    def play_dice(self, dice: Sequence[int], then: str | None = None) -> None: ...

    def play_tone(self, wav: bytes, name: str = "tone") -> None: ...

    def set_volume(self, volume: float) -> None: ...

    def set_crowd(self, level: float) -> None:
        """The stadium bed's volume, 0 to 1 (0: no crowd)."""

    def set_tension(self, on: bool) -> None: ...

    def set_mono(self, on: bool) -> None:
        """Every sound the same in both ears (the crowd, which is stereo, folded)."""

    def tick(self) -> None:
        """Once a loop turn (the crowd comes back up after speech)."""

    def add_listener(self, listener: Callable[[str], None]) -> None: ...

    def close(self) -> None: ...
