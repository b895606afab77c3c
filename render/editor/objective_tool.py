"""The editor's objective tool (R-OBJ-1): a click places a zone, a marker or a cargo
marker; a selected objective shows its buttons (points, delete) and its line.

The objectives themselves are changed by :mod:`sim.scenario.edit` and checked by the
loader like every other part of the draft; the board draws them with the game's own
drawing (render.draw.objectives), from the scene.
"""

from __future__ import annotations

import math

from render.draw.view import Button, TextLine
from render.editor.panel import Op
from sim.scenario.draft import Draft
from sim.scenario.objectives import OBJECTIVE_KINDS
from sim.scenario.objects import Scenario

#: A click this near an objective's point (or inside a zone) selects it (inches).
HIT_SLACK = 0.6


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
    o = draft.scenario.objective(ident)
    return [Button(f"Points: {o.points} (+1)", Op("objective_points", "1")),
            Button("Points -1", Op("objective_points", "-1")),
            Button("Delete", Op("cmd", "delete")), Button("Done", Op("cmd", "deselect"))]


def lines(s: Scenario, ident: str) -> list[TextLine]:
    o = s.objective(ident)
    reach = f"radius {o.radius:g} in" if o.kind == "zone" else f"within {o.within:g} in"
    exits = ", ".join(f"{side} {edge}" for side, edge in o.exits.items())
    return [TextLine(f"Objective {o.id}: {o.kind} at ({o.at[0]:g}, {o.at[1]:g}), {reach}, "
                     f"{o.points} point(s)" + (f"; exits {exits}" if exits else ""))]
