"""Obstacles as a moving base sees them, with exact clearance queries (R-MOV-3, R-MOV-4).

An :class:`MoveObstacle` is a shape plus an ``inflate`` radius: a polygon has
``inflate = 0``; an exact circle (a terrain circle, another model's base) is
its centre point with ``inflate`` = its radius. The *clearance* between a
moving base's centre path (a point or a segment) and an obstacle is then
``distance(path, shape) - inflate``: the base of radius ``r`` overlaps the
obstacle by ``r - clearance``. Nothing here polygonises a circle, so every
answer is exact up to floating point.

An :class:`ObstacleSet` keeps the shapes in an STRtree and answers, for many
paths at once, which obstacles come closer than a threshold (vectorised
``STRtree.query(..., predicate="dwithin")`` then exact ``shapely.distance``).

Examples
--------
>>> wall = MoveObstacle.polygon("wall", shapely.box(2, 0, 3, 4))
>>> post = MoveObstacle.circle("post", (6.0, 1.0), 0.5)
>>> obs = ObstacleSet((wall, post))
>>> leg = shapely.LineString([(0, 1), (8, 1)])
>>> [obs[i].id for i in obs.closer_than([leg], 0.49)[0]]
['wall', 'post']
>>> round(float(obs.clearance(shapely.Point(4.5, 1.0)).min()), 9)
1.0
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt
import shapely
from shapely.geometry.base import BaseGeometry

FloatArray = npt.NDArray[np.float64]

# Float noise allowance: a clearance equal to the threshold up to this much
# counts as clear (far below the touch tolerance of R-UNIT-2).
EPS = 1e-9
#: Above this many (path, obstacle) pairs the STRtree finds the candidates, below it
#: one array comparison of their bounds does (pairs_closer_than).
DENSE_PAIRS = 200_000


@dataclass(frozen=True)
class MoveObstacle:
    """A shape a base may collide with: ``distance(., shape) - inflate`` is its clearance."""

    id: str
    shape: BaseGeometry
    inflate: float = 0.0

    @classmethod
    def polygon(cls, id: str, shape: BaseGeometry) -> MoveObstacle:
        return cls(id, shape, 0.0)

    @classmethod
    def circle(cls, id: str, center: tuple[float, float], radius: float) -> MoveObstacle:
        """An exact circle (a terrain circle or a base): centre point plus radius."""
        return cls(id, shapely.Point(center), float(radius))

    def outline(self, grow: float, quad_segs: int) -> BaseGeometry:
        """A polygon containing every point within ``inflate + grow`` of the shape.

        Circumscribed, never inscribed: arc vertices are pushed out so that
        every chord stays outside the exact offset curve. Used by the
        reachable-area construction, which must only ever err towards
        "unreachable".
        """
        d = self.inflate + grow
        if d <= 0:
            return self.shape
        out = d / float(np.cos(np.pi / (4 * quad_segs)))
        return self.shape.buffer(out, quad_segs=quad_segs)


@dataclass(frozen=True)
class ObstacleSet:
    """Obstacles with a spatial index, answering clearance queries for many paths."""

    items: tuple[MoveObstacle, ...] = ()
    _shapes: npt.NDArray[np.object_] = field(init=False, repr=False, compare=False)
    _inflate: FloatArray = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        shapes = np.array([o.shape for o in self.items], dtype=object)
        object.__setattr__(self, "_shapes", shapes)
        object.__setattr__(self, "_inflate", np.array([o.inflate for o in self.items], float))

    @cached_property
    def _tree(self) -> shapely.STRtree:
        """The spatial index, built on first use: most sets (a level's, made afresh for
        each position) are asked through the bounds alone (:meth:`_overlapping`)."""
        return shapely.STRtree(self._shapes)

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[MoveObstacle]:
        return iter(self.items)

    def __getitem__(self, i: int) -> MoveObstacle:
        return self.items[i]

    @cached_property
    def max_inflate(self) -> float:
        return float(self._inflate.max()) if len(self.items) else 0.0

    def pairs_closer_than(
        self, paths: Sequence[BaseGeometry], threshold: float
    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], FloatArray]:
        """``(path index, obstacle index, clearance)`` for every clearance below ``threshold``."""
        if not self.items or not len(paths):
            empty = np.zeros(0, dtype=np.intp)
            return empty, empty, np.zeros(0)
        arr = np.asarray(paths, dtype=object)
        reach = max(threshold + self.max_inflate, 0.0)
        # The candidates by boxes grown by ``reach`` (what a "dwithin" query tests first),
        # then the exact distance once: "dwithin" would work each distance out twice.
        x0, y0, x1, y1 = shapely.bounds(arr).T
        pi, oi = self._overlapping(x0 - reach, y0 - reach, x1 + reach, y1 + reach)
        if len(pi) == 0:
            return pi, oi, np.zeros(0)
        clear = shapely.distance(arr[pi], self._shapes[oi]) - self._inflate[oi]
        keep = clear < threshold - EPS
        return pi[keep], oi[keep], clear[keep]

    def _overlapping(self, x0: FloatArray, y0: FloatArray, x1: FloatArray, y1: FloatArray
                     ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
        """``(box index, obstacle index)`` for every box meeting an obstacle's bounds
        (closed, as the tree's envelopes). Few boxes times few obstacles are compared
        all at once: building the boxes as geometries for the tree cost more than
        the comparisons (a greedy game's paths against the skirmish's obstacles)."""
        if len(x0) * len(self.items) > DENSE_PAIRS:
            return self._tree.query(shapely.box(x0, y0, x1, y1))  # type: ignore[no-any-return]
        ox0, oy0, ox1, oy1 = self._bounds
        meet = ((x0[:, None] <= ox1) & (x1[:, None] >= ox0)
                & (y0[:, None] <= oy1) & (y1[:, None] >= oy0))
        pi, oi = np.nonzero(meet)
        return pi.astype(np.intp), oi.astype(np.intp)

    @cached_property
    def _bounds(self) -> FloatArray:
        """The obstacles' bounds, one row per side (x0, y0, x1, y1)."""
        return shapely.bounds(self._shapes).T  # type: ignore[no-any-return]

    def closer_than(self, paths: Sequence[BaseGeometry], threshold: float) -> list[list[int]]:
        """For each path, the indices of obstacles whose clearance is below ``threshold``."""
        out: list[list[int]] = [[] for _ in paths]
        pi, oi, _ = self.pairs_closer_than(paths, threshold)
        for p, o in zip(pi.tolist(), oi.tolist(), strict=True):
            out[p].append(o)
        for row in out:
            row.sort()
        return out

    def points_closer_than(self, xy: Sequence[tuple[float, float]], threshold: float
                           ) -> list[list[int]]:
        """:meth:`closer_than` for base centres given as coordinates (where moves end):
        against a set of circles alone (bases: a centre and a radius) the clearances
        are worked out in one array, as GEOS works a point's distance to a point out
        (the square root of the summed squares: the same floats), without making a
        point geometry per centre."""
        centres = self._centres
        if centres is None:
            return self.closer_than(list(shapely.points(np.asarray(xy, float))), threshold)
        out: list[list[int]] = [[] for _ in xy]
        if not len(xy) or not self.items:
            return out
        pts = np.asarray(xy, float)
        dx = pts[:, 0, None] - centres[None, :, 0]
        dy = pts[:, 1, None] - centres[None, :, 1]
        clear = np.sqrt(dx * dx + dy * dy) - self._inflate[None, :]
        for p, o in zip(*np.nonzero(clear < threshold - EPS), strict=True):
            out[int(p)].append(int(o))  # (row by row, obstacles in order: sorted)
        return out

    @cached_property
    def _centres(self) -> FloatArray | None:
        """The centres (x, y rows) when every obstacle is a circle, else None."""
        if not all(o.shape.geom_type == "Point" for o in self.items):
            return None
        return shapely.get_coordinates(self._shapes).reshape(-1, 2)  # type: ignore[no-any-return]

    def blocked(self, paths: Sequence[BaseGeometry], threshold: float) -> npt.NDArray[np.bool_]:
        """For each path, whether any obstacle's clearance is below ``threshold``."""
        hit = np.zeros(len(paths), dtype=bool)
        pi, _, _ = self.pairs_closer_than(paths, threshold)
        hit[pi] = True
        return hit

    def clearance(self, path: BaseGeometry) -> FloatArray:
        """Clearance from ``path`` to every obstacle, in order (exact)."""
        if not self.items:
            return np.zeros(0)
        result: FloatArray = shapely.distance(path, self._shapes) - self._inflate
        return result

    def near(self, geom: BaseGeometry, distance: float) -> list[int]:
        """Indices of obstacles whose clearance to ``geom`` is at most ``distance``."""
        if not self.items:
            return []
        idx = self._tree.query(geom, predicate="dwithin", distance=distance + self.max_inflate)
        clear = shapely.distance(geom, self._shapes[idx]) - self._inflate[idx]
        return sorted(int(i) for i, c in zip(idx, clear, strict=True) if c <= distance + EPS)
