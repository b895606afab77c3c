"""The candidates the objectives add to greedy's (docs/ai.md, "Objectives"): a walk
toward each objective that pulls a model, as near as its reachable area goes, and
for a carrier the straight ``leave`` over its exit edge (R-OBJ-4). Apart from
:mod:`sim.ai.objectives` because the candidates' module reads the scoring, which
reads the objectives' worth."""

from __future__ import annotations

import shapely
from shapely.ops import nearest_points

from sim.ai.candidates import Reaches, walks_to
from sim.ai.objectives import targets
from sim.engine.actions import Action
from sim.engine.state import GameState
from sim.movement.kinds import Leave
from sim.scenario.objectives import Objective


def objective_moves(state: GameState, model: str, reaches: Reaches) -> list[Action]:
    """Walks toward each objective that pulls the model (as near as its reachable area
    goes) and, for a carrier, leaving over its exit edge; every one legal."""
    me = state.model(model)
    if me.climbing or not state.scenario.objectives:
        return []
    carried = state.objectives.carried_by(model)
    if carried is not None:
        return _exits(state, model, state.scenario.objective(carried))
    area = reaches.of(state, model, False)
    if area.area.is_empty:
        return []
    nearest = [nearest_points(area.area, shapely.Point(point))[0]
               for _, point in targets(state)]
    return list(walks_to(state, model, area, ((p.x, p.y) for p in nearest)))


def _exits(state: GameState, model: str, o: Objective) -> list[Action]:
    """The carrier's straight leave over its exit edge, when its ruler reaches it."""
    edge = o.exits.get(state.model(model).side)
    if edge is None:
        return []
    x, y = state.model(model).position.xy
    w, h = state.scenario.board
    beyond = state.radius(model) + 0.5
    to = {"north": (x, -beyond), "south": (x, h + beyond), "west": (-beyond, y),
          "east": (w + beyond, y)}[edge]
    leave = Leave(model, (to,))
    return [leave] if state.is_legal(leave) else []
