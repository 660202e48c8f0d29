"""Two real game processes play a whole game against each other through a real table server
on 127.0.0.1, each from its own live key script (`--keys -`), judged by their transcripts and
by a local replay of the server's seed with the same choices."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from table_driver import HOST_KEYS, JOIN_KEYS, Seat, Server, play_a_friend

from sudden_death.engine import events as ev
from sudden_death.engine.actions import (
    CallCoin,
    ChooseSide,
    ChooseSnap,
    PickSwap,
    actors,
    legal_actions,
)
from sudden_death.engine.game import Game
from sudden_death.engine.state import CoinFace, Phase, Side, SnapChoice, Swap, Team
from sudden_death.ui.words.phrases import Names
from sudden_death.ui.words.situation import outcome_words

SEED = 5


def replayed(seed: int) -> tuple[Game, list[ev.Event]]:
    """The game both drivers play (their strategy, table_driver.Seat.keys_for), locally."""
    game, events = Game(random.Random(seed)), []
    while not game.is_over:
        state, actions = game.state, {}
        for team in actors(state):
            phase = state.phase
            if phase is Phase.COIN_TOSS:
                actions[team] = CallCoin(CoinFace.HEADS)
            elif phase is Phase.SIDE_CHOICE:
                actions[team] = ChooseSide(Side.OFFENSE)
            elif phase is Phase.SNAP_CHOICE:
                actions[team] = ChooseSnap(SnapChoice.PLAY)
            elif phase is Phase.SUBSTITUTION:
                actions[team] = PickSwap(Swap.keep())
            else:
                actions[team] = legal_actions(state, team)[0]
        events += game.apply(actions)
    return game, events


@pytest.fixture(scope="module")
def friendly_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Seat, Seat, int]:
    host, guest, server = play_a_friend(tmp_path_factory.mktemp("table"), "--seed", str(SEED))
    codes = host.finish(), guest.finish()
    assert codes == (0, 0), host.stderr() + guest.stderr()
    assert server.stop() == 0
    return host, guest, 0


def test_both_players_hear_the_same_final_score_the_servers_dice_give(friendly_game) -> None:
    host, guest, _ = friendly_game
    game, _events = replayed(SEED)
    outcome = game.state.outcome
    assert outcome is not None
    # The guest is the home team and named the Bears; the host the away team, the Hawks.
    assert outcome_words(outcome, Names("Bears", "Hawks", Team.AWAY)) in host.speech()
    assert outcome_words(outcome, Names("Bears", "Hawks", Team.HOME)) in guest.speech()
    for seat in (host, guest):
        assert "Traceback" not in seat.stderr()
        # Nothing either driver sent was refused: each turn came once, with its own step.
        assert not [line for line in seat.speech() if "refused" in line or "Not allowed" in line]


def test_each_card_step_is_heard_by_both_once_each_down(friendly_game) -> None:
    host, guest, _ = friendly_game
    _game, events = replayed(SEED)
    downs = sum(isinstance(event, ev.FinalCallsRevealed) for event in events)
    assert downs > 5
    for seat in (host, guest):
        turns = [r for r in seat.records if r.get("kind") == "turn" and r.get("mine")]
        finals = [turn for turn in turns if turn["phase"] == "final_call"]
        assert len(finals) == downs  # each seat chose a final call every down, no more
        spoken = seat.speech()
        assert sum("against" in line for line in spoken) >= downs


def test_while_the_friend_chooses_the_player_hears_whom_they_wait_for(friendly_game) -> None:
    host, guest, _ = friendly_game
    assert "Waiting for the Bears." in host.speech()
    assert "Waiting for the Hawks." in guest.speech()
    table = [r for r in host.records if r.get("kind") == "table"]
    assert len(table) == 1 and len(table[0]["code"]) == 6
    code = table[0]["code"]
    said = f"Your table code: {code[:2]} {code[2:4]} {code[4:]}."
    assert said in host.speech()
    assert "The Bears joined your table." in host.speech()
    assert "You are the Bears; your friend plays the Hawks." in guest.speech()


def test_a_wrong_code_is_said_and_the_code_can_be_typed_again(tmp_path: Path) -> None:
    server = Server()
    host = Seat(tmp_path / "host", "--server", server.url)
    guest = Seat(tmp_path / "guest", "--server", server.url)
    try:
        host.send(*HOST_KEYS)
        code = host.next("table")["code"]
        wrong = "999999" if code != "999999" else "111111"
        guest.send(*JOIN_KEYS, "type 12", "return", f"type {wrong[2:]}", "return")
        guest.until_said("No open table has that code. Check it and type it again.")
        assert "A table code has 6 digits; you typed 2." in guest.speech()
        guest.send(f"type {code}", "return")
        turn = guest.next("turn")
        assert turn["mine"] and turn["phase"] == "coin_toss"
    finally:
        host.kill()
        guest.kill()
        server.stop()


def test_a_server_that_is_not_there_is_said_and_the_game_goes_on(tmp_path: Path) -> None:
    guest = Seat(tmp_path / "guest", "--server", "ws://127.0.0.1:9")
    try:
        guest.send(*JOIN_KEYS, "type 123456", "return")
        guest.until_said("Could not reach the table server. Check the address, or try again "
                         "later.")
        guest.until_said("Play a friend: Host a table, 1 of 3")  # back to host or join
        guest.send("escape", "end", "return", "down", "return")  # the title, Quit, Yes
        assert guest.finish() == 0
        assert "Goodbye." in guest.speech()
    finally:
        guest.kill()
