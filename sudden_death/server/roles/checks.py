"""What a greeting's fields may be (a team name, a table password) and the refusal a guesser
hears: shared by the roles that greet, seat and watch, so each says it the same way."""

from __future__ import annotations

import math

from ...wire import protocol as p
from ...wire.names import skeletons, spaced


def checked_name(name: str) -> str:
    """A team name as said: runs of spaces made one, but a tab, a line break, a separator or
    a direction mark refused rather than turned into spaces (`isprintable` refuses them)."""
    name = spaced(name)
    if not name or len(name) > p.MAX_NAME or not name.isprintable():
        raise p.ProtocolError(p.BAD_NAME, p.TEAM_NAME_LENGTH)
    if not all(skeletons(name)):  # only invisible characters: silent when read aloud
        raise p.ProtocolError(p.BAD_NAME, p.TEAM_NAME_SILENT)
    return name


def checked_password(password: str) -> str:
    if len(password) > p.MAX_PASSWORD or not password.isprintable():
        raise p.ProtocolError(p.BAD_MESSAGE, f"a table password has at most {p.MAX_PASSWORD} "
                                             "printable characters")
    return password


def slow_down(wait: float) -> p.ProtocolError:
    return p.ProtocolError(p.SLOW_DOWN, "too many wrong codes from your address; try again "
                                        f"in {math.ceil(wait)} s")
