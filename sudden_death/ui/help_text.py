"""F1 help: what each screen is for, then every key. Kept apart so wording is easy to review."""

from __future__ import annotations

KEYS = (
    "Keys: Tab and Shift+Tab move between controls. Up and Down arrows move within a list; "
    "in a radio group they also select. Space checks a box or selects an option. "
    "Enter presses a button or confirms your decision. Home and End jump to the first or "
    "last item. Number keys 1 to 9 pick that item of the list. H and Shift+H step through "
    "the sections: current decision, computer calls, rosters and game log. S reads the score "
    "and situation. R repeats the last message. D reads details of the focused card; press it "
    "again to close them. Control silences speech. F1 is this help. Escape closes a dialog, "
    "or asks whether to quit."
)

SCREENS: dict[str, str] = {
    "welcome": (
        "Welcome screen. Sudden Death is a football card game you play by ear against the "
        "computer: one drive each, chosen card by card. Press Enter on Start a game."
    ),
    "naming": (
        "Naming a team. Type a name; each letter is read back. Backspace removes the last "
        "letter. Enter accepts the name; an empty name takes the default."
    ),
    "coin": "Coin toss. Choose Heads or Tails with the arrows and press Enter.",
    "side": (
        "You won the toss. Choose to take the ball first or to defend first, then press Enter."
    ),
    "snap": (
        "Before the down, on offense. Run a play to pick cards, or punt, or try a field goal. "
        "The field goal item says its distance and the 3 dice total it needs; past 65 yards it "
        "is unavailable. Shift+Tab reaches Concede."
    ),
    "selection": (
        "Pick exactly 2 players and 3 calls for this down. Players are in the first list, "
        "calls in the second; Tab moves between them and the Confirm button. Space checks a "
        "card, and the counts are read after every change. Enter confirms. D reads a card's "
        "details. The computer has already chosen and cannot see yours."
    ),
    "substitution": (
        "Substitution. Keep all your cards, or replace one player, or replace one call. "
        "After choosing to replace, pick the card to take out, then the card to bring in. "
        "Escape goes back a step."
    ),
    "final": "Final call. Choose which of your three calls is played, then press Enter.",
    "game_over": "The game is over. Play again with the same team names, or quit.",
    "confirm": "A question. Choose Yes or No with the arrows and press Enter. Escape means No.",
    "section": (
        "A review list. Arrows move through it; H or Escape returns to your decision."
    ),
}


def help_for(screen: str) -> str:
    """Help for `screen`, then the full list of keys."""
    return f"{SCREENS.get(screen, '')} {KEYS}".strip()
