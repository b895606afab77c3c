"""The editor's objective tool (R-OBJ-1): a click places a zone, a marker or a cargo
marker; a selected objective shows its buttons (points, reach, a cargo marker's exits,
delete) and its line.

The objectives themselves are changed by :mod:`sim.scenario.edit` and checked by the
loader like every other part of the draft; the board draws them with the game's own
drawing (render.draw.objectives), from the scene.
"""

from __future__ import annotations

import math
from types import MappingProxyType

from render.draw.view import Button, TextLine
from render.editor.panel import Op
from sim.scenario import edit
from sim.scenario.draft import Draft
from sim.scenario.names import display_names
from sim.scenario.objectives import EDGES, OBJECTIVE_KINDS
from sim.scenario.objects import Scenario

#: A click this near an objective's point (or inside a zone) selects it (inches).
HIT_SLACK = 0.6
#: A click on a reach button changes a radius or a ``within`` by this much (inches).
REACH_STEP = 0.5


def objective_at(s: Scenario, x: float, y: float) -> str | None:
    """The objective under the pointer: the nearest point within reach or the slack."""
    near = [(math.dist(o.at, (x, y)), o.id) for o in s.objectives
            if math.dist(o.at, (x, y)) <= max(HIT_SLACK, o.radius)]
    return min(near)[1] if near else None


def is_objective(s: Scenario, ident: str | None) -> bool:
    return ident is not None and any(o.id == ident for o in s.objectives)


def next_kind(kind: str) -> str:
    i = OBJECTIVE_KINDS.index(kind) if kind in OBJECTIVE_KINDS else -1
    return OBJECTIVE_KINDS[(i + 1) % len(OBJECTIVE_KINDS)]


def tool_buttons(kind: str, active: bool) -> list[Button]:
    """Appended to the tools: the tool itself and the kind it places (K cycles it)."""
    return [Button(f"Objective{' *' if active else ''}", Op("tool", "objective"), hotkey="O"),
            Button(f"Objective kind: {kind}", Op("objective_kind"), hotkey="K")]


def buttons(draft: Draft, ident: str) -> list[Button]:
    """A selected objective's buttons: its points, its reach, a cargo marker's exit for
    each playing side (a click takes the next edge), delete, done."""
    s = draft.scenario
    o = s.objective(ident)
    what = "Radius" if o.kind == "zone" else "Within"
    out = [Button(f"Points: {o.points} (+1)", Op("objective_points", "1")),
           Button("Points -1", Op("objective_points", "-1")),
           Button(f"{what}: {o.reach:g} in (+{REACH_STEP:g})", Op("objective_reach", "1")),
           Button(f"{what} -{REACH_STEP:g}", Op("objective_reach", "-1"))]
    if o.kind == "cargo":
        name = display_names(s).side
        out += [Button(f"Exit of {name(side)}: {o.exits.get(side, 'none')}",
                       Op("objective_exit", side))
                for side, v in s.sides.items() if not v.neutral]
    return [*out, Button("Duplicate", Op("cmd", "duplicate"), hotkey="Ctrl+D"),
            Button("Delete", Op("cmd", "delete")), Button("Done", Op("cmd", "deselect"))]


def change(s: Scenario, ident: str, op: Op) -> tuple[Scenario, str] | None:
    """``s`` with the selected objective changed by one of its buttons, and what the log
    says; None for an op that is not an objective's."""
    o = s.objective(ident)
    if op.verb == "objective_points":
        points = max(1, o.points + int(op.arg))
        return edit.set_objective(s, ident, points=points), f"{ident}: {points} point(s)"
    if op.verb == "objective_reach":  # (R-OBJ-2/3: a zone's radius, else base-edge reach)
        key = "radius" if o.kind == "zone" else "within"
        reach = max(REACH_STEP, o.reach + REACH_STEP * int(op.arg))
        return edit.set_objective(s, ident, **{key: reach}), f"{ident}: {key} {reach:g} in"
    if op.verb == "objective_exit":  # the next board edge for that side (R-OBJ-4)
        now = o.exits.get(op.arg)
        edge = EDGES[(EDGES.index(now) + 1) % len(EDGES)] if now in EDGES else EDGES[0]
        exits = MappingProxyType({**o.exits, op.arg: edge})
        return (edit.set_objective(s, ident, exits=exits),
                f"{ident}: {display_names(s).side(op.arg)} carries it off the {edge} edge")
    return None


def lines(s: Scenario, ident: str) -> list[TextLine]:
    o = s.objective(ident)
    reach = f"radius {o.radius:g} in" if o.kind == "zone" else f"within {o.within:g} in"
    name = display_names(s).side
    exits = ", ".join(f"{name(side)} by the {edge} edge" for side, edge in o.exits.items())
    return [TextLine(f"Objective {o.id}: {o.kind} at ({o.at[0]:g}, {o.at[1]:g}), {reach}, "
                     f"{o.points} point(s)" + (f"; carried off: {exits}" if exits else ""))]
