"""Visibility and threat maps (issue 17, docs/maps.md): every cell equals the per-cell
question asked of the rules code (``analyse`` for sight, R-LOS-*, R-ELEV-*; the shot
preview for threat, R-SHOOT-1, R-RANGE-1, R-COV-*), and the base stands where the
placement rules let it (R-MOV-3, R-MOV-4, R-ELEV-1)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.errors import UsageError
from sim.maps.grid import make_grid
from sim.maps.visibility import Map, make_map
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position, initial_positions
from tests.maps_util import (
    random_scenario,
    seen_reference,
    sees_reference,
    stand_reference,
    threat_reference,
)

ROOT = Path(__file__).resolve().parent.parent
SMALL_SEEDS = [1, 2, 4, 6, 7, 9, 10, 11]


@pytest.fixture(scope="module")
def skirmish() -> Scenario:
    return load_scenario(ROOT / "scenarios" / "skirmish.toml")


def _cells(m: Map) -> list[tuple[int, int]]:
    return [(i, j) for i in range(m.grid.ny) for j in range(m.grid.nx)]


def _where(m: Map, i: int, j: int) -> tuple[float, float]:
    return m.grid.x0 + j * m.grid.cell, m.grid.y0 + i * m.grid.cell


def _check_cells(s: Scenario, model: str, m: Map, cells: list[tuple[int, int]],
                 kind: str, target: str | None = None) -> int:
    """Every listed cell against the references; returns how many could stand."""
    pos = dict(initial_positions(s))
    others = {k: v for k, v in pos.items() if k != model}
    rows = m.rows()
    stood = 0
    for i, j in cells:
        x, y = _where(m, i, j)
        z = stand_reference(s, others, model, x, y)
        assert (rows[i][j] is None) == (z is None), (i, j, x, y, rows[i][j], z)
        if z is None:
            continue
        stood += 1
        if kind == "seen":
            want: float = seen_reference(s, pos, model, m.grid, i, j, z)
        elif kind == "sees":
            assert target is not None
            want = sees_reference(s, pos, model, target, m.grid, i, j, z)
        else:
            want = threat_reference(s, pos, model, m.grid, i, j, z)
        assert rows[i][j] == pytest.approx(want, abs=1e-12), (i, j, x, y, z)
    return stood


def test_the_default_grid_is_144_by_144_cells_of_a_quarter_inch() -> None:
    g = make_grid((36.0, 36.0))
    assert (g.nx, g.ny, g.cell, g.x0, g.y0) == (144, 144, 0.25, 0.125, 0.125)
    odd = make_grid((36.1, 24.0), 0.5)  # the grid is centred: the strip left over is split
    assert (odd.nx, odd.ny) == (72, 48)
    assert odd.x0 == pytest.approx(0.3) and odd.y0 == pytest.approx(0.25)


@pytest.mark.parametrize("cell", [0.0, -1.0, float("nan"), 0.01])
def test_a_cell_size_out_of_range_is_refused(cell: float) -> None:
    with pytest.raises(UsageError, match="cell size"):
        make_grid((36.0, 36.0), cell)


@pytest.mark.parametrize("seed", SMALL_SEEDS)
def test_every_cell_of_a_seen_map_on_a_small_board_is_the_per_pair_count(
        tmp_path: Path, seed: int) -> None:
    s = random_scenario(tmp_path, seed, heights=seed % 2 == 0)
    m = make_map(s, initial_positions(s), "m0", "seen", cell=0.5)
    assert _check_cells(s, "m0", m, _cells(m), "seen") > 50


@pytest.mark.parametrize("seed", SMALL_SEEDS[:4])
def test_every_cell_of_a_sees_map_on_a_small_board_is_the_per_pair_answer(
        tmp_path: Path, seed: int) -> None:
    s = random_scenario(tmp_path, seed)
    m = make_map(s, initial_positions(s), "m1", "sees", target="m2", cell=0.5)
    assert _check_cells(s, "m1", m, _cells(m), "sees", target="m2") > 50


@pytest.mark.parametrize("model", ["mutant-1", "settler-1"])
def test_500_random_cells_of_the_default_board_are_the_per_pair_count(
        skirmish: Scenario, model: str) -> None:
    """mutant-1's enemies include the sniper on the rock shelf (elevated, R-ELEV-2);
    settler-1's include the huge behemoth (R-LOS-3), and its cells on roofs are
    elevated above them."""
    m = make_map(skirmish, initial_positions(skirmish), model, "seen")
    rng = np.random.default_rng(17)
    cells = _cells(m)
    sample = [cells[k] for k in rng.choice(len(cells), 500, replace=False)]
    rows = m.rows()
    roofs = [(i, j) for i, j in cells if rows[i][j] is not None
             and (6 < _where(m, i, j)[0] < 9 and 9 < _where(m, i, j)[1] < 13)]
    assert roofs  # building-1's roof is standable (at 6 in)
    assert _check_cells(skirmish, model, m, sample + roofs[::7], "seen") > 300
    assert len({rows[i][j] for i, j in sample} - {None}) >= 3  # not one flat value


@pytest.mark.parametrize("seed", SMALL_SEEDS[:5])
def test_threat_is_the_shot_previews_best_odds_at_sampled_cells(tmp_path: Path,
                                                                  seed: int) -> None:
    s = random_scenario(tmp_path, seed, heights=seed % 2 == 0)
    m = make_map(s, initial_positions(s), "m0", "threat", cell=0.5)
    rng = np.random.default_rng(seed)
    cells = _cells(m)
    _check_cells(s, "m0", m, [cells[k] for k in rng.choice(len(cells), 80, replace=False)],
                 "threat")


def test_threat_on_the_default_board_at_sampled_cells(skirmish: Scenario) -> None:
    m = make_map(skirmish, initial_positions(skirmish), "settler-1", "threat")
    rows = m.rows()
    rng = np.random.default_rng(3)
    open_cells = [(i, j) for i, j in _cells(m) if rows[i][j] is not None]
    sample = [open_cells[k] for k in rng.choice(len(open_cells), 60, replace=False)]
    _check_cells(skirmish, "settler-1", m, sample, "threat")
    values = {rows[i][j] for i, j in open_cells}
    assert 0.0 in values and max(v for v in values if v is not None) > 0.2


def test_where_the_base_can_stand(skirmish: Scenario) -> None:
    """Beside a wall the base would overlap it: no value; on a roof it stands on top
    (R-ELEV-1); at the board's edge it would cross the edge; the model's own place
    is free once it moves."""
    pos = initial_positions(skirmish)
    m = make_map(skirmish, pos, "settler-1", "seen")
    assert m.at(18.0, 9.875) is None  # wall-1 starts at y = 10
    assert m.at(18.0, 8.875) is not None
    assert m.at(7.375, 10.875) is not None  # building-1's roof
    assert m.at(0.125, 18.0) is None  # the board's edge
    assert m.at(pos["settler-1"].x + 0.125, pos["settler-1"].y + 0.125) is not None
    assert m.at(pos["knight"].x + 0.125, pos["knight"].y + 0.125) is None
    assert m.at(40.0, 1.0) is None  # off the grid


def test_a_sees_map_and_its_json(skirmish: Scenario) -> None:
    pos = initial_positions(skirmish)
    m = make_map(skirmish, pos, "settler-1", "sees", target="mutant-2", cell=1.0)
    out = m.to_json()
    assert list(out) == ["model", "kind", "target", "cell", "origin", "nx", "ny", "values"]
    assert (out["nx"], out["ny"], out["origin"], out["target"]) == (36, 36, [0.5, 0.5],
                                                                    "mutant-2")
    flat = [v for row in out["values"] for v in row]
    assert set(flat) == {None, 0, 1}
    # The settler's own start sees mutant-2 exactly when analyse says so.
    x, y = pos["settler-1"].x, pos["settler-1"].y
    here = {**pos, "settler-1": Position(x, y, 0.0)}
    from sim.shooting.analysis import analyse
    assert m.at(x, y) == int(analyse(skirmish, here, "settler-1", "mutant-2").line_of_sight)


@pytest.mark.parametrize(("kind", "target", "message"), [
    ("sees", None, "needs a target"),
    ("seen", "mutant-1", "only for a 'sees' map"),
    ("sees", "settler-1", "another model"),
    ("sees", "ghost", "unknown target"),
    ("heat", None, "unknown map kind"),
])
def test_bad_requests_are_refused(skirmish: Scenario, kind: str, target: str | None,
                                  message: str) -> None:
    with pytest.raises(UsageError, match=message):
        make_map(skirmish, initial_positions(skirmish), "settler-1", kind, target=target)


def test_an_unknown_model_is_refused(skirmish: Scenario) -> None:
    with pytest.raises(UsageError, match="unknown model 'ghost'"):
        make_map(skirmish, initial_positions(skirmish), "ghost", "seen")


@pytest.mark.parametrize("seed", [2, 4])
def test_cells_at_one_height_share_their_obstacles_when_nobody_is_elevated(
        tmp_path: Path, seed: int) -> None:
    """What lets a map ask the rules glue once per height (docs/maps.md): with neither
    model elevated (R-ELEV-1), the pair's blocking pieces and per-query obstacles are the
    same wherever the model stands (R-ELEV-2, R-ELEV-5, huge bases R-LOS-3)."""
    from geometry.discs import Disc
    from sim.shooting.analysis import blocking_pieces, prepared_board, sight_extras
    from sim.shooting.shot_analysis import ShotPair

    s = random_scenario(tmp_path, seed)
    board = prepared_board(s)
    pos = dict(initial_positions(s))
    rng = np.random.default_rng(seed)
    for enemy in enemies_of_m0(s):
        e = pos[enemy]
        for z in (0.0, 1.5):  # 1.5: pieces of that height no longer block (R-ELEV-5)
            seen = set()
            for x, y in rng.uniform(1, s.board[0] - 1, (60, 2)).tolist():
                pair = ShotPair(enemy, "m0", Disc(e.x, e.y, board.radius[enemy]),
                                Disc(x, y, board.radius["m0"]), e.z, z, board.side[enemy])
                key = blocking_pieces(board, pair)
                seen.add((key, tuple(sight_extras(s, pos, pair, key))))
            assert len(seen) == 1


def enemies_of_m0(s: Scenario) -> list[str]:
    return [m.id for m in s.models if m.side != s.model("m0").side]


def test_a_huge_model_looking_for_the_elevated_sniper(skirmish: Scenario) -> None:
    """The behemoth (huge, R-LOS-3) where it could stand, seeing the sniper up on the
    rock shelf (R-ELEV-1, R-ELEV-2): 300 random cells against per-pair analyse."""
    m = make_map(skirmish, initial_positions(skirmish), "behemoth", "sees", target="sniper")
    rng = np.random.default_rng(5)
    cells = _cells(m)
    sample = [cells[k] for k in rng.choice(len(cells), 300, replace=False)]
    assert _check_cells(skirmish, "behemoth", m, sample, "sees", target="sniper") > 100
    rows = m.rows()
    assert {rows[i][j] for i, j in sample} == {None, 0, 1}
