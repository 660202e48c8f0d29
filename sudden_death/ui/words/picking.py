"""The counting phrases of a card pick and the swap's first prompt: the desktop's menus say
them as the player checks cards, and the browser page gets the same words ready-made
(web/site.py), so both count in one voice and one catalog."""

from __future__ import annotations

from ...language import _, join_words, n_


def picked_words(have: int, limit: int, noun: str, brief: bool = False) -> str:
    """How far the checking has got, said so that it never sounds like a position ("2 of
    4" is where the focus is): "1 picked, 1 to go", "players full" ("1 to go", brief)."""
    if have < limit:
        left = limit - have
        if brief:
            # Translators: how many more cards a list needs, short: "1 to go".
            return n_("{left} to go", "{left} to go", left).format(left=left)
        # Translators: how many cards of a list are picked and how many more it needs:
        # "1 picked, 1 to go".
        return n_("{have} picked, {left} to go", "{have} picked, {left} to go",
                  left).format(have=have, left=left)
    if noun == "players":
        # Translators: the players list has all the players it takes.
        return _("players full")
    if noun == "calls":
        # Translators: the calls list has all the calls it takes.
        return _("calls full")
    # Translators: a list has all the entries it takes.
    return _("list full")


def full_words(limit: int, noun: str) -> str:
    """What checking one more than the limit says: the limit, and what to do instead."""
    if noun == "players":
        words = n_("You already have {count} player. Uncheck one first.",
                   "You already have {count} players. Uncheck one first.", limit)
    elif noun == "calls":
        words = n_("You already have {count} call. Uncheck one first.",
                   "You already have {count} calls. Uncheck one first.", limit)
    elif noun == "items":
        words = n_("You already have {count} item. Uncheck one first.",
                   "You already have {count} items. Uncheck one first.", limit)
    else:
        # Translators: {noun} names what is checked, a plural noun.
        words = _("You already have {count} {noun}. Uncheck one first.")
    return words.format(count=limit, noun=noun)


def missing_words(players: int, calls: int) -> str:
    """A hand confirmed short of `players` more players and `calls` more calls ("" when it
    is full)."""
    missing = []
    if players > 0:
        missing.append(n_("{count} more player", "{count} more players",
                          players).format(count=players))
    if calls > 0:
        missing.append(n_("{count} more call", "{count} more calls", calls).format(count=calls))
    if not missing:
        return ""
    # Translators: {missing} is "1 more player and 2 more calls".
    return _("Not yet: pick {missing}.").format(missing=join_words(missing))


def answer_cards_words() -> str:
    """The swap's whole prompt (the first time in a game), its key still to be filled in:
    {next_item}, the key that reaches the cards."""
    # Translators: {next_item} is a key, as "Down".
    return _("Now you may answer their cards: keep all yours, or replace one player or one "
             "call. Press {next_item} to reach the card to replace.")
