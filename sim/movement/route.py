"""Move by destination: the shortest legal walk to a spot (issue 34; docs/movement.md).

At the table a player says where the model goes and the ruler is bent round
the walls; in the window a click inside the shaded reachable area does the
same. :func:`route_to` asks :func:`~sim.movement.kinds.reachable` (the exact
clearance of the obstacles, geometry.movement.obstacles, and its shortest-path
tree over a visibility graph, geometry.movement.reach) for the shortest path
to the spot, then the engine's own check (:func:`~sim.movement.plan.plan_movement`,
R-MOV-1..4) for the legs it produced; a path the check refuses is never
returned.

A spot outside the area is clamped to the ruler (a Move only): the walk goes
to the nearest spot of the area, then on to the spot itself if that last leg
is legal too (a base put against a climbable face, R-CLIMB-1, lies a hair
outside the area, which keeps half the touch tolerance off every obstacle).
"""

from __future__ import annotations

from typing import Literal

import shapely
from shapely.ops import nearest_points

from sim.engine.state import GameState
from sim.movement.kinds import MoveArea, reachable
from sim.movement.plan import Step, Xy, plan_movement, walk

INSIDE = 1e-4  # inches: the nearest spot of the area is taken this far inside its edge


def route_to(state: GameState, model: str, goal: Xy, *, charge: bool = False,
             area: MoveArea | None = None) -> tuple[Step, ...] | None:
    """The walk steps of the shortest legal path of ``model`` to ``goal`` within its
    Move (or Charge) ruler; a Move's spot out of reach clamped as the module says.
    None when there is no such path (a climbing model, a charge's spot out of contact).
    ``area``: :func:`reachable`'s answer if the caller keeps it."""
    area = area if area is not None else reachable(state, model, charge=charge)
    ruler: Literal["move", "charge"] = "charge" if charge else "move"
    path = area.path_to(goal, shortest=True)
    if path is not None:
        return _checked(state, model, path, ruler)
    if charge or area.area.is_empty:
        return None
    inner = area.area.buffer(-INSIDE)
    if inner.is_empty:
        return None
    near = nearest_points(inner, shapely.Point(goal))[0]
    path = area.path_to((near.x, near.y), shortest=True)
    if path is None:
        return None
    return _checked(state, model, [*path, goal], ruler) or _checked(state, model, path, ruler)


def _checked(state: GameState, model: str, path: list[Xy], ruler: Literal["move", "charge"]
             ) -> tuple[Step, ...] | None:
    """The path's legs as walk steps if the movement rules accept them, else None."""
    steps = walk(*path[1:])
    if not steps or not plan_movement(state, model, steps, ruler=ruler).legal:
        return None
    return steps
