"""Visibility maps (issue 17): a 144 x 144 ``seen`` map against 6 enemies.

Two boards: the default scenario (``scenarios/skirmish.toml``; the map of
settler-1 against the six mutants, the behemoth huge, and of mutant-1 against
the six settlers, the sniper elevated on the rock shelf) and a dense board of
45 random blocking pieces (:func:`bench.boards.make_board` ``"dense"``, one
model against six). Printed per map:

- the median CPU time of :func:`sim.maps.visibility.make_map` (5 runs), beside the target
  (under 0.3 s on one core);
- the naive baseline: one :func:`sim.shooting.analysis.analyse_many` per cell, the
  model put there against its enemies, timed on a sample of standable cells
  and scaled to all of them; and the map's time as a ratio to it;
- how many sight queries the map asked (pairs given to
  ``SightIndex.sight_many``) per standable cell and enemy.

Run with ``make bench`` or ``python -m bench maps``.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from bench.boards import make_board
from geometry.sight.index import SightIndex
from sim.maps import sight as maps_sight
from sim.maps.kernel import compile_now
from sim.maps.visibility import Map, enemies_of, make_map
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position, initial_positions
from sim.shooting.analysis import analyse_many

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
TARGET = 0.3  # seconds per map (issue 17)
RUNS = 5
SAMPLE = 150  # cells timed for the naive baseline


def dense_scenario(folder: Path, seed: int = 3) -> Scenario:
    """The dense random board (45 blocking pieces) as a scenario with seven models:
    ``a0`` against ``b1``..``b6``, on bases the board keeps clear."""
    board = make_board("dense", seed)
    lines = ["format = 1", 'name = "dense 45"', 'rules = "rulebook"', "board = [36, 36]",
             'include = ["wasteland:units/wasteland.toml"]', '[sides.a]\nname = "A"',
             '[sides.b]\nname = "B"']
    for k, ob in enumerate(board.obstacles):
        shape: Any = ob.shape  # polygons on this kind of board
        coords = [[round(x, 6), round(y, 6)] for x, y in list(shape.exterior.coords)[:-1]]
        lines.append(f'[[terrain]]\nid = "piece-{k}"\npolygon = {coords}\n'
                     'movement = "impassable"\nblocks_los = true\ncover = true')
    for k, base in enumerate(board.bases[:7]):
        unit = "super_mutant" if base.r >= 0.79 else "settler"
        name = "a0" if k == 0 else f"b{k}"
        lines.append(f'[[models]]\nid = "{name}"\nunit = "{unit}"\nside = "{name[0]}"\n'
                     f"at = [{base.x!r}, {base.y!r}]")
    path = folder / "dense.toml"
    path.write_text("\n\n".join(lines) + "\n", encoding="utf-8")
    return load_scenario(path)


def _timed(fn: Any) -> tuple[float, Any]:
    t0 = time.process_time()
    out = fn()
    return time.process_time() - t0, out


def _naive(s: Scenario, positions: Mapping[str, Position], model: str, m: Map) -> float:
    """Seconds one analyse_many per standable cell would take, from a sample."""
    rows, cols = np.nonzero(m.stand)
    pick = np.random.default_rng(0).choice(len(rows), min(SAMPLE, len(rows)), replace=False)
    others = {k: v for k, v in positions.items() if k != model}
    enemies = list(enemies_of(s, others, model))
    heights = _heights(s, m)
    t0 = time.process_time()
    for k in pick.tolist():
        i, j = int(rows[k]), int(cols[k])
        here = {**others, model: Position(m.grid.x0 + j * m.grid.cell,
                                          m.grid.y0 + i * m.grid.cell, float(heights[i, j]))}
        analyse_many(s, here, model, enemies)
    return (time.process_time() - t0) / len(pick) * len(rows)


def _heights(s: Scenario, m: Map) -> Any:
    from sim.maps.grid import cell_heights

    return cell_heights(s, m.grid)


def _queries(fn: Any) -> int:
    """How many pairs ``fn`` hands to SightIndex.sight_many."""
    count = 0
    original = SightIndex.sight_many

    def counting(self: SightIndex, pairs: Any, extras: Any = None, rows: Any = None, *,
                 names: bool = True, shared: Any = None) -> Any:
        nonlocal count
        count += len(pairs)
        return original(self, pairs, extras, rows, names=names, shared=shared)

    SightIndex.sight_many = counting  # type: ignore[method-assign]
    try:
        fn()
    finally:
        SightIndex.sight_many = original  # type: ignore[method-assign]
    return count


def _setup_time(fn: Any) -> float:
    """CPU seconds ``fn`` spends splitting cells into groups (the rules glue's per-pair
    set-up, once per class of cells for elevated pairs: :func:`sim.maps.sight.cell_groups`)."""
    spent = 0.0
    original = maps_sight.cell_groups

    def timed(*args: Any) -> Any:
        nonlocal spent
        t0 = time.process_time()
        out = original(*args)
        spent += time.process_time() - t0
        return out

    maps_sight.cell_groups = timed  # type: ignore[assignment]
    try:
        fn()
    finally:
        maps_sight.cell_groups = original
    return spent


def _report(label: str, s: Scenario, model: str) -> None:
    positions = dict(initial_positions(s))
    make_map(s, positions, model, "seen", cell=1.0)  # board preparation, caches warm
    times = []
    m = None
    for _ in range(RUNS):
        dt, m = _timed(lambda: make_map(s, positions, model, "seen"))
        times.append(dt)
    assert m is not None
    med = statistics.median(times)
    naive = _naive(s, positions, model, m)
    cells = int(m.stand.sum())
    asked = _queries(lambda: make_map(s, positions, model, "seen"))
    setup = _setup_time(lambda: make_map(s, positions, model, "seen"))
    mark = "ok" if med < TARGET else "MISSED"
    print(f"{label}: {m.grid.nx} x {m.grid.ny} seen map of {model} against "
          f"{len(m.enemies)} enemies, {cells} standable cells")
    print(f"  median {med:.3f} s (target < {TARGET} s: {mark}); naive per-cell analyse_many "
          f"{naive:.2f} s (from {SAMPLE} cells); ratio {med / naive:.3f}")
    print(f"  sight queries: {asked} ({asked / max(1, cells * len(m.enemies)):.3f} per cell "
          "and enemy)")
    print(f"  of one run, {setup:.3f} s go to the pairs' obstacles (blocking_pieces and "
          "sight_extras, once per class of cells where a model is elevated)")


def run() -> None:
    compile_now()
    skirmish = load_scenario(SCENARIOS / "skirmish.toml")
    _report("default board", skirmish, "settler-1")
    _report("default board", skirmish, "mutant-1")
    with tempfile.TemporaryDirectory(prefix="bench-maps-") as tmp:
        _report("dense 45-piece board", dense_scenario(Path(tmp)), "a0")
