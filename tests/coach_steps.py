"""A table's game played a step at a time by the coach for both seats, through the table's own
hold as players' actions go: for the stores' tests and benchmarks/store_writes.py."""

from __future__ import annotations

import random

from sudden_death.engine.actions import Concede, actors, legal_actions
from sudden_death.engine.smart import SmartPolicy
from sudden_death.server.tables import Table
from sudden_death.wire.values import action_to_wire


def advance(table: Table) -> bool:
    """One step played by the coach for both seats; False when the table is over."""
    before = table.step
    for _ in range(10):
        if table.over or table.step != before:
            break
        state = table.game.state
        team = next(each for each in actors(state) if each not in table.held)
        legal = tuple(action for action in legal_actions(state, team)
                      if not isinstance(action, Concede))
        coach = SmartPolicy(random.Random(f"{table.code}:{table.step}:{team.name}"))
        table.act(team, table.step, [action_to_wire(coach.choose(state, team, legal))])
    return table.step > before


def hold(table: Table) -> None:
    """Played on by `advance` to the next card step, where the first seat's choice is then
    held (the other's not yet in): the change a store may defer (stores.TableStore.defer)."""
    while len(actors(table.game.state)) < 2:
        assert advance(table), "the game ended before a card step"
    state = table.game.state
    team = actors(state)[0]
    legal = tuple(action for action in legal_actions(state, team)
                  if not isinstance(action, Concede))
    coach = SmartPolicy(random.Random(f"{table.code}:{table.step}:{team.name}"))
    table.act(team, table.step, [action_to_wire(coach.choose(state, team, legal))])
    assert team in table.held
