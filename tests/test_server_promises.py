"""The table server keeps docs/protocol.md's promises about who hears what, and when (issue 59):
a spectator or a returning seat hears no choice still held; a private table never reaches the
lobby; a turn's clock runs only for a connected seat that owes the step, and warns it (alone)
`TURN_WARNING_S` before the end; the computer takes a dropped seat at the promised moment and
for the promised reason. Each test was checked by planting the mistake it guards against.
Real WebSocket clients against a real server on loopback, except the clock's exact moments,
which run on a fake loop's time so that no test measures the machine's speed."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_lab import Lab, receive, run, seated_pair, server
from websockets.asyncio.client import ClientConnection

from sudden_death.engine.actions import Concede, actors, legal_actions
from sudden_death.engine.state import Team
from sudden_death.server.roles import turn_clock
from sudden_death.server.roles.turn_clock import TurnClock
from sudden_death.server.tables import Seat, Table, new_game
from sudden_death.wire import protocol as p
from sudden_death.wire.values import WireAction, action_to_wire

HOME, AWAY = Team.HOME, Team.AWAY  # the guest (Bears) sits home, the host (Hawks) away


async def until(client: ClientConnection, kind: str, timeout: float = 10) -> dict[str, Any]:
    while (message := await receive(client, timeout))["type"] != kind:
        pass
    return message


async def drained(client: ClientConnection, quiet_s: float = 0.3) -> list[dict[str, Any]]:
    """Every message that arrives until none has for `quiet_s`."""
    found = []
    while True:
        try:
            found.append(json.loads(await asyncio.wait_for(client.recv(), quiet_s)))
        except (asyncio.TimeoutError, TimeoutError):
            return found


async def settled(condition: Callable[[], bool], timeout: float = 10) -> None:
    """Wait until `condition` holds (the server runs on this loop), failing after `timeout`."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        assert loop.time() < deadline, "the server never got there"
        await asyncio.sleep(0.01)


def playable(table: Table, team: Team, which: int = 0) -> WireAction:
    """One of `team`'s legal actions now (never a concession), as the wire carries it; for
    a seat that owes nothing, one of the other seat's (which the server refuses it)."""
    legal = [action for action in legal_actions(table.game.state, team)
             if not isinstance(action, Concede)] or [
        action for action in legal_actions(table.game.state, team.other)
        if not isinstance(action, Concede)]
    return action_to_wire(legal[which % len(legal)])


async def to_a_card_step(table: Table, seats: dict[Team, ClientConnection]) -> None:
    """Both seats play their first choices until a step that both owe (a card step, whose
    first choice the table holds)."""
    for _ in range(60):
        owed = [team for team in actors(table.game.state) if team not in table.held]
        if len(owed) == 2:
            return
        step = table.step
        await seats[owed[0]].send(p.encode(p.Act(step, [playable(table, owed[0])])))
        await settled(lambda: table.step != step)  # noqa: B023 (awaited here, in the loop)
    pytest.fail("the game never came to a card step")


async def watch(lab: Lab, code: str, name: str = "Cleo", step: int = 0
                ) -> tuple[ClientConnection, str]:
    """A spectator of the game at `code`, and the frame of its start."""
    spectator = await lab.connect()
    await spectator.send(p.encode(p.Watch(p.PROTOCOL_VERSION, code, name, step)))
    return spectator, str(await asyncio.wait_for(spectator.recv(), 5))


# -- held choices ----------------------------------------------------------------------------

def test_a_spectator_who_comes_while_a_choice_is_held_hears_nothing_of_it_before_the_reveal(
        ) -> None:
    """Protocol: a spectator hears `start` "with `held` always []", and never a held choice;
    after the reveal, the very update both seats heard."""
    async def scenario() -> None:
        async with server(seed=31) as lab:
            host, guest, host_seat, _ = await seated_pair(lab)
            code = host_seat["code"]
            table = lab.service.tables[code]
            seats = {AWAY: host, HOME: guest}
            await to_a_card_step(table, seats)
            step = table.step
            await guest.send(p.encode(p.Act(step, [playable(table, HOME)])))
            for seat in (host, guest):
                assert await until(seat, "committed") == {"type": "committed", "step": step,
                                                          "seat": int(HOME)}
            assert HOME in table.held
            spectator, frame = await watch(lab, code)
            start = json.loads(frame)
            assert start["type"] == "start" and start["step"] == step
            assert start["held"] == []  # never the guest's choice, held for this step
            assert '"action"' not in frame  # in no other field either
            before = await drained(spectator)
            assert not any('"action"' in json.dumps(message) for message in before)
            assert [message["type"] for message in before] == []  # nothing until the reveal
            await host.send(p.encode(p.Act(step, [playable(table, AWAY)])))
            update = await until(host, "update")
            assert await until(guest, "update") == update
            assert await receive(spectator) == update  # the very update both seats heard

    run(scenario)


def test_a_seat_that_comes_back_hears_its_own_held_choice_and_never_the_other_seats() -> None:
    """Protocol: after `resume`, `start`'s `held` is "your own choice the server holds for
    this step"; what the other seat committed stays unsaid until the reveal."""
    async def scenario() -> None:
        async with server(seed=37) as lab:
            host, guest, host_seat, guest_seat = await seated_pair(lab)
            code = host_seat["code"]
            table = lab.service.tables[code]
            await to_a_card_step(table, {AWAY: host, HOME: guest})
            step = table.step
            mine = playable(table, HOME)
            await guest.send(p.encode(p.Act(step, [mine])))
            await until(host, "committed")
            await host.close()  # the host drops while the guest's choice is held
            await until(guest, "away")
            back = await lab.connect()
            await back.send(p.encode(p.Resume(p.PROTOCOL_VERSION, code, host_seat["token"],
                                              step)))
            assert (await receive(back))["type"] == "seated"
            frame = str(await asyncio.wait_for(back.recv(), 5))
            resumed = json.loads(frame)
            assert resumed["type"] == "start" and resumed["step"] == step
            assert resumed["held"] == [] and '"action"' not in frame  # not the guest's
            await until(guest, "back")
            await guest.close()  # now the guest drops, and comes back: its own choice
            await until(back, "away")
            again = await lab.connect()
            await again.send(p.encode(p.Resume(p.PROTOCOL_VERSION, code, guest_seat["token"],
                                               step)))
            assert (await receive(again))["type"] == "seated"
            assert (await receive(again))["held"] == [json.loads(p.encode(p.Act(step,
                                                                               [mine])))
                                                      ["actions"][0]]
            await back.send(p.encode(p.Act(step, [playable(table, AWAY)])))
            update = await until(back, "update")
            assert await until(again, "update") == update

    run(scenario)


# -- the lobby -------------------------------------------------------------------------------

def test_a_private_table_never_reaches_the_lobby_waiting_or_played_and_a_public_one_does(
        ) -> None:
    """Protocol: "a table hosted without `public` never appears in it", neither while it
    waits nor once its game is played (a quick table is public: listed both ways)."""
    async def scenario() -> None:
        async with server() as lab:
            lab.service.lobby.every_s = 0.01
            listener = await lab.connect()
            await listener.send(p.encode(p.Lobby()))
            heard = [await receive(listener)]
            private = await lab.connect()  # a private table, its game begun and watched
            await private.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Owls")))
            hidden = (await receive(private))["code"]
            lions = await lab.connect()
            await lions.send(p.encode(p.Join(p.PROTOCOL_VERSION, hidden, "Lions")))
            await until(lions, "start")
            await lions.send(p.encode(p.Act(0, [playable(lab.service.tables[hidden], HOME)])))
            await until(private, "update")
            await watch(lab, hidden)
            _host, _guest, shown, _ = await seated_pair(lab, public=True)  # a public game
            waiting = await lab.connect()  # a quick table, waiting: public too
            await waiting.send(p.encode(p.Quick(p.PROTOCOL_VERSION, "Eagles")))
            quick_code = (await receive(waiting))["code"]
            while True:
                heard.append(listing := await until(listener, "lobby"))
                if [game["code"] for game in listing["games"]] == [shown["code"]] and \
                        [table["code"] for table in listing["tables"]] == [quick_code]:
                    break
            assert len(lab.service.tables) == 3  # the private one is open, and playing
            assert not any(hidden in json.dumps(message) for message in heard)

    run(scenario)


# -- turn limits -----------------------------------------------------------------------------

def test_the_turn_clock_stops_for_a_seat_that_is_away_and_runs_again_when_it_is_back() -> None:
    """Protocol: a turn limit "runs only for a connected seat that owes the step; a dropped
    seat is waited for instead"."""
    async def scenario() -> None:
        async with server() as lab:
            host = await lab.connect()
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", turn_s=60)))
            seated = await receive(host)
            code = seated["code"]
            table = lab.service.tables[code]
            guest = await lab.connect()
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
            guest_seat = await receive(guest)
            await until(host, "start")
            turns = lab.service.seats.turn_clock.turns
            assert set(turns) == {(code, HOME)}  # the guest calls the toss: its turn alone
            await guest.close()
            await until(host, "away")
            assert (code, HOME) not in turns  # away: waited for, not timed
            table.turn_s = 1  # shorter than any host may ask, for the test's sake
            assert [message["type"] for message in await drained(host, 1.5)] == []  # no
            assert table.step == 0 and not turns  # time_up, nothing played past a turn
            back = await lab.connect()
            await back.send(p.encode(p.Resume(p.PROTOCOL_VERSION, code, guest_seat["token"])))
            await until(back, "start")
            assert turns[(code, HOME)].step == 0  # back: its turn runs again
            await until(host, "back")
            assert await until(host, "time_up") == {"type": "time_up", "name": "Bears"}

    run(scenario)


def test_the_turn_clock_stops_for_a_seat_whose_choice_is_held() -> None:
    """Protocol: the limit runs "for a connected seat that owes the step": one whose choice
    is in owes nothing, and the other seat's turn goes on."""
    async def scenario() -> None:
        async with server(seed=41) as lab:
            host = await lab.connect()
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", turn_s=300)))
            code = (await receive(host))["code"]
            guest = await lab.connect()
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
            await until(guest, "start")
            table = lab.service.tables[code]
            await to_a_card_step(table, {AWAY: host, HOME: guest})
            turns = lab.service.seats.turn_clock.turns
            assert set(turns) == {(code, HOME), (code, AWAY)}  # both owe this card step
            await guest.send(p.encode(p.Act(table.step, [playable(table, HOME)])))
            await until(guest, "committed")
            assert set(turns) == {(code, AWAY)} and turns[(code, AWAY)].step == table.step
            await guest.send(p.encode(p.MoreTime()))  # nothing of its own to extend
            assert (await until(guest, "refused"))["code"] == p.NOT_NOW

    run(scenario)


def test_the_warning_goes_to_the_seat_that_owes_the_step_and_the_end_to_both_seats(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Protocol: `time_warning` is "your turn ends in `seconds`" (the seat that owes it, and
    before the end); `time_up` both seats hear; a spectator hears neither."""
    monkeypatch.setattr(p, "TURN_WARNING_S", 1)

    async def scenario() -> None:
        async with server() as lab:
            host = await lab.connect()
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", turn_s=60)))
            code = (await receive(host))["code"]
            table = lab.service.tables[code]
            table.turn_s = 3
            guest = await lab.connect()
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
            await until(guest, "start")
            spectator, _start = await watch(lab, code)
            host_heard = [await receive(host)]
            while host_heard[-1]["type"] != "update":
                host_heard.append(await receive(host))
            host_kinds = [message["type"] for message in host_heard]
            assert "time_warning" not in host_kinds  # not the host's turn
            assert {"type": "time_up", "name": "Bears"} in host_heard
            guest_heard = [await until(guest, "time_warning")]
            while guest_heard[-1]["type"] != "update":
                guest_heard.append(await receive(guest))
            kinds = [message["type"] for message in guest_heard]
            assert kinds[0] == "time_warning" and "time_up" in kinds  # warned, then the end
            assert guest_heard[0] == {"type": "time_warning", "seconds": 1, "extensions": 10}
            lab.service.seats.turn_clock.forget(code)  # no more turns: the spectator's stream
            assert await receive(spectator) == host_heard[-1]  # the toss played for the Bears
            assert await drained(spectator) == []  # and neither the warning nor the end

    run(scenario)


@dataclass
class FakeTimer:
    when: float
    callback: Callable[..., None]
    args: tuple[Any, ...]
    cancelled: bool = False

    def cancel(self) -> None:
        self.cancelled = True


@dataclass
class FakeLoop:
    """A loop's `call_later` on a time of its own, run by hand: the clock's moments, exactly."""

    now: float = 0.0
    timers: list[FakeTimer] = field(default_factory=list)

    def call_later(self, delay: float, callback: Callable[..., None], *args: Any) -> FakeTimer:
        timer = FakeTimer(self.now + delay, callback, args)
        self.timers.append(timer)
        return timer

    def time(self) -> float:
        return self.now

    def run_until(self, when: float) -> None:
        while due := sorted((timer for timer in self.timers
                             if not timer.cancelled and timer.when <= when),
                            key=lambda timer: timer.when):
            timer = due[0]
            self.timers.remove(timer)
            self.now = timer.when
            timer.callback(*timer.args)
        self.now = when


@pytest.mark.parametrize("turn_s", [limit for limit in p.TURN_LIMITS if limit])
def test_the_warning_comes_twenty_seconds_before_the_end_of_each_turn_and_of_more_time(
        monkeypatch: pytest.MonkeyPatch, turn_s: int) -> None:
    """Protocol: `time_warning`: "your turn ends in `seconds` (20)"; `more_time` gives "the
    whole turn again", warned 20 s before its new end, the old turn's moments gone."""
    loop = FakeLoop()
    monkeypatch.setattr(turn_clock.asyncio, "get_running_loop", lambda: loop)
    heard: list[tuple[float, str, Team]] = []
    clock = TurnClock(lambda code, team: heard.append((loop.now, "warning", team)),
                      lambda code, team, step: heard.append((loop.now, "up", team)))
    table = Table("123456", new_game(1), {AWAY: Seat("Hawks"), HOME: Seat("Bears")},
                  turn_s=turn_s)
    clock.arm(table, lambda team: True)  # the guest (home) owes the toss
    warned_at = turn_s - p.TURN_WARNING_S
    loop.run_until(warned_at - 0.01)
    assert heard == []
    loop.run_until(turn_s)
    assert heard == [(warned_at, "warning", HOME), (turn_s, "up", HOME)]
    heard.clear()
    clock.arm(table, lambda team: True)  # the same step, still owed: a new turn
    begun = loop.now
    loop.run_until(begun + 5)
    asked = clock.more_time(table, HOME)
    assert asked == p.TimeAdded(turn_s, p.MAX_EXTENSIONS - 1)
    loop.run_until(begun + turn_s + 4.99)  # the first turn's moments are gone
    assert heard == [(begun + 5 + warned_at, "warning", HOME)]
    loop.run_until(begun + 5 + turn_s)
    assert heard[-1] == (begun + 5 + turn_s, "up", HOME)
    clock.arm(table, lambda team: False)  # away: no turn at all
    loop.run_until(loop.now + 2 * turn_s)
    assert len(heard) == 2 and not clock.turns


# -- the computer in a dropped seat ----------------------------------------------------------

def test_the_computer_takes_a_dropped_seat_at_half_a_short_seat_wait_then_finishes_it(
        ) -> None:
    """Protocol: the computer takes the dropped seat "after 30 s (half the seat wait if that
    is shorter)" (`computer` `away`), and past the seat wait finishes the game (`gone`);
    only the other seat hears it: a spectator hears neither `away` nor `computer`."""
    async def scenario() -> None:
        async with server() as lab:
            assert lab.service.seats.stand_in_after_s == 30.0  # the default: longer than half
            host, guest, host_seat, _ = await seated_pair(lab)
            table = lab.service.tables[host_seat["code"]]
            table.seat_wait_s = 1  # shorter than any host may ask, for the test's sake
            spectator, _start = await watch(lab, host_seat["code"])
            await host.close()
            assert await until(guest, "away") == {"type": "away", "name": "Hawks",
                                                  "wait_s": 1}
            first = await until(guest, "computer")
            assert first == {"type": "computer", "name": "Hawks", "reason": "away"}
            assert await until(guest, "computer") == {"type": "computer", "name": "Hawks",
                                                      "reason": "gone"}
            watched = {message["type"] for message in await drained(spectator)}
            assert watched <= {"update", "committed"}

    run(scenario)


def test_a_seat_that_leaves_mid_game_is_finished_by_the_computer_for_the_reason_left() -> None:
    """Protocol: "a seat that sends `leave` mid-game is finished the same way at once
    (`reason` `left`)"; the other seat hears it, the one who left hears nothing more and its
    seat is no more."""
    async def scenario() -> None:
        async with server() as lab:
            host, guest, host_seat, _ = await seated_pair(lab)
            await host.send(p.encode(p.Leave()))
            assert await until(guest, "computer") == {"type": "computer", "name": "Hawks",
                                                      "reason": "left"}
            table = lab.service.tables[host_seat["code"]]
            assert AWAY in table.gone and not table.over
            late = await lab.connect()
            await late.send(p.encode(p.Resume(p.PROTOCOL_VERSION, host_seat["code"],
                                              host_seat["token"])))
            assert (await until(late, "refused"))["code"] == p.OVER

    run(scenario)


# -- a property: a spectator hears copies of what both seats heard ---------------------------

OPERATIONS = st.lists(st.tuples(st.sampled_from(("act", "act", "act", "stale", "chat",
                                                 "more_time")),
                                st.sampled_from(tuple(Team)), st.integers(0, 7)),
                      min_size=4, max_size=30)


def is_subsequence(part: list[str], whole: list[str]) -> bool:
    rest = iter(whole)
    return all(frame in rest for frame in part)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(operations=OPERATIONS, joins=st.integers(0, 30), seed=st.integers(0, 1000))
def test_whatever_a_spectator_hears_both_seats_heard_already_in_the_same_order(
        operations: list[tuple[str, Team, int]], joins: int, seed: int) -> None:
    """Protocol: "a spectator hears only copies of what both seats hear ... never a chat
    line, a token or a held choice". The seats play, send stale steps, chat and ask for more
    time in a drawn order; the spectator comes at a drawn moment (a choice may be held then).
    Its stream after its start is, frame for frame, a subsequence of each seat's."""
    async def scenario() -> None:
        async with server(seed=seed) as lab:
            host, guest, host_seat, _ = await seated_pair(lab)
            code = host_seat["code"]
            table = lab.service.tables[code]
            seats = {AWAY: host, HOME: guest}
            heard: dict[ClientConnection, list[str]] = {host: [], guest: []}
            readers = []

            async def collect(client: ClientConnection) -> None:
                async for frame in client:
                    heard[client].append(str(frame))

            async def answered(client: ClientConnection, frame: str) -> None:
                count = len(heard[client])
                await client.send(frame)
                await settled(lambda: len(heard[client]) > count)

            readers += [asyncio.ensure_future(collect(client)) for client in (host, guest)]
            spectator: ClientConnection | None = None
            for number, (kind, team, which) in enumerate([*operations, ("end", HOME, 0)]):
                if number == min(joins, len(operations)):
                    spectator, frame = await watch(lab, code, "" if which % 2 else "Cleo")
                    start = json.loads(frame)
                    assert start["type"] == "start" and start["held"] == []
                    heard[spectator] = []
                    readers.append(asyncio.ensure_future(collect(spectator)))
                seat, step = seats[team], table.step
                if kind == "act" and not table.over:
                    await answered(seat, p.encode(p.Act(step, [playable(table, team, which)])))
                elif kind == "stale" and not table.over:
                    await answered(seat, p.encode(p.Act(step + (-1, 1, 5)[which % 3],
                                                        [playable(table, team, which)])))
                elif kind == "chat":
                    other, count = seats[team.other], len(heard[seats[team.other]])
                    await seat.send(p.encode(p.Chat(f"psst {which}")))
                    await settled(lambda: len(heard[other]) > count)  # noqa: B023
                elif kind == "more_time":
                    await answered(seat, p.encode(p.MoreTime()))  # no limit: not_now
            assert spectator is not None
            await asyncio.sleep(0.2)  # the last frames read (a prefix would hold as well)
            for reader in readers:
                reader.cancel()
            watched = heard[spectator]
            for frame in watched:
                assert json.loads(frame)["type"] in ("update", "committed"), frame
                assert "psst" not in frame and '"action"' not in frame
            assert is_subsequence(watched, heard[host]), watched
            assert is_subsequence(watched, heard[guest]), watched

    run(scenario)


# -- kin: the lobby's end, a table's chat and its end ----------------------------------------

def test_a_lobby_line_that_sits_at_a_table_hears_the_lobby_no_more() -> None:
    """Protocol: `lobby` is heard "now and again as it changes, until this line hosts, joins
    or goes"."""
    async def scenario() -> None:
        async with server() as lab:
            lab.service.lobby.every_s = 0.01
            seated_line = await lab.connect()
            await seated_line.send(p.encode(p.Lobby()))
            assert (await receive(seated_line))["type"] == "lobby"
            watching = await lab.connect()  # a second lobby line, to know the changes came
            await watching.send(p.encode(p.Lobby()))
            await receive(watching)
            await seated_line.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", public=True)))
            seated = await until(seated_line, "seated")
            for name in ("Owls", "Lions"):  # the lobby changes twice more
                other = await lab.connect()
                await other.send(p.encode(p.Host(p.PROTOCOL_VERSION, name, public=True)))
                await receive(other)
            while len((await until(watching, "lobby"))["tables"]) < 3:
                pass
            assert [message["type"] for message in await drained(seated_line)] == []
            assert seated["seat"] == int(AWAY)

    run(scenario)


def test_a_seat_leaving_reaches_the_spectator_and_a_chat_line_only_the_other_seat() -> None:
    """Protocol: `said` is "the other seat's chat line" (never back to its sender, never a
    spectator); a spectator hears "a seat leaving" (`left`), but not `away`."""
    async def scenario() -> None:
        async with server() as lab:
            host, guest, host_seat, _ = await seated_pair(lab)
            spectator, _start = await watch(lab, host_seat["code"])
            await until(host, "watching")
            await until(guest, "watching")
            await host.send(p.encode(p.Chat("good  luck")))
            assert await receive(guest) == {"type": "said", "name": "Hawks", "text": "good luck"}
            assert await drained(host) == []  # never its own line back
            await guest.close()  # the guest drops; then the host leaves: the table ends
            assert (await until(host, "away"))["name"] == "Bears"
            await host.send(p.encode(p.Leave()))
            assert await receive(spectator) == {"type": "left", "name": "Hawks",
                                                "reason": "left"}
            assert await drained(spectator) == []  # nothing else: not `away`, nor a chat line

    run(scenario)


def test_with_both_seats_away_nobody_is_stood_in_for_and_the_table_ends_at_the_wait() -> None:
    """Protocol: "With both seats away, nobody is stood in for, and the table ends when the
    wait runs out (`left`, `timeout`)": the computer never plays a game nobody is at."""
    async def scenario() -> None:
        async with server() as lab:
            host, guest, host_seat, _ = await seated_pair(lab)
            code = host_seat["code"]
            table = lab.service.tables[code]
            table.seat_wait_s = 2  # the computer would come at half of it
            await asyncio.gather(guest.close(), host.close())  # both drop at once
            await settled(lambda: code in lab.service.seats.ended)
            ended = lab.service.seats.ended[code]
            assert ended.computer == set() and ended.step == 0  # nothing played for them
            assert ended.left and ended.left_why == "timeout"

    run(scenario)


def test_watching_a_table_still_waiting_for_its_player_is_answered_in_words() -> None:
    """Protocol: `watch` is "answered `start`", or refused (`no_table` for a code with no
    game); every refusal is answered in words, and the table's seat is untouched."""
    async def scenario() -> None:
        async with server() as lab:
            host = await lab.connect()
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", public=True)))
            code = (await receive(host))["code"]
            spectator = await lab.connect()
            await spectator.send(p.encode(p.Watch(p.PROTOCOL_VERSION, code, "Cleo")))
            try:
                answer = await receive(spectator)
            except Exception as error:  # the line closed with no word: the bug
                pytest.fail(f"no answer, the line closed: {error!r}")
            assert answer["type"] == "refused" and answer["code"] == p.NOT_NOW, answer
            guest = await lab.connect()  # the table still takes its player
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
            assert (await receive(guest))["type"] == "seated"
            assert (await until(host, "start"))["names"] == ["Bears", "Hawks"]

    run(scenario)


def test_a_quick_player_is_never_left_silent_at_a_table_whose_host_dropped() -> None:
    """Protocol: a dropped seat is waited for (`away`), and "while the other seat is there,
    the computer takes the dropped seat after 30 s". A quick player paired with a host whose
    line dropped while waiting hears that (or is not paired with it at all)."""
    async def scenario() -> None:
        async with server() as lab:
            lab.service.seats.stand_in_after_s = 0.2
            host = await lab.connect()
            await host.send(p.encode(p.Quick(p.PROTOCOL_VERSION, "Hawks")))
            code = (await receive(host))["code"]
            await host.close()
            await settled(lambda: not any(key[0] == code for key in lab.service.seats.connections))
            guest = await lab.connect()
            await guest.send(p.encode(p.Quick(p.PROTOCOL_VERSION, "Bears")))
            seated = await receive(guest)
            if seated["code"] != code:  # passed over: it waits at a table of its own
                assert seated["seat"] == int(AWAY)
                return
            await until(guest, "start")
            heard = [message["type"] for message in await drained(guest, 2.0)]
            assert "away" in heard and "computer" in heard, heard

    run(scenario)


def test_a_spectator_coming_back_from_a_step_hears_the_events_the_seats_heard_since() -> None:
    """Protocol: `watch`'s `step` is "the last step heard, when coming back": its `start`
    carries the events of every later step, as the seats heard them, and no earlier one."""
    async def scenario() -> None:
        async with server(seed=43) as lab:
            host, guest, host_seat, _ = await seated_pair(lab)
            table = lab.service.tables[host_seat["code"]]
            await to_a_card_step(table, {AWAY: host, HOME: guest})
            updates = [message for message in await drained(guest)
                       if message["type"] == "update"]
            assert len(updates) >= 2 and updates[-1]["step"] == table.step
            since = updates[0]["step"]  # heard the first step, then the line dropped
            _spectator, frame = await watch(lab, host_seat["code"], "Cleo", since)
            start = json.loads(frame)
            assert start["step"] == table.step
            assert start["events"] == [event for update in updates[1:]
                                       for event in update["events"]]

    run(scenario)


def test_a_rematch_asked_reaches_the_other_seat_only_and_its_start_the_spectator_too() -> None:
    """Protocol: `rematch_asked` is "the other seat would play again" (to that seat alone);
    the new game's `start` reaches both seats and the spectator, which hears every game at
    the table."""
    async def scenario() -> None:
        async with server() as lab:
            host, guest, host_seat, _ = await seated_pair(lab)
            spectator, _start = await watch(lab, host_seat["code"])
            await guest.send(p.encode(p.Act(0, [action_to_wire(Concede())])))  # game over
            ended = await until(guest, "update")
            assert await until(host, "update") == ended == await receive(spectator)
            await host.send(p.encode(p.Rematch()))
            assert await until(guest, "rematch_asked") == {"type": "rematch_asked",
                                                           "name": "Hawks"}
            assert await drained(host) == [] and await drained(spectator) == []
            await guest.send(p.encode(p.Rematch()))
            again = await until(host, "start")
            assert await until(guest, "start") == again and again["step"] == 0
            assert await receive(spectator) == again

    run(scenario)
