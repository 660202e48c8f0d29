"""The sound glossary: every cue of the game, played with its name, so a player can learn what
each sound means before hearing it in play."""

from __future__ import annotations

from ...audio.protocols import CUE_NAMES, Category
from ...language import N_, _
from ..keys.keymap import Command
from ..screens.base import Host, Screen
from ..screens.menu import Group, Item, ItemKind, Menu

# What each cue means, in the order the glossary lists them (translated where it is said).
CUE_MEANINGS: dict[str, str] = {
    # Translators: what a sound of the game means, as the sound glossary names it.
    "coin": N_("Coin toss: the coin spins"),
    "whistle": N_("Whistle: a new drive begins"),
    "reveal": N_("Cards revealed: both hands, a swap, or the final calls"),
    "dice": N_("Dice: a roll, one click a die"),
    "big_play": N_("Your big play: a gain of 15 yards or more"),
    "big_play_theirs": N_("Their big play: the other team gains 15 yards or more"),
    "sack": N_("Sack: the passer is brought down"),
    "fumble": N_("Fumble: the ball comes loose"),
    "interception": N_("Interception: your pass is caught by the defense"),
    "turnover": N_("Turnover: you lose the ball to the other team"),
    "turnover_won": N_("Takeaway: your defense takes the ball away"),
    "touchdown": N_("Your touchdown: the crowd cheers"),
    "touchdown_theirs": N_("Their touchdown: the home crowd groans"),
    "field_goal_good": N_("Your kick good: a field goal or extra point through the posts"),
    "field_goal_theirs": N_("Their kick good: the other team's field goal or extra point"),
    "field_goal_no_good": N_("Kick no good: wide or short"),
    "punt": N_("Punt: the ball is kicked away"),
    "safety": N_("Safety: tackled in your own end zone"),
    "game_won": N_("Game over, you won"),
    "game_lost": N_("Game over, you lost"),
    "game_tied": N_("Game over, a tie"),
    "menu_move": N_("Menu move: the focus moved"),
    "menu_edge": N_("Menu edge: the end of a list"),
    "menu_select": N_("Select: a box checked or a choice made"),
    "menu_error": N_("Error: not allowed, or something went wrong"),
    "chat": N_("Chat: a message from your friend at a table"),
    "waiting": N_("Waiting: your friend at a table is still choosing"),
}


class SoundGlossaryScreen(Screen):
    """Up and Down move through the cues; each is played, then named. Enter plays it again."""

    help_key = "sounds"

    def __init__(self, host: Host) -> None:
        self.cues = [name for name in CUE_MEANINGS if name in CUE_NAMES]
        items = [Item(_(CUE_MEANINGS[name]), ItemKind.TEXT) for name in self.cues]
        super().__init__(host, Menu(_("Sounds of the game"), [Group(_("Sounds"), items)]))

    def intro(self) -> str:
        count = len(self.cues)
        # Translators: {count} is how many sounds the glossary holds; {first} is the first;
        # names in braces like {activate} are keys: {previous_item}, {next_item}, {activate}
        # and {back} as "Up", "Down", "Enter" and "Escape".
        return self.host.keys.fill(_("Sounds of the game, {count} of them. {previous_item} and "
                                     "{next_item} play each one and name it; {activate} plays "
                                     "it again; {back} returns. {first}"),
                                   count=count, first=self.menu.describe(entering=True))

    def on_command(self, command: Command) -> bool:
        """Every move plays the sound it lands on, not the menu's own move sound."""
        moves = {Command.PREVIOUS_ITEM: -1, Command.NEXT_ITEM: 1}
        group = self.menu.group
        if command in moves:
            target = group.focus + moves[command]
            if not 0 <= target < len(group.items):
                self.host.cue("menu_edge")
                self.host.say(self.menu.describe(), category=Category.MENU)
                return True
            group.focus = target
        elif command is Command.FIRST_ITEM:
            group.focus = 0
        elif command is Command.LAST_ITEM:
            group.focus = len(group.items) - 1
        elif command not in (Command.ACTIVATE, Command.TOGGLE):
            return False
        self.play_focused()
        return True

    def play_focused(self) -> None:
        self.host.cue(self.cues[self.menu.group.focus])
        self.host.say(self.menu.describe(), category=Category.MENU)

    def on_escape(self) -> bool:
        self.host.pop()
        return True
