"""What a click or a drag does with each tool: the shapes it makes, the piece it hits.

Points are snapped to :data:`SNAP` inches so pieces line up and files stay
readable. A rectangle is dragged corner to corner, a circle from its centre
out, a polygon clicked point by point (Enter, or a click on its first
point, closes it).
"""

from __future__ import annotations

import math

import shapely

from sim.scenario.edit import circle_piece, next_id, polygon_piece, rect_piece
from sim.scenario.objects import Point, Scenario, TerrainPiece, TerrainProps

SNAP = 0.1  # inches: where points land
MIN_SIZE = 0.2  # inches: a smaller rectangle or circle is a slip of the mouse, not a piece
CLOSE_SLACK = 0.4  # inches: a click this near a polygon's first point closes it
HIT_SLACK = 0.2  # inches: a click this near a piece's outline hits it


def snap(p: Point) -> Point:
    return (round(round(p[0] / SNAP) * SNAP, 3), round(round(p[1] / SNAP) * SNAP, 3))


def piece_at(s: Scenario, x: float, y: float) -> str | None:
    """The piece drawn on top at ``(x, y)`` (the board draws area pieces last, then by
    height), or one whose outline is within :data:`HIT_SLACK`."""
    point = shapely.Point(x, y)
    order = sorted(s.terrain, key=lambda pc: (pc.props.area, pc.props.height))
    for piece in reversed(order):
        if piece.footprint.distance(point) <= HIT_SLACK:
            return piece.id
    return None


def rect_from_drag(s: Scenario, preset: str, props: TerrainProps, a: Point, b: Point
                   ) -> TerrainPiece | None:
    a, b = snap(a), snap(b)
    if abs(a[0] - b[0]) < MIN_SIZE or abs(a[1] - b[1]) < MIN_SIZE:
        return None
    return rect_piece(next_id(s, preset), props, a, b)


def circle_from_drag(s: Scenario, preset: str, props: TerrainProps, centre: Point, edge: Point
                     ) -> TerrainPiece | None:
    centre = snap(centre)
    r = round(math.dist(centre, edge) / SNAP) * SNAP
    if r < MIN_SIZE:
        return None
    return circle_piece(next_id(s, preset), props, centre, r)


def polygon_from_points(s: Scenario, preset: str, props: TerrainProps, points: list[Point]
                        ) -> TerrainPiece | None:
    if len(points) < 3:
        return None
    return polygon_piece(next_id(s, preset), props, points)


def closes(points: list[Point], p: Point) -> bool:
    """Whether a click at ``p`` closes the polygon ``points`` (near its first point)."""
    return len(points) >= 3 and math.dist(points[0], p) <= CLOSE_SLACK
