"""Visibility and threat maps for one model (issue 17, docs/maps.md).

Over a grid of cells (default 0.25 in, :mod:`sim.maps.grid`), at each cell
centre where the model's base could stand and at the height it would stand
there:

- ``seen``: how many enemy models on the table have line of sight to it
  (R-LOS-1..4, R-ELEV-2, R-ELEV-5), each pair as :func:`sim.shooting.analysis.analyse`
  answers it with the enemy shooting;
- ``threat``: the best hit chance any enemy has against it there: the maximum,
  over the enemies, their shooting weapons and the range bands the base lies
  in, of the exact chance of success the shot preview gives
  (:func:`sim.combat.plan.plan_shot`, :func:`sim.resolution.odds.attack_odds`; cover, range,
  R-SHOOT-1, R-RANGE-1, R-COV-*), 0 where none can shoot it;
- ``sees``: 1 where it would see the chosen model (it shooting that model), else 0.

A cell where the base cannot stand has no value (None). Sight is settled
cell by cell exactly but only queried where the map needs it
(:mod:`sim.maps.sight`). Enemies are the models on the table of another side
(as the engine's shooting rules count them); climbing models (R-CLIMB-3) count
at their marker.

Examples
--------
>>> from pathlib import Path
>>> from sim.scenario.format.loader import load_scenario
>>> from sim.scenario.positions import initial_positions
>>> s = load_scenario(Path(__file__).parents[2] / "scenarios" / "seed-cover-1.toml")
>>> m = make_map(s, initial_positions(s), "mutant", "sees", target="knight", cell=1.0)
>>> m.kind, m.grid.cell, m.to_json()["nx"] == m.grid.nx
('sees', 1.0, True)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, get_args

import numpy as np

from sim.combat.plan import MELEE_SKILL, AttackRefused, Situation, plan_shot
from sim.errors import UsageError
from sim.maps.grid import (
    DEFAULT_CELL,
    BoolGrid,
    FloatGrid,
    Grid,
    cell_heights,
    make_grid,
    standable,
)
from sim.maps.sight import sight_grid, sight_grids
from sim.resolution.attack import AttackProfile
from sim.resolution.odds import attack_odds
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position
from sim.shooting.analysis import prepared_board

Kind = Literal["seen", "threat", "sees"]
KINDS: tuple[str, ...] = get_args(Kind)


@dataclass(frozen=True)
class Map:
    """One map: ``values[row][col]`` at the cell centred at
    ``(grid.x0 + col * grid.cell, grid.y0 + row * grid.cell)``, NaN where the
    base cannot stand (None in :meth:`to_json` and :meth:`rows`)."""

    model: str
    kind: Kind
    target: str | None
    grid: Grid
    values: FloatGrid  # (ny, nx)
    enemies: tuple[str, ...]  # the models the map counts (``sees``: the target)

    @property
    def stand(self) -> BoolGrid:
        """Where the base can stand."""
        return np.asarray(~np.isnan(self.values))

    def rows(self) -> list[list[float | int | None]]:
        """The values as lists: counts and 0/1 as ints, chances as floats, None."""
        as_int = self.kind != "threat"
        out: list[list[float | int | None]] = []
        for row in self.values.tolist():
            out.append([None if v != v else (int(v) if as_int else float(v)) for v in row])
        return out

    def at(self, x: float, y: float) -> float | int | None:
        """The value of the cell holding the point ``(x, y)`` (None off the grid)."""
        g = self.grid
        col, row = round((x - g.x0) / g.cell), round((y - g.y0) / g.cell)
        if not (0 <= row < g.ny and 0 <= col < g.nx):
            return None
        v = float(self.values[row, col])
        return None if v != v else (v if self.kind == "threat" else int(v))

    def to_json(self) -> dict[str, Any]:
        """The ``wasteland map --json`` object after its ``format`` and ``scenario``."""
        g = self.grid
        return {"model": self.model, "kind": self.kind, "target": self.target,
                "cell": g.cell, "origin": [g.x0, g.y0], "nx": g.nx, "ny": g.ny,
                "values": self.rows()}


def enemies_of(scenario: Scenario, positions: Mapping[str, Position], model: str
               ) -> tuple[str, ...]:
    """The models on the table of another side than ``model``, in table order."""
    side = prepared_board(scenario).side
    return tuple(m for m in positions if m != model and side[m] != side[model])


def make_map(scenario: Scenario, positions: Mapping[str, Position], model: str, kind: str,
             target: str | None = None, cell: float = DEFAULT_CELL,
             climbing: Collection[str] = ()) -> Map:
    """The ``kind`` map of ``model`` (``target``: the model a ``sees`` map is about).

    The other models stand where ``positions`` puts them; ``model`` need not be
    on the table. Raises :class:`~sim.errors.UsageError` for an unknown kind or
    id, a ``sees`` map without a target (or another kind with one), or a cell
    size out of range.
    """
    _check(scenario, positions, model, kind, target)
    grid = make_grid(scenario.board, cell)
    off = frozenset(climbing) - {model}
    pos = {m: p for m, p in positions.items() if m != model}
    z = cell_heights(scenario, grid)
    stand = standable(scenario, pos, model, grid, z, off)
    if kind == "sees":
        assert target is not None  # _check
        seen = sight_grid(scenario, pos, model, target, grid, z, stand, True, off)
        return _done(model, "sees", target, grid, stand, seen.astype(np.float64), (target,))
    enemies = enemies_of(scenario, pos, model)
    if kind == "seen":
        count = np.zeros(stand.shape)
        for seen in sight_grids(scenario, pos, model, enemies, grid, z, [stand] * len(enemies),
                                False, off):
            count += seen
        return _done(model, "seen", None, grid, stand, count, enemies)
    values = threat_values(scenario, pos, model, enemies, grid, z, stand, off)
    return _done(model, "threat", None, grid, stand, values, enemies)


def _done(model: str, kind: Kind, target: str | None, grid: Grid, stand: BoolGrid,
          values: FloatGrid, enemies: tuple[str, ...]) -> Map:
    return Map(model, kind, target, grid, np.where(stand, values, np.nan), enemies)


def _check(scenario: Scenario, positions: Mapping[str, Position], model: str, kind: str,
           target: str | None) -> None:
    known = scenario.model_ids
    if kind not in KINDS:
        raise UsageError(f"unknown map kind {kind!r}; expected one of: {', '.join(KINDS)}")
    if model not in known:
        raise UsageError(f"unknown model {model!r}; known models: {', '.join(known)}")
    if kind != "sees":
        if target is not None:
            raise UsageError(f"a target is only for a 'sees' map, not {kind!r}")
        return
    if target is None:
        raise UsageError("a 'sees' map needs a target model")
    if target not in known:
        raise UsageError(f"unknown target {target!r}; known models: {', '.join(known)}")
    if target == model:
        raise UsageError(f"a 'sees' map needs another model than {model!r} as its target")
    if target not in positions:
        raise UsageError(f"target {target!r} is not on the table")


# --- threat -------------------------------------------------------------------------


def ranged_weapons(scenario: Scenario, model: str) -> tuple[str, ...]:
    """The weapons a model shoots with (not close-combat ones, R-SHOOT-1)."""
    unit = scenario.unit_of(model)
    return tuple(w for w in unit.weapons if scenario.weapons[w].skill != MELEE_SKILL)


def _reach(scenario: Scenario, weapons: tuple[str, ...]) -> float:
    rules = scenario.rules_data
    out = 0.0
    for w in weapons:
        weapon = scenario.weapons[w]
        out = max(out, rules.ruler(weapon.short) + (rules.ruler(weapon.long) if weapon.long
                                                    else 0.0))
    return out


def threat_values(scenario: Scenario, positions: Mapping[str, Position], model: str,
                  enemies: tuple[str, ...], grid: Grid, z: FloatGrid, stand: BoolGrid,
                  off_table: frozenset[str] = frozenset()) -> FloatGrid:
    """The best hit chance against ``model`` at each cell (0 where none can shoot).

    Only cells within an enemy's longest reach (a superset: the shot planner
    decides) that the enemy sees are planned, with :func:`sim.combat.plan.plan_shot`
    and :func:`sim.resolution.odds.attack_odds`, every band the base lies in.
    """
    board = prepared_board(scenario)
    gx, gy = grid.centres()
    r = board.radius[model]
    armed = [(e, ws) for e in enemies if (ws := ranged_weapons(scenario, e))]
    near = []
    for e, weapons in armed:
        p = positions[e]
        reach = _reach(scenario, weapons) + r + board.radius[e] + 1e-6
        near.append(stand & ((gx - p.x) ** 2 + (gy - p.y) ** 2 <= reach * reach))
    sights = sight_grids(scenario, positions, model, [e for e, _ in armed], grid, z, near,
                         False, off_table)
    shooters = [(e, ws, seen) for (e, ws), seen in zip(armed, sights, strict=True)]
    out = np.zeros(stand.shape)
    sides = {m: board.side[m] for m in (*positions, model)}
    odds: dict[AttackProfile, Fraction] = {}
    for i, j in zip(*np.nonzero(stand), strict=True):
        who = [(e, ws) for e, ws, seen in shooters if seen[i, j]]
        if not who:
            continue
        here = {**positions, model: Position(float(gx[i, j]), float(gy[i, j]), float(z[i, j]))}
        sit = Situation(scenario, here, sides, frozenset(off_table))
        out[i, j] = float(max((best_hit(sit, e, model, w, odds) for e, ws in who for w in ws),
                              default=Fraction(0)))
    return out


def best_hit(sit: Situation, attacker: str, target: str, weapon: str,
             cache: dict[AttackProfile, Fraction] | None = None) -> Fraction:
    """The best chance of success of a shot with ``weapon`` over the bands the target
    lies in, as the shot preview gives it; 0 when the shot is not legal."""
    best = Fraction(0)
    for band in ("short", "long"):
        try:
            plan = plan_shot(sit, attacker, target, weapon, band)
        except AttackRefused:
            continue
        p = None if cache is None else cache.get(plan.profile)
        if p is None:
            p = attack_odds(plan.profile, sit.scenario.rules_data).p_success
            if cache is not None:
                cache[plan.profile] = p
        best = max(best, p)
    return best


def summary(m: Map) -> list[str]:
    """What a map shows, in words (``wasteland map`` and the PNG's details panel)."""
    g = m.grid
    v = m.values[~np.isnan(m.values)]
    what = {"seen": "enemies with sight", "threat": "best enemy hit chance",
            "sees": f"sight to {m.target}"}[m.kind]
    lines = [f"{m.kind} map of {m.model}: {what}",
             f"{g.nx} x {g.ny} cells of {g.cell:g} in; the base can stand on {len(v)}"]
    if len(v) == 0:
        return lines
    if m.kind == "seen":
        counts = np.bincount(v.astype(int), minlength=len(m.enemies) + 1)
        lines.append("cells seen by " + ", ".join(f"{k}: {c}" for k, c in enumerate(counts)))
    elif m.kind == "threat":
        lines.append(f"no shot possible on {int((v == 0).sum())} cells; highest hit chance "
                     f"{100 * float(v.max()):.1f}%")
    else:
        lines.append(f"sees {m.target} from {int((v > 0).sum())} cells")
    return lines
