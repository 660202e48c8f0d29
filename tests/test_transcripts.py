"""The spoken game stays as it was: seeded games against the computer (English and Spanish)
and a seeded game at a table, played by the real program, say exactly the words kept in
tests/transcripts/ (written by tools/transcripts.py from the game before the one-seam change,
and again only after a change meant to alter the words)."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

from scripts import load_script

ROOT = Path(__file__).resolve().parent.parent
KEPT = Path(__file__).resolve().parent / "transcripts"


def tool() -> ModuleType:
    return load_script("tools/transcripts.py", "transcripts_tool")


def kept(name: str) -> list[str]:
    return json.loads((KEPT / f"{name}.json").read_text(encoding="utf-8"))


def test_games_against_the_computer_say_the_kept_words() -> None:
    transcripts = tool()
    for seed, lang in transcripts.COMPUTER_GAMES:
        name = f"computer-{seed}-{lang}"
        said = transcripts.computer_game(seed, lang)
        assert len(said) > 100, name  # a whole game, not an early stop
        assert said == kept(name), name


def test_a_game_at_a_table_says_the_kept_words_at_both_seats() -> None:
    transcripts = tool()
    seats = transcripts.table_game()
    for seat, said in seats.items():
        name = f"table-{transcripts.TABLE_SEED}-{seat}"
        assert any(line.startswith("Final score:") for line in said), name
        assert said == kept(name), name


def test_the_masking_keeps_what_is_the_game_and_hides_only_chance() -> None:
    table_line = tool().table_line
    assert table_line("Waiting for the Bears.") is None
    assert table_line("The Bears left the table. The game is over.") is None
    assert table_line("Your table code: 51 92 73.") == "Your table code: ## ## ##."
    assert table_line("7") == "#"
    assert table_line("3rd and 4 at your 31") == "3rd and 4 at your 31"
