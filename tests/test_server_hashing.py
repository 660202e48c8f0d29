"""Passwords' slow hashes never starve the rest of the server (issue 59, 4): a flood of
passworded tables and sign-ups from many addresses, through real WebSocket clients on a real
server, while a plain table elsewhere is seated at once and another player signs in."""

from __future__ import annotations

import asyncio
import time

from server_lab import receive, run, server
from websockets.asyncio.client import ClientConnection

from sudden_death.server.lines.limits import Limits
from sudden_death.wire import protocol as p

PASSWORD = "correct horse"
# Test-sized: one thread for the slow hashes, 2 in hand per address, 6 in all (and 2 more kept
# for owners signing in from their usual address); the per-address
# line limits out of the way, so the flood reaches the hashes.
SMALL = Limits(per_address=1000, connects_per_s=1000, connect_burst=1000, failed_tries=1000,
               hash_threads=1, hashes_per_address=2, hashes_queued=6, hashes_for_owners=2)


def kind(answer: dict) -> str:
    """A refusal's code, else the answer's type."""
    return str(answer["code"] if answer["type"] == "refused" else answer["type"])


async def timed(line: ClientConnection, message: p.Message) -> tuple[dict, float]:
    began = time.perf_counter()
    await line.send(p.encode(message))
    answer = await receive(line, timeout=60)
    return answer, time.perf_counter() - began


def test_a_flood_of_passworded_tables_and_sign_ups_leaves_the_rest_of_the_server_quick() -> None:
    """Before: every hash shared asyncio's default executor with the seats' seals, so the plain
    table waited behind the whole flood (about 9 s here); now its seal never queues behind a
    password, and the flood past its bounds is refused at once."""
    flood_hosts = [f"127.0.0.{10 + n}" for n in range(10)]
    flood_sign_ups = [f"127.0.0.{30 + n}" for n in range(10)]

    async def scenario() -> None:
        async with server(limits=SMALL) as lab:
            player = await lab.connect("127.0.0.3")
            await player.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, "Anna", PASSWORD)))
            token = (await receive(player))["token"]
            greetings: list[tuple[ClientConnection, p.Message]] = []
            for source in flood_hosts:
                for number in range(8):
                    greetings.append((await lab.connect(source), p.Host(
                        p.PROTOCOL_VERSION, f"Flood {number}", password="a secret")))
            for source in flood_sign_ups:
                for number in range(4):
                    greetings.append((await lab.connect(source), p.SignUp(
                        p.PROTOCOL_VERSION, f"{source} {number}", PASSWORD)))
            for line, greeting in greetings:  # all at once, the lines open beforehand
                await line.send(p.encode(greeting))
            flood = [line for line, _ in greetings]
            await asyncio.sleep(0.05)  # the flood is in: its hashes are running
            plain, plain_s = await timed(await lab.connect("127.0.0.4"),
                                         p.Host(p.PROTOCOL_VERSION, "Hawks"))
            signed, signed_s = await timed(await lab.connect("127.0.0.5"),
                                           p.SignIn(p.PROTOCOL_VERSION, "Anna", token=token))
            print(f"plain host seated in {plain_s:.3f} s, token sign-in in {signed_s:.3f} s")
            assert plain["type"] == "seated" and plain_s < 2.0, plain_s
            assert signed["type"] == "signed_in" and signed_s < 2.0, signed_s
            # The owner's password from their usual address is kept a place: it signs in,
            # after the queue at most; from a new address it may hear `busy` at once instead.
            typed, typed_s = await timed(await lab.connect("127.0.0.3"),
                                         p.SignIn(p.PROTOCOL_VERSION, "Anna", PASSWORD))
            assert typed["type"] == "signed_in" and typed_s < 15.0, (typed, typed_s)
            elsewhere, elsewhere_s = await timed(await lab.connect("127.0.0.6"),
                                                 p.SignIn(p.PROTOCOL_VERSION, "Anna", PASSWORD))
            assert kind(elsewhere) in ("signed_in", p.BUSY) and elsewhere_s < 15.0, elsewhere
            print(f"the owner's password signed in in {typed_s:.3f} s; from elsewhere: "
                  f"{kind(elsewhere)} in {elsewhere_s:.3f} s")
            answers = [await receive(line, timeout=30) for line in flood]
            kinds = {kind(answer) for answer in answers}
            assert kinds <= {"seated", "signed_in", p.BUSY, p.SLOW_DOWN}, kinds
            assert p.BUSY in kinds and p.SLOW_DOWN in kinds  # the bounds said in words
            assert lab.service.desk.hashing.total == 0 and not lab.service.desk.hashing.asked

    run(scenario)


def test_right_passwords_count_too_one_address_gets_few_hashes_at_once() -> None:
    """Before: a right password cost a slow hash and counted nowhere, so ten lines of one
    account signing in over and over queued unbounded work. Now one address has at most
    `hashes_per_address` in hand; the rest are refused `slow_down` at once."""
    async def scenario() -> None:
        async with server(limits=SMALL) as lab:
            owner = await lab.connect("127.0.0.3")
            await owner.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, "Anna", PASSWORD)))
            assert (await receive(owner))["type"] == "signed_in"
            lines = [await lab.connect("127.0.0.3") for _ in range(10)]
            for line in lines:
                await line.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "Anna", PASSWORD)))
            answers = [await receive(line, timeout=30) for line in lines]
            codes = sorted(kind(answer) for answer in answers)
            assert codes == ["signed_in"] * 2 + [p.SLOW_DOWN] * 8
            assert all(not answer.get("fatal") for answer in answers)  # the line may try again

    run(scenario)


def test_wrong_sign_in_tokens_from_many_addresses_are_bounded_on_their_own_lane() -> None:
    """A token's hash is cheap, but tokens from many addresses at once filled the executor
    that seals new seats. Now they have a thread of their own under the same bounds: past
    them `busy` or `slow_down` at once, while a plain table is seated and the owner's token,
    from their usual address, signs in."""
    async def scenario() -> None:
        async with server(limits=SMALL) as lab:
            owner = await lab.connect("127.0.0.3")
            await owner.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, "Anna", PASSWORD)))
            token = (await receive(owner))["token"]
            lines = [await lab.connect(f"127.0.0.{10 + n // 4}") for n in range(80)]
            for number, line in enumerate(lines):
                await line.send(p.encode(p.SignIn(p.PROTOCOL_VERSION, "Anna",
                                                  token=f"wrong-{number:020d}")))
            plain, plain_s = await timed(await lab.connect("127.0.0.4"),
                                         p.Host(p.PROTOCOL_VERSION, "Hawks"))
            signed, _ = await timed(await lab.connect("127.0.0.3"),
                                    p.SignIn(p.PROTOCOL_VERSION, "Anna", token=token))
            assert plain["type"] == "seated" and plain_s < 2.0, plain_s
            assert signed["type"] == "signed_in"
            kinds = [kind(await receive(line, timeout=30)) for line in lines]
            assert set(kinds) <= {p.BAD_SIGN_IN, p.BUSY, p.SLOW_DOWN}, kinds
            assert p.BUSY in kinds and p.BAD_SIGN_IN in kinds
            assert lab.service.desk.token_checks.total == 0

    run(scenario)
