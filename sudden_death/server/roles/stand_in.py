"""The computer in a player's seat: the coach plays for a player whose line dropped, until
they come back (or, gone past the seat wait, to the end of the game), so the player who stayed
is never left without a game.

Its choices are the engine's coach's (`engine/smart.py`), drawn from a generator seeded by
the table's code, the step and the seat, so a restarted server makes the same choice again. A
seat the host gave the computer from the start (`Host.computer`) is played by the computer the
host chose (`Table.opponent`: the rules' random computer or the coach), from the same seed.
A choice for a card step goes through the table's hold like a player's: the other seat hears
only that it has chosen, and nothing of what, until the reveal.
"""

from __future__ import annotations

import random

from ...engine.actions import (
    Action,
    Concede,
    PickFinal,
    PickHand,
    PickSwap,
    actors,
    legal_actions,
)
from ...engine.computers import make_computer
from ...engine.smart import SmartPolicy
from ...engine.snapshot import action_from_dict
from ...engine.state import Team
from ...wire.values import action_to_wire
from ..tables import Outgoing, Table

MAX_STEPS = 200  # far more than a game has: a guard, never reached by the rules


def stand_in_moves(table: Table) -> Outgoing:
    """Every choice the computer's seats owe now, played (and what that tells the seats):
    until the game waits on a player, or is over."""
    out: Outgoing = []
    for _ in range(MAX_STEPS):
        if table.over or not table.full:
            return out
        state = table.game.state
        due = [team for team in actors(state) if team in table.computer
               and team not in table.held]
        if not due:
            return out
        team = due[0]
        legal = tuple(action for action in legal_actions(state, team)
                      if not isinstance(action, Concede))
        rng = random.Random(f"{table.code}:{table.step}:{team.name}")
        computer = (make_computer(table.opponent, rng)
                    if team is table.opponent_seat and table.opponent else SmartPolicy(rng))
        out += table.act(team, table.step, [action_to_wire(computer.choose(state, team, legal))])
    return out


def last_cards(table: Table, team: Team) -> Action:
    """What a seat whose turn ran out plays: its last pick, swap or final call again when that
    is a choice now, else the coach's choice."""
    state = table.game.state
    legal = tuple(action for action in legal_actions(state, team)
                  if not isinstance(action, Concede))
    if isinstance(legal[0], (PickHand, PickSwap, PickFinal)):
        for entry in reversed(table.log):
            kept = entry.get(team.name)
            if kept is None:
                continue
            action = action_from_dict(kept)
            if type(action) is type(legal[0]) and action in legal:
                return action
    coach = SmartPolicy(random.Random(f"{table.code}:{table.step}:{team.name}"))
    return coach.choose(state, team, legal)
