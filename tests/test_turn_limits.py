"""A turn limit by ear (issue 49), with two real game processes at a real table server: the
host's setting gives the table its limit, both players hear it as the game begins, and A
asks for the whole turn again, saying how many times are left. The server's side (warnings,
the turn that runs out) is tests/test_server_turns.py."""

from __future__ import annotations

from pathlib import Path

from table_driver import table


def test_the_limit_is_announced_to_both_and_a_asks_for_more_time(tmp_path: Path) -> None:
    with table(tmp_path, "--seed", "4", host_settings={"turn_limit": 1}) as (_server, host,
                                                                            guest):
        for seat in (host, guest):
            seat.until_said("Each turn has 1 minute; A asks for more time.")
        guest.next("turn")  # the guest (home) calls the toss: its turn
        guest.send("a")
        guest.until_said("1 more minute. You may ask 9 more times.")
        host.send("a")  # not the host's turn: the game says why, and asks nothing
        host.until_said("More time is for a choice of your own, when it is your turn.")


def test_no_limit_is_said_when_the_host_set_none(tmp_path: Path) -> None:
    with table(tmp_path, "--seed", "4") as (_server, host, guest):
        guest.next("turn")
        guest.send("a")
        guest.until_said("There is no turn limit here.")
        assert not any(line.startswith("Each turn has") for line in host.speech())
