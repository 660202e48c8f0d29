"""All card data: calls, featured players, the matchup table and the band tables.

This is the single source that the engine, the computer, card details and the explorer read.
Each offensive call has one row per band (-3..+3). A row lists weights over the call's yardage
columns (summing to 100, so one percentile roll picks a column) and the call's risks in percent.
Design rules (checked by tests): higher bands are never worse for the offense; every call beats
at least one opposing call and loses to at least one; no call is dominated by another.
"""

from __future__ import annotations

from collections.abc import Mapping

from .card_model import (
    BandTable,
    DefCall,
    DefCallCard,
    OffCall,
    OffCallCard,
    Player,
    PlayerCard,
    PlayKind,
    Role,
)

RunRow = tuple[int, tuple[int, ...]]  # fumble %, weights
PassRow = tuple[
    int, int, int, int, tuple[int, ...]
]  # incomplete, interception, sack, fumble %, weights


def _run_bands(columns: tuple[int, ...], rows: Mapping[int, RunRow]) -> dict[int, BandTable]:
    return {
        band: BandTable(yards=tuple(zip(columns, weights, strict=True)), fumble=fumble)
        for band, (fumble, weights) in rows.items()
    }


def _pass_bands(columns: tuple[int, ...], rows: Mapping[int, PassRow]) -> dict[int, BandTable]:
    return {
        band: BandTable(
            yards=tuple(zip(columns, weights, strict=True)),
            fumble=fumble,
            incomplete=incomplete,
            interception=interception,
            sack=sack,
        )
        for band, (incomplete, interception, sack, fumble, weights) in rows.items()
    }


# Runs: band -> (fumble %, weights over the yardage columns).
# Passes: band -> (incomplete %, interception %, sack %, fumble %, weights over completion yards).
_INSIDE_RUN = _run_bands(
    (-3, -1, 0, 1, 2, 3, 4, 5, 6, 8, 12, 20, 30),
    {
        -3: (2, (6, 11, 13, 12, 12, 12, 10, 7, 6, 6, 3, 2, 0)),
        -2: (2, (5, 10, 12, 11, 12, 12, 10, 8, 7, 6, 4, 2, 1)),
        -1: (1, (5, 9, 11, 11, 11, 12, 11, 8, 7, 7, 4, 3, 1)),
        0: (1, (4, 8, 10, 10, 11, 12, 11, 9, 8, 8, 5, 3, 1)),
        1: (1, (1, 4, 5, 6, 8, 10, 11, 11, 11, 13, 10, 7, 3)),
        2: (1, (0, 1, 2, 3, 5, 7, 9, 10, 12, 17, 15, 13, 6)),
        3: (1, (0, 0, 1, 1, 2, 4, 6, 8, 11, 19, 19, 19, 10)),
    },
)
_OUTSIDE_RUN = _run_bands(
    (-5, -3, -1, 0, 2, 4, 6, 8, 11, 15, 22, 30, 40),
    {
        -3: (2, (9, 13, 14, 11, 13, 12, 9, 6, 5, 3, 3, 1, 1)),
        -2: (2, (8, 12, 13, 11, 13, 12, 9, 7, 6, 4, 3, 1, 1)),
        -1: (1, (7, 11, 12, 10, 13, 13, 10, 8, 6, 4, 3, 2, 1)),
        0: (1, (6, 10, 11, 10, 13, 13, 10, 8, 7, 5, 4, 2, 1)),
        1: (1, (2, 5, 6, 7, 10, 12, 11, 10, 11, 9, 9, 5, 3)),
        2: (1, (1, 2, 3, 3, 6, 9, 9, 10, 13, 13, 14, 10, 7)),
        3: (1, (0, 1, 1, 1, 3, 5, 6, 9, 12, 14, 19, 16, 13)),
    },
)
_DRAW = _run_bands(
    (-4, -2, 0, 1, 2, 3, 4, 6, 8, 12, 18, 25, 35),
    {
        -3: (2, (9, 12, 12, 12, 13, 11, 10, 8, 6, 3, 2, 1, 1)),
        -2: (2, (8, 11, 11, 12, 12, 12, 10, 9, 7, 4, 2, 1, 1)),
        -1: (1, (7, 10, 11, 11, 12, 12, 11, 9, 7, 4, 3, 2, 1)),
        0: (1, (6, 9, 10, 11, 12, 12, 11, 10, 8, 5, 3, 2, 1)),
        1: (1, (3, 4, 6, 7, 9, 11, 12, 13, 12, 9, 6, 5, 3)),
        2: (1, (1, 1, 2, 4, 6, 8, 10, 13, 14, 13, 11, 10, 7)),
        3: (1, (0, 0, 1, 2, 3, 5, 7, 11, 14, 14, 14, 16, 13)),
    },
)
_SCREEN = _pass_bands(
    (-4, -2, 0, 5, 8, 13, 16, 21, 27, 35, 45, 56),
    {
        -3: (30, 6, 6, 3, (23, 21, 17, 14, 10, 7, 4, 2, 1, 1, 0, 0)),
        -2: (26, 4, 5, 3, (16, 16, 16, 14, 13, 10, 7, 4, 2, 1, 1, 0)),
        -1: (22, 2, 4, 2, (10, 11, 13, 13, 14, 13, 9, 7, 5, 3, 2, 0)),
        0: (18, 1, 3, 2, (5, 7, 9, 11, 13, 14, 12, 10, 8, 6, 4, 1)),
        1: (16, 1, 2, 2, (3, 4, 6, 9, 11, 14, 13, 12, 11, 9, 6, 2)),
        2: (14, 0, 2, 1, (2, 3, 4, 6, 9, 12, 13, 13, 13, 12, 10, 3)),
        3: (12, 0, 1, 1, (1, 1, 3, 4, 7, 10, 12, 13, 15, 15, 14, 5)),
    },
)
_QUICK_SLANT = _pass_bands(
    (4, 6, 9, 10, 13, 14, 17, 20, 25, 32, 41, 51),
    {
        -3: (40, 6, 7, 2, (26, 22, 18, 13, 9, 6, 3, 2, 1, 0, 0, 0)),
        -2: (36, 5, 6, 2, (18, 18, 17, 14, 11, 8, 6, 4, 2, 1, 1, 0)),
        -1: (32, 4, 5, 1, (11, 13, 14, 13, 12, 11, 9, 7, 5, 3, 2, 0)),
        0: (28, 2, 4, 1, (6, 8, 10, 11, 12, 12, 11, 10, 8, 7, 4, 1)),
        1: (26, 2, 3, 1, (3, 5, 7, 9, 11, 12, 12, 12, 11, 10, 6, 2)),
        2: (24, 1, 3, 1, (2, 3, 5, 6, 9, 10, 12, 13, 13, 14, 10, 3)),
        3: (22, 1, 2, 1, (1, 2, 3, 4, 6, 9, 11, 13, 15, 17, 14, 5)),
    },
)
_DEEP_PASS = _pass_bands(
    (26, 29, 32, 37, 42, 46, 51, 58, 64, 72, 88),
    {
        -3: (62, 10, 11, 2, (35, 26, 17, 10, 6, 3, 2, 1, 0, 0, 0)),
        -2: (58, 8, 10, 2, (26, 22, 18, 13, 8, 6, 3, 2, 1, 1, 0)),
        -1: (54, 6, 9, 1, (17, 18, 16, 14, 11, 8, 6, 4, 3, 2, 1)),
        0: (50, 5, 8, 1, (10, 12, 13, 13, 12, 11, 9, 8, 6, 4, 2)),
        1: (48, 5, 7, 1, (6, 8, 10, 11, 11, 12, 11, 11, 9, 7, 4)),
        2: (46, 4, 7, 1, (3, 5, 7, 9, 10, 12, 12, 13, 12, 10, 7)),
        3: (44, 4, 6, 1, (2, 3, 4, 6, 8, 10, 12, 15, 15, 15, 10)),
    },
)

OFFENSIVE_CALLS: dict[OffCall, OffCallCard] = {
    card.call: card
    for card in (
        OffCallCard(
            OffCall.INSIDE_RUN,
            "Inside Run",
            PlayKind.RUN,
            "A downhill handoff between the tackles: steady yards, rarely a big loss.",
            _INSIDE_RUN,
        ),
        OffCallCard(
            OffCall.OUTSIDE_RUN,
            "Outside Run",
            PlayKind.RUN,
            "A sweep to the sideline: boom or bust, deadly when the edge is open.",
            _OUTSIDE_RUN,
        ),
        OffCallCard(
            OffCall.DRAW,
            "Draw Play",
            PlayKind.RUN,
            "Show pass, then hand off late: punishes a rushing defense.",
            _DRAW,
        ),
        OffCallCard(
            OffCall.SCREEN,
            "Screen Pass",
            PlayKind.PASS,
            "Let the rush through and dump it to a back behind a wall of blockers.",
            _SCREEN,
        ),
        OffCallCard(
            OffCall.QUICK_SLANT,
            "Quick Slant",
            PlayKind.PASS,
            "A three-step drop and a throw inside: reliable, hard to sack.",
            _QUICK_SLANT,
        ),
        OffCallCard(
            OffCall.DEEP_PASS,
            "Deep Pass",
            PlayKind.PASS,
            "A long drop and a shot downfield: big gains, big risks.",
            _DEEP_PASS,
        ),
    )
}

DEFENSIVE_CALLS: dict[DefCall, DefCallCard] = {
    card.call: card
    for card in (
        DefCallCard(
            DefCall.STACK_THE_BOX, "Stack the Box", "Eight men near the line to smother the run."
        ),
        DefCallCard(DefCall.BLITZ, "Blitz", "Send extra rushers at the quarterback."),
        DefCallCard(
            DefCall.MAN_COVERAGE,
            "Man Coverage",
            "Every receiver shadowed by one defender, tight and physical.",
        ),
        DefCallCard(
            DefCall.ZONE_COVERAGE,
            "Zone Coverage",
            "Defenders guard areas of the field and read the quarterback.",
        ),
        DefCallCard(
            DefCall.PREVENT, "Prevent", "Everyone deep: give up the short stuff, never the bomb."
        ),
        DefCallCard(DefCall.CONTAIN, "Contain", "Seal the edges and keep every play in front."),
    )
}

# Offense row, defense column: how many bands the matchup moves the play
# (positive helps the offense).
MATCHUPS: dict[OffCall, dict[DefCall, int]] = {
    off: dict(zip(DefCall, row, strict=True))
    for off, row in {
        #                  Stack  Blitz  Man  Zone  Prevent  Contain
        OffCall.INSIDE_RUN: (-1, 0, 1, 1, 1, 1),
        OffCall.OUTSIDE_RUN: (-1, 1, 1, 1, 1, -1),
        OffCall.DRAW: (-1, 2, 1, 1, 1, -1),
        OffCall.SCREEN: (0, 1, -1, 0, -1, -1),
        OffCall.QUICK_SLANT: (0, 0, -1, -1, 0, 1),
        OffCall.DEEP_PASS: (2, -1, 0, -1, -2, 0),
    }.items()
}

PLAYERS: dict[Player, PlayerCard] = {
    card.player: card
    for card in (
        PlayerCard(
            Player.POWER_BACK,
            "Power Back",
            Role.OFFENSE,
            OffCall.INSIDE_RUN,
            "A bruising runner who falls forward for extra yards.",
        ),
        PlayerCard(
            Player.SCATBACK,
            "Scatback",
            Role.OFFENSE,
            OffCall.OUTSIDE_RUN,
            "A quick, shifty back who wins the race to the corner.",
        ),
        PlayerCard(
            Player.SLOT_RECEIVER,
            "Slot Receiver",
            Role.OFFENSE,
            OffCall.QUICK_SLANT,
            "Sure hands over the middle on quick throws.",
        ),
        PlayerCard(
            Player.DEEP_THREAT,
            "Deep Threat",
            Role.OFFENSE,
            OffCall.DEEP_PASS,
            "A sprinter who stretches the field.",
        ),
        PlayerCard(
            Player.NOSE_TACKLE,
            "Nose Tackle",
            Role.DEFENSE,
            OffCall.INSIDE_RUN,
            "A wall in the middle of the line.",
        ),
        PlayerCard(
            Player.EDGE_SETTER,
            "Edge Setter",
            Role.DEFENSE,
            OffCall.OUTSIDE_RUN,
            "An outside linebacker who turns every sweep back inside.",
        ),
        PlayerCard(
            Player.SHUTDOWN_CORNER,
            "Shutdown Corner",
            Role.DEFENSE,
            OffCall.QUICK_SLANT,
            "A cornerback who jumps short routes.",
        ),
        PlayerCard(
            Player.CENTER_FIELDER,
            "Center Fielder",
            Role.DEFENSE,
            OffCall.DEEP_PASS,
            "A free safety with range to run down the deep ball.",
        ),
    )
}

OFFENSIVE_PLAYERS: tuple[Player, ...] = tuple(
    p for p, c in PLAYERS.items() if c.role is Role.OFFENSE
)
DEFENSIVE_PLAYERS: tuple[Player, ...] = tuple(
    p for p, c in PLAYERS.items() if c.role is Role.DEFENSE
)


OFFENSIVE_CALL_IDS: tuple[OffCall, ...] = tuple(OffCall)
DEFENSIVE_CALL_IDS: tuple[DefCall, ...] = tuple(DefCall)


def players_for(role: Role) -> tuple[Player, ...]:
    """The four featured players a team may pick from on this side of the ball."""
    return OFFENSIVE_PLAYERS if role is Role.OFFENSE else DEFENSIVE_PLAYERS


def calls_for(role: Role) -> tuple[OffCall, ...] | tuple[DefCall, ...]:
    """The six calls a team may pick from on this side of the ball."""
    return OFFENSIVE_CALL_IDS if role is Role.OFFENSE else DEFENSIVE_CALL_IDS


def card_name(card: OffCall | DefCall | Player) -> str:
    """The spoken and shown name of any card."""
    if isinstance(card, OffCall):
        return OFFENSIVE_CALLS[card].name
    if isinstance(card, DefCall):
        return DEFENSIVE_CALLS[card].name
    return PLAYERS[card].name
