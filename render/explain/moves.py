"""The window's questions about a path being drawn, in words and points.

The live ruler and the engine's reason against a path (R-MOV-1, R-MOV-5,
R-CLIMB-1), a base put against a face to climb it, and where a climb leaves
the model (R-CLIMB-3), all read from the movement rules' own plan; nothing
here decides a rule. :class:`render.explain.answers.Answers` keeps them per
engine state.
"""

from __future__ import annotations

import shapely
from shapely.ops import nearest_points

from geometry.elevation.edges import is_surface
from geometry.movement.paths import path_length
from sim.engine.actions import Action
from sim.engine.state import GameState
from sim.movement.kinds import Charge, Move, Vertical, plan_movement
from sim.movement.levels import terrain_view

Point = tuple[float, float]


FACE_SNAP = 0.15  # inches: a base this near a taller piece is put against it


def against_face(state: GameState, model: str, z: float, xy: Point) -> Point:
    """``xy`` moved so the base touches the nearest taller piece it overlaps or nearly touches.

    A climb starts from base contact with a face (R-CLIMB-1), which no click
    hits: a base that overlaps a piece taller than ``z`` (or misses touching
    it by under :data:`FACE_SNAP`) is put against it, half the touch
    tolerance off. A centre inside the piece is left alone (that is a click
    on its top). The movement rules still judge the path.
    """
    view = terrain_view(state.scenario, model)
    r, tol = state.radius(model), state.rules.touch_tolerance
    pt = shapely.Point(xy)
    best: tuple[float, Point] | None = None
    for piece, props in view.pieces:
        if not is_surface(props.height, props.area) or props.height <= z + 1e-9:
            continue
        d = piece.footprint.distance(pt)
        if d <= 0 or d >= r + FACE_SNAP or r <= d <= r + tol:
            continue
        near = nearest_points(piece.footprint, pt)[0]
        ux, uy = (xy[0] - near.x) / d, (xy[1] - near.y) / d
        spot = (near.x + ux * (r + tol / 2), near.y + uy * (r + tol / 2))
        if best is None or d < best[0]:
            best = (d, spot)
    return xy if best is None else best[1]


def reason(state: GameState | None, action: Action | None) -> str:
    """The engine's reason against ``action`` now: "" when legal, "incomplete"
    while it cannot be built."""
    why = None if action is None or state is None else state.why_illegal(action)
    return why.reason if why is not None else ("" if action else "incomplete")


def path_verdict(state: GameState | None, action: Action | None, points: list[Point],
                 short: bool = False) -> tuple[str, str]:
    """The ruler text (:func:`path_text`) and the engine's reason for ``action``."""
    return path_text(state, action, points, short), reason(state, action)


def shown_length(length: float, limit: float) -> str:
    """A path length for the ruler readout: two decimals, on the same side of the
    ruler as the exact length (``4.00 / 4 in`` for 3.9999, ``4.01 / 4 in`` for
    4.0001). Display only: the rules compare the exact numbers."""
    shown = round(length, 2)
    return f"{min(shown, limit) if length <= limit + 1e-9 else max(shown, limit + 0.01):.2f}"


def path_text(state: GameState | None, action: Action | None, points: list[Point],
              short: bool = False) -> str:
    """The live ruler: path length against the ruler in use and why it is shorter
    (``short``: the length alone).

    Read from the movement rules' own plan (R-MOV-1, R-MOV-5, R-CLIMB-1).
    """
    if state is None or not isinstance(action, Move | Charge):
        return f"{path_length(points):.2f} in"  # a Leave: no ruler plan, the length drawn
    plan = plan_movement(state, action.model, action.steps,
                         ruler="charge" if isinstance(action, Charge) else "move")
    if not plan.ruler:
        return f"{plan.length:.2f} in"
    number = shown_length(plan.length, plan.limit)
    if short:
        return f"{number} in"
    text = f"{number} / {plan.limit:g} in ({plan.ruler}"
    if plan.difficult:
        text += f", shorter: difficult {', '.join(plan.difficult)}"
    return text + ")"


def climb_end(state: GameState | None, action: Action | None) -> str | None:
    """How a path ending with a climb leaves the model, from the movement plan
    (R-CLIMB-3): ``"lip"`` at the top of the face, not on it yet; ``"partway"``
    up the face; None when it does not end climbing."""
    if state is None or not isinstance(action, Move | Charge):
        return None
    plan = plan_movement(state, action.model, action.steps)
    if not plan.legal or not plan.climbing_at_end:
        return None
    last = next((r for r in reversed(plan.route) if isinstance(r, Vertical)), None)
    return "partway" if last is not None and last.partway else "lip"
