"""Operations on a scenario being edited: each returns a new :class:`Scenario` (R-TER-1).

The scenario editor (``wasteland edit``, render/editor/) keeps its draft as
an ordinary immutable Scenario and changes it only through these functions,
so every change is testable without a window and undo is a stack of drafts.
Nothing here checks the result: :mod:`sim.scenario.draft` runs the loader's
own checks on every draft and says which piece a problem is on.

Coordinates are rounded to :data:`DIGITS` decimals (a thousandth of an inch,
a tenth of the touch tolerance), so files stay readable after a rotation.

Examples
--------
>>> from sim.scenario.format.loader import load_scenario
>>> s = load_scenario("scenarios/skirmish.toml")
>>> moved = move_piece(s, "wall-1", 1.0, 0.0)
>>> moved.piece("wall-1").polygon[0], s.piece("wall-1").polygon[0]
((16.0, 10.0), (15.0, 10.0))
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import replace
from types import MappingProxyType
from typing import Any

from geometry.elevation.edges import is_surface, standing_heights
from sim.scenario.objectives import Objective, ObjectiveKind
from sim.scenario.objects import ModelPlacement, Point, Scenario, Side, TerrainPiece, TerrainProps

DIGITS = 3  # decimals kept in coordinates (inches)


def tidy(value: float) -> float:
    """``value`` rounded to :data:`DIGITS` decimals (``-0.0`` becomes ``0.0``)."""
    return round(value, DIGITS) + 0.0


def _ring(points: Iterable[Point]) -> tuple[Point, ...]:
    return tuple((tidy(x), tidy(y)) for x, y in points)


def rect_piece(piece_id: str, props: TerrainProps, a: Point, b: Point) -> TerrainPiece:
    """A rectangle with corners ``a`` and ``b`` (any two opposite corners)."""
    x0, x1 = sorted((a[0], b[0]))
    y0, y1 = sorted((a[1], b[1]))
    return TerrainPiece(piece_id, props, polygon=_ring([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]))


def circle_piece(piece_id: str, props: TerrainProps, centre: Point, radius: float
                 ) -> TerrainPiece:
    return TerrainPiece(piece_id, props, circle=((tidy(centre[0]), tidy(centre[1])),
                                                 tidy(radius)))


def polygon_piece(piece_id: str, props: TerrainProps, points: Iterable[Point]) -> TerrainPiece:
    return TerrainPiece(piece_id, props, polygon=_ring(points))


def next_id(s: Scenario, stem: str) -> str:
    """``stem-1``, ``stem-2``...: the first id no piece, model or objective of ``s`` has."""
    taken = {p.id for p in s.terrain} | {m.id for m in s.models} | {o.id for o in s.objectives}
    n = 1
    while f"{stem}-{n}" in taken:
        n += 1
    return f"{stem}-{n}"


# --- terrain -------------------------------------------------------------------------

def add_piece(s: Scenario, piece: TerrainPiece) -> Scenario:
    return replace(s, terrain=(*s.terrain, piece))


def replace_piece(s: Scenario, piece_id: str, new: TerrainPiece) -> Scenario:
    """``s`` with the piece ``piece_id`` replaced by ``new`` (same place in the list)."""
    s.piece(piece_id)  # KeyError for an unknown id
    return replace(s, terrain=tuple(new if p.id == piece_id else p for p in s.terrain))


def delete(s: Scenario, ident: str) -> Scenario:
    """``s`` without the piece, the model or the objective ``ident``."""
    return replace(s, terrain=tuple(p for p in s.terrain if p.id != ident),
                   models=tuple(m for m in s.models if m.id != ident),
                   objectives=tuple(o for o in s.objectives if o.id != ident))


def _mapped(piece: TerrainPiece, f: Any, radius: float | None = None) -> TerrainPiece:
    """``piece`` with every point through ``f`` (and a circle's radius set to ``radius``)."""
    if piece.circle is not None:
        (cx, cy), r = piece.circle
        x, y = f((cx, cy))
        return replace(piece, circle=((tidy(x), tidy(y)), tidy(r if radius is None else radius)))
    assert piece.polygon is not None  # a piece is a polygon or a circle
    return replace(piece, polygon=_ring(f(p) for p in piece.polygon),
                   holes=tuple(_ring(f(p) for p in ring) for ring in piece.holes))


def centre_of(piece: TerrainPiece) -> Point:
    """The point a piece turns and grows about: a circle's centre, else its footprint's centroid."""
    if piece.circle is not None:
        return piece.circle[0]
    c = piece.footprint.centroid
    return (float(c.x), float(c.y))


def move_piece(s: Scenario, piece_id: str, dx: float, dy: float) -> Scenario:
    piece = s.piece(piece_id)
    return replace_piece(s, piece_id, _mapped(piece, lambda p: (p[0] + dx, p[1] + dy)))


def rotate_piece(s: Scenario, piece_id: str, degrees: float) -> Scenario:
    """Turn a piece about its centre, clockwise on the screen (y points down)."""
    piece = s.piece(piece_id)
    cx, cy = centre_of(piece)
    a = math.radians(degrees)
    cos, sin = math.cos(a), math.sin(a)

    def turn(p: Point) -> Point:
        x, y = p[0] - cx, p[1] - cy
        return (cx + x * cos - y * sin, cy + x * sin + y * cos)

    return replace_piece(s, piece_id, _mapped(piece, turn))


def scale_piece(s: Scenario, piece_id: str, factor: float) -> Scenario:
    """Grow (``factor`` > 1) or shrink a piece about its centre."""
    if not factor > 0:
        raise ValueError(f"scale factor must be above 0, got {factor!r}")
    piece = s.piece(piece_id)
    cx, cy = centre_of(piece)
    radius = None if piece.circle is None else piece.circle[1] * factor
    return replace_piece(s, piece_id, _mapped(
        piece, lambda p: (cx + (p[0] - cx) * factor, cy + (p[1] - cy) * factor), radius))


def set_props(s: Scenario, piece_id: str, **changes: Any) -> Scenario:
    """The piece's properties changed (``movement="difficult"``, ``height=2.0``...)."""
    piece = s.piece(piece_id)
    return replace_piece(s, piece_id, replace(piece, props=replace(piece.props, **changes)))


def set_overrides(s: Scenario, piece_id: str, overrides: Mapping[str, Mapping[str, Any]]
                  ) -> Scenario:
    """The piece's per-model overrides (R-TER-2) replaced by ``overrides``."""
    piece = s.piece(piece_id)
    frozen = MappingProxyType({k: MappingProxyType(dict(v)) for k, v in overrides.items()})
    return replace_piece(s, piece_id, replace(piece, overrides=frozen))


def rename(s: Scenario, old: str, new: str) -> Scenario:
    """The piece or model ``old`` renamed ``new`` (the caller checks the id)."""
    return replace(
        s, terrain=tuple(replace(p, id=new) if p.id == old else p for p in s.terrain),
        models=tuple(replace(m, id=new) if m.id == old else m for m in s.models))


# --- models -------------------------------------------------------------------------

def ground_height(s: Scenario, at: Point) -> float:
    """Where a base set down at ``at`` stands: the top of the highest surface under it."""
    surfaces = [(p.footprint, p.props.height) for p in s.terrain
                if is_surface(p.props.height, p.props.area)]
    return float(standing_heights(at[0], at[1], surfaces)[-1])


def add_model(s: Scenario, unit: str, side: str, at: Point, model_id: str | None = None
              ) -> Scenario:
    """A model of ``unit`` for ``side`` set down at ``at`` (on the highest surface there)."""
    at = (tidy(at[0]), tidy(at[1]))
    m = ModelPlacement(model_id or next_id(s, unit.replace("_", "-")), unit, side, at,
                       ground_height(s, at))
    return replace(s, models=(*s.models, m))


def move_model(s: Scenario, model_id: str, dx: float, dy: float) -> Scenario:
    m = s.model(model_id)
    at = (tidy(m.at[0] + dx), tidy(m.at[1] + dy))
    moved = replace(m, at=at, z=ground_height(s, at))
    return replace(s, models=tuple(moved if x.id == model_id else x for x in s.models))


def set_model(s: Scenario, model_id: str, **changes: Any) -> Scenario:
    """The model's unit or side changed (``unit="knight"``, ``side="bos"``)."""
    m = replace(s.model(model_id), **changes)
    return replace(s, models=tuple(m if x.id == model_id else x for x in s.models))


def move(s: Scenario, ident: str, dx: float, dy: float) -> Scenario:
    """Move the piece, the model or the objective ``ident``."""
    if ident in s.model_ids:
        return move_model(s, ident, dx, dy)
    if any(o.id == ident for o in s.objectives):
        return set_objective(s, ident, at=(tidy(s.objective(ident).at[0] + dx),
                                           tidy(s.objective(ident).at[1] + dy)))
    return move_piece(s, ident, dx, dy)


def duplicate(s: Scenario, ident: str, dx: float, dy: float) -> tuple[Scenario, str]:
    """``s`` with a copy of the piece, the model or the objective ``ident`` moved by
    ``(dx, dy)``, and the copy's id (the next free one of its stem: ``wall-1`` ->
    ``wall-2``)."""
    stem = ident.rsplit("-", 1)[0] if ident.rsplit("-", 1)[-1].isdigit() else ident
    new_id = next_id(s, stem)
    if ident in s.model_ids:
        m = s.model(ident)
        return add_model(s, m.unit, m.side, (m.at[0] + dx, m.at[1] + dy), new_id), new_id
    if any(o.id == ident for o in s.objectives):
        o = s.objective(ident)
        at = (tidy(o.at[0] + dx), tidy(o.at[1] + dy))
        return replace(s, objectives=(*s.objectives, replace(o, id=new_id, at=at))), new_id
    copy = replace(s.piece(ident), id=new_id)
    return move_piece(add_piece(s, copy), new_id, dx, dy), new_id


# --- objectives (R-OBJ-1) -------------------------------------------------------------

#: What a new objective is worth: a zone or a marker per round held, cargo once.
NEW_POINTS: Mapping[str, int] = MappingProxyType({"zone": 2, "marker": 1, "cargo": 3})
NEW_ZONE_RADIUS = 2.0  # inches


def add_objective(s: Scenario, kind: ObjectiveKind, at: Point) -> Scenario:
    """A new objective of ``kind`` at ``at``; cargo leaves by each side's own edge (the
    side whose models stand nearer the top goes north)."""
    exits = _home_edges(s) if kind == "cargo" else {}
    o = Objective(next_id(s, kind), kind, (tidy(at[0]), tidy(at[1])), NEW_POINTS[kind],
                  radius=NEW_ZONE_RADIUS if kind == "zone" else 0.0,
                  exits=MappingProxyType(exits))
    return replace(s, objectives=(*s.objectives, o))


def _home_edges(s: Scenario) -> dict[str, str]:
    playing = [x.id for x in s.sides.values() if not x.neutral]

    def mean_y(side: str) -> float:
        ys = [m.at[1] for m in s.models if m.side == side]
        return sum(ys) / len(ys) if ys else 0.0

    ordered = sorted(playing, key=mean_y)
    return dict(zip(ordered, ("north", "south"), strict=False))


def set_objective(s: Scenario, objective_id: str, **changes: Any) -> Scenario:
    """The objective with ``changes`` (``at=...``, ``points=...``)."""
    o = replace(s.objective(objective_id), **changes)
    return replace(s, objectives=tuple(o if x.id == objective_id else x for x in s.objectives))


# --- the scenario -------------------------------------------------------------------

def set_side_name(s: Scenario, side: str, name: str) -> Scenario:
    old = s.sides[side]
    sides = {k: (Side(k, name, old.neutral) if k == side else v) for k, v in s.sides.items()}
    return replace(s, sides=MappingProxyType(sides))


def next_in(options: tuple[Any, ...], current: Any) -> Any:
    """The option after ``current`` (the first one after the last, or when absent)."""
    if current not in options:
        return options[0]
    return options[(options.index(current) + 1) % len(options)]
