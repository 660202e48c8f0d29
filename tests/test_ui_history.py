"""History review: every message of the game, in order, with "N of M", filtered by category."""

from __future__ import annotations

from pathlib import Path

from recording import RecordingCues, RecordingSpeaker

from sudden_death.audio.protocols import Message
from sudden_death.ui.aids.history import NOT_RECORDED, History
from sudden_death.ui.run.cli import Options
from sudden_death.ui.run.loop import run_app

# Seed 1 with heads: the player wins the toss; then one whole down with the first cards.
ONE_DOWN = ["return", "type Jets", "return", "return", "return", "return",
            "1", "2", "1", "2", "3", "return", "return", "return"]


def test_history_steps_and_filters() -> None:
    history = History()
    assert history.step(-1).text == "No everything messages yet."
    for text, category in (("Coin shows heads.", "result"), ("Focus one", "menu"),
                           ("The Bears punt.", "computer"), ("Review text", "history"),
                           ("Gain of 4 yards.", "result")):
        history.record(Message(text, category=category))
    # Focus moves (menu) are the echo of the player's own keys, not messages to review.
    assert [m.text for m in history.messages] == [
        "Coin shows heads.", "The Bears punt.", "Gain of 4 yards."]
    assert history.step(-1).text == "Gain of 4 yards. 3 of 3."
    assert history.step(-1).text == "The Bears punt. 2 of 3."
    assert history.step(1).text == "Gain of 4 yards. 3 of 3."
    edge = history.step(1)
    assert edge.cue == "menu_edge" and edge.text == "Gain of 4 yards. 3 of 3."
    assert history.first().text == "Coin shows heads. 1 of 3."
    assert history.step(-1).cue == "menu_edge"
    assert history.last().text == "Gain of 4 yards. 3 of 3."
    assert history.step(-2).text == "Coin shows heads. 1 of 3."
    assert history.cycle_filter().text == "History: results, 2 messages."
    assert history.step(-1).text == "Gain of 4 yards. 2 of 2."
    assert history.first().text == "Coin shows heads. 1 of 2."
    assert history.cycle_filter().text == "History: computer, 1 message."
    assert history.last().text == "The Bears punt. 1 of 1."
    history.record(Message("New focus", category="menu"))
    history.record(Message("The Bears keep their cards.", category="computer"))
    assert history.cycle_filter().text == "History: chat, 0 messages."  # a friend's lines
    history.record(Message("Bears: nice play", category="chat"))
    assert history.last().text == "Bears: nice play. 1 of 1."
    assert history.cycle_filter().text.startswith("History: everything, 5")


def test_review_reads_every_message_of_the_game_in_order(tmp_path: Path) -> None:
    keys = [*ONE_DOWN, "shift+,"] + ["."] * 200
    key_file = tmp_path / "keys.txt"
    key_file.write_text("\n".join(keys) + "\n", encoding="utf-8")
    speaker, cues = RecordingSpeaker(), RecordingCues()
    options = Options(seed=1, headless=True, keys=str(key_file), no_sound=True,
                      config=tmp_path / "cfg")
    assert run_app(options, speaker=speaker, cues=cues) == 0
    game = [m.text for m in speaker.spoken
            if m.category not in NOT_RECORDED and m.text.strip()]
    review = [m.text for m in speaker.spoken if m.category == "history"]
    total = len(game)
    assert total > 15 and any(t == "Inside Run against Blitz." for t in game)
    assert not any(t.endswith(("1 of 3", "1 of 2")) for t in game)  # no focus chatter
    expected = []
    for index, text in enumerate(game, 1):
        joiner = " " if text.rstrip().endswith((".", "!", "?", ":")) else ". "
        expected.append(f"{text.rstrip()}{joiner}{index} of {total}.")
    assert review[:total] == expected  # every message, in order, with its place
    assert set(review[total:]) == {expected[-1]}  # past the end: the last again, with the edge
    assert cues.played[-1] == "menu_edge"


def test_review_keys_in_the_game_and_their_categories(tmp_path: Path) -> None:
    keys = [*ONE_DOWN, ",", "/", ",", "shift+,", "/", "shift+.", "/", "shift+/"]
    key_file = tmp_path / "keys.txt"
    key_file.write_text("\n".join(keys) + "\n", encoding="utf-8")
    speaker = RecordingSpeaker()
    options = Options(seed=1, headless=True, keys=str(key_file), no_sound=True,
                      config=tmp_path / "cfg")
    assert run_app(options, speaker=speaker, cues=RecordingCues()) == 0
    review = [m.text for m in speaker.spoken if m.category == "history"]
    assert review[0].startswith("Your cards: ")  # the latest: the new decision
    assert review[1].startswith("History: results,")
    results = [m.text for m in speaker.spoken if m.category in ("result", "game_over")]
    assert review[2] == f"{results[-1]} {len(results)} of {len(results)}."
    assert review[3] == f"{results[0]} 1 of {len(results)}."
    assert review[4].startswith("History: computer,")
    computer = [m.text for m in speaker.spoken if m.category == "computer"]
    assert computer[-3:] == [  # their reveal, their swap and both final calls
        "The Bears show Nose Tackle, Edge Setter; Blitz, Zone Coverage, Prevent.",
        "The Bears keep their cards.", "Inside Run against Blitz."]
    assert review[5] == f"{computer[-1]} {len(computer)} of {len(computer)}."
    assert review[6].startswith("History: chat, 0 messages")  # nobody to chat with here
    assert review[7].startswith("History: computer,")  # Shift+slash goes back
