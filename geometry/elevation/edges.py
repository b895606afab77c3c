"""Surfaces, heights, elevated models and significant edges (R-UNIT-1, R-ELEV-1..5).

The ground is a surface at height 0; the top of each standable terrain piece
is a surface at its height (inches above the table, R-UNIT-1; a stacked piece
such as a gantry on a building gives the height of its own top, not its
height above the building). A base stands at ``z``, which must be the height
of a surface under its centre. This module is the one place those rules live.

Significant edges (R-ELEV-2) are the parts of a surface's outline where the
drop to whatever lies just outside (the ground or a lower neighbouring top) is
at least Orange. :func:`significant_edges` derives them once per board as
straight *sides* (drawable :class:`shapely.LineString` values) tagged with the
piece whose top they bound; an edge's id is ``"<piece>:edge"``. The rules
glue (``sim/``) passes the Orange length from rules data; nothing here knows a
ruler colour.

Examples
--------
>>> roof = Surface("house", shapely.box(0, 0, 4, 4), 6.0)
>>> crate = Surface("crate", shapely.box(4, 0, 5, 1), 5.0)
>>> edges = significant_edges([roof, crate], orange=2.0)
>>> {e.id: round(e.geometry.length, 6) for e in edges.edges}  # house to crate: no drop
{'house:edge': 15.0, 'crate:edge': 3.0}
>>> is_elevated(2.0, 0.0, orange=2.0), is_elevated(1.99, 0.0, orange=2.0)
(True, False)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry import LineString, MultiLineString
from shapely.geometry.base import BaseGeometry

from geometry.discs import Disc

GROUND = 0.0

# Heights and lengths closer than this are equal (float noise, not table
# precision): a drop of exactly Orange is significant, a model exactly Orange
# higher is elevated (R-ELEV-1, R-ELEV-2).
EPS = 1e-9

# Edge pieces shorter than this are noise left by polygon overlay (inches).
MIN_SIDE = 1e-6

# Where a neighbouring top is compared with an outline, the neighbour is grown
# by this much so that a shared wall computed twice in floating point still
# coincides (inches; far below the touch tolerance of R-UNIT-2).
SNAP = 1e-7

# Edge pieces whose ends lie closer than this are one piece (inches).
GAP = 1e-6

# Where two sides of a wall meet, each is carried this far past the corner
# (inches) when handed to a sight query as separate straight segments, so a
# sight line through the corner itself properly crosses one of them. Far
# below any distance on a table, far above the sight module's 1e-7 tolerance.
STUB = 1e-5


# Consecutive outline segments whose directions differ by less than this
# (sine of the angle) form one straight side.
COLLINEAR = 1e-9


# --- surfaces and heights (R-UNIT-1) -----------------------------------------


def is_surface(height: float, area: bool) -> bool:
    """Whether a piece's top is a surface models stand on (R-TER-1).

    Every piece with a height that is not area terrain (a forest canopy or a
    smoke cloud is no floor).
    """
    return height > GROUND and not area


def standing_heights(
    x: float, y: float, surfaces: Iterable[tuple[BaseGeometry, float]]
) -> list[float]:
    """Heights a base centred at ``(x, y)`` may stand at, lowest first.

    ``surfaces`` are ``(footprint, height)`` pairs of standable tops; a top
    counts when its footprint covers the point (boundary included).

    Examples
    --------
    >>> roof = shapely.box(0, 0, 4, 4)
    >>> standing_heights(1, 1, [(roof, 6.0)])
    [0.0, 6.0]
    >>> standing_heights(5, 5, [(roof, 6.0)])
    [0.0]
    """
    p = shapely.Point(x, y)
    heights = {GROUND}
    for footprint, height in surfaces:
        if footprint.covers(p):
            heights.add(float(height))
    return sorted(heights)


def default_height(x: float, y: float, surfaces: Iterable[tuple[BaseGeometry, float]]) -> float:
    """The height a model placed at ``(x, y)`` stands at by default: the highest top."""
    return standing_heights(x, y, surfaces)[-1]


# --- the elevated relation (R-ELEV-1) and blocking by height (R-ELEV-5) --------


def is_elevated(z: float, other_z: float, orange: float) -> bool:
    """A base at ``z`` is elevated relative to one at ``other_z`` (R-ELEV-1).

    It is when it stands at least Orange higher.

    >>> is_elevated(6.0, 4.0, orange=2.0), is_elevated(4.0, 6.0, orange=2.0)
    (True, False)
    """
    return z - other_z >= orange - EPS


def distance_to_side(base: Disc, side: tuple[float, float, float, float]) -> float:
    """Distance from the closest point of a base to a side (R-DIST-1)."""
    x0, y0, x1, y1 = side
    ux, uy = x1 - x0, y1 - y0
    ll = ux * ux + uy * uy
    t = 0.0 if ll == 0.0 else min(1.0, max(0.0, ((base.x - x0) * ux + (base.y - y0) * uy) / ll))
    return math.hypot(x0 + t * ux - base.x, y0 + t * uy - base.y) - base.r


def blocks_at_heights(top: float, z_a: float, z_b: float) -> bool:
    """Whether a LoS-blocking piece with its top at ``top`` blocks this pair (R-ELEV-5).

    It blocks only when both bases are below its top; when one of them stands
    at or above it the piece is cover instead. A piece with no height
    (``top <= 0``, the file's default) blocks at every height: a blocking
    piece of zero height does not exist on a table, so the number was simply
    not given (Decision, docs/elevation.md).

    >>> blocks_at_heights(1.5, 0.0, 0.0), blocks_at_heights(1.5, 6.0, 0.0)
    (True, False)
    >>> blocks_at_heights(0.0, 6.0, 0.0)
    True
    """
    if top <= GROUND:
        return True
    return z_a < top - EPS and z_b < top - EPS


# --- significant edges (R-ELEV-2) ---------------------------------------------


@dataclass(frozen=True)
class Surface:
    """A standable top: the piece ``id``, its footprint and its height (inches).

    ``circle`` is the exact circle ``(x, y, r)`` of a round piece, whose
    ``footprint`` is only a polygon close to it.
    """

    id: str
    footprint: BaseGeometry
    height: float
    circle: tuple[float, float, float] | None = None


@dataclass(frozen=True)
class EdgeSide:
    """One straight side of a significant edge.

    ``top`` is the height of the surface above the drop; ``line`` is the side
    as a two-point segment (a zero-thickness obstacle for sight queries).
    """

    piece: str
    top: float
    line: LineString

    @property
    def id(self) -> str:
        return edge_id(self.piece)


@dataclass(frozen=True)
class SignificantEdge:
    """All significant edges of one piece's top, for drawing and naming.

    ``disc`` is set for a round top whose whole outline is significant: the
    edge is then that exact circle (``sides`` trace its polygon). ``outline``
    is set for any other top whose whole outline (one ring) is significant:
    its footprint.
    """

    piece: str
    top: float
    geometry: MultiLineString
    sides: tuple[EdgeSide, ...]
    disc: Disc | None = None
    outline: BaseGeometry | None = None

    @property
    def id(self) -> str:
        return edge_id(self.piece)


def edge_id(piece: str) -> str:
    """The id naming a piece's significant edge in results (``"building-2:edge"``)."""
    return f"{piece}:edge"


@dataclass(frozen=True)
class EdgeMap:
    """The significant edges of one board, laid out for per-query selection.

    Build it once per board with :func:`significant_edges`; every query
    function below only reads it. ``sides`` lists every side, each edge's
    chains in order along the outline.
    """

    edges: tuple[SignificantEdge, ...]
    orange: float
    # For each side, the index of the side that continues it along the
    # outline (the same chain), or -1 at the open end of a chain.
    successors: tuple[int, ...] = ()
    sides: tuple[EdgeSide, ...] = field(init=False)
    predecessors: tuple[int, ...] = field(init=False, repr=False, compare=False)
    # Side endpoints (x0, y0, x1, y1) and directions scaled to STUB, parallel
    # to ``sides``, as plain tuples for per-side arithmetic.
    xy: tuple[tuple[float, float, float, float], ...] = field(
        init=False, repr=False, compare=False)
    stubs: tuple[tuple[float, float], ...] = field(init=False, repr=False, compare=False)
    # Per edge: its sides' index range and its bounding box (min x, min y, max x, max y).
    spans: tuple[tuple[int, int], ...] = field(init=False, repr=False, compare=False)
    edge_boxes: tuple[tuple[float, float, float, float], ...] = field(
        init=False, repr=False, compare=False)
    # Edge index by piece id, and the edge of each side.
    index: dict[str, int] = field(init=False, repr=False, compare=False)
    side_edge: tuple[int, ...] = field(init=False, repr=False, compare=False)
    # Per side: its edge's id and top (what an edge crossed as cover is named and checked by).
    side_ids: tuple[str, ...] = field(init=False, repr=False, compare=False)
    side_tops: tuple[float, ...] = field(init=False, repr=False, compare=False)
    # Tops (E,), boxes (E, 4), side spans (E, 2) and side ends (S, 4) as arrays, for
    # the compiled crossing scan (geometry.cover.filters.sides_crossed).
    arrays: tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.int64],
                  NDArray[np.float64]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        sides = tuple(s for e in self.edges for s in e.sides)
        spans, start = [], 0
        for e in self.edges:
            spans.append((start, start + len(e.sides)))
            start += len(e.sides)
        object.__setattr__(self, "spans", tuple(spans))
        object.__setattr__(self, "index", {e.piece: i for i, e in enumerate(self.edges)})
        object.__setattr__(self, "side_edge", tuple(i for i, e in enumerate(self.edges)
                                                    for _ in e.sides))
        object.__setattr__(self, "side_ids", tuple(self.edges[i].id for i in self.side_edge))
        object.__setattr__(self, "side_tops", tuple(self.edges[i].top for i in self.side_edge))
        object.__setattr__(self, "edge_boxes", tuple(
            tuple(float(v) for v in e.geometry.bounds) for e in self.edges))
        if len(self.successors) != len(sides):
            object.__setattr__(self, "successors", (-1,) * len(sides))
        pred = [-1] * len(sides)
        for k, nxt in enumerate(self.successors):
            if nxt >= 0:
                pred[nxt] = k
        xy = tuple(
            (float(s.line.coords[0][0]), float(s.line.coords[0][1]),
             float(s.line.coords[-1][0]), float(s.line.coords[-1][1]))
            for s in sides
        )
        object.__setattr__(self, "arrays", (
            np.array([e.top for e in self.edges], dtype=np.float64),
            np.array(self.edge_boxes, dtype=np.float64).reshape(-1, 4),
            np.array(spans, dtype=np.int64).reshape(-1, 2),
            np.array(xy, dtype=np.float64).reshape(-1, 4)))
        stubs = tuple(
            ((x1 - x0) / n * STUB, (y1 - y0) / n * STUB)
            for x0, y0, x1, y1 in xy
            for n in (math.hypot(x1 - x0, y1 - y0),)
        )
        object.__setattr__(self, "sides", sides)
        object.__setattr__(self, "predecessors", tuple(pred))
        object.__setattr__(self, "xy", xy)
        object.__setattr__(self, "stubs", stubs)

    def edge(self, piece: str) -> SignificantEdge:
        """The significant edge of ``piece`` (KeyError when it has none)."""
        for e in self.edges:
            if e.piece == piece:
                return e
        raise KeyError(edge_id(piece))


def significant_edges(surfaces: Sequence[Surface], orange: float) -> EdgeMap:
    """Derive the significant edges of a board from its surfaces (R-ELEV-2).

    A part of a surface's outline is significant where the level just outside
    it (the highest other top that extends outside there, else the ground) is
    at least ``orange`` lower. Parts of the outline hidden under a higher top
    (a gantry flush with the building's wall) belong to that higher top's
    edge, so each place on the board is named by one piece.

    Examples
    --------
    Stacked pieces: a gantry (top 8) on a building (top 4).

    >>> building = Surface("b", shapely.box(0, 0, 10, 10), 4.0)
    >>> gantry = Surface("g", shapely.box(0, 0, 4, 4), 8.0)
    >>> m = significant_edges([building, gantry], orange=2.0)
    >>> {e.id: round(e.geometry.length, 6) for e in m.edges}
    {'b:edge': 32.0, 'g:edge': 16.0}
    """
    edges: list[SignificantEdge] = []
    successors: list[int] = []
    for i, s in enumerate(surfaces):
        if s.height - GROUND < orange - EPS:
            continue  # no drop from this top can reach Orange
        others = [o for j, o in enumerate(surfaces) if j != i]
        chains = _chains(_edge_geometry(s, others, orange))
        if not chains:
            continue
        sides: list[EdgeSide] = []
        for chain, closed in chains:
            first = len(successors)
            successors.extend(range(first + 1, first + len(chain)))
            successors.append(first if closed else -1)
            sides.extend(EdgeSide(s.id, s.height, line) for line in chain)
        merged = MultiLineString([side.line for side in sides])
        whole = len(chains) == 1 and chains[0][1] and math.isclose(
            merged.length, s.footprint.boundary.length, rel_tol=1e-9, abs_tol=MIN_SIDE)
        disc = Disc(*s.circle) if s.circle is not None and whole else None
        outline = s.footprint if whole and disc is None else None
        edges.append(SignificantEdge(s.id, s.height, merged, tuple(sides), disc, outline))
    return EdgeMap(tuple(edges), orange, tuple(successors))


def _edge_geometry(s: Surface, others: Sequence[Surface], orange: float) -> BaseGeometry:
    """The significant part of ``s``'s outline, as lines."""
    outline = s.footprint.boundary
    # Outside levels less than Orange below this top fill the drop; only the
    # part of a neighbour that lies outside this piece stands next to the edge.
    fill = [
        shapely.difference(o.footprint, s.footprint)
        for o in others
        if o.height > s.height - orange + EPS
    ]
    # A higher top covering the outline owns that edge (stacked pieces).
    fill += [o.footprint for o in others if o.height > s.height + EPS]
    fill = [f for f in fill if not f.is_empty]
    if fill:
        outline = shapely.difference(outline, shapely.union_all(fill).buffer(SNAP))
    return outline


def _chains(geometry: BaseGeometry) -> list[tuple[list[LineString], bool]]:
    """Split lines into chains of maximal straight sides; flag closed chains.

    Pieces whose ends lie within ``GAP`` are joined first: the snap margin
    around a neighbour that only touches the outline at a point would
    otherwise cut a hair-wide gap into the edge, and a sight line could pass
    through it.
    """
    parts = [
        [(float(c[0]), float(c[1])) for c in line.coords]
        for line in shapely.get_parts(shapely.line_merge(geometry))
        if isinstance(line, LineString) and line.length >= MIN_SIDE
    ]
    parts = _join_near_ends(parts)
    out: list[tuple[list[LineString], bool]] = []
    for pts in parts:
        closed = len(pts) > 3 and math.dist(pts[0], pts[-1]) <= GAP
        if closed:
            pts[0] = pts[-1] = _meet(pts[-2], pts[-1], pts[0], pts[1])
        sides = [s for s in _sides_of(pts, closed) if s.length >= MIN_SIDE]
        if sides:
            out.append((sides, closed and len(sides) > 1))
    return out


def _join_near_ends(parts: list[list[tuple[float, float]]]) -> list[list[tuple[float, float]]]:
    parts = [p for p in parts if len(p) >= 2]
    joined = True
    while joined:
        joined = False
        for i, a in enumerate(parts):
            for j, b in enumerate(parts):
                if i == j:
                    continue
                for bb in (b, b[::-1]):
                    if math.dist(a[-1], bb[0]) <= GAP:
                        parts[i] = [*a[:-1], _meet(a[-2], a[-1], bb[0], bb[1]), *bb[1:]]
                        del parts[j]
                        joined = True
                        break
                if joined:
                    break
            if joined:
                break
    return parts


def _meet(p0: tuple[float, float], p1: tuple[float, float], q0: tuple[float, float],
          q1: tuple[float, float]) -> tuple[float, float]:
    """The corner where a line ending ``p0 -> p1`` meets one starting ``q0 -> q1``.

    ``p1`` and ``q0`` lie a hair apart (the snap margin cut the corner off);
    the corner is where the two segments' lines cross, when that is as close,
    else the middle of the hair.
    """
    ux, uy = p1[0] - p0[0], p1[1] - p0[1]
    vx, vy = q1[0] - q0[0], q1[1] - q0[1]
    den = ux * vy - uy * vx
    mid = ((p1[0] + q0[0]) / 2.0, (p1[1] + q0[1]) / 2.0)
    if abs(den) <= COLLINEAR * math.hypot(ux, uy) * math.hypot(vx, vy):
        return mid
    t = ((q0[0] - p0[0]) * vy - (q0[1] - p0[1]) * vx) / den
    x = (p0[0] + t * ux, p0[1] + t * uy)
    if math.dist(x, p1) <= 10 * GAP and math.dist(x, q0) <= 10 * GAP:
        return x
    return mid


def _sides_of(pts: list[tuple[float, float]], closed: bool) -> list[LineString]:
    # Drop repeated points so every segment has a direction.
    pts = [p for k, p in enumerate(pts) if k == 0 or math.dist(p, pts[k - 1]) > GAP]
    if closed and len(pts) > 1 and math.dist(pts[0], pts[-1]) <= GAP:
        pts[-1] = pts[0]
    if len(pts) < 2:
        return []
    runs: list[list[tuple[float, float]]] = [[pts[0], pts[1]]]
    for p in pts[2:]:
        run = runs[-1]
        if _collinear(run[0], run[-1], p):
            run[-1] = p
        else:
            runs.append([run[-1], p])
    if closed and len(runs) > 1 and _collinear(runs[-1][0], runs[0][0], runs[0][-1]):
        # A ring's start fell in the middle of a side: join its two halves.
        runs[0] = [runs[-1][0], runs[0][-1]]
        runs.pop()
    return [LineString(run) for run in runs]


def _collinear(a: tuple[float, float], b: tuple[float, float], c: tuple[float, float]) -> bool:
    """Whether ``c`` continues the direction ``a -> b`` (same direction, in line)."""
    ux, uy = b[0] - a[0], b[1] - a[1]
    vx, vy = c[0] - b[0], c[1] - b[1]
    nu, nv = math.hypot(ux, uy), math.hypot(vx, vy)
    if nu == 0.0 or nv == 0.0:
        return True
    cross = (ux * vy - uy * vx) / (nu * nv)
    dot = ux * vx + uy * vy
    return abs(cross) <= COLLINEAR and dot > 0.0
