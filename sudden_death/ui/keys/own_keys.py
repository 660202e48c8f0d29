"""The player's own keys: changes to the key map, kept as text in the settings, checked when
they are read back, and the rules every change keeps.

Each change replaces one command's whole list of keys and buttons, so a saved map is a small
{command: [chord, ...]} of the commands the player changed. The rules:

- a key works for one command wherever that command works (the game's keys work on every
  screen, so they clash with a screen's own keys too);
- Enter, Escape and F1 (and the controller's A, B and Back) always keep their commands: a
  player can add a key beside them but never take them away, so help and a way out are always
  one press off;
- every command keeps a key or a button.

A saved map that breaks a rule (written by hand, damaged, or from a game that had other
commands) is never half used: the commands it cannot give are back to their own keys, with one
notice naming them.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache

import pygame

from ...language import _, join_words
from .keymap import PAD_BASE, Chord, Command, Context, KeyMap, Pad, default_bindings

PAD_PREFIX = "pad:"
UNNAMED = "~"  # a chord that works but is not named in help (the keypad's Enter)

# The keys that always keep their commands (one on the keyboard, one on a controller).
PROTECTED: Mapping[Command, tuple[Chord, ...]] = {
    Command.ACTIVATE: (Chord(pygame.K_RETURN), Chord(Pad.A.key)),
    Command.BACK: (Chord(pygame.K_ESCAPE), Chord(Pad.B.key)),
    Command.HELP: (Chord(pygame.K_F1), Chord(Pad.BACK.key)),
}


def kept_names() -> dict[str, str]:
    """The protected keys' names, for words that say them ("{kept_back} cancels"): always
    these keys, whatever else the player gave their commands."""
    names: dict[str, str] = {}
    for command, (key, button) in PROTECTED.items():
        names[f"kept_{command.value}"] = key.name()
        names[f"kept_{command.value}_pad"] = button.name()
    return names


MAX_CHORDS = 8  # keys and buttons on one command; a saved list longer than this is not ours


def chord_text(chord: Chord) -> str:
    """A chord as the settings file keeps it: "r", "shift+tab", "pad:a", "~keypad enter"."""
    if chord.pad:
        text = PAD_PREFIX + Pad(chord.key - PAD_BASE).name.lower()
    else:
        text = ("shift+" if chord.shift else "") + pygame.key.name(chord.key)
    return text if chord.named else UNNAMED + text


def parse_chord(text: str) -> Chord | None:
    """The chord a settings file's text names; None when it names no key or button."""
    named = not text.startswith(UNNAMED)
    body = text.removeprefix(UNNAMED).strip().lower()
    if body.startswith(PAD_PREFIX):
        name = body.removeprefix(PAD_PREFIX).upper()
        return Chord(Pad[name].key, named=named) if name in Pad.__members__ else None
    shift = body.startswith("shift+") and len(body) > len("shift+")
    name = body.removeprefix("shift+") if shift else body
    code = _key_code(name)
    return None if code is None else Chord(code, shift, named)


@cache
def _key_code(name: str) -> int | None:
    if not name or len(name) > 40:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # it warns before pygame.init(); it still works
            code = int(pygame.key.key_code(name))
    except (ValueError, pygame.error):
        return None
    return code if code else None


def overlaps(first: Context, second: Context) -> bool:
    """Whether keys of two contexts are ever read on the same screen."""
    return first is second or Context.GAME in (first, second)


def same_key(first: Chord, second: Chord) -> bool:
    return first.key == second.key and first.shift == second.shift


def context_of(keys: KeyMap, command: Command) -> Context:
    for binding in keys.bindings:
        if binding.command is command:
            return binding.context
    return Context.GAME


def users(keys: KeyMap, chord: Chord, command: Command) -> list[Command]:
    """The other commands that `chord` already does where `command` works."""
    context = context_of(keys, command)
    return [binding.command for binding in keys.bindings
            if binding.command is not command and overlaps(binding.context, context)
            and has_key(binding.chords, chord)]


def protected_owner(chord: Chord) -> Command | None:
    """The command a protected key always belongs to, if `chord` is one."""
    for command, chords in PROTECTED.items():
        if has_key(chords, chord):
            return command
    return None


def with_chords(keys: KeyMap, command: Command, chords: Sequence[Chord]) -> KeyMap:
    """The map with `command`'s keys and buttons replaced by `chords`."""
    bindings = [replace(binding, chords=tuple(chords)) if binding.command is command else binding
                for binding in keys.bindings]
    changed = KeyMap(bindings)
    changed.speaks_pad = keys.speaks_pad
    return changed


def assigned(keys: KeyMap, command: Command, chord: Chord) -> tuple[Chord, ...]:
    """`command`'s chords once `chord` is its key (or button): it replaces the named keys of
    its device, except a protected one, which stays beside it; unnamed extras stay."""
    kept = [own for own in keys.own_chords(command)
            if own.pad is not chord.pad or not own.named
            or own in PROTECTED.get(command, ())]
    kept = [own for own in kept if not same_key(own, chord)]
    new = Chord(chord.key, chord.shift)
    same_device = [own for own in kept if own.pad is chord.pad and own.named]
    others = [own for own in kept if own not in same_device]
    return (*same_device, new, *others)


def primary(keys: KeyMap, command: Command, pad: bool) -> Chord | None:
    """The first named key (or button) of `command`, not counting a protected one."""
    for own in keys.own_chords(command):
        if own.named and own.pad is pad and own not in PROTECTED.get(command, ()):
            return own
    return None


@dataclass(frozen=True)
class Change:
    """What giving `chord` to `command` would do: `keys` is the new map, or None when it is
    refused; `taken_by` names the command that has the key now (a swap can be offered)."""

    keys: KeyMap | None
    taken_by: tuple[Command, ...] = ()
    protected: Command | None = None


def give(keys: KeyMap, command: Command, chord: Chord) -> Change:
    """Give `chord` to `command` if nothing else uses it there and it is not protected."""
    owner = protected_owner(chord)
    if owner is not None and owner is not command:
        return Change(None, protected=owner)
    taken = tuple(users(keys, chord, command))
    if taken:
        return Change(None, taken_by=taken)
    return Change(with_chords(keys, command, assigned(keys, command, chord)))


def swap(keys: KeyMap, command: Command, chord: Chord) -> KeyMap | None:
    """`chord` moves to `command`, and the one command that had it gets `command`'s own key
    of that device instead. None when that can't keep every rule (two commands use the key,
    or the key given back is itself used there)."""
    taken = users(keys, chord, command)
    if len(taken) != 1 or protected_owner(chord) not in (None, command):
        return None
    other = taken[0]
    given_back = primary(keys, command, chord.pad)
    other_chords = [own for own in keys.own_chords(other)
                    if not same_key(own, chord)]
    if given_back is not None:
        other_chords.insert(0, given_back)
    if not other_chords:
        return None
    moved = with_chords(keys, other, other_chords)
    moved = with_chords(moved, command, assigned(moved, command, chord))
    return moved if not broken(moved, {command, other}) else None


def reset(keys: KeyMap, command: Command) -> Change:
    """`command` back to its own keys: refused (naming who has one now) when another command
    was given one of them."""
    own = _defaults()[command]
    taken = tuple(dict.fromkeys(user for chord in own for user in users(keys, chord, command)))
    if taken:
        return Change(None, taken_by=taken)
    return Change(with_chords(keys, command, own))


def broken(keys: KeyMap, changed: Iterable[Command]) -> set[Command]:
    """The commands of `changed` that break a rule in `keys` (a key shared where both work,
    a protected key lost or given away, no key at all, too many)."""
    defaults = _defaults()
    found: set[Command] = set()
    changed = set(changed)
    for binding in keys.bindings:
        command = binding.command
        if command not in changed:
            continue
        chords = binding.chords
        if not chords or len(chords) > MAX_CHORDS:
            found.add(command)
        if not set(PROTECTED.get(command, ())) <= {Chord(c.key, c.shift) for c in chords}:
            found.add(command)
        for chord in chords:
            owner = protected_owner(chord)
            if owner is not None and owner is not command:
                found.add(command)
            for user in users(keys, chord, command):
                # The game's own map shares a few keys (Left is the settings' own key and
                # moves in a list elsewhere); a key shared any other way clashes.
                if not (has_key(defaults[command], chord) and has_key(defaults[user], chord)):
                    found.add(command)
                    if user in changed:
                        found.add(user)
    return found


def has_key(chords: Iterable[Chord], chord: Chord) -> bool:
    """Whether `chord`'s key, with the same Shift, is among `chords`."""
    return any(same_key(chord, own) for own in chords)


@cache
def _defaults() -> dict[Command, tuple[Chord, ...]]:
    return {binding.command: binding.chords for binding in default_bindings()}


def command_of(name: str) -> Command | None:
    try:
        return Command(name)
    except ValueError:
        return None


@dataclass(frozen=True)
class OwnKeys:
    """The key map built from the saved changes, and the commands that had to go back to
    their own keys (dropped: names the file held that are no command of this game)."""

    keys: KeyMap
    restored: tuple[Command, ...] = ()
    dropped: int = 0


def build(saved: Iterable[tuple[str, Sequence[str]]]) -> OwnKeys:
    """The map the saved changes give. Every change that can't be used, or clashes with
    another, is set back (with those it clashed with) until what is left keeps every rule."""
    keys = KeyMap.default()
    wanted: dict[Command, tuple[Chord, ...]] = {}
    restored: list[Command] = []
    dropped = 0
    for name, texts in saved:
        command = command_of(name)
        if command is None:
            dropped += 1
            continue
        parsed = [parse_chord(text) for text in texts]
        read = tuple(chord for chord in parsed if chord is not None)
        if len(read) < len(parsed) or not read:
            restored.append(command)
            continue
        wanted[command] = read
    while True:
        trial = keys
        for command, chords in wanted.items():
            trial = with_chords(trial, command, chords)
        bad = broken(trial, wanted)
        if not bad:
            break
        for command in sorted(bad, key=lambda command: list(Command).index(command)):
            wanted.pop(command, None)
            restored.append(command)
    return OwnKeys(trial, tuple(dict.fromkeys(restored)), dropped)


def changes(keys: KeyMap) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """What the settings keep of `keys`: each command whose chords are not its own."""
    defaults = _defaults()
    return tuple((binding.command.value, tuple(chord_text(chord) for chord in binding.chords))
                 for binding in keys.bindings if binding.chords != defaults[binding.command])


def restored_notice(own: OwnKeys, names: Mapping[Command, str]) -> str | None:
    """The one sentence said when some saved keys could not be used."""
    if own.restored:
        # Translators: {commands} names commands, as "Repeat and Situation".
        return _("Some of your keys could not be used, so these have their own keys again: "
                 "{commands}.").format(commands=join_words([names[c] for c in own.restored]))
    if own.dropped:
        return _("Your saved keys named commands this game does not have; those were left "
                 "out.")
    return None
