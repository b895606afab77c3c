"""Drawing a path: waypoints, drags, climbs and jumps, snapping to faces and contact.

A Move, Charge or Leave is set up by clicking waypoints on the board (or
dragging through them); the path ruler previews the engine's verdict on the
path as drawn so far plus the pointer. The window only proposes points: the
engine judges every path.
"""

from __future__ import annotations

import math

from render.draw.overlays import AreaOverlay, PathOverlay
from render.draw.theme import TEXT_BAD, TEXT_GOOD
from render.draw.view import Overlay, TextLine
from render.explain import answers
from render.explain.answers import Answers
from render.input.setup import Setup, build
from render.scene import Scene
from sim.engine.state import GameState
from sim.movement.kinds import ChargeKind
from sim.movement.plan import Step
from sim.scenario.objects import Scenario

SNAP = 0.5  # inches: a charge's waypoint this near base contact snaps to it
DRAG_STEP = 0.5  # inches between the waypoints a drag drops


def height_at_end(scene: Scene, s: Setup) -> float:
    """The model's height after the climbs and jumps set up so far."""
    z = scene.model(s.model).z
    for step in s.steps:
        if step.kind != "walk":
            z = step.z
    return z


def snap(state: GameState | None, scene: Scene, s: Setup, x: float, y: float
         ) -> tuple[float, float]:
    """A point near the target of a charge, put exactly in base contact with it.

    No hand can click to a hundredth of an inch (R-UNIT-2); a click within
    :data:`SNAP` of the contact circle lands on it (bases touching, gap 0,
    R-DIST-1). The engine still checks the path.
    """
    if not s.form.points:
        return (x, y)
    if s.target is None:  # a Move: a base near a taller piece goes against its face
        return against_face(state, scene, s, x, y)
    me, tgt = scene.model(s.model), scene.model(s.target)
    dx, dy = x - tgt.x, y - tgt.y
    d = math.hypot(dx, dy)
    contact = me.radius + tgt.radius
    if d == 0 or d > contact + SNAP:
        return (x, y)
    return (tgt.x + dx / d * contact, tgt.y + dy / d * contact)


def against_face(state: GameState | None, scene: Scene, s: Setup, x: float, y: float
                 ) -> tuple[float, float]:
    """A waypoint that overlaps or nearly touches a taller piece, put against it."""
    if state is None or not s.form.vertical:
        return (x, y)
    return answers.against_face(state, s.model, height_at_end(scene, s), (x, y))


def vertical_choices(scenario: Scenario, state: GameState | None, scene: Scene, s: Setup
                     ) -> list[Step]:
    """Climb/jump heights to offer at the path's end: the levels its base touches."""
    if state is None:
        return []
    m = scene.model(s.model)
    xy = s.points[-1] if s.points else (m.x, m.y)
    z = height_at_end(scene, s)
    out: list[Step] = []
    for h in answers.levels_at(state, s.model, xy):
        if abs(h - z) > 1e-9:
            out.append(Step("climb", z=h))
            if h < z and scenario.rules == "rulebook":
                out.append(Step("jump", z=h))
    return out


def path_preview(state: GameState | None, scene: Scene, s: Setup,
                 hover: tuple[float, float] | None, weapon: str | None) -> PathOverlay | None:
    """The path set up so far plus the pointer, with the engine's verdict on it."""
    if s.form.target and s.target is None:
        return None  # a charge's path starts once its target is picked
    start = scene.model(s.model)
    steps = list(s.steps)
    if hover is not None and (not steps or s.form.many_points):
        steps.append(Step("walk", *snap(state, scene, s, *hover)))
    if not steps:
        return None
    pts = [(start.x, start.y)]
    marks: list[tuple[float, float, str]] = []
    for step in steps:
        if step.kind == "walk":
            pts.append((step.x, step.y))
        else:  # a climb or jump where the path is at that point
            marks.append((*pts[-1], f"{step.kind} {step.z:g}\""))
    action = build(s, weapon, steps)
    why = None if action is None or state is None else state.why_illegal(action)
    text = answers.path_text(state, action, pts)
    reason = why.reason if why is not None else ("" if action else "incomplete")
    return PathOverlay(tuple(pts), start.radius, not reason, text, reason, tuple(marks))


def path_details(kept: Answers, state: GameState | None, scene: Scene, s: Setup,
                 hover: tuple[float, float] | None, weapon: str | None
                 ) -> tuple[list[Overlay], list[TextLine]]:
    """The reachable area (kept in ``kept``), the path ruler and its verdict in words."""
    overlays: list[Overlay] = []
    lines: list[TextLine] = []
    area = kept.reach_area(state, s.model, isinstance(s.kind, ChargeKind))
    if area is not None:
        overlays.append(AreaOverlay(area))
    path = path_preview(state, scene, s, hover, weapon)
    if path is not None:
        overlays.append(path)
        lines.append(TextLine(f"path: {path.text}", TEXT_GOOD if path.ok else TEXT_BAD))
        if path.reason:
            lines.append(TextLine(f"not legal: {path.reason}", TEXT_BAD))
    return overlays, lines


def clicked_step(state: GameState | None, scene: Scene, s: Setup, x: float, y: float) -> None:
    """A click on the board adds a waypoint (or, for one-point paths, replaces it)."""
    step = Step("walk", *snap(state, scene, s, x, y))
    s.steps = [*s.steps, step] if s.form.many_points else [step]


def can_drag(s: Setup | None) -> bool:
    """A drag draws a path only for a many-point path whose target (if any) is picked."""
    return s is not None and s.form.points and s.form.many_points and (
        not s.form.target or s.target is not None)


def dragged_to(scene: Scene, s: Setup, x: float, y: float) -> None:
    """A drag drops a waypoint every half inch, so the path follows the pointer."""
    m = scene.model(s.model)
    last = s.points[-1] if s.points else (m.x, m.y)
    if (x - last[0]) ** 2 + (y - last[1]) ** 2 >= DRAG_STEP ** 2:
        s.steps.append(Step("walk", x, y))
