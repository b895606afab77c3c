"""The array path of sight: candidate lines and their tests for many pairs at once.

:meth:`geometry.sight.SightIndex.sight_many` takes this path for batches of
more than ``_PLAIN_PAIRS`` (48) pairs (R-LOS-1). The candidate lines of all pairs are stacked into
arrays: stage 1, the centre line and the common tangents of the two bases
(:func:`_base_lines_many`); stage 2, every critical line of the pairs still open
(:func:`_critical_lines_many`). Each line is tested only against the elements
near its own pair (:func:`_near_masks`, :func:`_features`), and every (line,
element) test is one vectorised expression (:func:`_gap_segments`,
:func:`_hits`). :mod:`geometry.sight_single` builds the same lines in the same
order and tests them the same way in plain floats; docs/sight.md explains the
method.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from geometry.discs import Disc
from geometry.sight_parts import _TOUCH, EPS, Array, Segment, _norm, _np_norm, _Parts

# --- candidate lines ------------------------------------------------------


def _tangents(c1: Array, r1: Array, c2: Array, r2: Array, signs: Sequence[float]
              ) -> tuple[Array, Array, NDArray[np.int64]]:
    """Lines tangent to circle pairs (radius 0 for points).

    For each pair, each sign ``s`` in ``signs`` (+1: both circles on the same
    side, -1: on opposite sides) and each of the two rotations: the line
    ``n . x = n . c1 + r1`` (touching circle 1 at ``c1 + r1 n``) with
    ``n . (c2 - c1) = r1 - s r2`` (touching circle 2). Pairs with no such
    tangent yield nothing. Returns points, unit directions and the pair of
    each line.
    """
    w = c2 - c1
    dist = _np_norm(w[:, 0], w[:, 1])
    safe = np.where(dist > 0, dist, 1.0)
    u = w / safe[:, None]
    pts, dirs, idx = [], [], []
    for sgn in signs:
        cos = (r1 - sgn * r2) / safe
        fine = np.flatnonzero((np.abs(cos) <= 1.0 + 1e-12) & (dist > 0))
        c = np.clip(cos[fine], -1.0, 1.0)
        sin = np.sqrt(1.0 - c * c)
        uu, cc1, rr1 = u[fine], c1[fine], r1[fine]
        for sg in (1.0, -1.0):
            # n is u rotated by +/- acos(cos): n . w = dist * cos.
            n = np.stack([uu[:, 0] * c - sg * uu[:, 1] * sin,
                          uu[:, 1] * c + sg * uu[:, 0] * sin], axis=1)
            pts.append(cc1 + rr1[:, None] * n)
            dirs.append(np.stack([-n[:, 1], n[:, 0]], axis=1))
            idx.append(fine)
    if not pts:
        return np.zeros((0, 2)), np.zeros((0, 2)), np.zeros(0, np.int64)
    return np.concatenate(pts), np.concatenate(dirs), np.concatenate(idx).astype(np.int64)


def _rim_points(rows: NDArray[np.int64], centre: Array, radius: Array, near_edge: NDArray[
        np.bool_], near_disc: NDArray[np.bool_], parts: _Parts) -> tuple[Array, NDArray[np.int64]]:
    """Points where a base's rim crosses obstacle outlines and blocking discs.

    ``centre``/``radius`` are per row; returns the points and their row.
    """
    pts, owner = [], []
    u, k = np.nonzero(near_edge)
    if len(u):
        p0, p1 = parts.edge[k, 0], parts.edge[k, 1]
        d = p1 - p0
        f = p0 - centre[u]
        a = (d * d).sum(axis=1)
        b = 2 * (f * d).sum(axis=1)
        c = (f * f).sum(axis=1) - radius[u] ** 2
        disc = b * b - 4 * a * c
        ok = (disc >= 0) & (a > 0)
        sq = np.sqrt(np.where(ok, disc, 0.0))
        for sgn in (-1.0, 1.0):
            t = (-b + sgn * sq) / np.where(a > 0, 2 * a, 1.0)
            good = ok & (t >= 0) & (t <= 1)
            pts.append(p0[good] + t[good, None] * d[good])
            owner.append(rows[u[good]])
    u, k = np.nonzero(near_disc)
    if len(u):
        w = parts.disc[k, :2] - centre[u]
        dd = _np_norm(w[:, 0], w[:, 1])
        r, rr = radius[u], parts.disc[k, 2]
        ok = (dd > 0) & (dd <= r + rr) & (dd >= np.abs(r - rr))
        w, dd, r, rr, uo = w[ok], dd[ok], r[ok], rr[ok], u[ok]
        along = (dd * dd + r * r - rr * rr) / (2 * dd)
        h = np.sqrt(np.maximum(r * r - along * along, 0.0))
        ww = w / dd[:, None]
        perp = np.stack([-ww[:, 1], ww[:, 0]], axis=1)
        base = centre[uo] + along[:, None] * ww
        for sgn in (1.0, -1.0):
            pts.append(base + sgn * h[:, None] * perp)
            owner.append(rows[uo])
    if not pts:
        return np.zeros((0, 2)), np.zeros(0, np.int64)
    return np.concatenate(pts), np.concatenate(owner).astype(np.int64)


def _base_lines_one(a: Array, b: Array) -> tuple[Array, Array, NDArray[np.int64]]:
    """:func:`_base_lines_many` for a single pair, in plain floats (no array overhead)."""
    ax, ay, ra = float(a[0]), float(a[1]), float(a[2])
    dx, dy = float(b[0]) - ax, float(b[1]) - ay
    dist = _norm(dx, dy)
    ux, uy = (dx / dist, dy / dist) if dist > 0 else (1.0, 0.0)
    pts = [(ax, ay)]
    dirs = [(ux, uy)]
    for sgn in (1.0, -1.0):
        cos = (ra - sgn * float(b[2])) / dist if dist > 0 else 2.0
        if abs(cos) > 1.0:
            continue
        sin = math.sqrt(1.0 - cos * cos)
        for sg in (1.0, -1.0):
            nx, ny = ux * cos - sg * uy * sin, uy * cos + sg * ux * sin
            pts.append((ax + ra * nx, ay + ra * ny))
            dirs.append((-ny, nx))
    return np.array(pts), np.array(dirs), np.zeros(len(pts), np.int64)


def _base_lines_many(da: Array, db: Array) -> tuple[Array, Array, NDArray[np.int64]]:
    """Stage 1 lines of each pair: its centre line and the common tangents of its bases."""
    n = len(da)
    if n == 1:
        return _base_lines_one(da[0], db[0])
    ax, ay, ra = da[:, 0], da[:, 1], da[:, 2]
    wx, wy = db[:, 0] - ax, db[:, 1] - ay
    dist = _np_norm(wx, wy)
    has = dist > 0
    safe = np.where(has, dist, 1.0)
    ux, uy = np.where(has, wx / safe, 1.0), np.where(has, wy / safe, 0.0)
    p = np.empty((n, 5, 2))
    d = np.empty((n, 5, 2))
    valid = np.empty((n, 5), dtype=bool)
    p[:, 0, 0], p[:, 0, 1], d[:, 0, 0], d[:, 0, 1] = ax, ay, ux, uy
    valid[:, 0] = True
    k = 1
    for sgn in (1.0, -1.0):
        cos = np.where(has, (ra - sgn * db[:, 2]) / safe, 2.0)
        fine = np.abs(cos) <= 1.0
        sin = np.sqrt(np.maximum(1.0 - cos * cos, 0.0))
        for sg in (1.0, -1.0):
            nx = ux * cos - sg * uy * sin
            ny = uy * cos + sg * ux * sin
            p[:, k, 0], p[:, k, 1] = ax + ra * nx, ay + ra * ny
            d[:, k, 0], d[:, k, 1] = -ny, nx
            valid[:, k] = fine
            k += 1
    keep = valid.ravel()  # pair-major: each pair's centre line first
    q = np.repeat(np.arange(n), 5)[keep]
    return p.reshape(-1, 2)[keep], d.reshape(-1, 2)[keep], q


def _within(counts: NDArray[np.int64]) -> NDArray[np.int64]:
    """0, 1, ..., c - 1 for each count c, concatenated."""
    total = int(counts.sum())
    starts = np.cumsum(counts) - counts
    result: NDArray[np.int64] = np.arange(total) - np.repeat(starts, counts)
    return result


def _ragged_pairs(counts: NDArray[np.int64]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """All index pairs i < j within each group of a group-contiguous array."""
    k = _within(counts)
    owner = np.repeat(np.arange(len(counts)), counts)
    later = counts[owner] - k - 1
    i = np.repeat(np.arange(len(k)), later)
    return i, i + 1 + _within(later)


def _by_owner(values: Array, owner: NDArray[np.int64], n: int
              ) -> tuple[Array, NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Values made contiguous per owner (stable), their owners, counts and starts."""
    order = np.argsort(owner, kind="stable")
    counts = np.bincount(owner, minlength=n).astype(np.int64)
    return values[order], owner[order], counts, np.cumsum(counts) - counts


def _critical_lines_many(rows: NDArray[np.int64], da: Array, db: Array, parts: _Parts,
                         near: _Near, feats: _Features
                         ) -> tuple[Array, Array, NDArray[np.int64]]:
    """Stage 2 lines of the given pairs: tight against two features (docs/sight.md).

    Features of a pair: its two bases, the blocking discs and the obstacle
    vertices near it, and the points where its bases' rims cross obstacle
    outlines. Lines: tangents common to two circles, tangents from a point to
    a circle, lines through two points, and lines parallel to the centre
    line through every feature (they settle pairs whose bases overlap, where
    sight may exist in every direction). Every pair's features are kept
    contiguous so all lines of all pairs come from a few array operations.
    """
    g = len(rows)
    # Points: vertices near each pair and its rim crossings.
    vr, vi = np.nonzero(feats.vert)
    pts, owners = [parts.vert[vi]], [vr]
    for base, edges in ((da, feats.edge_a), (db, feats.edge_b)):
        rim, of = _rim_points(rows, base[rows, :2], base[rows, 2], edges,
                              near.disc[rows], parts)
        pts.append(rim)
        owners.append(np.searchsorted(rows, of))
    f, f_own, f_cnt, _ = _by_owner(np.concatenate(pts), np.concatenate(owners).astype(np.int64), g)
    # Circles: the two bases first, then the blocking discs near the pair.
    dr, di = np.nonzero(near.disc[rows])
    ar = np.arange(g)
    c, c_own, c_cnt, c_start = _by_owner(
        np.concatenate([da[rows], db[rows], parts.disc[di]]),
        np.concatenate([ar, ar, dr]).astype(np.int64), g)
    is_base = _within(c_cnt) < 2
    ps: list[Array] = []
    ds: list[Array] = []
    qs: list[NDArray[np.int64]] = []
    # Lines through two points.
    i, j = _ragged_pairs(f_cnt)
    w = f[j] - f[i]
    ln = _np_norm(w[:, 0], w[:, 1])
    ok = ln > 0
    ps.append(f[i][ok])
    ds.append(w[ok] / ln[ok, None])
    qs.append(rows[f_own[i][ok]])
    # Tangents from a point to a circle of its pair.
    per = c_cnt[f_own]
    fi = np.repeat(np.arange(len(f)), per)
    ci = np.repeat(c_start[f_own], per) + _within(per)
    tp, td, ti = _tangents(c[ci, :2], c[ci, 2], f[fi], np.zeros(len(fi)), (1.0,))
    ps.append(tp)
    ds.append(td)
    qs.append(rows[f_own[fi][ti]])
    # Common tangents of two circles (a base and a blocking disc, two discs); the
    # two bases' own are stage 1.
    i, j = _ragged_pairs(c_cnt)
    keep = ~(is_base[i] & is_base[j])
    i, j = i[keep], j[keep]
    if len(i):
        tp, td, ti = _tangents(c[i, :2], c[i, 2], c[j, :2], c[j, 2], (1.0, -1.0))
        ps.append(tp)
        ds.append(td)
        qs.append(rows[c_own[i][ti]])
    # Parallels to the centre line through every feature.
    axis = db[rows, :2] - da[rows, :2]
    alen = _np_norm(axis[:, 0], axis[:, 1])
    axis = np.where((alen > 0)[:, None], axis / np.where(alen > 0, alen, 1.0)[:, None],
                    np.array([1.0, 0.0]))
    normal = np.stack([-axis[:, 1], axis[:, 0]], axis=1)
    off = c[:, 2:3] * normal[c_own]
    ps += [f, c[:, :2] + off, c[:, :2] - off]
    ds += [axis[f_own], axis[c_own], axis[c_own]]
    qs += [rows[f_own], rows[c_own], rows[c_own]]
    return np.concatenate(ps), np.concatenate(ds), np.concatenate(qs).astype(np.int64)


# --- testing lines ----------------------------------------------------------


def _gap_segments(p: Array, d: Array, da: Array, db: Array
                  ) -> tuple[Array, Array, NDArray[np.bool_]]:
    """Parameters ``s <= e`` of each line's gap segment, and which lines meet both bases.

    ``da`` and ``db`` hold each line's two bases as ``(x, y, r)`` rows. The
    gap segment joins the near ends of the two chords; every segment from
    base to base along the line contains it, so the line gives sight exactly
    when its gap segment is free. Overlapping chords give a point.
    """
    discs = np.stack([da, db])  # (2, L, 3)
    m = discs[..., :2] - p
    along = m[..., 0] * d[:, 0] + m[..., 1] * d[:, 1]
    across = m[..., 0] * d[:, 1] - m[..., 1] * d[:, 0]
    r = discs[..., 2]
    close = np.abs(across) <= r + _TOUCH * np.maximum(1.0, r)
    meets: NDArray[np.bool_] = np.asarray(close.all(axis=0))
    h = np.sqrt(np.maximum(r * r - across * across, 0.0))
    lo: Array = along - h
    hi: Array = along + h
    (a0, b0), (a1, b1) = lo, hi
    a_first, b_first = a1 < b0, b1 < a0
    mid = (np.maximum(a0, b0) + np.minimum(a1, b1)) / 2.0
    s = np.where(a_first, a1, np.where(b_first, b1, mid))
    e = np.where(a_first, b0, np.where(b_first, a0, mid))
    return s, e, meets


@dataclass
class _Near:
    """Per pair (row): the elements that may meet the convex hull of its bases."""

    tri: NDArray[np.bool_]
    disc: NDArray[np.bool_]
    wall: NDArray[np.bool_]


@dataclass
class _Features:
    """Per open pair (row of stage 2): its vertices, and the outline pieces near each base."""

    vert: NDArray[np.bool_]
    edge_a: NDArray[np.bool_]
    edge_b: NDArray[np.bool_]


def _boxes_meet(box: Array, x0: Array, y0: Array, x1: Array, y1: Array) -> NDArray[np.bool_]:
    """(rows, elements): element boxes ``(xmin, ymin, xmax, ymax)`` meeting each row's box."""
    result: NDArray[np.bool_] = (
        (box[None, :, 0] <= x1[:, None]) & (box[None, :, 2] >= x0[:, None])
        & (box[None, :, 1] <= y1[:, None]) & (box[None, :, 3] >= y0[:, None]))
    return result


def _seg_box(seg: Array) -> Array:
    return np.concatenate([seg.min(axis=1), seg.max(axis=1)], axis=1).reshape(-1, 4)


def _near_segment(pts: Array, ca: Array, cb: Array) -> Array:
    """(rows, points): distance from each point to each row's centre segment."""
    ab = cb - ca
    ll = (ab * ab).sum(axis=1)
    ap = pts[None, :, :] - ca[:, None, :]
    t = np.clip((ap * ab[:, None, :]).sum(axis=2) / np.where(ll > 0, ll, 1.0)[:, None], 0.0, 1.0)
    off = ap - t[..., None] * ab[:, None, :]
    result: Array = _np_norm(off[..., 0], off[..., 1])
    return result


def _allowed(allowed: NDArray[np.bool_] | None, groups: NDArray[np.int64]
             ) -> NDArray[np.bool_] | bool:
    """Which (pair, element) combinations may be used; True when every pair uses all."""
    return True if allowed is None else allowed[:, groups]


def _near_masks(parts: _Parts, da: Array, db: Array, allowed: NDArray[np.bool_] | None
                ) -> _Near:
    """Which elements each pair's lines must be tested against (a superset of the hull)."""
    x0 = np.minimum(da[:, 0] - da[:, 2], db[:, 0] - db[:, 2])
    y0 = np.minimum(da[:, 1] - da[:, 2], db[:, 1] - db[:, 2])
    x1 = np.maximum(da[:, 0] + da[:, 2], db[:, 0] + db[:, 2])
    y1 = np.maximum(da[:, 1] + da[:, 2], db[:, 1] + db[:, 2])
    tri = _boxes_meet(parts.tri_box, x0, y0, x1, y1) & _allowed(allowed, parts.tri_g)
    wall = _boxes_meet(_seg_box(parts.wall), x0, y0, x1, y1) & _allowed(allowed, parts.wall_g)
    radius = np.maximum(da[:, 2], db[:, 2])
    disc = (_near_segment(parts.disc[:, :2], da[:, :2], db[:, :2])
            <= radius[:, None] + parts.disc[None, :, 2]) & _allowed(allowed, parts.disc_g)
    return _Near(np.asarray(tri), np.asarray(disc), np.asarray(wall))


def _features(parts: _Parts, da: Array, db: Array, allowed: NDArray[np.bool_] | None
              ) -> _Features:
    """Stage 2 masks of the given pairs: vertices near the hull, outline pieces near
    each base (where a rim may cross an outline)."""
    radius = np.maximum(da[:, 2], db[:, 2])
    vert = (_near_segment(parts.vert, da[:, :2], db[:, :2]) <= radius[:, None] + 1e-9)
    vert = vert & _allowed(allowed, parts.vert_g)
    ebox = _seg_box(parts.edge)
    edge_ok = _allowed(allowed, parts.edge_g)
    edge_a = _boxes_meet(ebox, da[:, 0] - da[:, 2], da[:, 1] - da[:, 2], da[:, 0] + da[:, 2],
                         da[:, 1] + da[:, 2]) & edge_ok
    edge_b = _boxes_meet(ebox, db[:, 0] - db[:, 2], db[:, 1] - db[:, 2], db[:, 0] + db[:, 2],
                         db[:, 1] + db[:, 2]) & edge_ok
    return _Features(np.asarray(vert), np.asarray(edge_a), np.asarray(edge_b))


def _hits(p: Array, d: Array, s: Array, e: Array, q: NDArray[np.int64], parts: _Parts,
          near: _Near) -> tuple[NDArray[np.bool_], NDArray[np.int64], NDArray[np.int64]]:
    """Which lines' gap segments are blocked, and (line, group) of every element hit.

    Closed tests against the eroded elements near each line's pair: a
    triangle when the gap segment meets it, a disc when it meets the disc
    shrunk by EPS, a wall when it crosses the wall properly.
    """
    blocked = np.zeros(len(p), dtype=bool)
    hit_line: list[NDArray[np.int64]] = []
    hit_group: list[NDArray[np.int64]] = []
    li, k = np.nonzero(near.tri[q])
    if len(li):
        n = parts.tri_n[k]
        nd = (n * d[li, None, :]).sum(axis=2)
        gap = parts.tri_h[k] - (n * p[li, None, :]).sum(axis=2)  # need t * nd >= gap
        with np.errstate(divide="ignore", invalid="ignore"):
            bound = gap / nd
        lo = np.maximum(np.where(nd > 0, bound, -np.inf).max(axis=1), s[li])
        hi = np.minimum(np.where(nd < 0, bound, np.inf).min(axis=1), e[li])
        hit = (lo <= hi) & ~((nd == 0) & (gap > 0)).any(axis=1)
        hit_line.append(li[hit])
        hit_group.append(parts.tri_g[k[hit]])
    li, k = np.nonzero(near.disc[q])
    if len(li):
        m = parts.disc[k, :2] - p[li]
        along = m[:, 0] * d[li, 0] + m[:, 1] * d[li, 1]
        across = m[:, 0] * d[li, 1] - m[:, 1] * d[li, 0]
        r = parts.disc[k, 2] - EPS
        h2 = r * r - across * across
        h = np.sqrt(np.maximum(h2, 0.0))
        hit = (h2 >= 0) & (along - h <= e[li]) & (along + h >= s[li])
        hit_line.append(li[hit])
        hit_group.append(parts.disc_g[k[hit]])
    li, k = np.nonzero(near.wall[q])
    if len(li):
        u = parts.wall[k, 0] - p[li]
        w = parts.wall[k, 1] - p[li]
        dl = d[li]
        su = u[:, 0] * dl[:, 1] - u[:, 1] * dl[:, 0]
        sw = w[:, 0] * dl[:, 1] - w[:, 1] * dl[:, 0]
        proper = ((su > EPS) & (sw < -EPS)) | ((su < -EPS) & (sw > EPS))
        with np.errstate(divide="ignore", invalid="ignore"):
            frac = su / (su - sw)
        tu = (u * dl).sum(axis=1)
        tw = (w * dl).sum(axis=1)
        t = tu + frac * (tw - tu)
        hit = proper & (t > s[li] + EPS) & (t < e[li] - EPS)
        hit_line.append(li[hit])
        hit_group.append(parts.wall_g[k[hit]])
    if hit_line:
        lines = np.concatenate(hit_line)
        blocked[lines] = True
        return blocked, lines, np.concatenate(hit_group)
    return blocked, np.zeros(0, np.int64), np.zeros(0, np.int64)


def _witness(p: Array, d: Array, s: float, e: float, a: Disc) -> Segment:
    """The gap segment of one line, oriented from base ``a``."""
    x0, y0 = p + s * d
    x1, y1 = p + e * d
    if math.hypot(x0 - a.x, y0 - a.y) > math.hypot(x1 - a.x, y1 - a.y):
        x0, y0, x1, y1 = x1, y1, x0, y0
    return ((float(x0), float(y0)), (float(x1), float(y1)))
