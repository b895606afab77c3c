"""The map's bulk split of elevated pairs (geometry/elevation/wall_classes.py, issue 17):
cells of one class get the very obstacles the rules glue gives each of them alone
(blocking pieces and stand-ins R-ELEV-5, significant-edge walls R-ELEV-2, huge bases
R-LOS-3), so asking the glue once per class is asking it per cell."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from geometry.discs import Disc
from geometry.elevation.wall_classes import wall_classes
from sim.maps.grid import cell_heights, make_grid, standable
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position, initial_positions
from sim.shooting.analysis import blocking_pieces, prepared_board, sight_extras
from sim.shooting.shot_analysis import ShotPair
from tests.maps_util import random_scenario

ROOT = Path(__file__).resolve().parent.parent


def _obstacles(s: Scenario, pos: dict[str, Position], mover: str, enemy: str, x: float,
               y: float, z: float) -> tuple[object, ...]:
    board = prepared_board(s)
    e = pos[enemy]
    pair = ShotPair(enemy, mover, Disc(e.x, e.y, board.radius[enemy]),
                    Disc(x, y, board.radius[mover]), e.z, z, board.side[enemy])
    key = blocking_pieces(board, pair)
    return key, tuple(sight_extras(s, pos, pair, key))


def _check(s: Scenario, mover: str, cell: float, limit: int) -> int:
    """Every elevated pair's cells (at most ``limit`` per class): the same obstacles as the
    first of their class; returns how many cells were compared."""
    board = prepared_board(s)
    pos = {m: p for m, p in initial_positions(s).items() if m != mover}
    grid = make_grid(s.board, cell)
    z = cell_heights(s, grid)
    stand = standable(s, pos, mover, grid, z)
    gx, gy = grid.centres()
    enemies = [m for m in pos if board.side[m] != board.side[mover]]
    compared = 0
    for h in np.unique(z[stand]).tolist():
        rows, cols = np.nonzero(stand & (z == h))
        xs, ys = gx[rows, cols], gy[rows, cols]
        others = [(Disc(pos[e].x, pos[e].y, board.radius[e]), pos[e].z) for e in enemies]
        for e, (ids, sure) in zip(enemies, wall_classes(board.elevation.edges, others, xs, ys,
                                                        board.radius[mover], h), strict=True):
            if not board.elevation.has_elevated(pos[e].z, h):
                continue
            first: dict[int, tuple[object, ...]] = {}
            count: dict[int, int] = {}
            for k in np.flatnonzero(sure).tolist():
                c = int(ids[k])
                if count.get(c, 0) >= limit:
                    continue
                count[c] = count.get(c, 0) + 1
                got = _obstacles(s, pos, mover, e, float(xs[k]), float(ys[k]), h)
                assert first.setdefault(c, got) == got, (e, h, float(xs[k]), float(ys[k]))
                compared += 1
    return compared


@pytest.mark.parametrize("mover", ["settler-1", "mutant-1"])
def test_a_class_of_the_default_board_gets_one_set_of_obstacles(mover: str) -> None:
    """settler-1 on the roofs against the mutants, mutant-1 against the sniper up on the
    rock shelf (R-ELEV-1): every class's cells, up to 40 each."""
    s = load_scenario(ROOT / "scenarios" / "skirmish.toml")
    assert _check(s, mover, 0.25, 40) > 2000


@pytest.mark.parametrize("seed", [1, 3, 5, 8])
def test_a_class_of_a_random_board_gets_one_set_of_obstacles(tmp_path: Path, seed: int) -> None:
    """Random boards with roofs at several heights (every cell of every class)."""
    s = random_scenario(tmp_path, seed)
    _check(s, "m0", 0.25, 10**6)


def test_cells_near_an_edge_get_other_walls_than_cells_far_from_it() -> None:
    """A model on a roof: a side within Orange of its base does not join (R-ELEV-2), so
    a cell near the east side is in another class than a cell in the middle."""
    import shapely

    from geometry.elevation.edges import Surface, significant_edges

    m = significant_edges([Surface("roof", shapely.box(0, 0, 10, 10), 6.0)], 2.0)
    xs, ys = np.array([3.0, 5.0, 9.0]), np.array([5.0, 5.0, 5.0])
    [(ids, sure)] = wall_classes(m, [(Disc(20.0, 5.0, 0.5), 0.0)], xs, ys, 0.5, 6.0)
    assert ids[0] == ids[1] != ids[2]
    assert sure.all()
