"""The explorer of play cards and bands: every spoken figure against the engine's own
calculation, the game untouched by any explorer session, focus restored by Escape, and a scripted
subprocess run judged by its transcript."""

from __future__ import annotations

import copy
import json
import os
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from app_driver import press
from hypothesis import given, settings
from hypothesis import strategies as st
from recording import RecordingCues, RecordingSpeaker

from sudden_death.engine.card_model import BANDS, DefCall, OffCall, Player, PlayKind, Role
from sudden_death.engine.cards import MATCHUPS, OFFENSIVE_CALLS, PLAYERS, card_name, players_for
from sudden_death.engine.resolve import compute_band
from sudden_death.engine.state import Phase, Team
from sudden_death.engine.stats import band_stats
from sudden_death.ui.app import App
from sudden_death.ui.computer_game import ComputerGame
from sudden_death.ui.keys.keymap import KeyMap
from sudden_death.ui.run.loop import APOLOGY
from sudden_death.ui.screens.explorer import (
    DefCallScreen,
    ExplorerHome,
    ExplorerScreen,
    OffCallScreen,
    PlayerScreen,
    TryMatchupScreen,
)
from sudden_death.ui.screens.hands import SelectionScreen
from sudden_death.ui.screens.menu import Item, Menu
from sudden_death.ui.words import cards, numbers
from sudden_death.ui.words.cards import card_details
from sudden_death.ui.words.help import SCREENS, screen_text

ROOT = Path(__file__).resolve().parent.parent
NUMBER = r"(\d+(?:\.\d+)?)"
FIGURE_PATTERNS = {
    "mean_yards": re.compile(rf"average (gain|loss) {NUMBER} yards"),
    "gain_10_plus": re.compile(rf"10 or more yards {NUMBER} percent"),
    "loss": re.compile(rf"loses yards {NUMBER} percent"),
    "incomplete": re.compile(rf"incomplete {NUMBER} percent"),
    "interception": re.compile(rf"intercepted {NUMBER} percent"),
    "sack": re.compile(rf"sacked {NUMBER} percent"),
    "fumble": re.compile(rf"fumbles {NUMBER} percent"),
}
PASS_ONLY = ("incomplete", "interception", "sack")


# -- helpers -----------------------------------------------------------------------------------


class FakeHost:
    """Records what explorer screens ask of the app."""

    def __init__(self) -> None:
        self.spoken: list[str] = []
        self.pushed: list[object] = []
        self.popped = 0
        self.keys = KeyMap.default()

    def say(self, text: str, **_: object) -> None:
        self.spoken.append(text)

    def cue(self, name: str) -> None:
        pass

    def push(self, screen: object) -> None:
        self.pushed.append(screen)

    def pop(self, announce: bool = True) -> None:
        self.popped += 1


def assert_figures(text: str, call: OffCall, band: int) -> None:
    """Every figure in `text` is the engine's exact value, rounded as shown; none is missing."""
    stats = band_stats(call, band)
    kind = OFFENSIVE_CALLS[call].kind
    for name, pattern in FIGURE_PATTERNS.items():
        found = pattern.search(text)
        if kind is PlayKind.RUN and name in PASS_ONLY:
            assert found is None, (name, text)
            continue
        assert found is not None, (name, text)
        exact: Fraction = getattr(stats, name)
        spoken = Fraction(found.groups()[-1])
        if name == "mean_yards":
            if found.group(1) == "loss":
                spoken = -spoken
            assert abs(spoken - exact) <= Fraction(1, 20), (name, text, float(exact))
        else:
            exact_percent = exact * 100
            tolerance = Fraction(1, 20) if exact_percent < 10 else Fraction(1, 2)
            assert abs(spoken - exact_percent) <= tolerance, (name, text, float(exact_percent))
            if exact_percent.denominator == 1:
                assert spoken == exact_percent, (name, text)


def band_item_text(call: OffCall, band: int) -> str:
    screen = OffCallScreen(FakeHost(), call)  # type: ignore[arg-type]
    group = screen.menu.groups[0]
    assert group.focus == BANDS.index(0)  # opens at band 0
    group.focus = BANDS.index(band)
    return screen.menu.describe()


# -- every figure equals the engine's calculation ---------------------------------------------


@pytest.mark.parametrize("call", list(OffCall))
@pytest.mark.parametrize("band", BANDS)
def test_every_band_figure_is_the_engines(call: OffCall, band: int) -> None:
    text = band_item_text(call, band)
    assert text.startswith(f"{numbers.band_name(band).capitalize()}, ")
    assert_figures(text, call, band)
    assert_figures(cards.band_summary(call, band), call, band)


@pytest.mark.parametrize("call", list(OffCall))
@pytest.mark.parametrize("band", BANDS)
def test_yardage_table_is_read_row_by_row(call: OffCall, band: int) -> None:
    host = FakeHost()
    screen = OffCallScreen(host, call)  # type: ignore[arg-type]
    screen.menu.groups[0].focus = BANDS.index(band)
    screen.confirm()
    text = host.spoken[-1]
    table = OFFENSIVE_CALLS[call].bands[band]
    rows = re.findall(r"(loss of \d+|no gain|gain of \d+), (\d+) in 100", text)
    spoken_rows = [(0 if y == "no gain" else int(y.split()[-1]) * (-1 if "loss" in y else 1),
                    int(w)) for y, w in rows]
    assert spoken_rows == list(table.yards)
    assert f"fumble {table.fumble} in 100" in text
    if OFFENSIVE_CALLS[call].kind is PlayKind.PASS:
        caught = 100 - table.sack - table.interception - table.incomplete
        assert (f"sacked {table.sack}, intercepted {table.interception}, incomplete "
                f"{table.incomplete}, caught {caught}") in text


@pytest.mark.parametrize("call", list(OffCall))
def test_call_matchups_and_details_match_the_tables(call: OffCall) -> None:
    host = FakeHost()
    screen = OffCallScreen(host, call)  # type: ignore[arg-type]
    matchups = screen.menu.groups[1]
    for index, defense in enumerate(DefCall):
        modifier = MATCHUPS[call][defense]
        matchups.focus = index
        screen.menu.focus_group(1)
        said = screen.menu.describe()
        assert said.startswith(f"Against {card_name(defense)}, band {numbers.signed(modifier)}, ")
        assert_mean(said, call, modifier)
        screen.confirm()
        assert f"matchup {numbers.signed(modifier)}" in host.spoken[-1]
        assert_figures(host.spoken[-1], call, modifier)
    details = card_details(call)  # D during a decision: the same band 0 summary and matchups
    assert cards.band_summary(call, 0) in details and cards.strengths_words(call) in details
    assert_figures(details, call, 0)
    assert cards.strengths_words(call) in screen.intro()
    for defense in DefCall:
        modifier = MATCHUPS[call][defense]
        wanted = f"{card_name(defense)}, band {numbers.signed(modifier)}"
        assert (wanted in details) == (modifier != 0)


def assert_mean(text: str, call: OffCall, band: int) -> None:
    found = FIGURE_PATTERNS["mean_yards"].search(text)
    assert found is not None, text
    spoken = Fraction(found.group(2)) * (-1 if found.group(1) == "loss" else 1)
    assert abs(spoken - band_stats(call, band).mean_yards) <= Fraction(1, 20), text


@pytest.mark.parametrize("defense", list(DefCall))
def test_defensive_call_against_each_offensive_call(defense: DefCall) -> None:
    host = FakeHost()
    screen = DefCallScreen(host, defense)  # type: ignore[arg-type]
    group = screen.menu.groups[0]
    for index, off in enumerate(OffCall):
        modifier = MATCHUPS[off][defense]
        group.focus = index
        said = screen.menu.describe()
        verdict = "strong" if modifier < 0 else ("weak" if modifier > 0 else "even")
        assert said.startswith(f"Against {card_name(off)}, band {numbers.signed(modifier)}, "
                               f"{verdict}, ")
        assert_mean(said, off, modifier)
        screen.confirm()
        assert_figures(host.spoken[-1], off, modifier)
    assert cards.strengths_words(defense) in card_details(defense)


@pytest.mark.parametrize("player", list(Player))
def test_player_moves_the_band_as_the_engine_does(player: Player) -> None:
    screen = PlayerScreen(FakeHost(), player)  # type: ignore[arg-type]
    info = PLAYERS[player]
    group = screen.menu.groups[0]
    for index, defense in enumerate(DefCall):
        group.focus = index
        said = screen.menu.describe()
        before = compute_band(info.call, defense).value
        team = (player,)
        after = (compute_band(info.call, defense, offense_players=team) if info.role is
                 Role.OFFENSE else compute_band(info.call, defense, defense_players=team)).value
        assert f"band {numbers.signed(before)} " in said
        if before == after:
            assert f"stays {numbers.signed(after)}" in said
        else:
            assert f"becomes {numbers.signed(after)}" in said
            assert_mean(said, info.call, after)
            assert_mean(said.split("instead of", 1)[1], info.call, before)
    assert card_details(player).startswith(f"{info.name}, {info.role.value} player: ")


def _check(menu: Menu, group: int, values: set[object]) -> None:
    for item in menu.groups[group].items:
        item.checked = item.card in values


@settings(max_examples=300, deadline=None)
@given(
    off=st.sampled_from(list(OffCall)),
    defense=st.sampled_from(list(DefCall)),
    off_players=st.sets(st.sampled_from(players_for(Role.OFFENSE)), max_size=2),
    def_players=st.sets(st.sampled_from(players_for(Role.DEFENSE)), max_size=2),
)
def test_try_a_matchup_is_the_engines_band(off: OffCall, defense: DefCall,
                                           off_players: set[Player],
                                           def_players: set[Player]) -> None:
    host = FakeHost()
    screen = TryMatchupScreen(host)  # type: ignore[arg-type]
    _check(screen.menu, 0, {off})
    _check(screen.menu, 1, {defense})
    _check(screen.menu, 2, set(off_players))
    _check(screen.menu, 3, set(def_players))
    screen.confirm()
    said = host.spoken[-1]
    order = {p: i for i, p in enumerate(Player)}
    band = compute_band(off, defense, tuple(sorted(off_players, key=order.get)),
                        tuple(sorted(def_players, key=order.get)))
    assert said.startswith(f"{card_name(off)} against {card_name(defense)}: "
                           f"band {numbers.signed(band.value)}: matchup "
                           f"{numbers.signed(MATCHUPS[off][defense])}")
    assert (band.offense_player is not None) == (" adds 1" in said)
    assert (band.defense_player is not None) == (" takes 1 away" in said)
    assert_figures(said, off, band.value)
    assert screen.short_result().endswith(f": band {numbers.signed(band.value)}")


def test_percent_wording_rounds_sensibly() -> None:
    assert numbers.percent_words(Fraction(12, 100)) == "12 percent"
    assert numbers.percent_words(Fraction(1234, 10000)) == "12 percent"
    assert numbers.percent_words(Fraction(41, 10000)) == "0.4 percent"
    assert numbers.percent_words(Fraction(45, 10000)) == "0.5 percent"
    assert numbers.percent_words(Fraction(0)) == "0 percent"
    assert numbers.mean_words(Fraction(41, 10)) == "average gain 4.1 yards"
    assert numbers.mean_words(Fraction(-3, 10)) == "average loss 0.3 yards"
    assert numbers.mean_words(Fraction(4)) == "average gain 4 yards"


def test_every_explorer_screen_has_help() -> None:
    screens = {ExplorerScreen.help_key, OffCallScreen.help_key, DefCallScreen.help_key,
               PlayerScreen.help_key, TryMatchupScreen.help_key, "explorer_list",
               "explorer_rules"}
    assert all(SCREENS.get(key) for key in screens)


# -- the game is untouched; Escape restores focus ----------------------------------------------




def app_at_selection() -> tuple[App, RecordingSpeaker]:
    """Seed 1, heads: the player wins the toss, takes the ball and reaches the card picks."""
    speaker = RecordingSpeaker()
    app = App(speaker, RecordingCues(), seed=1)
    app.start()
    press(app, "return")
    app.handle_text("Jets")
    press(app, "return", "return", "return", "return")  # names, coin, offense: the cards
    assert app.match is not None and app.match.state.phase is Phase.SNAP_CHOICE
    assert isinstance(app.top, SelectionScreen)
    return app, speaker


def snapshot(app: App) -> tuple[object, ...]:
    assert isinstance(app.match, ComputerGame)
    match = app.match.match
    menu = app.top.menu
    checks = [[item.checked for item in group.items] for group in menu.groups]
    computer = match.policies[Team.AWAY]
    return (copy.deepcopy(match.game.state), match.game.rng.getstate(),
            match.committed(Team.AWAY), computer.rng.getstate(),  # type: ignore[attr-defined]
            app.top, menu.group_index, [g.focus for g in menu.groups], checks, len(app.stack))


def in_explorer(app: App) -> bool:
    return any(isinstance(screen, ExplorerScreen) for screen in app.stack)


SESSION_KEYS = ["return", "return", "tab", "shift+tab", "up", "down", "left", "right", "space",
                "home", "end", "d", "s", "r", "h", "f1", "e", "1", "2", "3", "5", "7"]


@settings(max_examples=60, deadline=None)
@given(keys=st.lists(st.sampled_from(SESSION_KEYS), max_size=60))
def test_an_explorer_session_never_changes_the_game(keys: list[str]) -> None:
    app, speaker = app_at_selection()
    press(app, "down", "space", "tab", "3", "4")  # a half-made decision with focus moved
    before = snapshot(app)
    origin = app.top
    press(app, "e")
    assert in_explorer(app)
    for key in keys:
        press(app, key)
        if not in_explorer(app):
            break
    for _ in range(30):
        if not in_explorer(app):
            break
        press(app, "escape")
    assert not in_explorer(app) and app.top is origin and app.controls.section == 0
    assert snapshot(app) == before
    spoken = [m.text for m in speaker.spoken]
    assert any(s.startswith("Explorer closed. ") for s in spoken)
    assert APOLOGY not in spoken


@pytest.mark.parametrize("phase_keys", [
    [],  # selection
    ["1", "2", "1", "2", "3", "return"],  # substitution
    ["1", "2", "1", "2", "3", "return", "return"],  # final call
])
def test_explorer_leaves_every_decision_untouched(phase_keys: list[str]) -> None:
    app, _ = app_at_selection()
    press(app, *phase_keys)
    before = snapshot(app)
    press(app, "e", "end", "up", "return")  # Try a matchup
    press(app, "right", "tab", "down", "tab", "space", "tab", "space", "tab", "return")
    press(app, "escape", "e", "home", "return", "end", "up", "return", "right", "right",
          "return")
    press(app, "escape", "escape", "escape")
    assert not in_explorer(app)
    assert snapshot(app) == before


CLOSED_ON_DRAW = "Explorer closed. Calls: Draw Play, checked, 3 of 6"


def test_escape_restores_focus_and_says_where(tmp_path: Path) -> None:
    app, speaker = app_at_selection()
    press(app, "tab", "down", "down", "space")  # Draw Play checked and focused
    origin = app.top
    press(app, "e")
    assert speaker.spoken[-1].text.startswith("Explorer of play cards and bands.")
    press(app, "return", "end", "up", "return", "right", "right")  # Deep Pass, band plus 2
    assert speaker.spoken[-1].text.startswith("Band plus 2, average gain")
    press(app, "escape")
    assert speaker.spoken[-1].text == "Back. Offensive calls: Deep Pass, pass play, 6 of 7"
    press(app, "escape")
    assert speaker.spoken[-1].text == "Back. Explorer: Offensive calls, 1 of 7"
    press(app, "escape")
    assert app.top is origin
    assert speaker.spoken[-1].text == CLOSED_ON_DRAW
    press(app, "e", "end", "return")  # the Close item does the same
    assert speaker.spoken[-1].text == CLOSED_ON_DRAW
    assert app.top is origin


def test_explorer_from_the_title_screen_and_from_a_section() -> None:
    speaker = RecordingSpeaker()
    app = App(speaker, RecordingCues(), seed=1)
    app.start()
    welcome = app.top
    press(app, "down", "e")
    assert isinstance(app.top, ExplorerHome)
    press(app, "e")
    assert speaker.spoken[-1].text.startswith("The explorer is already open")
    press(app, "f1")
    assert speaker.spoken[-1].text.startswith(screen_text("explorer", KeyMap.default()))
    press(app, "escape")
    assert app.top is welcome and welcome.menu.group.focus == 1
    assert speaker.spoken[-1].text == f"Explorer closed. {welcome.menu.describe_group()}"
    assert app.match is None
    app2, speaker2 = app_at_selection()
    press(app2, "h", "h", "e")
    assert app2.controls.section == 0 and isinstance(app2.top, ExplorerHome)
    press(app2, "escape")
    assert speaker2.spoken[-1].text.startswith("Explorer closed. Players: Power Back, 1 of 4")


def test_details_key_speaks_the_explorer_summary_and_collapses() -> None:
    app, speaker = app_at_selection()
    press(app, "tab", "end", "d")  # Deep Pass
    assert speaker.spoken[-1].text == card_details(OffCall.DEEP_PASS)
    assert cards.band_summary(OffCall.DEEP_PASS, 0) in speaker.spoken[-1].text
    assert app.controls.details
    press(app, "d")
    assert speaker.spoken[-1].text == "Details closed." and not app.controls.details


def test_buttons_open_every_level() -> None:
    host = FakeHost()
    home = ExplorerHome(host, object())  # type: ignore[arg-type]
    for item in home.menu.group.items[:-1]:
        home.on_button(item)
    names = [type(screen).__name__ for screen in host.pushed]
    assert names == ["CardListScreen"] * 4 + ["BandRulesScreen", "TryMatchupScreen"]
    for lister in host.pushed[:4]:
        first: Item = lister.menu.group.items[0]  # type: ignore[attr-defined]
        lister.on_button(first)  # type: ignore[attr-defined]
    assert [type(s).__name__ for s in host.pushed[6:]] == [
        "OffCallScreen", "DefCallScreen", "PlayerScreen", "PlayerScreen"]
    rules = "\n".join(item.label for item in host.pushed[4].menu.groups[0].items)  # type: ignore[attr-defined]
    for off in OffCall:
        row = ", ".join(f"{card_name(d)} {numbers.signed(m)}" for d, m in MATCHUPS[off].items())
        assert f"Matchup table, {card_name(off)}: {row}." in rules


# -- a scripted run through the real program ---------------------------------------------------

TO_SELECTION = ["return", "type Jets", "return", "return", "return", "return"]
EXPLORER_KEYS = [
    "e",  # explorer over the card picks
    "return", "end", "up", "return",  # Offensive calls, Deep Pass
    "right", "return",  # band plus 1, its yardage table
    "escape", "escape",
    "end", "up", "return",  # Try a matchup
    "end",  # Deep Pass (radio: moving selects)
    "tab", "down",  # Blitz
    "tab", "end", "space",  # Deep Threat
    "tab", "tab", "return",  # Hear the result
    "f1",
    "escape", "escape",
]
GAME_KEYS = ["1", "2", "1", "2", "3", "return"]


def run(tmp_path: Path, keys: list[str], name: str) -> list[str]:
    key_file = tmp_path / f"{name}.txt"
    key_file.write_text("\n".join(keys) + "\n", encoding="utf-8")
    out = tmp_path / f"{name}.jsonl"
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    result = subprocess.run(
        [sys.executable, "-m", "sudden_death", "--headless", "--no-sound", "--seed", "1",
         "--keys", str(key_file), "--transcript", str(out),
         "--config", str(tmp_path / f"cfg-{name}")],  # each run its own: no game to resume
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return [r["text"] for r in records if r.get("kind") == "speech"]


def test_scripted_run_through_the_explorer(tmp_path: Path) -> None:
    spoken = run(tmp_path, [*TO_SELECTION, *EXPLORER_KEYS, *GAME_KEYS], "explore")
    plain = run(tmp_path, [*TO_SELECTION, *GAME_KEYS], "plain")
    assert APOLOGY not in spoken
    assert any(s.startswith("Explorer of play cards and bands.") for s in spoken)
    deep = next(s for s in spoken if s.startswith("Deep Pass, pass play. A long drop"))
    assert "Strong against: Stack the Box, band plus 2" in deep
    assert_figures(deep, OffCall.DEEP_PASS, 0)
    band_1 = next(s for s in spoken if s.startswith("Band plus 1, "))
    assert_figures(band_1, OffCall.DEEP_PASS, 1)
    assert any(s.startswith("Deep Pass at band plus 1: first the pass roll, out of 100: sacked 7")
               for s in spoken)
    tried = compute_band(OffCall.DEEP_PASS, DefCall.BLITZ, (Player.DEEP_THREAT,))
    band, matchup = numbers.signed(tried.value), numbers.signed(tried.matchup)
    assert f"Checked, Deep Pass against Blitz: band {band}" in spoken
    result = next(s for s in spoken if s.startswith("Deep Pass against Blitz: "))
    assert result.startswith(f"Deep Pass against Blitz: band {band}: matchup {matchup}, "
                             f"Deep Threat adds 1. At band {band}: average gain")
    assert_figures(result, OffCall.DEEP_PASS, tried.value)
    assert any(s.startswith(screen_text("explorer_try", KeyMap.default())) for s in spoken)
    closed = spoken.index("Explorer closed. Players: Power Back, 1 of 4")
    # The game goes on exactly as it would have without the explorer: same reveal, same dice.
    assert spoken[closed + 1:] == plain[plain.index(spoken[closed + 1]):]
    assert any(s.startswith("The Bears show ") for s in spoken[closed:])
