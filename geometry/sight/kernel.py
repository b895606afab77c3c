"""The compiled sight kernel: one pair, or a batch of pairs, against packed elements.

Every sight query, single or in bulk, runs :func:`sight_pairs` (R-LOS-1): one
kernel, so a pair gets the same answer, the same ``blocked_by`` and the same
witness whichever way it is asked. It is compiled by numba (nopython,
``cache=True``: compiled once per machine, then loaded from the cache).

Per pair (docs/sight.md):

1. **Corridor.** Only elements that may meet the convex hull of the two bases
   take part: a group's box against the hull's box first, then each triangle,
   disc and wall against the hull's oriented box (along and across the centre
   line). Nothing near: the centre line is the witness.
2. **Stage 1.** The centre line and the four common tangents of the bases.
3. **Stage 2.** The critical lines, made one at a time so the first free one
   ends the search: lines through two features, tangents from a feature to a
   circle, common tangents of a base and a disc (or two discs), parallels to
   the centre line. Features are the vertices near the centre segment and the
   points where a base's rim crosses an outline or a disc.

A line's test stops at its first blocking element. When the caller asks for names,
only groups not yet met are tested afterwards, so ``blocked_by`` names every group
some line met; otherwise a blocked line is done at its first blocker, and the lines
through vertices that every line would cut at their own corner are never made
(:mod:`geometry.sight.cones`), and a pair whose every line provably crosses a piece
lying wholly between the bases stops there (:mod:`geometry.sight.certify`: before
stage 1 in a crowded corridor, after it in a sparse one); the line where that proof
gave up is tested next, and stage 2 first tries a few lines near it: the verdict is
the same, the witness a free segment, not always the named search's (issue 33,
docs/sight.md).

The elements arrive packed (:mod:`geometry.sight.packing`); what one pair works on
is gathered in :mod:`geometry.sight.corridor`; a batch of lines is tested in
:mod:`geometry.sight.lines`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import NDArray

from geometry.jit import jit
from geometry.sight.certify import proved_blocked
from geometry.sight.cones import grown_reaches, uncut, uncut_rows
from geometry.sight.corridor import (
    axis,
    elements_near,
    features,
    groups_near,
    slot_boxes,
)
from geometry.sight.lines import first_free
from geometry.sight.packing import Array, Ints, Packed, pack
from geometry.sight.parts import Parts

# Without names, stage 2 first tries the lines through two of this many features, those
# nearest where the proof of blocking gave up (:func:`_guided_free`): on the 400-piece
# board that finds a free line for about three visible pairs in four (docs/sight.md).
GUIDED = 10
# Without names, the proof of blocking is tried before stage 1 when the broad phase
# offers at least this many groups (:func:`_one`); on the scaling boards blocked pairs
# have about 40 at 400 pieces, pairs seen along a stage 1 line about 14.
PROOF_FIRST = 20

# --- the candidate lines ------------------------------------------------------------


@jit
def _tangent(x1: float, y1: float, r1: float, x2: float, y2: float, r2: float, sgn: float,
             sg: float, lines: Array, k: int) -> int:
    """Append a common tangent of two circles (radius 0: a point) to ``lines``: ``sgn``
    +1 both on one side, -1 on opposite sides; ``sg`` the rotation. Returns the count."""
    wx, wy = x2 - x1, y2 - y1
    dist = math.sqrt(wx * wx + wy * wy)
    if not dist > 0:
        return k
    ux, uy = wx / dist, wy / dist
    cos = (r1 - sgn * r2) / dist
    if not abs(cos) <= 1.0 + 1e-12:
        return k
    c = min(max(cos, -1.0), 1.0)
    sin = math.sqrt(1.0 - c * c)
    nx, ny = ux * c - sg * uy * sin, uy * c + sg * ux * sin
    lines[k, 0], lines[k, 1], lines[k, 2], lines[k, 3] = x1 + r1 * nx, y1 + r1 * ny, -ny, nx
    return k + 1


@jit
def _stage1(a: Array, b: Array) -> tuple[Array, int]:
    """The centre line, then the outer and inner common tangents of the two bases."""
    lines = np.full((5, 6), -1.0)
    ux, uy, dist = axis(a, b)
    lines[0, 0], lines[0, 1], lines[0, 2], lines[0, 3] = a[0], a[1], ux, uy
    k = 1
    if dist > 0:
        for sgn in (1.0, -1.0):
            cos = (a[2] - sgn * b[2]) / dist
            if abs(cos) > 1.0:
                continue
            sin = math.sqrt(max(1.0 - cos * cos, 0.0))
            for sg in (1.0, -1.0):
                nx, ny = ux * cos - sg * uy * sin, uy * cos + sg * ux * sin
                lines[k, 0], lines[k, 1] = a[0] + a[2] * nx, a[1] + a[2] * ny
                lines[k, 2], lines[k, 3] = -ny, nx
                k += 1
    return lines, k


@jit
def _through_points(pts: Array, a: Array, b: Array) -> tuple[Array, int]:
    """Lines through two features, those that come within reach of both bases.

    On a crowded board most lines through two features pass beside a base
    (:func:`~geometry.sight.lines.first_free` would skip them); they are left out here
    without a square root or a division, only when they miss a base by far more than
    rounding (by 1e-9 in per inch of coordinate), so the lines kept are the same, in
    order.
    """
    n = len(pts)
    lines = np.empty((max(n * (n - 1) // 2, 1), 6))
    reach_a, reach_b, _ = grown_reaches(a, b)
    far_a, far_b = reach_a ** 2, reach_b ** 2
    k = 0
    for i in range(n):
        for j in range(i + 1, n):
            if _near_both(pts, i, j, a, b, far_a, far_b):
                k = _put_line(lines, k, pts, i, j)
    return lines, k


@jit
def _near_both(pts: Array, i: int, j: int, a: Array, b: Array, far_a: float, far_b: float
               ) -> bool:
    """Does the line through features ``i`` and ``j`` come within reach of both bases
    (``far_a``, ``far_b``: the reaches squared)? Without a square root or a division,
    the line's distance from a centre times ``|w|``, squared (:func:`_through_points`)."""
    xi, yi = pts[i, 0], pts[i, 1]
    wx, wy = pts[j, 0] - xi, pts[j, 1] - yi
    w2 = wx * wx + wy * wy
    across_a = (a[0] - xi) * wy - (a[1] - yi) * wx
    across_b = (b[0] - xi) * wy - (b[1] - yi) * wx
    return not (across_a * across_a > far_a * w2 or across_b * across_b > far_b * w2)


@jit
def _put_line(lines: Array, k: int, pts: Array, i: int, j: int) -> int:
    """The line through features ``i`` and ``j`` as row ``k`` of ``lines`` (a point, the
    unit direction, the two features); the rows filled after it."""
    xi, yi = pts[i, 0], pts[i, 1]
    wx, wy = pts[j, 0] - xi, pts[j, 1] - yi
    ln = math.sqrt(wx * wx + wy * wy)
    if not ln > 0:
        return k
    lines[k, 0], lines[k, 1], lines[k, 2], lines[k, 3] = xi, yi, wx / ln, wy / ln
    lines[k, 4], lines[k, 5] = i, j
    return k + 1


@jit
def _guided_free(pts: Array, guide: Array, a: Array, b: Array, tri: Array, disc: Array,
                 wall: Array, slots: Ints, sbox: Array, order: Ints, hint: Ints,
                 met: NDArray[np.bool_], wit: Array, state: NDArray[np.int8]) -> bool:
    """Without names, before :func:`_through_free`: the lines through two of the
    GUIDED features nearest the line of heights ``guide`` (h0 over base a's centre,
    h1 over b's, across the centre line: :func:`~geometry.sight.certify.proved_blocked`)
    that :func:`~geometry.sight.cones.uncut_features` keeps. Each is one of
    :func:`_through_points`'s lines, made from the same numbers (its features in the
    same order), so a free one is a free line of the full search: the verdict is the
    same, the witness may be another free line (a verdict-only witness is any free
    segment, docs/sight.md). True with its segment in ``wit``."""
    n = len(pts)
    ux, uy, length = axis(a, b)
    if n < 2 or not length > 0:
        return False
    reach_a, reach_b, _ = grown_reaches(a, b)
    far = np.empty(n)
    for i in range(n):
        wx, wy = pts[i, 0] - a[0], pts[i, 1] - a[1]
        t = (wx * ux + wy * uy) / length
        far[i] = abs(wy * ux - wx * uy - (guide[0] + (guide[1] - guide[0]) * t))
    # The GUIDED nearest (a pass each: cheaper than sorting them all), those kept,
    # in the features' order (the same lines as the full search's, bit for bit).
    chosen = np.empty(GUIDED, np.int64)
    m = 0
    for _ in range(min(GUIDED, n)):
        best = 0
        for i in range(1, n):
            if far[i] < far[best]:
                best = i
        far[best] = np.inf
        if uncut(pts, state, best, a, b, reach_a, reach_b):
            p = m
            for _ in range(m):  # (an insertion, in a bounded loop)
                if chosen[p - 1] < best:
                    break
                chosen[p] = chosen[p - 1]
                p -= 1
            chosen[p] = best
            m += 1
    lines = np.empty((max(m * (m - 1) // 2, 1), 6))
    far_a, far_b = reach_a ** 2, reach_b ** 2
    k = 0
    for p in range(m):
        for q in range(p + 1, m):
            if _near_both(pts, chosen[p], chosen[q], a, b, far_a, far_b):
                k = _put_line(lines, k, pts, chosen[p], chosen[q])
    return k > 0 and first_free(lines, k, pts, a, b, tri, disc, wall, slots, sbox, order,
                                hint, met, wit, False)


@jit
def _guide_free(guide: Array, a: Array, b: Array, tri: Array, disc: Array, wall: Array,
                slots: Ints, sbox: Array, order: Ints, hint: Ints, met: NDArray[np.bool_],
                wit: Array) -> bool:
    """Without names: is the line of heights ``guide`` (h0 over base a's centre, h1 over
    b's, across the centre line: where :func:`~geometry.sight.certify.proved_blocked`
    gave up) free, tested as a candidate line is? True with its segment in ``wit`` (a
    free segment: the witness without names). Not asked when the guide is the centre
    line (stage 1's)."""
    ux, uy, length = axis(a, b)
    if not length > 0 or (guide[0] == 0.0 and guide[1] == 0.0):
        return False
    x0, y0 = a[0] - guide[0] * uy, a[1] + guide[0] * ux
    wx, wy = b[0] - guide[1] * uy - x0, b[1] + guide[1] * ux - y0
    ln = math.sqrt(wx * wx + wy * wy)
    if not ln > 0:
        return False
    line = np.full((1, 6), -1.0)  # (through no feature)
    line[0, 0], line[0, 1], line[0, 2], line[0, 3] = x0, y0, wx / ln, wy / ln
    return first_free(line, 1, np.zeros((0, 9)), a, b, tri, disc, wall, slots, sbox, order,
                      hint, met, wit, False)


@jit
def _through_free(pts: Array, a: Array, b: Array, tri: Array, disc: Array, wall: Array,
                  slots: Ints, sbox: Array, order: Ints, hint: Ints, met: NDArray[np.bool_],
                  wit: Array, state: NDArray[np.int8]) -> bool:
    """Without names: the lines through two features that
    :func:`~geometry.sight.cones.uncut_features` keeps, made and tested one feature's
    lines at a time, in :func:`_through_points`'s order and from the same numbers, so
    the first free line is the same; True with its segment in ``wit``. Whether a
    feature is cut at its corner is asked only of those a line within reach of both
    bases passes through, and the lines after the first free one are never made
    (``state``: :func:`~geometry.sight.cones.uncut`, shared with :func:`_guided_free`)."""
    n = len(pts)
    lines = np.empty((max(n, 1), 6))
    reach_a, reach_b, _ = grown_reaches(a, b)
    far_a, far_b = reach_a ** 2, reach_b ** 2
    for i in range(n):
        if not uncut(pts, state, i, a, b, reach_a, reach_b):
            continue
        k = 0
        for j in range(i + 1, n):
            if (_near_both(pts, i, j, a, b, far_a, far_b)
                    and uncut(pts, state, j, a, b, reach_a, reach_b)):
                k = _put_line(lines, k, pts, i, j)
        if k > 0 and first_free(lines, k, pts, a, b, tri, disc, wall, slots, sbox, order,
                                hint, met, wit, False):
            return True
    return False


@jit
def _tangents(pts: Array, circles: Array) -> tuple[Array, int]:
    """Tangents from a feature to a circle (both rotations), then common tangents of
    two circles that are not both bases (those are stage 1)."""
    n, nc = len(pts), len(circles)
    lines = np.full((2 * n * nc + 4 * nc * nc + 1, 6), -1.0)
    k = 0
    for sg in (1.0, -1.0):
        for i in range(n):
            for c in range(nc):
                was = k
                k = _tangent(circles[c, 0], circles[c, 1], circles[c, 2], pts[i, 0],
                             pts[i, 1], 0.0, 1.0, sg, lines, k)
                if k > was:
                    lines[was, 4] = i
    for sgn in (1.0, -1.0):
        for sg in (1.0, -1.0):
            for i in range(nc):
                for j in range(max(i + 1, 2), nc):
                    k = _tangent(circles[i, 0], circles[i, 1], circles[i, 2], circles[j, 0],
                                 circles[j, 1], circles[j, 2], sgn, sg, lines, k)
    return lines, k


@jit
def _parallels(pts: Array, circles: Array, a: Array, b: Array) -> tuple[Array, int]:
    """Parallels to the centre line through every feature and along both sides of every
    circle (they settle overlapping bases, which may see in every direction)."""
    ux, uy, _ = axis(a, b)
    n, nc = len(pts), len(circles)
    lines = np.full((n + 2 * nc, 6), -1.0)
    for i in range(n):
        lines[i, 0], lines[i, 1], lines[i, 2], lines[i, 3] = pts[i, 0], pts[i, 1], ux, uy
        lines[i, 4] = i
    k = n
    for sgn in (1.0, -1.0):
        for c in range(nc):
            lines[k, 0] = circles[c, 0] + sgn * circles[c, 2] * -uy
            lines[k, 1] = circles[c, 1] + sgn * circles[c, 2] * ux
            lines[k, 2], lines[k, 3] = ux, uy
            k += 1
    return lines, k


# --- one pair, many pairs -----------------------------------------------------------


@jit
def _one(pk: Any, ok: NDArray[np.bool_], a: Array, b: Array, hit: NDArray[np.bool_],
         wit: Array, names: bool) -> bool:
    """Sight for one pair: True with the witness in ``wit``, or False with the groups
    met in ``hit`` (when ``names``)."""
    cand = groups_near(pk, ok, a, b)
    guide = np.zeros(2)  # (the centre line, unless the proof finds a better)
    # Without names, in a crowded corridor the proof of blocking comes first: a pair it
    # proves needs no elements copied and no line tested. In a sparse one stage 1 does
    # (most such pairs see along it). Either order gives the same answer.
    crowded = not names and len(cand) >= PROOF_FIRST
    if crowded and proved_blocked(pk, cand, a, b, guide):
        return False
    tri, disc, wall, slots, cand = elements_near(pk, cand, a, b)
    if len(slots) == 0:  # nothing near: the centre line is free
        ux, uy, dist = axis(a, b)
        s, e = a[2], dist - b[2]
        if e < s:  # overlapping chords: the middle of the overlap
            s = e = (max(-a[2], dist - b[2]) + min(a[2], dist + b[2])) / 2.0
        wit[0], wit[1] = a[0] + s * ux, a[1] + s * uy
        wit[2], wit[3] = a[0] + e * ux, a[1] + e * uy
        return True
    sbox = slot_boxes(tri, disc, wall, slots)
    order = np.arange(len(slots))
    hint = slots[:, 1].copy()  # per slot, the triangle to test first
    met = np.zeros(len(slots), dtype=np.bool_)
    # Without names, the line where the proof of blocking gave up: when no piece between
    # the bases crosses it, it is often free (on the 400-piece board for 61 of the 88
    # visible pairs that reach stage 2), and then no other line is made. In a crowded
    # corridor it comes before stage 1 (the proof did), else after the proof.
    if crowded and _guide_free(guide, a, b, tri, disc, wall, slots, sbox, order, hint, met,
                               wit):
        return True
    pts = np.zeros((0, 9))
    circles = np.empty((2 + len(disc), 3))
    circles[0], circles[1], circles[2:] = a, b, disc
    seen = False
    # One family of lines at a time, through one call site (compiles once, not four
    # times inlined).
    for family in range(4):
        if family == 0:
            lines, k = _stage1(a, b)
        elif family == 1:
            if not names and not crowded and proved_blocked(pk, cand, a, b, guide):
                break  # every line crosses a triangle between the bases
            if not names and not crowded and _guide_free(guide, a, b, tri, disc, wall, slots,
                                                         sbox, order, hint, met, wit):
                seen = True  # (the line where the proof gave up: above)
                break
            slot_of = np.full(len(pk.gbox), -1, np.int64)
            for q in range(len(slots)):
                slot_of[slots[q, 0]] = q
            pts = features(pk, cand, a, b, disc, slot_of)
            if not names:
                # Lines through the features left out would be blocked at their own
                # corner. First a few lines near where the proof gave up, then the
                # lines below in their order, made lazily.
                state = np.zeros(len(pts), np.int8)
                seen = (_guided_free(pts, guide, a, b, tri, disc, wall, slots, sbox, order,
                                     hint, met, wit, state)
                        or _through_free(pts, a, b, tri, disc, wall, slots, sbox, order, hint,
                                         met, wit, state))
                if seen:
                    break
                pts = uncut_rows(pts, state, a, b)
                continue
            lines, k = _through_points(pts, a, b)
        elif family == 2:
            lines, k = _tangents(pts, circles)
        else:
            lines, k = _parallels(pts, circles, a, b)
        seen = first_free(lines, k, pts, a, b, tri, disc, wall, slots, sbox, order, hint,
                          met, wit, names)
        if seen:
            break
    if not seen and names:
        for q in range(len(slots)):
            if met[q]:
                hit[slots[q, 0]] = True
    return seen


def sight_pairs(pk: Packed, masks: NDArray[np.bool_], mask_of: Ints, rows: Array,
                visible: NDArray[np.bool_], wit: Array, hit: NDArray[np.bool_],
                names: bool) -> None:
    """Sight for pairs of bases ``rows[i]`` (``ax, ay, ar, bx, by, br``) with the groups
    ``masks[mask_of[i]]`` taking part; fills ``visible``, ``wit`` (rows x0, y0, x1,
    y1, from base a) and, when ``names``, ``hit`` (groups met, for pairs without
    sight; left alone otherwise: the search then stops at the verdict)."""
    # The arrays go in one by one: numba checks a flat argument list faster than a
    # named tuple, and a single query pays that check.
    _sight_pairs(*pk, masks, mask_of, rows, visible, wit, hit, names)


@jit
def _sight_pairs(gbox: Array, tri_at: Ints, tri_n: Array, tri_h: Array, tri_box: Array,
                 tri_p: Array, vert_at: Ints, vert: Array, vert_cone: Array, edge_at: Ints,
                 edge: Array,
                 disc_at: Ints, disc: Array, wall_at: Ints, wall: Array, grid: Array,
                 cell_at: Ints, cell_g: Ints, piece_at: Ints, corner_at: Ints, corner: Array,
                 piece_box: Array, masks: NDArray[np.bool_], mask_of: Ints, rows: Array,
                 visible: NDArray[np.bool_], wit: Array, hit: NDArray[np.bool_],
                 names: bool) -> None:
    pk = Packed(gbox, tri_at, tri_n, tri_h, tri_box, tri_p, vert_at, vert, vert_cone, edge_at,
                edge, disc_at, disc, wall_at, wall, grid, cell_at, cell_g, piece_at, corner_at,
                corner, piece_box)
    for i in range(len(rows)):
        visible[i] = _one(pk, masks[mask_of[i]], rows[i, :3], rows[i, 3:], hit[i], wit[i],
                          names)


def compile_now() -> float:
    """Compile (or load from numba's cache) every path of the kernel; seconds taken."""
    import time

    start = time.perf_counter()
    wall = np.array([[4.0, -3.0], [5.0, -3.0], [5.0, 3.0], [4.0, 3.0]])
    tri = np.stack([wall[[0, 1, 2]], wall[[0, 2, 3]]])
    parts = Parts(tri=tri, tri_g=np.zeros(2, np.int64), vert=wall,
                   vert_g=np.zeros(4, np.int64), vert_cone=np.zeros((4, 6)),
                   edge=np.stack([wall, np.roll(wall, -1, 0)], 1),
                   edge_g=np.zeros(4, np.int64), disc=np.array([[7.0, 0.0, 0.5]]),
                   disc_g=np.ones(1, np.int64), wall=np.array([[[6.0, -1.0], [6.0, 1.0]]]),
                   wall_g=np.full(1, 2, np.int64))
    e = np.roll(tri, -1, axis=1) - tri
    n = np.stack([-e[..., 1], e[..., 0]], axis=-1)
    parts.tri_n = n / np.linalg.norm(n, axis=-1, keepdims=True)
    parts.tri_h = np.einsum("kij,kij->ki", parts.tri_n, tri)
    rows = np.array([[0.0, 0.0, 0.5, 10.0, 0.0, 0.5]])
    sight_pairs(pack(parts, 3), np.ones((1, 3), bool), np.zeros(1, np.int64), rows,
                np.zeros(1, bool), np.zeros((1, 4)), np.zeros((1, 3), bool), True)
    return time.perf_counter() - start


ENTRY = _sight_pairs  # the compiled entry point (geometry.compiled checks its cache)
