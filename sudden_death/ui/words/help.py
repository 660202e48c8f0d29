"""F1 help: what each screen is for; F1 again reads every key. Kept apart so wording is easy to
review."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from ...engine.actions import CALLS_PER_HAND, PLAYERS_PER_HAND
from ...engine.resolve import MAX_BAND, MIN_BAND
from ...language import N_, _, n_

# Translators: the full list of keys, read when F1 is pressed twice. The key names (Tab,
# Shift+Tab, Up and Down arrows, Space, Enter, Home, End, H, S, R, D, E, M, Control, F1, Escape,
# Comma, Period, slash, F, O, F2, Page Up, Page Down) name the keys on the keyboard.
KEYS = N_(
    "Keys: Tab and Shift+Tab move between controls. Up and Down arrows move within a list; "
    "in a radio group they also select. Space checks a box or selects an option. "
    "Enter presses the focused choice or confirms your decision. Home and End jump to the "
    "first or last item. Number keys 1 to 9 pick that item of the list. H and Shift+H step "
    "through the sections: current decision, computer calls, rosters and game log. S reads the "
    "score and situation, and on the last drive what each side needs. R repeats the last "
    "message. D reads details of the focused card; press it again to close them. E opens the "
    "explorer of play cards and bands; it never changes the game. M, at the swap and the "
    "final call, reads each of your calls against each of theirs: the band, the average "
    "gain and the main risk. Control silences speech. "
    "F1 is this help. Escape closes a dialog, or asks whether to quit. "
    "Comma and period step back and forward through everything said so far; Shift+Comma and "
    "Shift+Period jump to the first and the last; slash chooses everything, results only, or "
    "the computer's moves. F plays the field tone: higher and further right means closer to "
    "their goal, then says the ball and the first-down marker. O or F2 opens settings. "
    "Page Up and Page Down scroll the text shown under the decision, for anyone reading "
    "the window."
)


def keys_help() -> str:
    """Every key, in the player's language (F1 pressed twice)."""
    return _(KEYS)


class LazyTexts(Mapping[str, str]):
    """A table of texts built afresh at each look-up, so it speaks the language chosen at run
    time rather than the one (none) active at import."""

    def __init__(self, build: Callable[[], dict[str, str]]) -> None:
        self._build = build

    def __getitem__(self, key: str) -> str:
        return self._build()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._build())

    def __len__(self) -> int:
        return len(self._build())


def _screens() -> dict[str, str]:
    players = n_("{count} player", "{count} players",
                 PLAYERS_PER_HAND).format(count=PLAYERS_PER_HAND)
    calls = n_("{count} call", "{count} calls", CALLS_PER_HAND).format(count=CALLS_PER_HAND)
    return {
        "welcome": _(
            "Welcome screen. Sudden Death is a football card game you play by ear against the "
            "computer: one drive each, chosen card by card. Press Enter on Start a game. New "
            "here? Guided first down explains each step as you play it, and How to play reads "
            "the rules in short sections. Settings changes speech speed, voice, volumes and "
            "verbosity."
        ),
        "naming": _(
            "Naming a team. Type a name; each letter is read back. Backspace removes the last "
            "letter. Enter accepts the name; an empty name takes the default."
        ),
        "coin": _("Coin toss. Choose Heads or Tails with the arrows and press Enter."),
        "side": _(
            "You won the toss. Choose to take the ball first or to defend first, then press "
            "Enter."
        ),
        "snap": _(
            "Fourth down, on offense. Go for it to pick cards, or punt, or try a field goal. "
            "The punt says where the ball would land for each of its three rolls; the field "
            "goal says its distance, the dice total it needs and its chance. On the last drive "
            "each says how the game would end, and a kick that can only lose asks first. "
            "Shift+Tab reaches Concede."
        ),
        # Translators: {players} is a count of featured players, as "2 players"; {calls} a
        # count of play calls, as "3 calls".
        "selection": _(
            "Pick {players} and {calls} for this down. "
            "Space checks a card and the count is read; "
            "when the players list is full the focus moves on to the calls. Enter confirms. "
            "From the second down on each side, last down's cards are already checked: Enter "
            "plays them again, or uncheck one and check another first. On offense before "
            "fourth down, the punt and the field goal are the last list: Tab past Confirm. D "
            "reads a card's details. The computer has already chosen and cannot see yours."
        ).format(players=players, calls=calls),
        "substitution": _(
            "Substitution. Keep all your cards, or replace one player or one call: below Keep "
            "comes each card you hold. Choose the one to replace, then the card to bring in; D "
            "reads any of them. M reads how your calls meet theirs, or, on a card to bring in, "
            "how they would with it. Escape goes back a step."
        ),
        "final": _(
            "Final call. Choose which of your three calls is played, then press Enter. M "
            "reads each of your calls against each of theirs."
        ),
        "game_over": _("The game is over. Play again with the same team names, or quit."),
        "confirm": _(
            "A question. Choose Yes or No with the arrows and press Enter. Escape means No."
        ),
        "section": _(
            "A review list. Arrows move through it; H or Escape returns to your decision."
        ),
        "settings": _(
            "Settings. Up and Down choose a setting: language (each speaks in its own voice), "
            "speech rate, voice, speech volume, sound "
            "effects volume, verbosity, menu wrap, hear the play (a glide from the old spot to "
            "the new after each play), text size in the window, opponent (the rules' random "
            "computer or the coach, from the next game), speech engine, and speech output: the "
            "built-in voice, your screen reader and braille display, or both. "
            "Left and Right change it, Shift+Left and Shift+Right in bigger steps; Space or "
            "Enter cycles the settings that are choices. You hear "
            "each change in the new setting, and it is saved at once. Short verbosity says "
            "only what changed; detailed adds the rolls and the reasons. Escape or Done closes "
            "settings."
        ),
        "rules": _(
            "How to play: the rules in short sections. Down reads the next section, Up the one "
            "before, Enter reads it again. Escape returns."
        ),
        "explorer": _(
            "The explorer of play cards and bands. Choose offensive or defensive calls, "
            "players, how the band is made, or try a matchup, and press Enter. Nothing here "
            "changes the game. Escape goes back one level; from here it closes the explorer "
            "and returns to where you were."
        ),
        "explorer_list": _(
            "A list of cards. Enter opens a card; D reads its details. Escape goes back."
        ),
        # Translators: the bands run from "minus {low}" (worst for the offense) to "plus {high}".
        "explorer_call": _(
            "An offensive call. The Bands list comes first: Left and Right, or Up and Down, "
            "step from band minus {low} to plus {high} and read the figures there; "
            "Enter reads the yardage table "
            "itself. Tab moves to the matchups (Enter hears a matchup's figures), the players "
            "that touch this call, and Back. Escape goes back."
        ).format(low=-MIN_BAND, high=MAX_BAND),
        "explorer_defense": _(
            "A defensive call against each offensive call. Bands count for the offense, so a "
            "minus band is good for the defense. Enter hears the figures of that matchup. "
            "Escape goes back."
        ),
        "explorer_player": _(
            "A featured player: for each defensive call, how this player moves the band of the "
            "call on its card and what that does to the average gain. Escape goes back."
        ),
        "explorer_rules": _(
            "How the band is made, line by line, then the matchup table row by row. Escape "
            "goes back."
        ),
        # Translators: {players} is a count of featured players, as "2 players".
        "explorer_try": _(
            "Try a matchup. Tab moves between the offensive call, the defensive call, up to "
            "{players} "
            "a side, the result and Back. Arrows choose a call; Space checks a player. "
            "Enter hears the band, how it was made and its figures, as the engine computes "
            "them. Escape goes back."
        ).format(players=players),
    }


# What each screen is for, by its help key: built in the active language at each look-up.
SCREENS: Mapping[str, str] = LazyTexts(_screens)


def screen_help(screen: str) -> str:
    """What `screen` is for and its own keys; F1 once more reads `KEYS`."""
    text = SCREENS.get(screen, "")
    if not text:
        return keys_help()
    # Translators: {help} is what the current screen is for, a few sentences.
    return _("{help} F1 again lists every key.").format(help=text)
