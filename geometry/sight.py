"""Exact line of sight between two bases among obstacles (R-LOS-1..4).

Two bases (discs ``A`` and ``B``) see each other when some straight segment
from a point of ``A`` to a point of ``B`` does not pass through the interior
of an obstacle (R-LOS-1). Obstacles are:

- polygons (non-convex, with holes, multipolygons): LoS-blocking terrain and
  dense area terrain (R-LOS-4);
- exact discs: huge bases (R-LOS-3) and circular pieces;
- zero-thickness walls (LineStrings), which block only a segment that
  properly crosses them (significant edges, R-ELEV-2).

The answer is exact, never sampled; docs/sight.md explains the method. In
short: for a fixed line, the segments joining the two bases along it are all
blocked exactly when the *gap segment* (between the two chords the bases cut
from the line) is blocked, and the set of lines that give sight is closed and
bounded by a few families of curves in line space. If it is not empty it
contains a *critical* line, tight against two of: the bases, the obstacle
vertices, the blocking discs, and the points where a base's rim crosses an
obstacle outline. So it suffices to enumerate those lines and test each gap
segment: in arrays for large batches, in plain floats for small ones (the
same lines in the same order, tested the same way).

Tolerance policy: candidate lines are built from the original geometry and
tested against obstacles eroded by :data:`EPS` with closed predicates, so a
line that grazes a corner or runs along an edge gives sight, while a line
that passes along a crack between two touching pieces (merged beforehand)
or through the inside of a piece never does.

Modules: this one holds the public values and the index (stage 1 and stage 2
for a batch, the choice between the two ways, the caches);
:mod:`geometry.sight_parts` prepares the obstacles (merging, erosion,
triangles) and holds the tolerances; :mod:`geometry.sight_batch` builds and
tests the candidate lines of many pairs in numpy arrays;
:mod:`geometry.sight_single` does the same for one pair in plain floats.

Examples
--------
>>> import shapely
>>> index = SightIndex([Obstacle("wall", shapely.box(4, -3, 5, 3))])
>>> index.sight(Disc(0, 0, 0.5), Disc(10, 0, 0.5)).visible
False
>>> seen = index.sight(Disc(0, 0, 0.5), Disc(10, 7.0, 0.5))
>>> seen.visible, seen.blocked_by
(True, ())
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray
from shapely.geometry.base import BaseGeometry

from geometry.discs import Disc
from geometry.sight_batch import (
    _base_lines_many,
    _critical_lines_many,
    _features,
    _gap_segments,
    _hits,
    _Near,
    _near_masks,
    _witness,
)
from geometry.sight_parts import (
    EPS,
    Array,
    Point,
    Segment,
    _build_parts,
    _concat_all,
    _norm,
    _Parts,
    _shifted,
)
from geometry.sight_single import _base_lines_py, _critical_lines_py, _Flat, _One, _to_segment

__all__ = ["EPS", "Array", "Obstacle", "Point", "Segment", "Sight", "SightIndex", "line_of_sight"]


# Per-query obstacles remembered per index (huge bases, edges), at most this many.
_EXTRA_CACHE = 512
# Batches (the board's elements stacked with some per-query obstacles, and their
# plain-float form) remembered per index: each holds a copy of the whole board.
_BATCH_CACHE = 64
# Up to this many pairs, sight_many runs each pair in plain floats: on the default
# and the two-storey board a pair costs about 50 us that way, while a numpy
# batch has a fixed cost of about 1 ms, so arrays win from about 64 pairs on
# (docs/sight.md, speed).
_PLAIN_PAIRS = 48


@dataclass(frozen=True)
class Obstacle:
    """Something that can block a sight line.

    ``shape`` is a Polygon/MultiPolygon (a blocking footprint), a
    LineString/MultiLineString (a zero-thickness wall: blocks only a segment
    that properly crosses it) or an exact :class:`~geometry.discs.Disc`.
    """

    id: str
    shape: BaseGeometry | Disc


@dataclass(frozen=True)
class Sight:
    """The answer to "does A see B?" with its reason.

    ``witness`` is a free segment from a point of A's base to a point of B's
    base when ``visible``; ``blocked_by`` names the obstacles in the way when
    not.
    """

    visible: bool
    witness: Segment | None
    blocked_by: tuple[str, ...] = ()

    def __str__(self) -> str:
        if self.visible and self.witness is not None:
            (x0, y0), (x1, y1) = self.witness
            return f"line of sight along ({x0:.3f}, {y0:.3f}) -> ({x1:.3f}, {y1:.3f})"
        if self.blocked_by:
            return "no line of sight: blocked by " + ", ".join(self.blocked_by)
        return "no line of sight"


# --- the index --------------------------------------------------------------


class SightIndex:
    """Obstacles prepared once for many sight queries (the static board).

    Parameters
    ----------
    obstacles
        The pieces that block sight for the queries this index serves.
    merge_gap
        Pieces closer than this act as one (the touch tolerance, R-UNIT-2).

    Examples
    --------
    >>> import shapely
    >>> index = SightIndex([Obstacle("crate", shapely.box(2, -0.2, 3, 0.2))])
    >>> str(index.sight(Disc(0, 0, 0.5), Disc(5, 0, 0.5)))[:16]
    'line of sight al'
    """

    def __init__(self, obstacles: Iterable[Obstacle] = (), merge_gap: float = 0.0) -> None:
        self.obstacles: tuple[Obstacle, ...] = tuple(obstacles)
        self.merge_gap = merge_gap
        self._groups: list[tuple[str, ...]] = []
        self._parts = _build_parts(self.obstacles, merge_gap, self._groups)
        self._extra_cache: dict[Obstacle, tuple[_Parts, list[tuple[str, ...]]]] = {}
        # Batches with the same per-query obstacle objects share their stacked arrays
        # (the window asks again and again while nothing moves). Keyed by identity;
        # the entry holds the obstacles, so no id is reused while it lives.
        self._batch_cache: dict[tuple[int, ...], _Batch] = {}
        self._batch_by_value: dict[tuple[Obstacle, ...], _Batch] = {}
        self._flat_cache: dict[int, tuple[_Parts, _Flat]] = {}

    def sight(self, a: Disc, b: Disc, extra: Sequence[Obstacle] = ()) -> Sight:
        """Line of sight from base ``a`` to base ``b`` (R-LOS-1).

        ``extra`` are per-query obstacles (huge bases, significant edges);
        they are not merged with the static pieces.
        """
        return self.sight_many([(a, b)], [extra])[0]

    def sight_many(self, pairs: Sequence[tuple[Disc, Disc]],
                   extras: Sequence[Sequence[Obstacle]] | None = None) -> list[Sight]:
        """:meth:`sight` for many pairs at once (the same answers, batched).

        ``extras[i]`` are the per-query obstacles of pair ``i``. Stage 1 (the
        centre line and the common tangents of the two bases) runs for all
        pairs in one vectorised pass; the pairs it does not settle go on,
        together, to stage 2: every critical line (docs/sight.md).
        """
        n = len(pairs)
        if n == 0:
            return []
        per_query: Sequence[Sequence[Obstacle]] = extras if extras is not None else [()] * n
        if n <= _PLAIN_PAIRS:  # few pairs: plain floats beat numpy's per-call overhead
            parts, groups, cols = self._batch(per_query)
            flat = self._flat(parts)
            out = []
            for (a, b), mine in zip(pairs, cols, strict=True):
                ok = None
                if len(groups) > len(self._groups):  # per-query obstacles: each pair its own
                    ok = [True] * len(self._groups) + [False] * (len(groups) - len(self._groups))
                    for g in mine:
                        ok[g] = True
                out.append(_sight_one(flat, a, b, ok, groups))
            return out
        parts, groups, allowed = self._batch_parts(per_query)
        return self._sight_arrays(pairs, parts, groups, allowed)

    def _flat(self, parts: _Parts) -> _Flat:
        """The plain-float elements of these parts, made once per parts object."""
        hit = self._flat_cache.get(id(parts))
        if hit is None or hit[0] is not parts:
            if len(self._flat_cache) >= _BATCH_CACHE:
                self._flat_cache.clear()
            hit = self._flat_cache[id(parts)] = (parts, _Flat.of(parts))
        return hit[1]

    def _sight_arrays(self, pairs: Sequence[tuple[Disc, Disc]], parts: _Parts,
                      groups: Sequence[tuple[str, ...]], allowed: NDArray[np.bool_]
                      ) -> list[Sight]:
        """:meth:`sight_many` on numpy arrays, all pairs in one pass per stage."""
        n = len(pairs)
        da = np.array([[a.x, a.y, a.r] for a, _ in pairs], dtype=np.float64)
        db = np.array([[b.x, b.y, b.r] for _, b in pairs], dtype=np.float64)
        use: NDArray[np.bool_] | None = None if allowed.all() else allowed
        near = _near_masks(parts, da, db, use)
        found: dict[int, Segment] = {}
        met: list[tuple[NDArray[np.int64], NDArray[np.int64]]] = []
        clear = np.asarray(~(near.tri.any(axis=1) | near.disc.any(axis=1)
                             | near.wall.any(axis=1)), dtype=bool)
        for i in np.flatnonzero(clear).tolist():
            found[i] = _centre_gap(*pairs[i])  # nothing near: the centre line is free
        p, d, q = _base_lines_many(da, db)
        if clear.any():
            keep = ~clear[q]
            p, d, q = p[keep], d[keep], q[keep]
        if len(q):
            self._settle(p, d, q, da, db, parts, near, pairs, found, met)
        rest = np.array([i for i in range(n) if i not in found], dtype=np.int64)
        if len(rest):
            feats = _features(parts, da[rest], db[rest], None if use is None else use[rest])
            p, d, q = _critical_lines_many(rest, da, db, parts, near, feats)
            self._settle(p, d, q, da, db, parts, near, pairs, found, met)
        out: list[Sight] = []
        blockers: dict[int, set[int]] = {}
        if met and len(found) < n:
            # Distinct (pair, group) hits of the pairs without sight, in one pass.
            qq = np.concatenate([m[0] for m in met])
            gg = np.concatenate([m[1] for m in met])
            open_pair = np.ones(n, dtype=bool)
            open_pair[list(found)] = False
            keep = open_pair[qq]
            code = np.unique(qq[keep] * len(groups) + gg[keep])
            for qi, g in zip((code // len(groups)).tolist(), (code % len(groups)).tolist(),
                             strict=True):
                blockers.setdefault(qi, set()).add(g)
        for i in range(n):
            if i in found:
                out.append(Sight(True, found[i]))
            else:
                ids = sorted({pid for g in blockers.get(i, ()) for pid in groups[g]})
                out.append(Sight(False, None, tuple(ids)))
        return out

    @staticmethod
    def _settle(p: Array, d: Array, q: NDArray[np.int64], da: Array, db: Array,
                parts: _Parts, near: _Near, pairs: Sequence[tuple[Disc, Disc]],
                found: dict[int, Segment],
                met: list[tuple[NDArray[np.int64], NDArray[np.int64]]]) -> None:
        """Test candidate lines; record each pair's first free one, or what was hit."""
        s, e, meets = _gap_segments(p, d, da[q], db[q])
        p, d, q, s, e = p[meets], d[meets], q[meets], s[meets], e[meets]
        blocked, hit_line, hit_group = _hits(p, d, s, e, q, parts, near)
        free = np.flatnonzero(~blocked)
        settled, first = np.unique(q[free], return_index=True)
        for qi, li in zip(settled.tolist(), free[first].tolist(), strict=True):
            if qi not in found:
                found[qi] = _witness(p[li], d[li], float(s[li]), float(e[li]), pairs[qi][0])
        met.append((q[hit_line], hit_group))

    def _batch_parts(self, per_query: Sequence[Sequence[Obstacle]]
                     ) -> tuple[_Parts, list[tuple[str, ...]], NDArray[np.bool_]]:
        """Static elements plus every pair's extra ones, and which pair may use which group."""
        parts, groups, cols = self._batch(per_query)
        allowed = np.zeros((len(per_query), len(groups)), dtype=bool)
        allowed[:, :len(self._groups)] = True
        for i, mine in enumerate(cols):
            allowed[i, mine] = True
        return parts, groups, allowed

    def _batch(self, per_query: Sequence[Sequence[Obstacle]]
               ) -> tuple[_Parts, list[tuple[str, ...]], list[list[int]]]:
        """Static elements plus every pair's extra ones, and each pair's extra groups."""
        order: dict[int, int] = {}
        uniq: list[Obstacle] = []
        for ex in per_query:
            for ob in ex:
                if id(ob) not in order:
                    order[id(ob)] = len(uniq)
                    uniq.append(ob)
        if not uniq:
            return self._parts, self._groups, [[] for _ in per_query]
        key = tuple(order)
        batch = self._batch_cache.get(key)
        if batch is None:
            # Equal obstacles in new objects (a caller that builds them per query):
            # found by value, then remembered by identity too.
            batch = self._batch_by_value.get(tuple(uniq))
            if batch is None:
                parts, groups, spans = self._stack_extras(uniq)
                batch = _Batch(tuple(uniq), parts, groups, spans)
                if len(self._batch_by_value) >= _BATCH_CACHE:
                    self._batch_by_value.clear()
                self._batch_by_value[batch.obstacles] = batch
            else:
                batch = replace(batch, obstacles=tuple(uniq))  # hold these ids too
            if len(self._batch_cache) >= _BATCH_CACHE:
                self._batch_cache.clear()
            self._batch_cache[key] = batch
        spans = batch.spans
        cols = [[g for ob in ex for g in range(*spans[order[id(ob)]])] for ex in per_query]
        return batch.parts, batch.groups, cols

    def _stack_extras(self, uniq: Sequence[Obstacle]
                      ) -> tuple[_Parts, list[tuple[str, ...]], list[tuple[int, int]]]:
        """Static elements plus these per-query obstacles (equal ones built once), and
        the span of group ids of each obstacle."""
        groups = list(self._groups)
        seen: dict[Obstacle, tuple[int, int]] = {}
        extra: list[_Parts] = []
        spans: list[tuple[int, int]] = []
        for ob in uniq:
            span = seen.get(ob)
            if span is None:
                built, names = self._extra_parts(ob)
                extra.append(_shifted(built, len(groups)))
                span = seen[ob] = (len(groups), len(groups) + len(names))
                groups.extend(names)
            spans.append(span)
        return _concat_all([self._parts, *extra]), groups, spans

    def _extra_parts(self, ob: Obstacle) -> tuple[_Parts, list[tuple[str, ...]]]:
        """One per-query obstacle as elements (group ids from 0), remembered by value:
        the same huge base or edge comes back query after query."""
        hit = self._extra_cache.get(ob)
        if hit is None:
            names: list[tuple[str, ...]] = []
            hit = (_build_parts([ob], 0.0, names), names)
            if len(self._extra_cache) >= _EXTRA_CACHE:
                self._extra_cache.clear()
            self._extra_cache[ob] = hit
        return hit


@dataclass(frozen=True)
class _Batch:
    """Stacked elements of the static board and some per-query obstacles."""

    obstacles: tuple[Obstacle, ...]  # held so that their ids stay theirs
    parts: _Parts
    groups: list[tuple[str, ...]]
    spans: list[tuple[int, int]]  # group ids [lo, hi) of each obstacle


def line_of_sight(a: Disc, b: Disc, obstacles: Iterable[Obstacle], merge_gap: float = 0.0
                  ) -> Sight:
    """One-off line of sight; build a :class:`SightIndex` for many queries."""
    return SightIndex(obstacles, merge_gap).sight(a, b)


def _centre_gap(a: Disc, b: Disc) -> Segment:
    """The gap segment of the centre line (a point when the bases overlap)."""
    dx, dy = b.x - a.x, b.y - a.y
    dist = _norm(dx, dy)
    ux, uy = (dx / dist, dy / dist) if dist > 0 else (1.0, 0.0)
    s, e = a.r, dist - b.r
    if e < s:  # overlapping chords: the middle of the overlap
        s = e = (max(-a.r, dist - b.r) + min(a.r, dist + b.r)) / 2.0
    return ((a.x + s * ux, a.y + s * uy), (a.x + e * ux, a.y + e * uy))


def _sight_one(flat: _Flat, a: Disc, b: Disc, ok: Sequence[bool] | None,
               groups: Sequence[tuple[str, ...]]) -> Sight:
    """:meth:`SightIndex.sight_many` for one pair, in plain floats.

    ``ok[g]``: whether group ``g`` takes part (None: all do).
    """
    x0, y0 = min(a.x - a.r, b.x - b.r), min(a.y - a.r, b.y - b.r)
    x1, y1 = max(a.x + a.r, b.x + b.r), max(a.y + a.r, b.y + b.r)
    radius = max(a.r, b.r)
    one = _One(
        a, b,
        [t for t in flat.tri if t[0] <= x1 and t[2] >= x0 and t[1] <= y1 and t[3] >= y0
         and (ok is None or ok[t[13]])],
        [c for c in flat.disc if (ok is None or ok[c[3]])
         and _to_segment(c[0], c[1], a.x, a.y, b.x, b.y) <= radius + c[2]],
        [w for wx0, wy0, wx1, wy1, w in flat.wall_boxes
         if wx0 <= x1 and wx1 >= x0 and wy0 <= y1 and wy1 >= y0 and (ok is None or ok[w[4]])])
    if not (one.tri or one.disc or one.wall):
        return Sight(True, _centre_gap(a, b))  # nothing near: the centre line is free
    found = one.first_free(_base_lines_py(a, b))
    if found is None:
        found = one.first_free(_critical_lines_py(flat, one, ok))
    if found is not None:
        return Sight(True, found)
    return Sight(False, None, tuple(sorted({pid for g in one.hit for pid in groups[g]})))
