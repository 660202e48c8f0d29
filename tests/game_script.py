"""Key scripts that play a whole game with a fixed, simple strategy (a test helper: the tests,
tools/build_check.py and the benchmarks import it from here; the game never does).

Tests and benchmarks need `--keys` files that reach the end of a game for a given seed. The
script is planned by replaying the engine with the same seed and the same choices the keys make,
so it stays correct as long as the screens' default focus and numbering stay as documented.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from sudden_death.engine.actions import CallCoin, ChooseSide, ChooseSnap, PickSwap
from sudden_death.engine.card_model import Role
from sudden_death.engine.events import Event, GameOver
from sudden_death.engine.field import LAST_DOWN
from sudden_death.engine.match import Match
from sudden_death.engine.state import CoinFace, Phase, Side, SnapChoice, Swap
from sudden_death.ui.words.kicks import punt_option
from sudden_death.ui.words.phrases import Names


def plan_game(seed: int, home: str = "Hawks", punt_on_fourth: bool = True,
              swap_first: bool = False) -> tuple[list[str], list[Event]]:
    """Key lines from launch to game over, and the engine events the game will produce.

    Strategy: call heads, take offense, run plays (punt on fourth down, confirming when the
    game asks), pick the first 2 players and first 3 calls (later downs: the same cards, which
    come checked again), keep them, and play the first call. `swap_first`: at the first
    keep-or-replace question, replace the first player with the first card offered instead.
    """
    keys = ["return", f"type {home}", "return", "return"]  # start, name, default away name
    match = Match.against_computer(seed)
    events = list(match.advance())
    picked: set[Role] = set()  # after a side's first down, its last cards come checked again
    swapped = not swap_first
    while (decision := match.pending()) is not None:
        phase = decision.phase
        if phase is Phase.COIN_TOSS:
            keys.append("return")
            events += match.act(CallCoin(CoinFace.HEADS))
        elif phase is Phase.SIDE_CHOICE:
            keys.append("return")
            events += match.act(ChooseSide(Side.OFFENSE))
        elif phase is Phase.SNAP_CHOICE:
            down = match.state.down
            assert down is not None
            if down.number == LAST_DOWN and punt_on_fourth:
                keys += ["down", "return"]
                if punt_option(match.state, Names(home, "Bears")).confirm:
                    keys += ["down", "return"]  # "Punt anyway?": yes
                events += match.act(ChooseSnap(SnapChoice.PUNT))
            else:
                if down.number == LAST_DOWN:
                    keys.append("return")  # go for it; before fourth down the cards come first
                events += match.act(ChooseSnap(SnapChoice.PLAY))
        elif phase is Phase.SELECTION:
            role = decision.role or Role.OFFENSE
            keys += ["return"] if role in picked else ["1", "2", "1", "2", "3", "return"]
            picked.add(role)
            events += match.act(match.legal_actions()[0])  # the first 2 players, first 3 calls
        elif phase is Phase.SUBSTITUTION and not swapped:
            keys += ["down", "return", "return"]  # Replace (the first player), the first in
            swapped = True
            events += match.act(match.legal_actions()[1])  # after Keep: that very swap
        elif phase is Phase.SUBSTITUTION:
            keys.append("return")
            events += match.act(PickSwap(Swap.keep()))
        else:
            keys.append("return")
            events += match.act(match.legal_actions()[0])  # the first call held
    assert any(isinstance(event, GameOver) for event in events)
    return keys, events


def spoken_lines(seed: int, keys: list[str], lang: str, config: Path) -> list[str]:
    """What the real program says playing `keys` (headless, silent, in `lang`, settings kept in
    `config`); fails with its stderr if it does not end cleanly."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    result = subprocess.run(
        [sys.executable, "-m", "sudden_death", "--headless", "--no-sound", "--seed", str(seed),
         "--lang", lang, "--keys", "-", "--transcript", "-", "--config", str(config)],
        input="\n".join(keys) + "\n", cwd=Path(__file__).resolve().parent.parent, env=env,
        capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    records = [json.loads(line) for line in result.stdout.splitlines() if line.startswith("{")]
    return [r["text"] for r in records if r.get("kind") == "speech"]
