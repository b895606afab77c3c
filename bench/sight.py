"""Exact sight against a numpy 16 x 16 sampler, on three kinds of board (issue 11).

Boards: the default scenario (``scenarios/skirmish.toml``, its blocking
pieces as the rules glue prepares them, every ordered pair of its models; a
piece blocks a pair when it blocks for both, R-TER-2; huge bases as per-query
obstacles are left to the analysis figure below);
random 25-piece boards and gap-wall boards (``bench/boards.py``, all pairs
of 24 bases, several seeds). Printed per board, every figure the median of
several runs in this process, in CPU time (the exact method's and the
sampler's runs in turn, so that ratios hold while the shared machine's load
moves):

- per-pair cost of the single query (:meth:`SightIndex.sight`, one call per
  pair) and of the bulk path (:meth:`SightIndex.sight_many` over all pairs),
  each as a ratio to the sampler (``bench/sampler.py``);
- the median of single queries timed one by one;
- bulk sight plus the line of cover (:func:`geometry.cover.lines.lines_of_cover`)
  per pair, against the sampler too;
- the sampler's misses (it calls blocked, the exact method sees) and the pairs
  it sees and the exact method does not (must be 0);
- bulk queries per second;

then one model against 20 targets with sight, cover and range
(:func:`sim.shooting.analysis.analyse_many`) on the default board's terrain with 21
models, the cold start (import and first query, in a fresh process) and the
scaling rows (``bench/sight_scaling.py``). Each issue target is printed next
to its figure.

Run with ``make bench`` or ``python -m bench sight``.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import shapely

from bench.boards import Board, convex_board, gap_wall_board
from bench.sampler import Sampler
from bench.sight_scaling import clock, disjoint_pairs, interleaved, median_time, scaling_rows
from geometry.cover.lines import CoverObject, lines_of_cover
from geometry.discs import Disc
from geometry.sight.index import SightIndex
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import ModelPlacement, Scenario
from sim.scenario.positions import Position, initial_positions
from sim.shooting import analysis

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "scenarios" / "skirmish.toml"
SEEDS = (1, 2, 3, 4)
REPEAT = 5
Pair = tuple[Disc, Disc]


def best_time(fn: Callable[[], Any], repeat: int = 5) -> float:
    """Best CPU time of ``repeat`` runs (seconds). Kept for ``bench/elevation.py``,
    which imports its timing rule from here; this module reports medians."""
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


class _Case:
    """One board's pairs with the index, the sampler and the cover objects of each."""

    def __init__(self, name: str, groups: list[tuple[SightIndex, list[Pair], list[CoverObject]]],
                 touch: float) -> None:
        self.name = name
        self.groups = [(index, pairs, Sampler(index.obstacles, index.merge_gap), cover)
                       for index, pairs, cover in groups]
        self.touch = touch
        # Each cover object's box, kept with the board as the rules glue keeps it.
        self.boxes = [[_bounds(obj) for obj in cover] for _, _, cover in groups]
        self.n = sum(len(p) for _, p, _, _ in self.groups)

    def single(self) -> list[bool]:
        return [index.sight(a, b).visible for index, pairs, _, _ in self.groups
                for a, b in pairs]

    def bulk(self) -> list[bool]:
        return [s.visible for index, pairs, _, _ in self.groups for s in index.sight_many(pairs)]

    def bulk_with_cover(self) -> None:
        for (index, pairs, _, cover), boxes in zip(self.groups, self.boxes, strict=True):
            index.sight_many(pairs)
            lines_of_cover(pairs, [_on_line(a, b, cover, boxes) for a, b in pairs], self.touch)

    def sampled(self) -> list[bool]:
        return [v for _, pairs, sampler, _ in self.groups for v in sampler.sees_many(pairs)]

    def single_times(self) -> list[float]:
        out = []
        for index, pairs, _, _ in self.groups:
            for a, b in pairs:
                t0 = clock()
                index.sight(a, b)
                out.append(clock() - t0)
        return out


def _on_line(a: Disc, b: Disc, cover: Sequence[CoverObject],
             boxes: Sequence[tuple[float, float, float, float]]) -> list[CoverObject]:
    """Cover objects whose bounding box the centre line meets (what the rules glue
    offers: a box wholly beside the line, or beyond its ends, is left out)."""
    x0, x1, y0, y1 = min(a.x, b.x), max(a.x, b.x), min(a.y, b.y), max(a.y, b.y)
    nx, ny = a.y - b.y, b.x - a.x
    c = nx * a.x + ny * a.y
    out = []
    for obj, (bx0, by0, bx1, by1) in zip(cover, boxes, strict=True):
        if bx0 > x1 or bx1 < x0 or by0 > y1 or by1 < y0:
            continue
        lo = nx * (bx0 if nx >= 0 else bx1) + ny * (by0 if ny >= 0 else by1) - c
        hi = nx * (bx1 if nx >= 0 else bx0) + ny * (by1 if ny >= 0 else by0) - c
        if lo <= 0 <= hi:
            out.append(obj)
    return out


def _bounds(obj: CoverObject) -> tuple[float, float, float, float]:
    s = obj.shape
    if isinstance(s, Disc):
        return (s.x - s.r, s.y - s.r, s.x + s.r, s.y + s.r)
    x0, y0, x1, y1 = s.bounds
    return (x0, y0, x1, y1)


def _random_case(name: str, boards: Sequence[Board]) -> _Case:
    groups = []
    for board in boards:
        cover = [CoverObject(o.id, o.shape) for o in board.obstacles
                 if isinstance(o.shape, Disc) or o.shape.geom_type.endswith("Polygon")]
        groups.append((SightIndex(board.obstacles, board.merge_gap),
                       disjoint_pairs(board.bases), cover))
    return _Case(name, groups, 0.01)


def _default_case() -> tuple[_Case, Scenario]:
    scenario = load_scenario(SCENARIO)
    positions = initial_positions(scenario)
    board = analysis.prepared_board(scenario)
    ids = list(positions)
    disc = {m: Disc(positions[m].x, positions[m].y, board.radius[m]) for m in ids}
    by_key: dict[frozenset[str], list[Pair]] = {}
    for a in ids:
        for t in ids:
            if a != t:  # a piece blocks a pair when it blocks for both models (R-TER-2)
                both = board.blockers_of(a) & board.blockers_of(t)
                key = frozenset(board.pieces[i].id for i in both)
                by_key.setdefault(key, []).append((disc[a], disc[t]))
    cover = [CoverObject(p.id, p.footprint) for p in scenario.terrain]
    groups = [(board.sight_index(k), pairs, cover) for k, pairs in by_key.items()]
    name = f"default board ({SCENARIO.name}, {len(ids)} models, {len(scenario.terrain)} pieces)"
    return _Case(name, groups, scenario.rules_data.touch_tolerance), scenario


def _report(case: _Case, targets: bool) -> float:
    """Print the case's figures; returns the sampler's time per pair (seconds)."""
    exact = case.single()
    bulk = case.bulk()
    sampler = case.sampled()
    n = case.n
    # In turn, so that the ratios to the sampler hold while the machine's load moves.
    t_single, t_bulk, t_cover, t_sampler = (
        t / n for t in interleaved([case.single, case.bulk, case.bulk_with_cover,
                                    case.sampled], REPEAT))
    one = statistics.median(t for _ in range(3) for t in case.single_times())
    misses = sum(e and not s for s, e in zip(sampler, exact, strict=True))
    wrong = sum(s and not e for s, e in zip(sampler, exact, strict=True))
    disagree = sum(x != y for x, y in zip(exact, bulk, strict=True))
    goal = (lambda text: f"  (target {text})") if targets else (lambda text: "")
    print(f"{case.name}: {n} pairs, {sum(exact)} with sight")
    print(f"  sampler 16x16 (numpy):     {t_sampler * 1e6:8.1f} us/pair")
    print(f"  exact single, per pair:    {t_single * 1e6:8.1f} us/pair  "
          f"{t_single / t_sampler:6.3f}x the sampler")
    print(f"  exact single, median query:{one * 1e6:8.1f} us{goal('<= 20 us')}")
    print(f"  exact bulk (sight_many):   {t_bulk * 1e6:8.1f} us/pair  "
          f"{t_bulk / t_sampler:6.3f}x the sampler{goal('<= 0.25x')}")
    print(f"  exact bulk sight + cover:  {t_cover * 1e6:8.1f} us/pair  "
          f"{t_cover / t_sampler:6.3f}x the sampler{goal('<= 0.25x')}")
    print(f"  bulk queries per second:   {1 / t_bulk:8.0f}{goal('>= 50,000/s')}")
    print(f"  sampler misses (exact sees, sampler not): {misses}; "
          f"sampler sees, exact not: {wrong} (must be 0); single vs bulk differ: {disagree}")
    return t_sampler


def _crowded(scenario: Scenario, count: int, seed: int = 5) -> tuple[Scenario, dict[str, Position]]:
    """The scenario with models added (copies of its units) up to ``count``, each
    at a random spot clear of the terrain and of the other bases."""
    rng = np.random.default_rng(seed)
    positions = dict(initial_positions(scenario))
    board = analysis.prepared_board(scenario)
    terrain = shapely.unary_union([p.footprint for p in scenario.terrain])
    shapely.prepare(terrain)
    models = list(scenario.models)
    w, h = scenario.board
    while len(models) < count:
        like = models[len(models) % len(scenario.models)]
        r = board.radius[like.id]
        x, y = float(rng.uniform(r, w - r)), float(rng.uniform(r, h - r))
        clear = shapely.distance(shapely.Point(x, y), terrain) > r + 0.05
        apart = all(np.hypot(x - p.x, y - p.y) > r + 1.6 for p in positions.values())
        if clear and apart:
            mid = f"bench-{len(models)}"
            models.append(ModelPlacement(mid, like.unit, like.side, (x, y)))
            positions[mid] = Position(x, y)
    return replace(scenario, models=tuple(models)), positions


def _one_against_twenty(scenario: Scenario, sampler_per_pair: float | None = None) -> None:
    """``sampler_per_pair``: the default board's sampler, per pair, measured in this run;
    the fan is also given as a ratio to it, which holds when the machine's speed moves."""
    big, positions = _crowded(scenario, 21)
    ids = list(positions)
    attacker, targets = ids[0], ids[1:21]
    # Range needs a weapon: the attacker's first with a long ruler (else its first).
    arms = big.unit_of(attacker).weapons
    weapon = next((w for w in arms if big.weapons[w].long), arms[0] if arms else None)
    analysis.analyse_many(big, positions, attacker, targets, weapon)  # prepares the board
    # 201 runs (about 0.1 s): a short window is at the mercy of one busy moment.
    t = median_time(lambda: analysis.analyse_many(big, positions, attacker, targets, weapon),
                    201)
    t_all = median_time(lambda: [analysis.analyse_many(big, positions, a) for a in ids], 3)
    pairs = len(ids) * (len(ids) - 1)
    print(f"one model against 20 targets (sight, cover, range with {weapon}; {len(ids)} "
          f"models on the default terrain): {t * 1e3:.3f} ms  (target <= 0.5 ms)")
    if sampler_per_pair:
        print(f"  = {t / (20 * sampler_per_pair):.3f}x the sampler's sight alone for 20 pairs "
              f"of the default board in this run ({20 * sampler_per_pair * 1e3:.2f} ms)")
    print(f"every model against all others: {t_all / pairs * 1e6:.1f} us per shot analysed, "
          f"{pairs / t_all:.0f} shots/s")


_COLD = """
import time
t0 = time.perf_counter()
import shapely
from geometry.discs import Disc
from geometry.sight.index import Obstacle, SightIndex
t1 = time.perf_counter()
index = SightIndex([Obstacle("wall", shapely.box(4, -3, 5, 3))])
index.sight(Disc(0, 0, 0.5), Disc(10, 0, 0.5))
index.sight_many([(Disc(0, 0, 0.5), Disc(10, 0.1 * i, 0.5)) for i in range(100)])
t2 = time.perf_counter()
print(f"{(t1 - t0) * 1e3:.0f} {(t2 - t1) * 1e3:.0f}")
"""


def _cold_start() -> None:
    out = subprocess.run([sys.executable, "-c", _COLD], capture_output=True, text=True,
                         cwd=ROOT, check=False)
    if out.returncode != 0:
        print(f"cold start: failed ({out.stderr.strip().splitlines()[-1:]})")
        return
    imp, first = out.stdout.split()
    print(f"cold start (fresh process, wall time): import {imp} ms, first single + bulk "
          f"query {first} ms (compilation or cache loading)")


def run() -> None:
    case, scenario = _default_case()
    sampler = _report(case, targets=False)
    _report(_random_case(f"random 25-piece boards (seeds {SEEDS})",
                         [convex_board(s) for s in SEEDS]), targets=True)
    _report(_random_case(f"gap-wall boards (seeds {SEEDS})",
                         [gap_wall_board(s) for s in SEEDS]), targets=False)
    _one_against_twenty(scenario, sampler)
    _cold_start()
    scaling_rows()
