"""What a moving model meets at one height: the rules glue between terrain and movement geometry.

For one model (its unit id, keywords and size class decide each piece's
properties, R-TER-2) and one height ``z``, :func:`level_for` builds the
:class:`geometry.movement.paths.Level` of :mod:`geometry.movement.paths`:

- a piece *stands in the way* at ``z`` when it rises above ``z`` (its height
  is more than ``z``), or when it is flat (height 0) and ``z`` is the ground;
  a piece whose top is at or below ``z`` is under the base;
- blocking: impassable pieces in the way (R-MOV-3), enemy bases and huge
  bases at the same height (R-MOV-4 and its Decision);
- difficult: difficult pieces in the way, none for ``unhindered`` models
  (R-MOV-1, R-MOV-2);
- occupied: friendly non-huge bases at the same height (crossed, never ended on);
- floor (above the ground): the tops of standable pieces at exactly ``z``
  (:func:`geometry.elevation.edges.is_surface`).

Models that are climbing are off the table (R-CLIMB-3) and block nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import shapely
from shapely.geometry.base import BaseGeometry

from geometry.elevation.edges import is_surface
from geometry.movement.obstacles import MoveObstacle, ObstacleSet
from geometry.movement.paths import Level
from sim.scenario.objects import Scenario, TerrainPiece, TerrainProps
from sim.scenario.positions import Position
from sim.scenario.prepared import Part

# Heights closer than this are the same level (inches; float noise only).
Z_EPS = 1e-6


def piece_obstacle(piece: TerrainPiece) -> MoveObstacle:
    """A terrain piece as an exact obstacle (a circle stays a circle)."""
    if piece.circle is not None:
        (cx, cy), radius = piece.circle
        return MoveObstacle.circle(piece.id, (cx, cy), radius)
    return MoveObstacle.polygon(piece.id, piece.footprint)


def in_the_way(props: TerrainProps, z: float) -> bool:
    """Whether a piece stands in the way of a base moving at height ``z``."""
    if props.height <= Z_EPS:
        return z <= Z_EPS
    return z < props.height - Z_EPS


@dataclass(frozen=True)
class TerrainView:
    """How one model sees the terrain: each piece's properties for it (R-TER-2)."""

    unit: str
    keywords: frozenset[str]
    size_class: str
    pieces: tuple[tuple[TerrainPiece, TerrainProps], ...]
    # Terrain obstacles by height, built once (the view is per scenario and unit).
    _by_height: dict[float, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def unhindered(self) -> bool:
        return "unhindered" in self.keywords

    def terrain_at(
        self, z: float
    ) -> tuple[tuple[MoveObstacle, ...], tuple[MoveObstacle, ...], BaseGeometry | None]:
        """Impassable and difficult pieces in the way at ``z``, and the floor there."""
        hit = self._by_height.get(z)
        if hit is None:
            blocking: list[MoveObstacle] = []
            difficult: list[MoveObstacle] = []
            for piece, props in self.pieces:
                if not in_the_way(props, z):
                    continue
                if props.movement == "impassable":
                    blocking.append(piece_obstacle(piece))
                elif props.movement == "difficult" and not self.unhindered:
                    difficult.append(piece_obstacle(piece))
            hit = (tuple(blocking), tuple(difficult), floor_at(self, z))
            self._by_height[z] = hit
        result: tuple[tuple[MoveObstacle, ...], tuple[MoveObstacle, ...], BaseGeometry | None] = hit
        return result


class TerrainViews:
    """The terrain as each unit of one scenario sees it, a view built on first use
    (a unit's id, keywords and size class decide it, R-TER-2)."""

    def __init__(self, scenario: Scenario) -> None:
        self._scenario = scenario
        self._by_unit: dict[str, TerrainView] = {}

    def of(self, model_id: str) -> TerrainView:
        """The view of ``model_id``'s unit."""
        s = self._scenario
        unit = s.unit_of(model_id)
        view = self._by_unit.get(unit.id)
        if view is None:
            size = s.size_class_of(model_id)
            pieces = tuple((p, p.props_for(unit.id, unit.keywords, size)) for p in s.terrain)
            view = self._by_unit[unit.id] = TerrainView(unit.id, unit.keywords, size, pieces)
        return view


TERRAIN_VIEWS: Part[TerrainViews] = Part("terrain views", TerrainViews)


def terrain_view(scenario: Scenario, model_id: str) -> TerrainView:
    """The terrain as ``model_id`` sees it (built once per unit, ``scenario.prepared``)."""
    return scenario.prepared.get(TERRAIN_VIEWS).of(model_id)


def floor_at(view: TerrainView, z: float) -> BaseGeometry | None:
    """The union of standable tops at height ``z`` (None on the ground)."""
    if z <= Z_EPS:
        return None
    tops = [p.footprint for p, props in view.pieces
            if is_surface(props.height, props.area) and abs(props.height - z) <= Z_EPS]
    return shapely.union_all(tops) if tops else shapely.Polygon()


def level_heights(view: TerrainView, xy: tuple[float, float], r: float, tol: float) -> list[float]:
    """Heights a base at ``xy`` can be on: the ground and every top its base touches."""
    pt = shapely.Point(xy)
    heights = {0.0}
    for p, props in view.pieces:
        if is_surface(props.height, props.area) and p.footprint.distance(pt) <= r + tol:
            heights.add(props.height)
    return sorted(heights)


def is_level(view: TerrainView, xy: tuple[float, float], z: float, r: float, tol: float) -> bool:
    """Whether height ``z`` is the ground or a top the base at ``xy`` rests on."""
    return any(abs(h - z) <= Z_EPS for h in level_heights(view, xy, r, tol))


def level_for(
    scenario: Scenario,
    model_id: str,
    z: float,
    positions: Mapping[str, Position],
    sides: Mapping[str, str],
    radii: Mapping[str, float],
    tolerance: float,
    *,
    climbing: frozenset[str] = frozenset(),
) -> Level:
    """What ``model_id`` meets moving at height ``z`` (see the module docstring)."""
    view = terrain_view(scenario, model_id)
    terrain, difficult, floor = view.terrain_at(z)
    blocking = list(terrain)
    occupied: list[MoveObstacle] = []
    me = sides[model_id]
    huge_mm = scenario.rules_data.huge_mm
    others = [o for o, pos in positions.items()
              if o != model_id and o not in climbing and abs(pos.z - z) <= Z_EPS]
    # One vectorised call for every centre (a Point each is the slow part).
    centres = shapely.points([positions[o].xy for o in others]) if others else []
    for other, centre in zip(others, centres, strict=True):
        disc = MoveObstacle(other, centre, radii[other])
        huge = scenario.unit_of(other).base >= huge_mm
        if sides[other] != me or huge:
            blocking.append(disc)
        else:
            occupied.append(disc)
    return Level(
        scenario.board,
        ObstacleSet(tuple(blocking)),
        ObstacleSet(difficult),
        ObstacleSet(tuple(occupied)),
        tolerance=tolerance,
        floor=floor,
    )


def climbable_faces(
    view: TerrainView, xy: tuple[float, float], r: float, tol: float, low: float, high: float
) -> list[str]:
    """Climbable pieces whose face the base at ``xy`` touches, spanning ``low..high``.

    The base centre must be outside the piece (at its face, not over its top)
    and the base within the touch tolerance of it; the face must reach
    ``high`` (R-CLIMB-1).
    """
    pt = shapely.Point(xy)
    out = []
    for p, props in view.pieces:
        if not props.climbable or props.height < high - Z_EPS or props.height <= low + Z_EPS:
            continue
        ob = piece_obstacle(p)
        clear = ob.shape.distance(pt) - ob.inflate
        if -Z_EPS <= clear <= r + tol + Z_EPS:
            out.append(p.id)
    return out
