"""Seeded random boards for the sight tests and benchmarks (issue 11).

Each generator takes a :class:`numpy.random.Generator` and returns a
:class:`Board`: blocking obstacles (as :class:`geometry.sight.index.Obstacle`) and
candidate bases on a 36 x 36 in table. Bases have radii 0.59..1.57 in (30 to
80 mm, R-BASE-1), overlap no blocking piece and no other base.

Kinds (``KINDS``, by name):

- ``convex``: ~25 random convex and rectangular pieces (~150 vertices);
- ``dense``: 45 such pieces (~270 vertices);
- ``holes``: non-convex pieces: L and U shapes, rings, polygons with holes,
  multipolygons;
- ``gap_walls``: walls of blocks with gaps of 0 to 0.05 in between them, some
  blocks skewed or rotated, some overlapping or touching (the boards that
  exposed issue 11's sliver), plus round pieces (exact discs) and a
  zero-thickness wall (LineString) on some boards.

:func:`scaling_board` makes ``n`` pieces of ``k`` vertices each (random
convex k-gons or star polygons) for the scaling rows of ``bench/sight.py``;
:func:`crowded_board` makes hundreds of shrunk pieces of one kind (issue 33).

Examples
--------
>>> import numpy as np
>>> board = make_board("convex", 7)
>>> board.kind, len(board.obstacles) == 25, len(board.bases) > 10
('convex', True, True)
>>> all(0.59 <= d.r <= 1.57 for d in board.bases)
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import shapely
import shapely.affinity
from shapely.geometry.base import BaseGeometry

from geometry.discs import Disc
from geometry.sight.index import Obstacle

SIZE = 36.0  # the table, inches
R_MIN, R_MAX = 0.59, 1.57  # 30 mm .. 80 mm bases
TOUCH = 0.01  # the rules' touch tolerance (R-UNIT-2): the merge gap of most boards


@dataclass(frozen=True)
class Board:
    """Blocking obstacles, candidate bases and the merge gap of one random board."""

    kind: str
    seed: int
    obstacles: tuple[Obstacle, ...]
    bases: tuple[Disc, ...]
    merge_gap: float
    # Pairs of bases aimed through the thin gaps between pieces (:func:`_probes`).
    probes: tuple[tuple[Disc, Disc], ...] = ()

    def vertex_count(self) -> int:
        n = 0
        for ob in self.obstacles:
            if isinstance(ob.shape, Disc):
                continue
            n += len(shapely.get_coordinates(ob.shape))
            if ob.shape.geom_type in ("Polygon", "MultiPolygon"):  # closing points
                n -= len(shapely.get_rings(ob.shape))
        return n


# --- pieces -------------------------------------------------------------------


def _convex(rng: np.random.Generator, cx: float, cy: float, size: float, k: int) -> BaseGeometry:
    """A convex k-gon: jittered angles on a turned ellipse (points on an ellipse are
    always in convex position, so all ``k`` vertices stay)."""
    ang = np.sort((np.arange(k) + rng.uniform(-0.4, 0.4, k)) * 2 * np.pi / k)
    a, b = size, size * rng.uniform(0.4, 1.0)
    turn = rng.uniform(0, np.pi)
    x, y = a * np.cos(ang), b * np.sin(ang)
    c, s = math.cos(turn), math.sin(turn)
    return shapely.Polygon(np.c_[cx + c * x - s * y, cy + s * x + c * y])


def _star(rng: np.random.Generator, cx: float, cy: float, size: float, k: int) -> BaseGeometry:
    """A star polygon with ``k`` vertices (alternating outer and inner radii)."""
    ang = np.arange(k) * 2 * np.pi / k + rng.uniform(0, 2 * np.pi)
    rad = np.where(np.arange(k) % 2 == 0, size, size * rng.uniform(0.35, 0.7)) \
        * rng.uniform(0.9, 1.0, k)
    return shapely.make_valid(shapely.Polygon(np.c_[cx + rad * np.cos(ang),
                                                    cy + rad * np.sin(ang)]))


def _rect(rng: np.random.Generator, cx: float, cy: float) -> BaseGeometry:
    w, h = rng.uniform(0.3, 4.0), rng.uniform(0.3, 2.5)
    box = shapely.box(cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
    if rng.random() < 0.6:
        box = shapely.affinity.rotate(box, rng.uniform(0, 180), origin=(cx, cy))
    return box


def _centre(rng: np.random.Generator, margin: float = 1.5) -> tuple[float, float]:
    x, y = rng.uniform(margin, SIZE - margin, 2)
    return float(x), float(y)


def _convex_pieces(rng: np.random.Generator, n: int) -> list[BaseGeometry]:
    out = []
    for _ in range(n):
        cx, cy = _centre(rng)
        if rng.random() < 0.4:
            out.append(_rect(rng, cx, cy))
        else:
            out.append(_convex(rng, cx, cy, rng.uniform(0.4, 2.2), int(rng.integers(5, 10))))
    return out


def _l_or_u(rng: np.random.Generator, cx: float, cy: float) -> BaseGeometry:
    a, t = rng.uniform(1.5, 4.0), rng.uniform(0.25, 0.9)
    t = min(t, a / 3)  # the U's arms must not cross
    if rng.random() < 0.5:  # L
        pts = [(0, 0), (a, 0), (a, t), (t, t), (t, a), (0, a)]
    else:  # U
        b = rng.uniform(1.0, 3.0)
        pts = [(0, 0), (a, 0), (a, b), (a - t, b), (a - t, t), (t, t), (t, b), (0, b)]
    poly = shapely.affinity.translate(shapely.Polygon(pts), cx - a / 2, cy - a / 2)
    return shapely.affinity.rotate(poly, rng.uniform(0, 360), origin=(cx, cy))


def _ring(rng: np.random.Generator, cx: float, cy: float) -> BaseGeometry:
    outer = rng.uniform(1.0, 3.0)
    if rng.random() < 0.5:  # a round ring (a pipe seen from above)
        return shapely.Point(cx, cy).buffer(outer, quad_segs=6).difference(
            shapely.Point(cx, cy).buffer(outer * rng.uniform(0.4, 0.8), quad_segs=6))
    shell = _convex(rng, cx, cy, outer, int(rng.integers(5, 9)))
    hole = _convex(rng, cx + rng.uniform(-0.2, 0.2), cy + rng.uniform(-0.2, 0.2),
                   outer * rng.uniform(0.3, 0.6), int(rng.integers(3, 7)))
    return shell.difference(hole)


def _multi(rng: np.random.Generator, cx: float, cy: float) -> BaseGeometry:
    parts = [_rect(rng, cx + rng.uniform(-2, 2), cy + rng.uniform(-2, 2)) for _ in range(3)]
    return shapely.unary_union(parts)


def _hole_pieces(rng: np.random.Generator, n: int) -> list[BaseGeometry]:
    makers = [_l_or_u, _ring, _multi, lambda r, x, y: _star(r, x, y, r.uniform(1, 2.5), 10)]
    out = []
    for i in range(n):
        cx, cy = _centre(rng, 3.0)
        out.append(makers[i % len(makers)](rng, cx, cy))
    return out


def _wall(rng: np.random.Generator) -> list[BaseGeometry]:
    """A row of blocks along a random direction with gaps of -0.02..0.05 in:
    some overlap, some touch (gap 0), some are skewed or turned a little."""
    x, y = _centre(rng, 4.0)
    ang = rng.uniform(0, np.pi)
    ux, uy = math.cos(ang), math.sin(ang)
    thick = rng.uniform(0.2, 0.8)
    blocks = []
    along = 0.0
    for _ in range(int(rng.integers(3, 9))):
        length = rng.uniform(0.4, 2.0)
        block = shapely.box(along, -thick / 2, along + length, thick / 2)
        roll = rng.random()
        if roll < 0.25:
            block = shapely.affinity.skew(block, xs=rng.uniform(-25, 25), origin="centroid")
        elif roll < 0.45:
            block = shapely.affinity.rotate(block, rng.uniform(-8, 8), origin="centroid")
        blocks.append(block)
        gap = rng.choice([0.0, -0.02, rng.uniform(0.0, 0.05), rng.uniform(0.0, 0.012)])
        along += length + float(gap)
    turned = [shapely.affinity.rotate(b, ang, origin=(0, 0), use_radians=True) for b in blocks]
    out = [shapely.affinity.translate(b, x - ux * along / 2, y - uy * along / 2) for b in turned]
    return [b for b in out if b.within(shapely.box(0, 0, SIZE, SIZE))]


# --- bases --------------------------------------------------------------------


def _bases(rng: np.random.Generator, obstacles: list[Obstacle], count: int,
           overlap: bool = False) -> tuple[Disc, ...]:
    """Up to ``count`` bases clear of every blocking piece and, unless ``overlap``,
    of each other."""
    shapes = [shapely.Point(o.shape.x, o.shape.y).buffer(o.shape.r, quad_segs=32)
              if isinstance(o.shape, Disc) else o.shape for o in obstacles]
    blocked = shapely.unary_union(shapes) if shapes else shapely.Polygon()
    shapely.prepare(blocked)
    tries = count * 12
    r = rng.uniform(R_MIN, R_MAX, tries)
    x = rng.uniform(r, SIZE - r)
    y = rng.uniform(r, SIZE - r)
    # 0.02: a polygon drawn inside a round piece is up to ~1e-3 smaller than it.
    clear = shapely.distance(shapely.points(x, y), blocked) > r + 0.02
    chosen: list[Disc] = []
    for xi, yi, ri in zip(x[clear].tolist(), y[clear].tolist(), r[clear].tolist(), strict=True):
        if overlap or all(math.hypot(xi - d.x, yi - d.y) > ri + d.r for d in chosen):
            chosen.append(Disc(xi, yi, ri))
            if len(chosen) == count:
                break
    return tuple(chosen)


def _valid(shape: BaseGeometry) -> BaseGeometry:
    """The polygonal part of a repaired shape (a generator's self-crossing outline)."""
    parts = [g for g in shapely.get_parts(shapely.make_valid(shape))
             if g.geom_type == "Polygon"]
    return shapely.unary_union(parts) if parts else shapely.Polygon()


def _probes(rng: np.random.Generator, obstacles: list[Obstacle], count: int = 12
            ) -> tuple[tuple[Disc, Disc], ...]:
    """Pairs of bases on both sides of a thin gap (up to 0.06 in) between two pieces,
    on the line through the gap's middle across its shortest connection: they look
    straight through the crack, which is shut when the gap is within the merge gap
    (R-UNIT-2) and open otherwise."""
    shapes = [o.shape for o in obstacles if not isinstance(o.shape, Disc)]
    polys = [g for g in shapes if g.geom_type.endswith("Polygon")]
    blocked = shapely.unary_union([shapely.Point(o.shape.x, o.shape.y).buffer(o.shape.r)
                                   if isinstance(o.shape, Disc) else o.shape
                                   for o in obstacles])
    shapely.prepare(blocked)
    out: list[tuple[Disc, Disc]] = []
    for i, p in enumerate(polys):
        for q in polys[i + 1:]:
            if len(out) >= count or not 0.0 < p.distance(q) <= 0.06:
                continue
            (x0, y0), (x1, y1) = shapely.shortest_line(p, q).coords
            mx, my = (x0 + x1) / 2, (y0 + y1) / 2
            length = math.hypot(x1 - x0, y1 - y0)
            nx, ny = -(y1 - y0) / length, (x1 - x0) / length  # along the crack
            pair = []
            for side in (1.0, -1.0):
                for _ in range(4):  # a few spots on each side
                    r, t = float(rng.uniform(R_MIN, R_MAX)), float(rng.uniform(1.8, 8.0))
                    d = Disc(mx + side * t * nx, my + side * t * ny, r)
                    inside = r <= d.x <= SIZE - r and r <= d.y <= SIZE - r
                    if inside and shapely.distance(shapely.Point(d.x, d.y), blocked) > r + 0.02:
                        pair.append(d)
                        break
            if len(pair) == 2:
                out.append((pair[0], pair[1]))
    return tuple(out)


def _board(kind: str, seed: int, rng: np.random.Generator, shapes: list[BaseGeometry],
           extra: list[Obstacle], merge_gap: float, bases: int, overlap: bool = False) -> Board:
    shapes = [s if s.is_valid else _valid(s) for s in shapes]
    obstacles = [Obstacle(f"{kind}-{i}", s) for i, s in enumerate(shapes) if not s.is_empty]
    obstacles.extend(extra)
    discs = _bases(rng, obstacles, bases, overlap)
    return Board(kind, seed, tuple(obstacles), discs, merge_gap, _probes(rng, obstacles))


# --- the four kinds -----------------------------------------------------------


def convex_board(seed: int, bases: int = 24, pieces: int = 25) -> Board:
    """~25 random convex and rectangular pieces, about 150 vertices."""
    rng = np.random.default_rng(seed)
    return _board("convex", seed, rng, _convex_pieces(rng, pieces), [],
                  float(rng.choice([0.0, TOUCH])), bases)


def dense_board(seed: int, bases: int = 24) -> Board:
    """45 random convex and rectangular pieces, about 270 vertices."""
    rng = np.random.default_rng(seed)
    return _board("dense", seed, rng, _convex_pieces(rng, 45), [],
                  float(rng.choice([0.0, TOUCH])), bases)


def holes_board(seed: int, bases: int = 24) -> Board:
    """Non-convex pieces: L and U shapes, rings, polygons with holes, multipolygons."""
    rng = np.random.default_rng(seed)
    return _board("holes", seed, rng, _hole_pieces(rng, 14), [],
                  float(rng.choice([0.0, TOUCH])), bases)


def gap_wall_board(seed: int, bases: int = 24) -> Board:
    """Walls of blocks with thin gaps (issue 11), round pieces and sometimes a
    zero-thickness wall."""
    rng = np.random.default_rng(seed)
    shapes = [b for _ in range(int(rng.integers(3, 6))) for b in _wall(rng)]
    extra: list[Obstacle] = []
    for i in range(int(rng.integers(0, 3))):
        cx, cy = _centre(rng, 2.0)
        extra.append(Obstacle(f"round-{i}", Disc(cx, cy, float(rng.uniform(0.3, 1.2)))))
    for i in range(int(rng.integers(0, 3)) if rng.random() < 0.6 else 0):
        pts = [_centre(rng, 2.0)]
        for _ in range(int(rng.integers(1, 4))):
            px, py = pts[-1]
            pts.append((float(np.clip(px + rng.uniform(-5, 5), 1, SIZE - 1)),
                        float(np.clip(py + rng.uniform(-5, 5), 1, SIZE - 1))))
        extra.append(Obstacle(f"edge-{i}", shapely.LineString(pts)))
    return _board("gap_walls", seed, rng, shapes, extra, float(rng.choice([0.0, TOUCH])), bases)


def scaling_board(seed: int, pieces: int, vertices: int, bases: int = 24,
                  star: bool = False, overlap: bool = False) -> Board:
    """``pieces`` pieces of ``vertices`` vertices each: convex k-gons or stars.

    With ``overlap`` the bases may overlap each other (so that hundreds fit on
    the table for the scaling rows; pair only the disjoint ones)."""
    rng = np.random.default_rng(seed)
    size = min(2.0, 9.0 / math.sqrt(pieces))  # keep some room for the bases
    make = _star if star else _convex
    shapes = []
    for _ in range(pieces):
        cx, cy = _centre(rng, 1.0)
        shapes.append(make(rng, cx, cy, size * rng.uniform(0.5, 1.0), vertices))
    return _board(f"scaling-{pieces}x{vertices}", seed, rng, shapes, [], TOUCH, bases, overlap)


def _shrunk(shapes: list[BaseGeometry], factor: float) -> list[BaseGeometry]:
    """Each shape scaled about its own centre (gaps inside a wall scale with it)."""
    return [shapely.affinity.scale(s, factor, factor, origin="centroid") for s in shapes]


def crowded_board(kind: str, seed: int, pieces: int = 400, bases: int = 24) -> Board:
    """About ``pieces`` pieces of one kind (a key of :data:`KINDS`), each shrunk so
    that they and the bases fit: the crowded boards of the sight broad phase's tests
    (issue 33). ``gap_walls`` counts blocks (walls of 3 to 8), with round pieces and
    zero-thickness walls among them."""
    rng = np.random.default_rng(seed)
    factor = min(1.0, 4.5 / math.sqrt(pieces))
    shapes: list[BaseGeometry] = []
    extra: list[Obstacle] = []
    if kind in ("convex", "dense"):
        shapes = _shrunk(_convex_pieces(rng, pieces), factor * (1.6 if kind == "dense" else 1))
    elif kind == "holes":
        shapes = _shrunk(_hole_pieces(rng, pieces), factor * 0.8)
    else:
        while len(shapes) < pieces:
            shapes.extend(_shrunk([shapely.unary_union(_wall(rng))], 2 * factor))
        shapes = [p for s in shapes for p in shapely.get_parts(s)][:pieces]
        for i in range(pieces // 40):
            cx, cy = _centre(rng, 1.0)
            extra.append(Obstacle(f"round-{i}", Disc(cx, cy, float(rng.uniform(0.1, 0.4)))))
        for i in range(pieces // 60):
            (cx, cy), turn = _centre(rng, 2.0), rng.uniform(0, np.pi)
            dx, dy = math.cos(turn), math.sin(turn)
            extra.append(Obstacle(f"edge-{i}", shapely.LineString(
                [(cx - dx, cy - dy), (cx, cy), (cx + dy, cy - dx)])))
    return _board(f"crowded-{kind}", seed, rng, shapes, extra, TOUCH, bases)


KINDS: dict[str, Callable[[int], Board]] = {
    "convex": convex_board,
    "dense": dense_board,
    "holes": holes_board,
    "gap_walls": gap_wall_board,
}


def make_board(kind: str, seed: int) -> Board:
    """The board of this kind (a key of :data:`KINDS`) and seed."""
    return KINDS[kind](seed)
