"""The player's own keys: round trips through the settings file, the rules every change keeps
(one command per key where both work, the protected keys, a key for every command), and saved
maps that are damaged, stale or hostile."""

from __future__ import annotations

import json
from pathlib import Path

import pygame
from hypothesis import given, settings
from hypothesis import strategies as st

from sudden_death.storage.settings import Settings, load_settings, save_settings
from sudden_death.ui.keys import own_keys
from sudden_death.ui.keys.keymap import Chord, Command, Context, KeyMap, Pad, default_bindings
from sudden_death.ui.words.commands import COMMAND_NAMES, command_names

GAME_COMMANDS = [b.command for b in default_bindings() if b.context is Context.GAME]


def test_every_command_has_a_name_and_every_default_chord_reads_back_as_itself() -> None:
    assert set(COMMAND_NAMES) == set(Command)
    assert len(set(command_names().values())) == len(Command)  # each unlike the others
    for binding in default_bindings():
        for chord in binding.chords:
            assert own_keys.parse_chord(own_keys.chord_text(chord)) == chord


def test_the_default_map_keeps_every_rule_and_saves_as_no_change() -> None:
    keys = KeyMap.default()
    assert own_keys.broken(keys, set(Command)) == set()
    assert own_keys.changes(keys) == ()
    assert own_keys.build(()).keys.bindings == keys.bindings


def test_a_free_key_replaces_the_commands_key_and_survives_the_settings_file(
        tmp_path: Path) -> None:
    keys = KeyMap.default()
    change = own_keys.give(keys, Command.REPEAT, Chord(pygame.K_j))
    assert change.keys is not None
    assert change.keys.command(pygame.K_j, False) is Command.REPEAT
    assert change.keys.command(pygame.K_r, False) is None  # R is free now
    assert change.keys.command(Pad.Y.key, False) is Command.REPEAT  # the button stays
    save_settings(Settings(keys=own_keys.changes(change.keys)), tmp_path)
    saved = json.loads((tmp_path / "settings.json").read_text())
    assert saved["keys"] == {"repeat": ["j", "pad:y"]}
    loaded, notice = load_settings(tmp_path)
    assert notice is None
    rebuilt = own_keys.build(loaded.keys)
    assert rebuilt.restored == () and rebuilt.keys.bindings == change.keys.bindings


def test_a_button_replaces_only_the_commands_button() -> None:
    change = own_keys.give(KeyMap.default(), Command.SITUATION, Chord(Pad.RIGHT_SHOULDER.key))
    assert change.keys is None and change.taken_by == (Command.NEXT_CONTROL,)
    change = own_keys.give(KeyMap.default(), Command.WHERE, Chord(Pad.GUIDE.key))
    assert change.keys is not None
    assert change.keys.command(pygame.K_w, False) is Command.WHERE
    assert change.keys.command(Pad.GUIDE.key, False) is Command.WHERE


def test_a_key_in_use_is_refused_naming_its_command_and_a_swap_trades_the_two() -> None:
    keys = KeyMap.default()
    change = own_keys.give(keys, Command.REPEAT, Chord(pygame.K_s))
    assert change.keys is None and change.taken_by == (Command.SITUATION,)
    swapped = own_keys.swap(keys, Command.REPEAT, Chord(pygame.K_s))
    assert swapped is not None
    assert swapped.command(pygame.K_s, False) is Command.REPEAT
    assert swapped.command(pygame.K_r, False) is Command.SITUATION
    assert own_keys.broken(swapped, set(Command)) == set()


def test_a_key_of_the_game_clashes_with_a_screens_own_key_and_two_users_cant_swap() -> None:
    """Left moves in lists (unnamed) and changes a setting: both would lose it."""
    keys = KeyMap.default()
    change = own_keys.give(keys, Command.REPEAT, Chord(pygame.K_LEFT))
    assert change.keys is None
    assert set(change.taken_by) == {Command.PREVIOUS_ITEM, Command.SETTING_LESS}
    assert own_keys.swap(keys, Command.REPEAT, Chord(pygame.K_LEFT)) is None
    # A screen's own key may be a key the game uses nowhere else.
    change = own_keys.give(keys, Command.SETTING_MORE_BIG, Chord(pygame.K_PAGEUP))
    assert change.keys is None and change.taken_by == (Command.SCROLL_UP,)


def test_the_protected_keys_stay_and_a_key_is_added_beside_them() -> None:
    keys = KeyMap.default()
    for chord, owner in ((Chord(pygame.K_RETURN), Command.ACTIVATE),
                         (Chord(pygame.K_ESCAPE), Command.BACK),
                         (Chord(pygame.K_F1), Command.HELP),
                         (Chord(Pad.A.key), Command.ACTIVATE)):
        change = own_keys.give(keys, Command.REPEAT, chord)
        assert change.keys is None and change.protected is owner
        assert own_keys.swap(keys, Command.REPEAT, chord) is None
    added = own_keys.give(keys, Command.ACTIVATE, Chord(pygame.K_j)).keys
    assert added is not None
    assert added.command(pygame.K_j, False) is Command.ACTIVATE
    assert added.command(pygame.K_RETURN, False) is Command.ACTIVATE
    assert added.command(pygame.K_KP_ENTER, False) is Command.ACTIVATE  # the unnamed extra
    assert added.names(Command.ACTIVATE) == "Enter or J"


def test_reset_puts_back_a_commands_own_keys_unless_another_has_one() -> None:
    keys = own_keys.swap(KeyMap.default(), Command.REPEAT, Chord(pygame.K_s))
    assert keys is not None
    blocked = own_keys.reset(keys, Command.REPEAT)
    assert blocked.keys is None and blocked.taken_by == (Command.SITUATION,)
    moved = own_keys.give(keys, Command.SITUATION, Chord(pygame.K_n)).keys
    assert moved is not None
    back = own_keys.reset(moved, Command.REPEAT).keys
    assert back is not None and back.command(pygame.K_r, False) is Command.REPEAT


def test_damaged_and_stale_saved_keys_fall_back_with_one_notice(tmp_path: Path) -> None:
    (tmp_path / "settings.json").write_text(json.dumps({"keys": {
        "repeat": ["no such key"],  # unreadable: its own keys again
        "where": ["s"],  # S is the situation's: a clash
        "matchups": [],  # no key at all: not kept by the settings either
        "teleport": ["q"],  # a command this game has not got
        "help": ["j"],  # F1 taken from help: refused
        "situation": ["q"],  # fine
    }}))
    loaded, notice = load_settings(tmp_path)
    assert notice == "Some saved settings were not valid and were reset or corrected."
    assert [name for name, _keys in loaded.keys] == ["help", "repeat", "situation", "teleport",
                                                      "where"]  # the empty one left out
    own = own_keys.build(loaded.keys)
    assert set(own.restored) == {Command.REPEAT, Command.HELP}
    assert own.keys.command(pygame.K_r, False) is Command.REPEAT
    assert own.keys.command(pygame.K_F1, False) is Command.HELP
    # "where" wanted S, which "situation" gave up for Q: both kept, no clash.
    assert own.keys.command(pygame.K_s, False) is Command.WHERE
    assert own.keys.command(pygame.K_q, False) is Command.SITUATION
    assert own.keys.command(pygame.K_m, False) is Command.MATCHUPS
    notice = own_keys.restored_notice(own, command_names())
    assert notice == ("Some of your keys could not be used, so these have their own keys "
                      "again: Repeat and Help.")


def test_a_clash_sets_back_both_commands_and_a_hostile_shape_is_no_change() -> None:
    own = own_keys.build((("repeat", ("j",)), ("where", ("j",))))
    assert set(own.restored) == {Command.REPEAT, Command.WHERE}
    assert own.keys.bindings == KeyMap.default().bindings
    for hostile in ("keys", 5, [["repeat"]], {"repeat": "r"}, {"repeat": [1]},
                    {"x" * 500: ["r"]}, {"repeat": ["r"] * 100},
                    {f"c{n}": ["r"] for n in range(1000)}):
        assert Settings().changed(keys=hostile).keys == ()
    assert Settings().changed(keys={"repeat": [1], "where": ["j"]}).keys == (("where", ("j",)),)


CHORDS = st.one_of(
    st.sampled_from([pygame.K_a + n for n in range(26)] + [pygame.K_F1 + n for n in range(12)]
                    + [pygame.K_RETURN, pygame.K_ESCAPE, pygame.K_LEFT, pygame.K_TAB,
                       pygame.K_SPACE]).flatmap(
        lambda key: st.builds(Chord, st.just(key), st.booleans())),
    st.sampled_from(list(Pad)).map(lambda pad: Chord(pad.key)),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(list(Command)), CHORDS, st.booleans()), max_size=25))
def test_any_run_of_changes_keeps_every_rule(steps: list[tuple[Command, Chord, bool]]) -> None:
    """Giving keys, swapping and resetting in any order: every command keeps a key, the
    protected keys keep theirs, no key does two things where both work, and the map saved is
    the map rebuilt."""
    keys = KeyMap.default()
    for command, chord, swap in steps:
        if swap:
            changed = own_keys.swap(keys, command, chord)
        elif chord.key == pygame.K_a:
            changed = own_keys.reset(keys, command).keys
        else:
            changed = own_keys.give(keys, command, chord).keys
        keys = changed or keys
        assert own_keys.broken(keys, set(Command)) == set()
    for command, protected in own_keys.PROTECTED.items():
        for chord in protected:
            assert keys.command(chord.key, False) is command
    rebuilt = own_keys.build(own_keys.changes(keys))
    assert rebuilt.restored == () and rebuilt.keys.bindings == keys.bindings


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from([c.value for c in Command] + ["bogus"]),
                       st.lists(st.sampled_from(["r", "s", "j", "shift+tab", "pad:a", "pad:y",
                                                 "return", "~left", "f1", "?", "", "pad:zz"]),
                                max_size=3), max_size=8))
def test_any_saved_map_gives_a_map_that_keeps_every_rule(saved: dict[str, list[str]]) -> None:
    own = own_keys.build(Settings().changed(keys=saved).keys)
    assert own_keys.broken(own.keys, set(Command)) == set()
    for binding in own.keys.bindings:
        assert binding.chords, binding.command


def test_on_a_typing_screen_a_key_that_types_is_not_named_for_a_command(tmp_path: Path) -> None:
    """A player who gave J to Enter's command hears "Enter or J" in a menu, but on a screen
    that takes text, where J types a J, only "Enter"; and J there types."""
    from app_driver import press, started_app
    from recording import RecordingSpeaker

    keys = own_keys.give(KeyMap.default(), Command.ACTIVATE, Chord(pygame.K_j)).keys
    assert keys is not None
    assert keys.fill("{activate}") == "Enter or J"
    assert keys.fill("{activate}", typing=True) == "Enter"
    speaker = RecordingSpeaker()
    app = started_app(tmp_path, speaker)
    app.keys = keys
    app.keeper.start_naming()  # Start a game: typing the player's team name
    prompt = speaker.spoken[-1].text
    assert "Enter" in prompt and " or J" not in prompt, prompt
    press(app, "j")
    app.handle_text("j")
    assert app.top.text == "j"  # typed, not confirmed
