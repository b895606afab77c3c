"""Sight and cover on the default board: exact method against a sampled baseline (issue 3).

Every ordered pair of models on ``scenarios/skirmish.toml``. Printed:

- per-pair time of the exact sight query, single and batched
  (:meth:`geometry.sight.SightIndex.sight_many`), and of the sampled baseline
  in the same run (16 points on each base rim, 256 segments per pair, all
  pairs' segments tested in vectorised Shapely calls against the same
  prepared obstacles), and their ratio;
- pairs where the sampler sees and the exact method does not (must be 0),
  and pairs where the exact method finds a sight line the sampler missed;
- sight plus cover (:func:`sim.analysis.analyse`) per pair, one model
  against all others (the window's per-frame need), and bulk queries per
  second.

Run with ``make bench`` or ``python -m bench sight``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import shapely

from geometry.discs import Disc
from geometry.sight import Obstacle
from sim import analysis
from sim.loader import load_scenario
from sim.positions import initial_positions

SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "skirmish.toml"
RIM = 16


def _best(fn: Callable[[], Any], repeat: int = 5) -> float:
    """Best CPU time of ``repeat`` runs (seconds): least disturbed by other load."""
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def _obstacle_geometry(obstacles: list[Obstacle]) -> Any:
    shapes = []
    for ob in obstacles:
        if isinstance(ob.shape, Disc):
            shapes.append(shapely.Point(ob.shape.x, ob.shape.y).buffer(ob.shape.r, quad_segs=16))
        else:
            shapes.append(ob.shape)
    geom = shapely.unary_union(shapes) if shapes else shapely.GeometryCollection()
    shapely.prepare(geom)
    return geom


def run() -> None:
    scenario = load_scenario(SCENARIO)
    positions = initial_positions(scenario)
    ids = list(positions)
    board = analysis.prepared_board(scenario)
    # The glue's own steps, so both methods get the same pieces and obstacles.
    pairs = [analysis._make_pair(scenario, positions, a, t) for a in ids for t in ids if a != t]
    # The pieces and per-query obstacles of each pair, as the rules choose them.
    keys = [analysis.blocking_pieces(board, p) for p in pairs]
    extras = [analysis.sight_extras(scenario, positions, p) for p in pairs]
    groups: dict[frozenset[str], list[int]] = {}
    for i, k in enumerate(keys):
        groups.setdefault(k, []).append(i)

    def exact_single() -> list[bool]:
        return [board.sight_index(keys[i]).sight(p.a, p.t, extras[i]).visible
                for i, p in enumerate(pairs)]

    def exact_batched() -> list[bool]:
        out = [False] * len(pairs)
        for k, idx in groups.items():
            res = board.sight_index(k).sight_many([(pairs[i].a, pairs[i].t) for i in idx],
                                                  [extras[i] for i in idx])
            for i, r in zip(idx, res, strict=True):
                out[i] = r.visible
        return out

    # Sampled baseline: the same obstacles (pieces eroded like the exact method's).
    geoms = {}
    for i in range(len(pairs)):
        key = (keys[i], tuple(o.id for o in extras[i]))
        if key not in geoms:
            pieces = [o for o in board.sight_index(keys[i]).obstacles]
            geoms[key] = _obstacle_geometry([*pieces, *extras[i]]).buffer(-1e-7)
            shapely.prepare(geoms[key])
    pair_key = [(keys[i], tuple(o.id for o in extras[i])) for i in range(len(pairs))]
    ang = np.linspace(0.0, 2 * np.pi, RIM, endpoint=False)
    ring = np.stack([np.cos(ang), np.sin(ang)], axis=1)

    def sampled() -> list[bool]:
        out = [False] * len(pairs)
        by_key: dict[Any, list[int]] = {}
        for i, k in enumerate(pair_key):
            by_key.setdefault(k, []).append(i)
        for k, idx in by_key.items():
            segs = []
            for i in idx:
                p = pairs[i]
                pa = np.array(p.a.center) + p.a.r * ring
                pt = np.array(p.t.center) + p.t.r * ring
                segs.append(np.stack([np.repeat(pa, RIM, axis=0), np.tile(pt, (RIM, 1))], axis=1))
            lines = shapely.linestrings(np.concatenate(segs))
            free = ~shapely.intersects(lines, geoms[k]).reshape(len(idx), RIM * RIM)
            for i, f in zip(idx, free.any(axis=1), strict=True):
                out[i] = bool(f)
        return out

    exact = exact_single()
    assert exact == exact_batched()
    sampler = sampled()
    n = len(pairs)
    t_single = _best(exact_single) / n
    t_batched = _best(exact_batched) / n
    t_sampled = _best(sampled) / n
    sampler_only = sum(s and not e for s, e in zip(sampler, exact, strict=True))
    exact_only = sum(e and not s for s, e in zip(sampler, exact, strict=True))
    print(f"board: {SCENARIO.name}, {len(ids)} models, {len(scenario.terrain)} pieces, "
          f"{n} ordered pairs, {sum(exact)} with sight")
    print(f"sight, exact single:    {t_single * 1e6:8.1f} us/pair")
    print(f"sight, exact batched:   {t_batched * 1e6:8.1f} us/pair")
    print(f"sight, sampled 16x16:   {t_sampled * 1e6:8.1f} us/pair (batched, vectorised)")
    print(f"ratio exact/sampled:    {t_single / t_sampled:8.3f} single, "
          f"{t_batched / t_sampled:.3f} batched (target <= 0.5)")
    print(f"pairs the sampler sees and the exact method does not: {sampler_only} (must be 0)")
    print(f"pairs the exact method sees and the sampler misses:   {exact_only}")

    def analyse_all() -> None:
        for p in pairs:
            analysis.analyse(scenario, positions, p.attacker, p.target)

    t_analyse = _best(analyse_all, 3) / n
    many = getattr(analysis, "analyse_many", None)
    first = ids[0]
    if many is not None:
        t_one = _best(lambda: many(scenario, positions, first), 5)

        def bulk() -> None:
            for a in ids:
                many(scenario, positions, a)
    else:
        t_one = _best(lambda: [analysis.analyse(scenario, positions, first, t)
                               for t in ids if t != first], 5)
        bulk = analyse_all
    t_bulk = _best(bulk, 3)
    print(f"sight + cover (analyse):  {t_analyse * 1e6:8.1f} us/pair")
    print(f"one model against all {len(ids) - 1}: {t_one * 1e3:8.2f} ms")
    print(f"bulk: {n / t_bulk:8.0f} queries/s ({t_bulk / n * 1e6:.1f} us/query, sight + cover)")
