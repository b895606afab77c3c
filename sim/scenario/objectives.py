"""Scenario objectives as set up (R-OBJ-1): zones, markers and cargo on the board.

These are the board's objectives before play; who carries what and the points
each side has are game state (:mod:`sim.engine.objectives`). The format is in
docs/scenario-format.md ("Objectives").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal

ObjectiveKind = Literal["zone", "marker", "cargo"]
OBJECTIVE_KINDS: tuple[ObjectiveKind, ...] = ("zone", "marker", "cargo")
#: Board edges by name (R-UNIT-1: y grows downward, so north is y = 0).
EDGES = ("north", "east", "south", "west")
#: How near a base must come to a marker or a cargo marker by default (inches).
DEFAULT_WITHIN = 1.0


@dataclass(frozen=True)
class Objective:
    """One ``[[objectives]]`` table.

    ``zone``: a circle of ``radius`` at ``at``, held at the end of a round by the
    side with more models touching it (R-OBJ-2). ``marker``: a point held by a side
    with a base within ``within`` of it and no enemy base there (R-OBJ-3). ``cargo``:
    a marker a model picks up within ``within`` and carries off the edge its side
    has in ``exits`` (R-OBJ-4). ``points``: per round held, or once carried off.
    """

    id: str
    kind: ObjectiveKind
    at: tuple[float, float]
    points: int
    radius: float = 0.0
    within: float = DEFAULT_WITHIN
    exits: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def reach(self) -> float:
        """How far from ``at`` a base may be and still count: a zone's radius, else
        ``within`` (base edge to the point, R-DIST-1)."""
        return self.radius if self.kind == "zone" else self.within


def edge_of(board: tuple[float, float], xy: tuple[float, float]) -> str:
    """The board edge nearest a point (where a base crossing the edge crossed it)."""
    x, y = xy
    gaps = {"north": y, "east": board[0] - x, "south": board[1] - y, "west": x}
    return min(EDGES, key=lambda e: gaps[e])
