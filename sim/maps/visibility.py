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
from typing import Any

import numpy as np

from sim.errors import UsageError
from sim.maps.grid import (
    BoolGrid,
    FloatGrid,
    Grid,
    cell_heights,
    make_grid,
    standable,
)
from sim.maps.options import DEFAULT_CELL, KINDS, Kind
from sim.maps.sight import sight_grid, sight_grids
from sim.maps.threat import ThreatWork, best_hit, ranged_weapons, threat_grids, threat_values
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position
from sim.shooting.analysis import prepared_board

__all__ = ["KINDS", "Kind", "Map", "MapWork", "best_hit", "enemies_of", "make_map",
           "ranged_weapons", "summary", "threat_grids", "threat_values"]



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
    # Per model of ``enemies``, its part of each value: 1/0 whether it sees the cell
    # (``seen``; ``sees``: whether the cell sees it), its best hit chance (``threat``).
    by: tuple[FloatGrid, ...] = ()

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

    def who(self, x: float, y: float) -> list[tuple[str, float]]:
        """The models of :attr:`enemies` with a part in the value of the cell holding
        ``(x, y)`` (one that sees it, or could shoot it: its chance), in table order;
        empty off the grid or where the base cannot stand."""
        g = self.grid
        col, row = round((x - g.x0) / g.cell), round((y - g.y0) / g.cell)
        if not (0 <= row < g.ny and 0 <= col < g.nx) or self.values[row, col] != self.values[
                row, col]:
            return []
        return [(e, float(v[row, col])) for e, v in zip(self.enemies, self.by, strict=True)
                if v[row, col] > 0]

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
    return MapWork(scenario, positions, model, kind, target, cell, climbing).finish()


class MapWork:
    """:func:`make_map` worked out a bit at a time (the window's: a threat map plans a
    shot per cell and takes seconds). ``seen`` and ``sees`` maps are made at once;
    a threat map's sight first, then its cells in :meth:`step` calls. The map is the
    same however the work is split."""

    def __init__(self, scenario: Scenario, positions: Mapping[str, Position], model: str,
                 kind: str, target: str | None = None, cell: float = DEFAULT_CELL,
                 climbing: Collection[str] = ()) -> None:
        check_request(scenario, positions, model, kind, target)
        grid = make_grid(scenario.board, cell)
        off = frozenset(climbing) - {model}
        pos = {m: p for m, p in positions.items() if m != model}
        z = cell_heights(scenario, grid)
        stand = standable(scenario, pos, model, grid, z, off)
        self._parts: tuple[Kind, str | None, Grid, BoolGrid, tuple[str, ...]]
        self.result: Map | None = None
        self._threat: ThreatWork | None = None
        if kind == "sees":
            assert target is not None  # check_request
            seen = sight_grid(scenario, pos, model, target, grid, z, stand, True, off)
            self.result = _done(model, "sees", target, grid, stand, [seen.astype(np.float64)],
                                (target,))
            return
        enemies = enemies_of(scenario, pos, model)
        if kind == "seen":
            sights = sight_grids(scenario, pos, model, enemies, grid, z,
                                 [stand] * len(enemies), False, off)
            self.result = _done(model, "seen", None, grid, stand,
                                [g.astype(np.float64) for g in sights], enemies)
            return
        self._threat = ThreatWork(scenario, pos, model, enemies, grid, z, stand, off)
        self._parts = ("threat", model, grid, stand, enemies)

    @property
    def progress(self) -> float:
        """The part of the work done, 0..1."""
        return 1.0 if self.result is not None or self._threat is None else self._threat.progress

    def step(self, budget: float | None) -> Map | None:
        """Work on for about ``budget`` seconds (None: to the end); the map once done."""
        if self.result is None and self._threat is not None and self._threat.step(budget):
            _, model, grid, stand, enemies = self._parts
            assert model is not None
            self.result = _done(model, "threat", None, grid, stand, self._threat.grids(),
                                enemies)
        return self.result

    def partial(self) -> Map:
        """The map so far: the cells planned (and those no enemy sees) with their values,
        the cells still to plan without one (as where the base cannot stand)."""
        if self.result is not None or self._threat is None:
            return self.finish()
        _, model, grid, stand, enemies = self._parts
        assert model is not None
        known = stand & ~self._threat.pending(stand.shape)
        return _done(model, "threat", None, grid, known,
                     [g.copy() for g in self._threat.grids()], enemies)

    def finish(self) -> Map:
        """The whole map."""
        out = self.step(None)
        assert out is not None  # step(None) works to the end
        return out


def _done(model: str, kind: Kind, target: str | None, grid: Grid, stand: BoolGrid,
          parts: list[FloatGrid], enemies: tuple[str, ...]) -> Map:
    """The map whose values are the sum (a count) or the maximum (a chance) of the parts."""
    if not parts:
        values = np.zeros(stand.shape)
    elif kind == "threat":
        values = np.maximum.reduce(parts)
    else:
        values = np.sum(parts, axis=0)
    by = tuple(np.where(stand, p, 0.0) for p in parts)
    return Map(model, kind, target, grid, np.where(stand, values, np.nan), enemies, by)


def check_request(scenario: Scenario, positions: Mapping[str, Position], model: str,
                  kind: str, target: str | None) -> None:
    """Refuse a map that cannot be made (a :class:`UsageError` naming what is wrong)."""
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
