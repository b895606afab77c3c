"""Timing helpers and the scaling rows of the sight benchmark (issues 11 and 33).

:func:`scaling_rows` is called by ``bench/sight.py``; :func:`run` (``python -m
bench sight_scaling``, and its own section of ``make bench``) prints issue 33's
crowded-board rows. Every figure is a median of several runs in this process,
never a best-of, in CPU time (:data:`clock`).

Rows, all on random boards of ``bench/boards.py``, bulk path
(:meth:`SightIndex.sight_many` over every pair of disjoint bases):

- :func:`run`: 25, 100 and 400 pieces (6 vertices each): verdicts and
  witnesses only (``names=False``, what bulk callers ask), with blockers named,
  and named without the broad phase (every pair scanning every piece), all nine
  interleaved (runs of at least 30 ms, garbage collection off, as timeit), and
  the ratio of 400 pieces to 25 per pair (issue 33's target: at most 3x);
- 4, 16 and 64 vertices per piece (25 pieces; convex k-gons, then stars);
- 10, 50 and 200 models, all pairs;
- 100, 1,000 and 10,000 pairs of one board, the three batch sizes timed in
  turn: per-pair cost should stay flat (issue 11: within 1.5x).

Each row prints the per-pair cost and the growth exponent against the row
before (cost ~ x^e), and the numpy sampler's per-pair cost where it is cheap
to run.
"""

from __future__ import annotations

import gc
import itertools
import math
import os
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

from bench.boards import Board, scaling_board
from bench.sampler import Sampler
from geometry.discs import Disc
from geometry.sight.index import SightIndex

Pair = tuple[Disc, Disc]


# CPU time of this process: on the shared 2-core machine wall time also counts the
# waits for a core, which moved figures by 2x between runs (numba runs no threads).
clock = time.process_time

# Short runs repeat until they fill this long (seconds), at most _MAX_RUNS times: on a
# shared machine a median of three 3 ms runs still moves by 2x.
MIN_TOTAL = 0.4
_MAX_RUNS = 41


def median_time(fn: Callable[[], object], repeat: int, min_total: float = MIN_TOTAL) -> float:
    """Median wall time of at least ``repeat`` runs of ``fn`` (seconds), more runs
    while they add up to less than ``min_total``."""
    times: list[float] = []
    while len(times) < repeat or (sum(times) < min_total and len(times) < _MAX_RUNS):
        t0 = clock()
        fn()
        times.append(clock() - t0)
    return statistics.median(times)


def interleaved(fns: Sequence[Callable[[], object]], runs: int) -> list[float]:
    """Median wall time of each of ``fns`` (seconds), run in turn ``runs`` times: a
    change in the machine's load then moves every figure alike, and the ratios
    between them hold better than with one block of runs after another."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(runs):
        for fn, out in zip(fns, times, strict=True):
            t0 = clock()
            fn()
            out.append(clock() - t0)
    return [statistics.median(t) for t in times]


def disjoint_pairs(bases: Sequence[Disc], limit: int | None = None) -> list[Pair]:
    """Every pair of bases that do not overlap (at most ``limit``)."""
    out = [(a, b) for a, b in itertools.combinations(bases, 2)
           if math.hypot(a.x - b.x, a.y - b.y) > a.r + b.r]
    return out[:limit] if limit is not None else out


def bulk_per_pair(index: SightIndex, pairs: Sequence[Pair], repeat: int = 3) -> float:
    """Per-pair cost of one :meth:`SightIndex.sight_many` over all ``pairs``."""
    return median_time(lambda: index.sight_many(pairs), repeat) / len(pairs)


def sampler_per_pair(sampler: Sampler, pairs: Sequence[Pair], repeat: int = 3) -> float:
    return median_time(lambda: sampler.sees_many(pairs), repeat) / len(pairs)


def _us(seconds: float) -> str:
    return f"{seconds * 1e6:8.1f} us"


def _exponent(x0: float, t0: float, x1: float, t1: float) -> str:
    return f"~x^{math.log(t1 / t0) / math.log(x1 / x0):.2f}"


def _row(label: str, board: Board, pairs: Sequence[Pair], sampled: bool,
         before: tuple[float, float] | None, x: float, repeat: int = 3
         ) -> tuple[float, float]:
    index = SightIndex(board.obstacles, board.merge_gap)
    index.sight_many(pairs[:64])  # warm: first-call compilation is not a per-pair cost
    cost = bulk_per_pair(index, pairs, repeat)
    line = f"  {label:<34} {len(pairs):6d} pairs  bulk {_us(cost)}/pair"
    if sampled:
        s = sampler_per_pair(Sampler(board.obstacles, board.merge_gap), pairs, 1)
        line += f"  sampler {_us(s)}  ratio {cost / s:6.3f}"
    if before is not None:
        line += f"  growth {_exponent(before[0], before[1], x, cost)}"
    print(line)
    return (x, cost)


def run() -> None:
    """Per pair at 25, 100 and 400 pieces (issue 33): verdicts and witnesses only (the
    bulk callers' query, ``names=False``), with blockers named, and named without the
    broad phase; the 400/25 ratio of the first, the bar."""
    print(f"crowded boards, bulk sight per pair, CPU time, medians of {RUNS} runs of at least "
          f"{RUN_SECONDS * 1000:.0f} ms, every board's in turn, garbage collection off "
          f"(load average {os.getloadavg()[0]:.1f}):")
    sizes = (25, 100, 400)
    rows: list[tuple[int, int, int]] = []  # pieces, pairs, visible
    runs: list[Callable[[], object]] = []
    for n in sizes:
        board = scaling_board(11, n, 6)
        pairs = disjoint_pairs(board.bases)
        grid, scan = (SightIndex(board.obstacles, board.merge_gap, broad_phase=on)
                      for on in (True, False))
        for index in (grid, scan):
            index.sight_many(pairs[:64])  # warm
        runs += [partial(grid.sight_many, pairs, names=False), partial(grid.sight_many, pairs),
                 partial(scan.sight_many, pairs)]
        seen = sum(s.visible for s in grid.sight_many(pairs, names=False))
        rows.append((n, len(pairs), seen))
    # Each timed run repeats its batch to fill RUN_SECONDS (one batch of the small
    # boards takes about a millisecond), and every board's runs are interleaved with
    # every other's: the 400/25 ratio compares runs taken in turn (boards timed one
    # after the other moved it from 2.2x to 4.4x within minutes on the shared machine).
    # Garbage collection off while timed, as timeit has it: a collection's cost is the
    # whole process's heap, not the kernel's, and it blurred the small board's figure.
    gc.collect()
    gc.disable()
    try:
        times = [_repeats(fn) for fn in runs]
        medians = interleaved([_repeated(fn, k) for fn, k in zip(runs, times, strict=True)],
                              RUNS)
    finally:
        gc.enable()
    fast: dict[int, float] = {}
    named: dict[int, float] = {}
    for j, (n, count, seen) in enumerate(rows):
        fast[n], named[n], off = (medians[3 * j + i] / (times[3 * j + i] * count)
                                  for i in range(3))
        print(f"  {n:4d} pieces x 6 vertices {count:5d} pairs ({seen} visible)  "
              f"verdicts {_us(fast[n])}  named {_us(named[n])}  named, full scan "
              f"{_us(off)}")
    print(f"  per pair at 400 pieces: {fast[400] / fast[25]:.1f}x that at 25 (verdicts; "
          f"named {named[400] / named[25]:.1f}x), at 100: {fast[100] / fast[25]:.1f}x "
          f"(issue 33's target: at most 3x)")


#: The crowded rows' interleaved runs, and how long each lasts at least (seconds).
RUNS = 9
RUN_SECONDS = 0.03


def _repeats(fn: Callable[[], object]) -> int:
    """How many calls of ``fn`` fill :data:`RUN_SECONDS` (from the median of three)."""
    once = median_time(fn, 3, 0.0)
    return max(1, math.ceil(RUN_SECONDS / max(once, 1e-6)))


def _repeated(fn: Callable[[], object], times: int) -> Callable[[], object]:
    return lambda: [fn() for _ in range(times)]


def scaling_rows() -> None:
    """Print the scaling rows (see the module docstring)."""
    print("scaling, bulk sight per pair (medians of 3 or more runs):")
    before = None
    for star in (False, True):
        before = None
        for k in (4, 16, 64):
            board = scaling_board(12, 25, k, star=star)
            shape = "star" if star else "convex"
            before = _row(f"25 pieces x {k} vertices ({shape})", board,
                          disjoint_pairs(board.bases), True, before, k)
    board = scaling_board(13, 25, 6, bases=400, overlap=True)
    models = list(board.bases)
    before = None
    for m in (10, 50, 200):
        chosen = _spread(models, m)
        pairs = disjoint_pairs(chosen)
        before = _row(f"{m} models, all pairs", board, pairs, False, before, m)
    # Flatness: nested uniform samples of the same board's pairs, so only the batch
    # size changes; the three batches interleaved (each run of the 100 pairs is
    # itself 20 batches, so that it is not too short to time).
    pairs = disjoint_pairs(models)
    order = np.random.default_rng(14).permutation(len(pairs))
    sample = [pairs[i] for i in order[:10000]]
    index = SightIndex(board.obstacles, board.merge_gap)
    index.sight_many(sample[:64])
    sizes = ((100, 20), (1000, 2), (10000, 1))  # (pairs per batch, batches per run)

    def batches(count: int, times: int) -> Callable[[], object]:
        return lambda: [index.sight_many(sample[:count]) for _ in range(times)]

    medians = interleaved([batches(c, k) for c, k in sizes], 9)
    costs = [t / (c * k) for t, (c, k) in zip(medians, sizes, strict=True)]
    for (count, _), cost in zip(sizes, costs, strict=True):
        print(f"  {f'{count} pairs (one sample)':<34} {count:6d} pairs  bulk {_us(cost)}/pair")
    print(f"  per-pair cost from 100 to 10,000 pairs: {max(costs) / min(costs):.2f}x "
          f"(target within 1.5x)")


def _spread(bases: Sequence[Disc], m: int) -> list[Disc]:
    """``m`` of the bases, no two overlapping where possible (the first found)."""
    chosen: list[Disc] = []
    for b in bases:
        if all(math.hypot(b.x - c.x, b.y - c.y) > b.r + c.r for c in chosen):
            chosen.append(b)
    for b in bases:  # more models than fit apart: let the rest overlap
        if len(chosen) >= m:
            break
        if b not in chosen:
            chosen.append(b)
    return chosen[:m]
