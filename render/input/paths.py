"""Drawing a path: waypoints, drags, climbs and jumps, snapping to faces and contact.

A Move, Charge or Leave is set up by clicking waypoints on the board (or
dragging through them). What you see is what Enter commits (issue 16, bug
1): the path drawn solid, with its ghost base and the ruler, is the clicked
steps only; the pointer is a preview of the *next* waypoint, drawn dashed,
and the ruler adds its length apart ("2.61 / 4 in; to pointer 5.19 in").
The window only proposes points: the engine judges every path, and offers
the climbs and jumps (its kind's ``offers``).
"""

from __future__ import annotations

import math

from render.draw.overlays import AreaOverlay, PathOverlay
from render.draw.theme import TEXT_BAD, TEXT_DIM, TEXT_GOOD
from render.draw.view import Overlay, TextLine
from render.explain import moves
from render.explain.answers import Answers
from render.explain.setup import Setup, build
from render.scene import Scene
from sim.engine.state import GameState
from sim.movement.kinds import ChargeKind, MoveKind
from sim.movement.plan import Step
from sim.movement.route import route_to

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
    return moves.against_face(state, s.model, height_at_end(scene, s), (x, y))


def vertical_choices(state: GameState | None, s: Setup, kept: Answers | None = None
                     ) -> list[Step]:
    """Climb/jump steps to offer at the path's end: exactly those its kind offers
    (R-CLIMB-1, R-CLIMB-3, R-JUMP-1: sim.movement.plan.vertical_offers)."""
    path = s.kind.param("steps")
    if state is None or path is None:
        return []
    values: dict[str, object] = {"target": s.target, path.name: tuple(s.steps)}
    offered = (kept.offers(state, s.kind, s.model, path, values) if kept is not None
               else s.kind.offers(state, s.model, path, values))
    return [o for o in offered if isinstance(o, Step)]


def _verdict(kept: Answers | None, state: GameState | None, s: Setup, steps: list[Step],
             weapon: str | None, pts: list[tuple[float, float]], short: bool = False
             ) -> tuple[str, str]:
    """The ruler text (``short``: the length alone) and the engine's reason ("" when
    legal) for ``steps`` (kept in ``kept`` while the state is unchanged)."""
    action = build(s, weapon, steps)
    if kept is not None:
        return kept.path_verdict(state, action, pts, short)
    return moves.path_verdict(state, action, pts, short)


def path_preview(state: GameState | None, scene: Scene, s: Setup,
                 hover: tuple[float, float] | None, weapon: str | None,
                 kept: Answers | None = None) -> PathOverlay | None:
    """The committed path with the engine's verdict, and the pointer's tentative leg."""
    if s.form.target and s.target is None:
        return None  # a charge's path starts once its target is picked
    start = scene.model(s.model)
    pointer = None if hover is None else snap(state, scene, s, *hover)
    if not s.form.many_points:  # one click commits at once: the pointer is the path
        steps = [Step("walk", *pointer)] if pointer is not None else list(s.steps[-1:])
        pointer = None
    else:
        steps = list(s.steps)
    if not steps and pointer is None:
        return None
    pts = [(start.x, start.y)]
    marks: list[tuple[float, float, str]] = []
    for step in steps:
        if step.kind == "walk":
            pts.append((step.x, step.y))
        else:  # a climb or jump where the path is at that point
            marks.append((*pts[-1], f"{step.kind} {step.z:g}\""))
    text, reason = _verdict(kept, state, s, steps, weapon, pts) if steps else ("no step yet", "")
    tip_ok = True
    # The first click goes by destination: the pointer shows the route it would take.
    route = list(destination(state, s, pointer, kept) or ()) if (
        pointer is not None and not steps) else []
    tip = route or ([Step("walk", *pointer)] if pointer is not None else [])
    if pointer is not None:
        pointer = (tip[-1].x, tip[-1].y)
        tip_text, tip_reason = _verdict(kept, state, s, [*steps, *tip], weapon,
                                        [*pts, *((p.x, p.y) for p in tip)], short=True)
        text += f"; to pointer {tip_text}" + (" (refused)" if tip_reason else "")
        tip_ok = not tip_reason
    return PathOverlay(tuple(pts), start.radius, not reason, text, reason, tuple(marks),
                       pointer, tip_ok, tuple((p.x, p.y) for p in tip[:-1]))


def path_details(kept: Answers, state: GameState | None, scene: Scene, s: Setup,
                 hover: tuple[float, float] | None, weapon: str | None
                 ) -> tuple[list[Overlay], list[TextLine]]:
    """The reachable area (kept in ``kept``), the path ruler and its verdict in words."""
    overlays: list[Overlay] = []
    lines: list[TextLine] = []
    area = kept.reach_area(state, s.model, isinstance(s.kind, ChargeKind))
    if area is not None:
        overlays.append(AreaOverlay(area))
    path = path_preview(state, scene, s, hover, weapon, kept)
    if path is not None:
        overlays.append(path)
        lines.append(TextLine(f"path: {path.text}", TEXT_GOOD if path.ok else TEXT_BAD))
        if path.reason:
            lines.append(TextLine(f"not legal: {path.reason}", TEXT_BAD))
    if s.form.many_points and (s.target is not None or not s.form.target):
        lines.append(TextLine("Enter commits the solid path; the dashed leg to the pointer "
                              "is only where a click would add the next waypoint", TEXT_DIM))
    lines += climb_hint(state, scene, s, weapon)
    return overlays, lines


def climb_hint(state: GameState | None, scene: Scene, s: Setup, weapon: str | None
               ) -> list[TextLine]:
    """After a climb: where the movement rules leave the model (R-CLIMB-3); for a model
    that cannot climb, why no Climb is offered (R-CLIMB-4, issue 34)."""
    unit = scene.scenario.unit_of(s.model)
    if s.form.vertical and "climb-incapable" in unit.keywords:
        return [TextLine(f"no Climb offered: {unit.name} cannot climb (climb-incapable, "
                         "R-CLIMB-4)", TEXT_DIM)]
    if not s.steps or s.steps[-1].kind != "climb":
        return []
    end = moves.climb_end(state, build(s, weapon))
    if end == "partway":
        return [TextLine("the move ends part-way up the face: the model is climbing and "
                         "goes on from there next time (R-CLIMB-3)", TEXT_DIM)]
    before = scene.model(s.model).z
    for step in s.steps[:-1]:
        if step.kind != "walk":
            before = step.z
    if s.steps[-1].z > before:  # at the lip of the top (or refused there, vts-1.5)
        return [TextLine("to stand on the top, click a waypoint on it; a movement that "
                         "ends at the lip ends climbing (R-CLIMB-3)", TEXT_DIM)]
    return []


def clicked_step(state: GameState | None, scene: Scene, s: Setup, x: float, y: float,
                 kept: Answers | None = None) -> None:
    """A click on the board adds a waypoint (or, for one-point paths, replaces it).

    The first click of a Move or Charge goes by destination (issue 34): the
    shortest legal path there, round the walls and clamped to the ruler
    (:func:`sim.movement.route.route_to`); where there is none, the straight
    leg, as every later click adds (corners by hand)."""
    goal = snap(state, scene, s, x, y)
    route = destination(state, s, goal, kept) if not s.steps else None
    if route is not None:
        s.steps = list(route)
        return
    step = Step("walk", *goal)
    s.steps = [*s.steps, step] if s.form.many_points else [step]


def destination(state: GameState | None, s: Setup, goal: tuple[float, float],
                kept: Answers | None) -> tuple[Step, ...] | None:
    """The walk to ``goal`` by destination, for a Move or a Charge (its target picked)."""
    charge = isinstance(s.kind, ChargeKind)
    if state is None or not s.form.many_points or not (charge or isinstance(s.kind, MoveKind)):
        return None
    area = None if kept is None else kept.move_area(state, s.model, charge)
    return route_to(state, s.model, goal, charge=charge, area=area)


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
