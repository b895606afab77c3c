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
segment, stopping at the first free one. One compiled kernel
(:mod:`geometry.sight.kernel`) does that for a single query and for a batch.

Tolerance policy: candidate lines are built from the original geometry and
tested against obstacles eroded by :data:`EPS` with closed predicates, so a
line that grazes a corner or runs along an edge gives sight, while a line
that passes along a crack between two touching pieces (merged beforehand)
or through the inside of a piece never does.

Modules: this one holds the public values and the index (the board's packed
elements, per-query obstacles stacked onto them, answers as :class:`Sight`);
:mod:`geometry.sight.parts` prepares the obstacles (merging, erosion,
triangles) and holds the tolerances; :mod:`geometry.sight.kernel` is the
compiled per-pair method.

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

from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray
from shapely.geometry.base import BaseGeometry

from geometry.discs import Disc
from geometry.sight.kernel import sight_pairs
from geometry.sight.packing import Packed, pack
from geometry.sight.parts import (
    EPS,
    Array,
    Parts,
    Point,
    Segment,
    build_parts,
    concat_all,
    shifted,
)

__all__ = ["EPS", "Array", "Obstacle", "Point", "Segment", "Sight", "SightIndex", "line_of_sight"]


# Per-query obstacles remembered per index (huge bases, edges), at most this many.
_EXTRA_CACHE = 512
# Stacks (the board's elements with some per-query obstacles) remembered per index:
# each holds a copy of the whole board.
_STACK_CACHE = 64
# Pairs per kernel call: the per-pair outputs stay small (memory and per-pair cost
# flat as batches grow).
_CHUNK = 4096


@dataclass(frozen=True)
class Obstacle:
    """Something that can block a sight line.

    ``shape`` is a Polygon/MultiPolygon (a blocking footprint), a
    LineString/MultiLineString (a zero-thickness wall: blocks only a segment
    that properly crosses it) or an exact :class:`~geometry.discs.Disc`.
    """

    id: str
    shape: BaseGeometry | Disc


class Sight(NamedTuple):
    """The answer to "does A see B?" with its reason (immutable).

    ``witness`` is a free segment from a point of A's base to a point of B's
    base when ``visible``; ``blocked_by`` names the obstacles in the way when
    not, if the query asked for names (``names=True``, the default; without
    them it is empty). A named tuple: bulk queries build one per pair, four times faster
    than a frozen dataclass.
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


@dataclass(frozen=True)
class _Stack:
    """The board's elements with some per-query obstacles, packed for the kernel."""

    obstacles: tuple[Obstacle, ...]  # held so that their ids stay theirs
    packed: Packed
    groups: list[tuple[str, ...]]
    spans: list[tuple[int, int]]  # group ids [lo, hi) of each obstacle
    masks: dict[tuple[int, ...], int] = field(default_factory=dict)  # extra groups -> row
    mask_rows: list[NDArray[np.bool_]] = field(default_factory=list)  # the newest is whole
    answers: dict[tuple[int, ...], Sight] = field(default_factory=dict)  # groups met -> answer
    cols: dict[tuple[int, ...], tuple[int, ...]] = field(default_factory=dict)  # obstacles ->


# A pair the kernel met nothing for (no group named): blocked by nothing nameable.
_BLOCKED = Sight(False, None, ())


# --- the index --------------------------------------------------------------


class SightIndex:
    """Obstacles prepared once for many sight queries (the static board).

    Parameters
    ----------
    obstacles
        The pieces that block sight for the queries this index serves.
    merge_gap
        Pieces closer than this act as one (the touch tolerance, R-UNIT-2).
    broad_phase
        File the pieces in a grid so that a pair looks only at those near its
        corridor (issue 33). Off: every pair scans every piece; the answers are the
        same (the tests compare the two).

    Examples
    --------
    >>> import shapely
    >>> index = SightIndex([Obstacle("crate", shapely.box(2, -0.2, 3, 0.2))])
    >>> str(index.sight(Disc(0, 0, 0.5), Disc(5, 0, 0.5)))[:16]
    'line of sight al'
    """

    def __init__(self, obstacles: Iterable[Obstacle] = (), merge_gap: float = 0.0,
                 broad_phase: bool = True) -> None:
        self.obstacles: tuple[Obstacle, ...] = tuple(obstacles)
        self.merge_gap = merge_gap
        self._one_cell = not broad_phase
        self._groups: list[tuple[str, ...]] = []
        self._parts = build_parts(self.obstacles, merge_gap, self._groups)
        self._static = _Stack((), pack(self._parts, len(self._groups), self._one_cell),
                              self._groups, [])
        self._extra_cache: dict[Obstacle, tuple[Parts, list[tuple[str, ...]]]] = {}
        # Stacks with the same per-query obstacle objects share their packed arrays
        # (the window asks again and again while nothing moves). Keyed by identity;
        # the entry holds the obstacles, so no id is reused while it lives.
        self._stack_cache: dict[tuple[int, ...], _Stack] = {}
        self._stack_by_value: dict[tuple[Obstacle, ...], _Stack] = {}
        # Scratch rows of a single query on the board alone (inputs and outputs).
        self._one = (np.zeros((1, 6)), np.zeros(1, dtype=bool),
                     np.zeros((1, 4)), np.zeros((1, len(self._groups)), dtype=bool),
                     np.ones((1, len(self._groups)), dtype=bool), np.zeros(1, np.int64))

    def sight(self, a: Disc, b: Disc, extra: Sequence[Obstacle] = (), *, names: bool = True
              ) -> Sight:
        """Line of sight from base ``a`` to base ``b`` (R-LOS-1).

        ``extra`` are per-query obstacles (huge bases, significant edges);
        they are not merged with the static pieces. ``names``: name the pieces in
        the way of a blocked pair (``blocked_by``); False asks for the verdict and
        the witness only, the same ones, at a fraction of the cost on a crowded
        board (issue 33), with ``blocked_by`` left empty.
        """
        if extra:
            return self.sight_many([(a, b)], [extra], names=names)[0]
        # The board alone (most queries): one row of scratch arrays, no batch set-up.
        stack = self._static
        row, visible, wit, hit, masks, mask_of = self._one
        row[0, 0], row[0, 1], row[0, 2], row[0, 3], row[0, 4], row[0, 5] = a + b
        hit[:] = False
        sight_pairs(stack.packed, masks, mask_of, row, visible, wit, hit, names)
        return self._answer(stack, bool(visible[0]), wit[0].tolist(),
                            np.flatnonzero(hit[0]).tolist())

    def sight_many(self, pairs: Sequence[tuple[Disc, Disc]],
                   extras: Sequence[Sequence[Obstacle]] | None = None,
                   rows: Array | None = None, *, names: bool = True,
                   shared: Sequence[tuple[Obstacle, ...]] | None = None) -> list[Sight]:
        """:meth:`sight` for many pairs at once (the same answers, one kernel).

        ``extras[i]`` are the per-query obstacles of pair ``i``; ``shared[i]``, when
        given, more of them after those, as a tuple many pairs pass (the same answers
        as joined to ``extras[i]``; known by identity, not looked through per pair).
        ``rows``: the pairs as rows ``ax, ay, ar, bx, by, br`` (:func:`pair_rows`), when
        the caller has them already. ``names``: as for :meth:`sight` (False: verdicts
        and witnesses only, for bulk callers that never show a blocker).
        """
        n = len(pairs)
        if n == 0:
            return []
        stack, cols = self._stack(extras if extras is not None else [()] * n, shared)
        masks, mask_of = self._masks(stack, cols)
        if rows is None:
            rows = pair_rows(pairs)
        rows = np.ascontiguousarray(rows)  # (the kernel is compiled for C order)
        if n <= _CHUNK:
            return self._run(stack, masks, mask_of, rows, names)
        out: list[Sight] = []
        for lo in range(0, n, _CHUNK):
            hi = min(n, lo + _CHUNK)
            out.extend(self._run(stack, masks, mask_of[lo:hi], rows[lo:hi], names))
        return out

    @staticmethod
    def _run(stack: _Stack, masks: NDArray[np.bool_], mask_of: NDArray[np.int64], rows: Array,
             names: bool) -> list[Sight]:
        """One kernel call for a chunk of pairs, turned into answers."""
        m = len(rows)
        visible = np.zeros(m, dtype=bool)
        wit = np.zeros((m, 4))
        # Without names the kernel leaves ``hit`` alone: no row per group to fill and scan
        # (on the 400-piece board, 330 groups, the scan cost 0.6 us a pair).
        hit = np.zeros((m, len(stack.groups) if names else 0), dtype=bool)
        sight_pairs(stack.packed, masks, mask_of, rows, visible, wit, hit, names)
        met: dict[int, list[int]] = {}
        for i, g in zip(*(ix.tolist() for ix in np.nonzero(hit)), strict=True):
            got = met.get(i)
            if got is None:
                met[i] = [g]
            else:
                got.append(g)
        new = tuple.__new__  # (a named tuple built field by field, in order: quicker)
        out = [new(Sight, (True, ((w[0], w[1]), (w[2], w[3])), ())) if seen else _BLOCKED
               for seen, w in zip(visible.tolist(), wit.tolist(), strict=True)]
        answers = stack.answers
        for i, groups in met.items():
            sight = answers.get(tuple(groups))
            out[i] = sight if sight is not None else SightIndex._answer(stack, False, [], groups)
        return out

    @staticmethod
    def _answer(stack: _Stack, seen: bool, wit: list[float], met: Sequence[int]) -> Sight:
        """The kernel's answer for one pair as a :class:`Sight` (``met``: the groups a
        blocked pair met; the same groups come back pair after pair)."""
        if seen:
            return Sight(True, ((wit[0], wit[1]), (wit[2], wit[3])))
        key = tuple(met)
        sight = stack.answers.get(key)
        if sight is None:
            groups = stack.groups
            sight = stack.answers[key] = Sight(
                False, None, tuple(sorted({pid for g in met for pid in groups[g]})))
        return sight

    def _masks(self, stack: _Stack, cols: Sequence[tuple[int, ...]]
               ) -> tuple[NDArray[np.bool_], NDArray[np.int64]]:
        """Which groups take part, as a few distinct rows, and each pair's row: the
        board's groups always, per-query groups only for their own pair."""
        rows = stack.masks
        before = len(rows)
        for mine in dict.fromkeys(cols):  # (each distinct set once; pairs share them)
            if mine not in rows:
                rows[mine] = len(rows)
        mask_of = np.fromiter(map(rows.__getitem__, cols), np.int64, len(cols))
        if before == 0 or len(rows) > before:  # new rows: rebuild (rare; kept per stack)
            masks = np.zeros((len(rows), len(stack.groups)), dtype=bool)
            masks[:, :len(self._groups)] = True
            for mine, row in rows.items():
                masks[row, list(mine)] = True
            stack.mask_rows.append(masks)
        return stack.mask_rows[-1], mask_of

    def _stack(self, per_query: Sequence[Sequence[Obstacle]],
               shared: Sequence[tuple[Obstacle, ...]] | None = None
               ) -> tuple[_Stack, list[tuple[int, ...]]]:
        """Static elements plus every pair's extra ones (``shared``: see
        :meth:`sight_many`), and each pair's extra groups."""
        # Each pair's obstacles by identity: pairs often pass the same objects in new
        # lists (one look-up each, the obstacles met once per distinct set); a shared
        # tuple by its own identity (its obstacles looked at once per distinct set).
        mine: list[Hashable]
        distinct: dict[Hashable, Sequence[Obstacle]]
        if shared is None:
            mine = [tuple(map(id, ex)) for ex in per_query]
            distinct = dict(zip(mine, per_query, strict=True))
        else:
            both = list(zip(per_query, shared, strict=True))
            mine = [(tuple(map(id, ex)), id(sh)) for ex, sh in both]
            distinct = {k: (*ex, *sh) for k, (ex, sh) in dict(zip(mine, both, strict=True)).items()}
        order: dict[int, int] = {}
        uniq: list[Obstacle] = []
        for ex in distinct.values():
            for ob in ex:
                if id(ob) not in order:
                    order[id(ob)] = len(uniq)
                    uniq.append(ob)
        if not uniq:
            return self._static, [()] * len(mine)  # (every pair's is ())
        key = tuple(order)
        stack = self._stack_cache.get(key)
        if stack is None:
            # Equal obstacles in new objects (a caller that builds them per query):
            # found by value, then remembered by identity too.
            stack = self._stack_by_value.get(tuple(uniq))
            if stack is None:
                stack = self._build_stack(tuple(uniq))
                if len(self._stack_by_value) >= _STACK_CACHE:
                    self._stack_by_value.clear()
                self._stack_by_value[stack.obstacles] = stack
            else:
                stack = _Stack(tuple(uniq), stack.packed, stack.groups, stack.spans,
                               stack.masks, stack.mask_rows, stack.answers)  # these ids too
            if len(self._stack_cache) >= _STACK_CACHE:
                self._stack_cache.clear()
            self._stack_cache[key] = stack
        spans, known = stack.spans, stack.cols
        groups_of: dict[Hashable, tuple[int, ...]] = {}
        for ids, ex in distinct.items():
            at = tuple(order[id(ob)] for ob in ex)
            got = known.get(at)
            if got is None:
                got = known[at] = tuple(g for k in at for g in range(*spans[k]))
            groups_of[ids] = got
        return stack, list(map(groups_of.__getitem__, mine))

    def _build_stack(self, uniq: tuple[Obstacle, ...]) -> _Stack:
        """Static elements plus these per-query obstacles (equal ones built once), and
        the span of group ids of each obstacle."""
        groups = list(self._groups)
        seen: dict[Obstacle, tuple[int, int]] = {}
        extra: list[Parts] = []
        spans: list[tuple[int, int]] = []
        for ob in uniq:
            span = seen.get(ob)
            if span is None:
                built, names = self._extra_parts(ob)
                extra.append(shifted(built, len(groups)))
                span = seen[ob] = (len(groups), len(groups) + len(names))
                groups.extend(names)
            spans.append(span)
        parts = concat_all([self._parts, *extra])
        return _Stack(uniq, pack(parts, len(groups), self._one_cell), groups, spans)

    def _extra_parts(self, ob: Obstacle) -> tuple[Parts, list[tuple[str, ...]]]:
        """One per-query obstacle as elements (group ids from 0), remembered by value:
        the same huge base or edge comes back query after query."""
        hit = self._extra_cache.get(ob)
        if hit is None:
            names: list[tuple[str, ...]] = []
            hit = (build_parts([ob], 0.0, names), names)
            if len(self._extra_cache) >= _EXTRA_CACHE:
                self._extra_cache.clear()
            self._extra_cache[ob] = hit
        return hit


def pair_rows(pairs: Sequence[tuple[Disc, Disc]]) -> Array:
    """Pairs of bases as rows ``ax, ay, ar, bx, by, br`` (float64): the form the
    compiled tests read. (Read as one flat stream: numpy converts it faster than tuples.)"""
    return np.fromiter(chain.from_iterable(chain.from_iterable(pairs)), np.float64,
                       6 * len(pairs)).reshape(-1, 6)


def line_of_sight(a: Disc, b: Disc, obstacles: Iterable[Obstacle], merge_gap: float = 0.0
                  ) -> Sight:
    """One-off line of sight; build a :class:`SightIndex` for many queries."""
    return SightIndex(obstacles, merge_gap).sight(a, b)
