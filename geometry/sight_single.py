"""The plain-float path of sight: one pair at a time, in Python floats.

A single query pays numpy's per-call overhead a few hundred times over on
arrays of a handful of rows. So :meth:`geometry.sight.SightIndex.sight_many`
runs batches of up to ``_PLAIN_PAIRS`` (48) pairs (every single query) one pair at a time with
the same method, step for step and in the same order (the same lines, tested
the same way, so the same answer and witness, R-LOS-1), in plain Python floats:
the elements as lists (:class:`_Flat`), each pair against its nearby ones
(:class:`_One`), the lines of stage 2 made lazily so the first free one ends
the search. tests/test_sight_fast.py checks it against the array path,
:mod:`geometry.sight_batch`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from geometry.discs import Disc
from geometry.sight_parts import _TOUCH, EPS, Array, Segment, _norm, _Parts

_Tri = tuple[float, float, float, float, float, float, float, float, float, float, float,
             float, float, int, float, float, float, float]
_Line = tuple[float, float, float, float]  # point and unit direction
# The three sides of a triangle row: (index of the normal's x, index of the offset).
_SIDES = ((4, 10), (6, 11), (8, 12))
_Seg = tuple[float, float, float, float, int]  # x0, y0, x1, y1, group
_Boxed = tuple[float, float, float, float, _Seg]  # the segment after its bounding box


def _boxed(segs: list[_Seg]) -> list[_Boxed]:
    """Each segment after its bounding box (cheap rejection before the exact test)."""
    return [(min(e[0], e[2]), min(e[1], e[3]), max(e[0], e[2]), max(e[1], e[3]), e)
            for e in segs]


@dataclass(frozen=True)
class _Flat:
    """The elements of a :class:`~geometry.sight_parts._Parts` as lists of plain floats
    (same order)."""

    # box (4), three inward normals (6), three offsets (3), group, box of what the
    # closed test accepts (the triangle grown by _SEAM, and then some, 4)
    tri: list[_Tri]
    vert: list[tuple[float, float, int]]
    edge: list[_Seg]
    disc: list[tuple[float, float, float, int]]
    wall: list[_Seg]

    @cached_property
    def edge_boxes(self) -> list[_Boxed]:
        """Each outline piece after its bounding box."""
        return _boxed(self.edge)

    @cached_property
    def vert_runs(self) -> list[tuple[float, float, float, float, list[tuple[float, float, int]]]]:
        """The vertices in runs of one group (element order kept), each after its box."""
        runs: list[tuple[float, float, float, float, list[tuple[float, float, int]]]] = []
        for _, members in itertools.groupby(self.vert, key=lambda v: v[2]):
            vs = list(members)
            xs, ys = [v[0] for v in vs], [v[1] for v in vs]
            runs.append((min(xs), min(ys), max(xs), max(ys), vs))
        return runs

    @cached_property
    def wall_boxes(self) -> list[_Boxed]:
        """Each wall piece after its bounding box."""
        return _boxed(self.wall)

    @staticmethod
    def of(parts: _Parts) -> _Flat:
        tri = [(*box, *n[0], *n[1], *n[2], *h, g, *grown) for box, n, h, g, grown in zip(
            parts.tri_box.tolist(), parts.tri_n.tolist(), parts.tri_h.tolist(),
            parts.tri_g.tolist(), _accepted_boxes(parts).tolist(), strict=True)]
        return _Flat(
            tri,  # type: ignore[arg-type]
            [(x, y, g) for (x, y), g in zip(parts.vert.tolist(), parts.vert_g.tolist(),
                                            strict=True)],
            [(x0, y0, x1, y1, g) for ((x0, y0), (x1, y1)), g in zip(
                parts.edge.tolist(), parts.edge_g.tolist(), strict=True)],
            [(x, y, r, g) for (x, y, r), g in zip(parts.disc.tolist(), parts.disc_g.tolist(),
                                                  strict=True)],
            [(x0, y0, x1, y1, g) for ((x0, y0), (x1, y1)), g in zip(
                parts.wall.tolist(), parts.wall_g.tolist(), strict=True)],
        )


def _accepted_boxes(parts: _Parts) -> Array:
    """Per triangle, a box holding every point its closed test accepts.

    The test accepts the triangle's three half-planes grown by _SEAM: a
    triangle whose corners are those of the half-planes' boundary lines. The
    box is grown by far more than rounding, so a gap segment whose box misses
    it cannot meet the triangle (a prefilter, never a decision).
    """
    n, h = parts.tri_n, parts.tri_h
    if not len(n):
        return np.zeros((0, 4))
    m, k = n, np.roll(n, -1, axis=1)
    hm, hk = h, np.roll(h, -1, axis=1)
    det = m[..., 0] * k[..., 1] - m[..., 1] * k[..., 0]
    with np.errstate(divide="ignore", invalid="ignore"):
        x = (hm * k[..., 1] - hk * m[..., 1]) / det
        y = (m[..., 0] * hk - k[..., 0] * hm) / det
    bad = ~(np.isfinite(x) & np.isfinite(y)).all(axis=1)
    slack = 1e-7 + 1e-12 * np.maximum(np.abs(x).max(axis=1), np.abs(y).max(axis=1))
    box = np.stack([x.min(axis=1) - slack, y.min(axis=1) - slack,
                    x.max(axis=1) + slack, y.max(axis=1) + slack], axis=1)
    box[bad] = (-np.inf, -np.inf, np.inf, np.inf)
    result: Array = box
    return result


def _disc_hit(x: float, y: float, rad: float, px: float, py: float, dx: float, dy: float,
              s: float, e: float) -> bool:
    mx, my = x - px, y - py
    along = mx * dx + my * dy
    across = mx * dy - my * dx
    r = rad - EPS
    h2 = r * r - across * across
    if h2 < 0:
        return False
    h = math.sqrt(h2)
    return along - h <= e and along + h >= s


def _wall_hit(w: tuple[float, float, float, float, int], px: float, py: float, dx: float,
              dy: float, s: float, e: float) -> bool:
    ux, uy, vx, vy = w[0] - px, w[1] - py, w[2] - px, w[3] - py
    su = ux * dy - uy * dx
    sw = vx * dy - vy * dx
    if not ((su > EPS and sw < -EPS) or (su < -EPS and sw > EPS)):
        return False
    frac = su / (su - sw)
    tu = ux * dx + uy * dy
    tw = vx * dx + vy * dy
    t = tu + frac * (tw - tu)
    return s + EPS < t < e - EPS


@dataclass
class _One:
    """One pair's query state: its bases, nearby elements, and groups hit so far."""

    a: Disc
    b: Disc
    tri: list[_Tri]
    disc: list[tuple[float, float, float, int]]
    wall: list[tuple[float, float, float, float, int]]
    hit: set[int] = field(default_factory=set)

    def first_free(self, lines: Iterable[_Line]) -> Segment | None:
        """The witness of the first line that meets both bases and is free, recording
        every group a blocked line meets (for ``blocked_by``)."""
        hit = self.hit
        a, b = self.a, self.b
        # The bases' reach across a line (as in sight_batch._gap_segments), computed once.
        reach_a, reach_b = a.r + _TOUCH * max(1.0, a.r), b.r + _TOUCH * max(1.0, b.r)
        ax, ay, ar2, bx, by, br2 = a.x, a.y, a.r * a.r, b.x, b.y, b.r * b.r
        sqrt = math.sqrt
        tris = self.tri
        for px, py, dx, dy in lines:
            # The gap segment (sight_batch._gap_segments), inline: this loop is a query's hot spot.
            mx, my = ax - px, ay - py
            across = mx * dy - my * dx
            if not abs(across) <= reach_a:
                continue
            along = mx * dx + my * dy
            v = ar2 - across * across
            h = sqrt(v) if v > 0.0 else 0.0
            a0, a1 = along - h, along + h
            mx, my = bx - px, by - py
            across = mx * dy - my * dx
            if not abs(across) <= reach_b:
                continue
            along = mx * dx + my * dy
            v = br2 - across * across
            h = sqrt(v) if v > 0.0 else 0.0
            b0, b1 = along - h, along + h
            if a1 < b0:
                s, e = a1, b0
            elif b1 < a0:
                s, e = b1, a0
            else:
                s = e = (max(a0, b0) + min(a1, b1)) / 2.0
            x0, y0, x1, y1 = px + s * dx, py + s * dy, px + e * dx, py + e * dy
            if x0 > x1:
                x0, x1 = x1, x0
            if y0 > y1:
                y0, y1 = y1, y0
            blocked = False
            blocker = None
            for t in tris:
                if ((blocked and t[13] in hit)
                        or t[14] > x1 or t[16] < x0 or t[15] > y1 or t[17] < y0):
                    continue
                # The closed triangle test of sight_batch._hits, inline: clip the
                # stretch [s, e] by each side's half-plane (normal t[k], t[k+1],
                # offset t[c]); a line parallel to a side and outside it misses.
                lo, hi = s, e
                for k, c in _SIDES:
                    nd = t[k] * dx + t[k + 1] * dy
                    gp = t[c] - (t[k] * px + t[k + 1] * py)
                    if nd > 0:
                        if gp / nd > lo:
                            lo = gp / nd
                    elif nd < 0:
                        if gp / nd < hi:
                            hi = gp / nd
                    elif gp > 0:
                        break
                else:
                    if lo <= hi:
                        if not blocked:
                            blocked, blocker = True, t
                        hit.add(t[13])
            if blocker is not None and blocker is not tris[0]:
                # The next lines are likely blocked by the same triangle: test it first.
                # (Which groups a line meets, and whether it is blocked, does not depend
                # on the order: a group not yet met is always tested.)
                tris.remove(blocker)
                tris.insert(0, blocker)
            for x, y, r, g in self.disc:
                if (blocked and g in hit) or not _disc_hit(x, y, r, px, py, dx, dy, s, e):
                    continue
                blocked = True
                hit.add(g)
            for w in self.wall:
                if (blocked and w[4] in hit) or not _wall_hit(w, px, py, dx, dy, s, e):
                    continue
                blocked = True
                hit.add(w[4])
            if not blocked:
                return _witness_one(px, py, dx, dy, s, e, self.a)
        return None


def _witness_one(px: float, py: float, dx: float, dy: float, s: float, e: float, a: Disc
                 ) -> Segment:
    x0, y0, x1, y1 = px + s * dx, py + s * dy, px + e * dx, py + e * dy
    if math.hypot(x0 - a.x, y0 - a.y) > math.hypot(x1 - a.x, y1 - a.y):
        x0, y0, x1, y1 = x1, y1, x0, y0
    return ((x0, y0), (x1, y1))


def _to_segment(px: float, py: float, ax: float, ay: float, bx: float, by: float) -> float:
    """:func:`~geometry.sight_batch._near_segment` for one point and one centre segment."""
    abx, aby = bx - ax, by - ay
    ll = abx * abx + aby * aby
    apx, apy = px - ax, py - ay
    t = min(max((apx * abx + apy * aby) / (ll if ll > 0 else 1.0), 0.0), 1.0)
    return _norm(apx - t * abx, apy - t * aby)


def _base_lines_py(a: Disc, b: Disc) -> list[_Line]:
    """Stage 1 lines (:func:`~geometry.sight_batch._base_lines_many`): centre line, outer
    and inner tangents."""
    dx, dy = b.x - a.x, b.y - a.y
    dist = _norm(dx, dy)
    ux, uy = (dx / dist, dy / dist) if dist > 0 else (1.0, 0.0)
    out = [(a.x, a.y, ux, uy)]
    for sgn in (1.0, -1.0):
        cos = (a.r - sgn * b.r) / dist if dist > 0 else 2.0
        if abs(cos) > 1.0:
            continue
        sin = math.sqrt(max(1.0 - cos * cos, 0.0))
        for sg in (1.0, -1.0):
            nx, ny = ux * cos - sg * uy * sin, uy * cos + sg * ux * sin
            out.append((a.x + a.r * nx, a.y + a.r * ny, -ny, nx))
    return out


def _tangent_py(x1: float, y1: float, r1: float, x2: float, y2: float, r2: float, sgn: float,
                sg: float) -> _Line | None:
    """One line of :func:`~geometry.sight_batch._tangents`: circle 1, circle 2, side sign
    and rotation."""
    wx, wy = x2 - x1, y2 - y1
    dist = _norm(wx, wy)
    if not dist > 0:
        return None
    ux, uy = wx / dist, wy / dist
    cos = (r1 - sgn * r2) / dist
    if not abs(cos) <= 1.0 + 1e-12:
        return None
    c = min(max(cos, -1.0), 1.0)
    sin = math.sqrt(1.0 - c * c)
    nx, ny = ux * c - sg * uy * sin, uy * c + sg * ux * sin
    return (x1 + r1 * nx, y1 + r1 * ny, -ny, nx)


def _rim_py(c: Disc, edges: Iterable[tuple[float, float, float, float, int]],
            discs: Sequence[tuple[float, float, float, int]]) -> list[tuple[float, float]]:
    """:func:`~geometry.sight_batch._rim_points` for one base, in the same order."""
    cx, cy, rad = c.x, c.y, c.r
    roots: list[tuple[float, float, float, float, float, float, float]] = []
    for ex0, ey0, ex1, ey1, _ in edges:
        dx, dy = ex1 - ex0, ey1 - ey0
        fx, fy = ex0 - cx, ey0 - cy
        qa = dx * dx + dy * dy
        qb = 2 * (fx * dx + fy * dy)
        qc = (fx * fx + fy * fy) - rad * rad
        disc = qb * qb - 4 * qa * qc
        if disc >= 0 and qa > 0:
            roots.append((ex0, ey0, dx, dy, qa, qb, math.sqrt(disc)))
    out: list[tuple[float, float]] = []
    for sgn in (-1.0, 1.0):
        for ex0, ey0, dx, dy, qa, qb, sq in roots:
            t = (-qb + sgn * sq) / (2 * qa)
            if 0 <= t <= 1:
                out.append((ex0 + t * dx, ey0 + t * dy))
    crossings = []
    for x, y, rr, _ in discs:
        wx, wy = x - cx, y - cy
        dd = _norm(wx, wy)
        if not (dd > 0 and dd <= rad + rr and dd >= abs(rad - rr)):
            continue
        along = (dd * dd + rad * rad - rr * rr) / (2 * dd)
        h = math.sqrt(max(rad * rad - along * along, 0.0))
        wwx, wwy = wx / dd, wy / dd
        crossings.append((cx + along * wwx, cy + along * wwy, -wwy, wwx, h))
    for sgn in (1.0, -1.0):
        for bx, by, perpx, perpy, h in crossings:
            out.append((bx + sgn * h * perpx, by + sgn * h * perpy))
    return out


def _critical_lines_py(flat: _Flat, one: _One, ok: Sequence[bool] | None) -> Iterable[_Line]:
    """Stage 2 lines of one pair (:func:`~geometry.sight_batch._critical_lines_many`), in
    the same order, made lazily: the first free one ends the search."""
    a, b = one.a, one.b
    radius = max(a.r, b.r)
    # Vertices within radius of the centre segment (a box around it first: cheaper).
    m = radius + 2e-9
    x0, x1 = min(a.x, b.x) - m, max(a.x, b.x) + m
    y0, y1 = min(a.y, b.y) - m, max(a.y, b.y) + m
    f = [(x, y) for rx0, ry0, rx1, ry1, run in flat.vert_runs
         if rx0 <= x1 and rx1 >= x0 and ry0 <= y1 and ry1 >= y0
         for x, y, g in run if x0 <= x <= x1 and y0 <= y <= y1
         and (ok is None or ok[g]) and _to_segment(x, y, a.x, a.y, b.x, b.y) <= radius + 1e-9]
    for c in (a, b):
        x0, y0, x1, y1 = c.x - c.r, c.y - c.r, c.x + c.r, c.y + c.r
        edges = [e for ex0, ey0, ex1, ey1, e in flat.edge_boxes
                 if ex0 <= x1 and ex1 >= x0 and ey0 <= y1 and ey1 >= y0
                 and (ok is None or ok[e[4]])]
        f.extend(_rim_py(c, edges, one.disc))
    circles = [(a.x, a.y, a.r), (b.x, b.y, b.r), *((x, y, r) for x, y, r, _ in one.disc)]
    # Lines through two points.
    sqrt = math.sqrt
    for i, (xi, yi) in enumerate(f):
        for xj, yj in f[i + 1:]:
            wx, wy = xj - xi, yj - yi
            ln = sqrt(wx * wx + wy * wy)  # _norm
            if ln > 0:
                yield (xi, yi, wx / ln, wy / ln)
    # Tangents from a point to a circle (_tangent_py with a radius 0 inlined; both
    # rotations share the angle).
    ways = []
    for x, y in f:
        for cx, cy, cr in circles:
            wx, wy = x - cx, y - cy
            dist = sqrt(wx * wx + wy * wy)
            if not dist > 0:
                continue
            cos = (cr - 1.0 * 0.0) / dist
            if not abs(cos) <= 1.0 + 1e-12:
                continue
            co = min(max(cos, -1.0), 1.0)
            ways.append((cx, cy, cr, wx / dist, wy / dist, co, sqrt(1.0 - co * co)))
    for sg in (1.0, -1.0):
        for cx, cy, cr, ux, uy, co, sin in ways:
            nx, ny = ux * co - sg * uy * sin, uy * co + sg * ux * sin
            yield (cx + cr * nx, cy + cr * ny, -ny, nx)
    # Common tangents of two circles, not both bases.
    combos = [(circles[i], circles[j]) for i in range(len(circles))
              for j in range(i + 1, len(circles)) if j >= 2]
    for sgn in (1.0, -1.0):
        for sg in (1.0, -1.0):
            for (x1, y1, r1), (x2, y2, r2) in combos:
                line = _tangent_py(x1, y1, r1, x2, y2, r2, sgn, sg)
                if line is not None:
                    yield line
    # Parallels to the centre line through every feature.
    ax, ay = b.x - a.x, b.y - a.y
    alen = _norm(ax, ay)
    ux, uy = (ax / alen, ay / alen) if alen > 0 else (1.0, 0.0)
    nx, ny = -uy, ux
    for x, y in f:
        yield (x, y, ux, uy)
    for sgn in (1.0, -1.0):
        for cx, cy, cr in circles:
            yield (cx + sgn * (cr * nx), cy + sgn * (cr * ny), ux, uy)
