"""The browser seat's server side (issue 64), with real WebSocket clients on a real server:
the page's files served safely on the table's own port, and a line opened on /play told
every decision as a form and every event in words, from nothing but what its seat is sent."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import subprocess
import sys
import urllib.error
import urllib.request
from typing import Any

import pytest
from server_lab import Lab, run, server
from websockets.asyncio.client import ClientConnection, connect

from sudden_death.resources import sounds_dir
from sudden_death.server.lines.limits import Limits
from sudden_death.server.roles.chat import CHAT_BURST
from sudden_death.web.site import POLICY, Site, page_folder
from sudden_death.wire import protocol as p


def page_url(lab: Lab, path: str) -> str:
    return "http" + lab.url.removeprefix("ws") + path


def fetch(url: str) -> tuple[int, dict[str, str], bytes]:
    """A plain HTTP GET, as a browser's first request for the page."""
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


async def browser_seat(lab: Lab, lang: str = "en") -> ClientConnection:
    client = await connect(lab.url + f"/play?lang={lang}")
    lab.clients.append(client)
    return client


async def next_view(line: ClientConnection, seen: list[dict[str, Any]]) -> dict[str, Any]:
    """The next `view`, keeping every message read on the way in `seen`."""
    while True:
        message = json.loads(await asyncio.wait_for(line.recv(), 10))
        seen.append(message)
        if message["type"] == "view":
            return message


def answer(decision: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """What a player might choose from the form alone: any option, or any cards within the
    counts the form gives (as a page's checkboxes would send them)."""
    if decision["kind"] == "choice":
        return list(rng.choice(decision["options"])["actions"])
    players, calls = decision["limits"]
    hand = {"players": [c["id"] for c in rng.sample(decision["players"], players)],
            "calls": [c["id"] for c in rng.sample(decision["calls"], calls)]}
    # The form keeps the players and calls in the card order, as a page lists them.
    hand["players"].sort(key=[c["id"] for c in decision["players"]].index)
    hand["calls"].sort(key=[c["id"] for c in decision["calls"]].index)
    return [*decision["before"], {"action": "PickHand", "hand": hand}]


@pytest.mark.parametrize("seed", [3, 8])
def test_a_browser_seat_plays_the_computer_from_the_forms_alone(seed: int) -> None:
    rng = random.Random(seed)

    async def scenario() -> None:
        async with server(seed=seed, page=True) as lab:
            line = await browser_seat(lab)
            await line.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", computer="Bears")))
            seen: list[dict[str, Any]] = []
            view = await next_view(line, seen)
            log = list(view["lines"])
            kinds = set()
            sent_through = -1  # the last step the actions sent cover (a snap and its cards)
            for _turn in range(2000):
                decision = view["decision"]
                kinds.add(decision["kind"])
                if decision["kind"] == "over":
                    break
                if decision["kind"] != "wait" and view["step"] > sent_through:
                    assert decision["question"]
                    actions = answer(decision, rng)
                    sent_through = view["step"] + len(actions) - 1
                    await line.send(json.dumps({"type": "act", "step": view["step"],
                                                "actions": actions}))
                view = await next_view(line, seen)
                log += view["lines"]
                assert not [m for m in seen if m["type"] == "refused"], seen[-3:]
            assert view["decision"]["kind"] == "over"
            assert view["decision"]["question"].startswith("Final score:")
            assert {"choice", "hand"} <= kinds
            assert any("Hawks" in line for line in log) and len(log) > 20
            assert view["situation"].startswith("Score: ")
            # The protocol's own messages still come, each followed by its view.
            types = [m["type"] for m in seen]
            assert types[:4] == ["seated", "told", "start", "view"]
            assert seen[1]["code"] == seen[0]["code"]  # its code, which the page leaves out
            assert "update" in types

    run(scenario)


def test_a_browser_seat_hears_the_other_has_chosen_and_nothing_of_what() -> None:
    """Two browser seats: after the first picks its cards, the other's view says the first
    team has chosen, and shows no card of theirs until both hands are revealed."""
    async def scenario() -> None:
        async with server(seed=5, page=True) as lab:
            host = await browser_seat(lab)
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks")))
            code = json.loads(await host.recv())["code"]
            guest = await browser_seat(lab, "es")
            await guest.send(p.encode(p.Join(p.PROTOCOL_VERSION, code, "Bears")))
            seen: dict[str, list[dict[str, Any]]] = {"host": [], "guest": []}
            views = {"host": await next_view(host, seen["host"]),
                     "guest": await next_view(guest, seen["guest"])}
            lines = {"host": host, "guest": guest}
            rng = random.Random(1)
            while not any(v["decision"]["kind"] == "hand" for v in views.values()):
                who = next(w for w, v in views.items() if v["decision"]["kind"] == "choice")
                await lines[who].send(json.dumps({"type": "act", "step": views[who]["step"],
                                                  "actions": answer(views[who]["decision"], rng)}))
                views = {w: await next_view(lines[w], seen[w]) for w in views}
            offense = next(w for w, v in views.items() if v["decision"]["kind"] == "hand")
            defense = "guest" if offense == "host" else "host"
            assert views[defense]["decision"]["kind"] == "wait"  # the offense snaps first
            picked = answer(views[offense]["decision"], rng)
            await lines[offense].send(json.dumps({"type": "act", "step": views[offense]["step"],
                                                  "actions": picked}))
            told = await next_view(lines[defense], seen[defense])  # the snap: its cards now
            assert told["decision"]["kind"] == "hand" and told["lines"] == []
            told = await next_view(lines[defense], seen[defense])  # the offense has chosen
            chosen = "eligieron" if defense == "guest" else "chosen"
            assert len(told["lines"]) == 1 and chosen in told["lines"][0], told["lines"]
            assert told["cards"] == {"mine": "", "theirs": ""}
            assert told["decision"]["kind"] == "hand"  # still theirs to make
            await lines[offense].send(p.encode(p.Chat("your move")))  # a friend's chat line
            said = await next_view(lines[defense], seen[defense])
            assert said["lines"] == [f"{'Hawks' if offense == 'host' else 'Bears'}: your move"]
            shown = json.dumps([m for m in seen[defense]])
            for card in [*picked[-1]["hand"]["players"], *picked[-1]["hand"]["calls"]]:
                assert card not in shown
            types = [m["type"] for m in seen[defense]]
            assert types[-4:] == ["committed", "view", "said", "view"]

    run(scenario)


def test_a_line_not_on_the_page_path_is_sent_no_view() -> None:
    async def scenario() -> None:
        async with server(seed=2, page=True) as lab:
            line = await lab.connect()
            await line.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", computer="Bears")))
            types = []
            with contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                while True:  # the computer calls the toss: its update comes, and no view
                    types.append(json.loads(await asyncio.wait_for(line.recv(), 0.5))["type"])
            assert types[:2] == ["seated", "start"] and "update" in types
            assert "view" not in types

    run(scenario)


def test_the_page_is_served_with_a_strict_policy_and_nothing_else_is() -> None:
    async def scenario() -> None:
        async with server(page=True, limits=Limits(connects_per_s=1000, connect_burst=1000),
                          ) as lab:
            status, headers, body = await asyncio.to_thread(fetch, page_url(lab, "/"))
            assert status == 200 and body == (page_folder() / "index.html").read_bytes()
            assert headers["Content-Security-Policy"] == POLICY
            assert headers["Content-Type"].startswith("text/html")
            assert headers["X-Content-Type-Options"] == "nosniff"
            for name in Site().paths:
                status, headers, _ = await asyncio.to_thread(fetch, page_url(lab, name))
                assert status == 200, name
            for path in ("/../pyproject.toml", "/%2e%2e/site.py", "/page/", "/web/site.py",
                         "/index.html/", "//etc/passwd", "/..%2fsite.py", "/site.py"):
                status, _, body = await asyncio.to_thread(fetch, page_url(lab, path))
                assert status == 404 and b"Not found" in body, path
            status, _, body = await asyncio.to_thread(fetch, page_url(lab, "/words.json?lang=es"))
            words = json.loads(body)
            assert words["lang"] == "es" and words["log"] != "Game log"
            for tag in ("xx", "../../etc/passwd", "es" * 500, "%00", "C", ""):
                status, _, body = await asyncio.to_thread(
                    fetch, page_url(lab, f"/words.json?lang={tag}"))
                words = json.loads(body)  # English when there is no catalog, whatever asked
                assert status == 200 and words["log"] == "Game log" and words["lang"] == "en"

    run(scenario)


def test_the_page_counts_against_its_address_like_any_line() -> None:
    """Each file is a line: past the address's new-line burst, the page is answered 429."""
    async def scenario() -> None:
        async with server(page=True, limits=Limits(connects_per_s=1, connect_burst=3)) as lab:
            statuses = [(await asyncio.to_thread(fetch, page_url(lab, "/")))[0]
                        for _ in range(6)]
            assert statuses[:3] == [200, 200, 200] and 429 in statuses[3:]

    run(scenario)


def test_the_lobby_in_words_a_quick_game_by_name_and_a_spectator() -> None:
    """A browser line signs up and hears the lobby in words; two quick players meet and hear
    whom they play; a third line watches from the lobby and is told the game, never asked."""
    async def scenario() -> None:
        async with server(seed=4, page=True) as lab:
            anna = await browser_seat(lab)
            await anna.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, "Anna", "anna's secret")))
            told = json.loads(await anna.recv())
            assert told["type"] == "signed_in"
            assert json.loads(await anna.recv()) == {"type": "told",
                                                     "lines": ["Signed in as Anna."]}
            await anna.send(p.encode(p.AskRating()))  # Your rating, in the desktop's words
            assert json.loads(await anna.recv())["type"] == "standing"
            assert json.loads(await anna.recv()) == {"type": "told", "lines": [
                "No rated game yet. Finish a game against another signed-in player to be "
                "rated."]}
            await anna.send(p.encode(p.Lobby()))
            lobby = json.loads(await anna.recv())
            assert lobby["type"] == "lobby"
            lobby = json.loads(await anna.recv())
            assert lobby == {"type": "lobby_view", "summary": "Lobby: 0 open, 0 playing.",
                             "tables": [], "games": [], "here": "Here: Anna."}
            await anna.send(p.encode(p.Quick(p.PROTOCOL_VERSION, "Hawks", "Bears")))
            ben = await browser_seat(lab)
            await ben.send(p.encode(p.Lobby()))
            seen: list[dict[str, Any]] = []
            while True:
                message = json.loads(await asyncio.wait_for(ben.recv(), 5))
                if message["type"] == "lobby_view" and message["tables"]:
                    break
            assert message["tables"][0]["label"] == "The Hawks' table, waiting for a player"
            await ben.send(p.encode(p.Quick(p.PROTOCOL_VERSION, "Hawks", "Bears")))
            view = await next_view(ben, seen)
            assert view["lines"][0] == "You are the Bears; Anna plays the Hawks."
            assert view["concede"] == "Concede the game? The Hawks would win."
            view = await next_view(anna, seen)
            assert view["lines"][0] == "You are the Hawks, against the Bears."
            cleo = await browser_seat(lab, "es")
            await cleo.send(p.encode(p.Lobby()))
            while True:
                message = json.loads(await asyncio.wait_for(cleo.recv(), 5))
                if message["type"] == "lobby_view" and message["games"]:
                    break
            assert message["games"][0]["label"].startswith("Bears contra Anna: ")  # Spanish
            await cleo.send(p.encode(p.Watch(p.PROTOCOL_VERSION, message["games"][0]["code"])))
            watched = await next_view(cleo, [])
            assert watched["lines"][0] == "Mirando a los Bears y a los Hawks."
            assert watched["decision"]["kind"] == "watch"
            assert watched["concede"] == ""  # a spectator has nothing to concede

    run(scenario)


def test_a_browser_seat_concedes_as_the_desktop_asks_and_then_may_not_again() -> None:
    """While it plays, each view carries the desktop game's question before a concession;
    the page's Concede is the engine's action at the step it sees, and the game is over for
    both, with no question left to ask."""
    async def scenario() -> None:
        async with server(seed=9, page=True) as lab:
            line = await browser_seat(lab)
            await line.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", computer="Bears")))
            view = await next_view(line, [])
            assert view["concede"] == "Concede the game? The Bears would win."
            while view["decision"]["kind"] == "wait":  # the computer calls the toss
                view = await next_view(line, [])
            await line.send(json.dumps({"type": "act", "step": view["step"],
                                        "actions": [{"action": "Concede"}]}))
            seen: list[dict[str, Any]] = []
            view = await next_view(line, seen)
            assert not [m for m in seen if m["type"] == "refused"], seen
            assert "The Hawks concede." in view["lines"]
            assert view["decision"]["kind"] == "over" and view["concede"] == ""
            assert "The Hawks conceded." in view["decision"]["question"]

    run(scenario)


def test_a_turn_limit_is_said_with_the_page_s_button_for_more_time() -> None:
    async def scenario() -> None:
        async with server(seed=6, page=True) as lab:
            line = await browser_seat(lab)
            await line.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", computer="Bears",
                                            turn_s=60)))
            view = await next_view(line, [])
            assert view["turn_s"] == 60
            assert "Each turn has 1 minute; More time asks for more time." in view["lines"]
            assert not any("{" in text for text in view["lines"])

    run(scenario)


def test_a_server_started_without_its_page_loads_none_of_the_page_s_words() -> None:
    """The page's views bring the desktop game's word modules: `--no-page` never loads them
    (a quicker start), and the page's own start does."""
    probe = ("import sys; import sudden_death.server.__main__ as main; "
             "words = lambda: sorted(name for name in sys.modules "
             "if name.startswith(('sudden_death.web', 'sudden_death.ui'))); "
             "print(len(words())); main.page_site(); print(len(words()))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=60, check=True)
    before, after = (int(count) for count in done.stdout.split())
    assert before == 0 and after > 5, done.stdout


def test_the_lobby_s_chat_is_told_as_a_chat_line_and_too_fast_is_said() -> None:
    """Signed in, a browser line's lobby chat reaches the others as the desktop game words it,
    marked `chat` (the page keeps it in the lobby's own list), a line with no name too; that
    line may not chat; lines past the burst are refused in words."""
    async def scenario() -> None:
        async with server(seed=4, page=True) as lab:
            async def in_lobby(line: ClientConnection) -> None:
                await line.send(p.encode(p.Lobby()))
                while json.loads(await asyncio.wait_for(line.recv(), 10))["type"] != "lobby_view":
                    pass

            lines = {}
            for name in ("Anna", "Ben"):
                line = lines[name] = await browser_seat(lab)
                await line.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, name, f"{name}'s secret")))
                assert json.loads(await line.recv())["type"] == "signed_in"
                await in_lobby(line)
            nobody = await browser_seat(lab)
            await in_lobby(nobody)

            async def told(line: ClientConnection) -> dict[str, Any]:
                while True:
                    message = json.loads(await asyncio.wait_for(line.recv(), 10))
                    if message["type"] == "told":
                        return message

            await lines["Anna"].send(p.encode(p.Chat("anyone for a quick game?")))
            heard = await told(lines["Ben"])
            assert heard == {"type": "told", "lines": ["Anna: anyone for a quick game?"],
                             "chat": True, "cues": ["chat"]}  # the desktop's chat sound
            assert (await told(nobody))["lines"] == ["Anna: anyone for a quick game?"]
            for _ in range(CHAT_BURST + 2):  # past a burst, faster than a line a second
                await lines["Anna"].send(p.encode(p.Chat("hello?")))
            refused = await told(lines["Anna"])
            assert refused == {"type": "told", "lines": [
                "That chat line was not sent: one a second at most. Wait a moment."],
                "cues": ["menu_error"]}
            await nobody.send(p.encode(p.Chat("me too")))  # no name: no chat in the lobby
            refused = await told(nobody)
            while refused.get("chat"):  # Anna's lines before the burst ran out
                assert refused["lines"] == ["Anna: hello?"]
                refused = await told(nobody)
            assert "sign in" in refused["lines"][0]

    run(scenario)


# -- heard as the desktop game is heard (issue 69) ---------------------------------------------


async def play_views(line: ClientConnection, rng: random.Random, seen: list[dict[str, Any]],
                     until_kinds: int = 2000) -> list[dict[str, Any]]:
    """Every view of a whole game against the computer, the page answering from its forms."""
    views = [await next_view(line, seen)]
    sent_through = -1
    for _turn in range(until_kinds):
        view = views[-1]
        decision = view["decision"]
        if decision["kind"] == "over":
            break
        if decision["kind"] != "wait" and view["step"] > sent_through:
            actions = answer(decision, rng)
            sent_through = view["step"] + len(actions) - 1
            await line.send(json.dumps({"type": "act", "step": view["step"],
                                        "actions": actions}))
        views.append(await next_view(line, seen))
    return views


@pytest.mark.parametrize("seed", [3, 12])
def test_against_the_computer_the_page_calls_the_coin_and_hears_the_desktop_s_game(
        seed: int) -> None:
    """From the home seat against the rules' random computer: the player calls the toss;
    "has chosen" is never said of the computer; a wait says whom it waits for; each view's
    cues are the desktop's sound files, a roll's dice before its result; the punt offers its
    chances, a swap and a final call each option's card in words."""
    rng = random.Random(seed)

    async def scenario() -> None:
        async with server(seed=seed, page=True) as lab:
            line = await browser_seat(lab)
            await line.send(p.encode(p.Host(p.PROTOCOL_VERSION, "Hawks", computer="Bears",
                                            opponent="random", home=True)))
            seen: list[dict[str, Any]] = []
            views = await play_views(line, rng, seen)
            assert views[-1]["decision"]["kind"] == "over"
            first = views[0]["decision"]
            assert first["question"] == "Coin toss: heads or tails?"  # the player calls it
            assert [m["type"] for m in seen if m["type"] == "seated"] and \
                next(m for m in seen if m["type"] == "seated")["seat"] == 0
            said = [text for view in views for text in view["lines"]]
            assert len(said) > 20 and not [text for text in said if "have chosen" in text]
            sounds = set(path.stem for path in sounds_dir().glob("*.wav"))
            cues = [cue for view in views for cue in view["cues"]]
            assert {"coin", "reveal", "dice"} <= set(cues) and set(cues) <= sounds
            for view in views:
                assert view["waiting"] == "Waiting for the Bears."
                if view["decision"]["kind"] == "wait":
                    assert view["decision"]["question"] == "Waiting for the Bears."
                assert view["cues"].count("dice") == len(view["rolls"])
                assert all(roll and min(roll) >= 1 for roll in view["rolls"])
            kicked = [option for view in views for option in view["decision"].get("kicks", [])
                      + view["decision"].get("options", []) if option["label"].startswith("Punt")]
            assert kicked and all("percent" in option["label"] for option in kicked)
            swaps = [view["decision"] for view in views
                     if view["decision"]["question"] in SWAP_QUESTIONS]
            assert swaps and swaps[0]["question"] == SWAP_QUESTIONS[0]
            assert {swap["question"] for swap in swaps[1:]} <= {SWAP_QUESTIONS[1]}
            for swap in swaps:
                keep, *others = swap["options"]
                assert keep["label"] == "Keep" and "detail" not in keep
                assert others and all(option["detail"] for option in others)
            finals = [view["decision"] for view in views
                      if view["decision"]["question"] == "Final call?"]
            assert finals and all(option["detail"] for final in finals
                                  for option in final["options"])

    run(scenario)


SWAP_QUESTIONS = ("Now you may answer their cards: keep all yours, or replace one player or "
                  "one call. Press Down to reach the card to replace.", "Keep or replace?")


def test_a_roll_is_heard_before_its_result_and_only_files_that_exist_are_named() -> None:
    from sudden_death.ui.words.line import Line
    from sudden_death.web.view import Viewer

    viewer = Viewer("en")
    said = viewer.heard([Line("Kickoff."), Line("You punt: 40 yards.", cue="punt", dice=(3, 4)),
                         Line("Sacked!", cue="no_such_sound"), Line("Good.", dice=(6, 6))])
    assert said == ["Kickoff.", "You punt: 40 yards.", "Sacked!", "Good."]
    assert viewer.cues == ["dice", "punt", "dice"] and viewer.rolls == [[3, 4], [6, 6]]


def test_a_friend_s_choice_is_said_once_a_step_and_the_computer_s_never() -> None:
    """The Viewer alone, fed frames: a friend's commit is said once for its step however
    often it comes; the host's computer's commits are never said; a spectator hears none."""
    from sudden_death.engine.game import Game
    from sudden_death.engine.state import Team
    from sudden_death.web.view import Viewer
    from sudden_death.wire.values import state_to_wire

    state = state_to_wire(Game(random.Random(1)).state)
    start = p.encode(p.Start(["Hawks", "Bears"], 0, state, []))

    def told(viewer: Viewer, seat: int, step: int = 0) -> list[str]:
        shown = viewer.seen(p.encode(p.Committed(step, seat)))
        return [] if shown is None else json.loads(shown)["lines"]

    friend = Viewer("en")
    friend.seen(p.encode(p.Seated("123456", 0, "token")))
    friend.seen(start)
    assert told(friend, 1) == ["The Bears have chosen."]
    assert told(friend, 1) == []  # the same step again: once is enough
    assert told(friend, 1, step=1) == ["The Bears have chosen."]
    computer = Viewer("en", computer=Team.AWAY)
    computer.seen(p.encode(p.Seated("123456", 0, "token")))
    computer.seen(start)
    assert told(computer, 1) == [] and told(computer, 1, step=1) == []
    assert told(computer, 0) == []  # its own: no words, it waits
    watcher = Viewer("es")
    watcher.seen(start)
    assert told(watcher, 0) == [] and told(watcher, 1) == []


def test_the_page_s_counting_words_are_the_desktop_s_in_each_language() -> None:
    from sudden_death.web.site import page_words

    words = json.loads(page_words("en"))
    assert words["players_picked"] == ["0 picked, 2 to go", "1 picked, 1 to go", "players full"]
    assert words["calls_picked"] == ["0 picked, 3 to go", "1 picked, 2 to go",
                                     "2 picked, 1 to go", "calls full"]
    assert words["players_over"] == "You already have 2 players. Uncheck one first."
    assert words["calls_over"] == "You already have 3 calls. Uncheck one first."
    assert words["not_yet"]["1,1"] == "Not yet: pick 1 more player and 2 more calls."
    assert words["not_yet"]["2,0"] == "Not yet: pick 3 more calls."
    assert len(words["not_yet"]) == 3 * 4 - 1 and "2,3" not in words["not_yet"]
    spanish = json.loads(page_words("es"))
    for key in ("players_picked", "calls_picked", "players_over", "calls_over", "not_yet"):
        assert spanish[key] != words[key], key


NAMES = [("x" * 300, "far too long"), ("", "empty"), ("   ", "only spaces")]


@pytest.mark.parametrize(("name", "why"), NAMES)
def test_a_refused_name_is_said_as_what_it_names_and_why(name: str, why: str) -> None:
    """A team name refused when hosting is said as a team name, a player's refused at sign-up
    as a player's, each with the server's reason in the page's language."""
    async def scenario() -> None:
        async with server(page=True) as lab:
            for lang, team, player_words in (
                    ("en", "The server did not take that team name. A team name has 1 to 24 "
                           "printable characters.",
                     "The server did not take that player name. A name has 1 to 24 "
                     "characters."),
                    ("es", "El servidor no aceptó ese nombre de equipo. Un nombre de equipo "
                           "tiene de 1 a 24 caracteres imprimibles.",
                     "El servidor no aceptó ese nombre de jugador. Un nombre tiene de 1 a 24 "
                     "caracteres.")):
                host = await browser_seat(lab, lang)
                await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, name, computer="Bears")))
                assert await told_after_refusal(host) == [team], why
                player = await browser_seat(lab, lang)
                await player.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, name, "a good secret")))
                assert await told_after_refusal(player) == [player_words], why

    run(scenario)


async def told_after_refusal(line: ClientConnection) -> list[str]:
    refused = json.loads(await asyncio.wait_for(line.recv(), 10))
    assert refused["type"] == "refused" and refused["code"] == p.BAD_NAME, refused
    told = json.loads(await asyncio.wait_for(line.recv(), 10))
    assert told["type"] == "told" and told["cues"] == ["menu_error"]
    return list(told["lines"])


def test_a_name_with_markup_is_taken_and_said_as_typed() -> None:
    """"<b>Al</b>" is printable: the server takes it, for a team and for a player, and the
    page is told it as text (the page never reads a name as markup)."""
    async def scenario() -> None:
        async with server(page=True) as lab:
            player = await browser_seat(lab)
            await player.send(p.encode(p.SignUp(p.PROTOCOL_VERSION, "<b>Al</b>", "a secret!")))
            assert json.loads(await player.recv())["type"] == "signed_in"
            assert json.loads(await player.recv())["lines"] == ["Signed in as <b>Al</b>."]
            host = await browser_seat(lab)
            await host.send(p.encode(p.Host(p.PROTOCOL_VERSION, "<b>Al</b>", computer="Bears")))
            view = await next_view(host, [])
            assert "You are the <b>Al</b>, against the Bears." in view["lines"]

    run(scenario)


def test_an_unknown_name_refusal_is_said_in_the_server_s_own_words() -> None:
    from sudden_death.ui.words.table import refusal_words

    assert refusal_words(p.BAD_NAME, "a name is rude") == (
        "The server did not take that name: a name is rude.")
    assert refusal_words(p.BAD_NAME, p.NAME_SILENT) == (
        "The server did not take that player name. A name needs a letter or a digit.")
    assert refusal_words(p.BAD_NAME, p.TEAM_NAME_SILENT) == (
        "The server did not take that team name. A team name needs something that can be "
        "read aloud.")
