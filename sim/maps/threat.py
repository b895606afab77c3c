"""Threat maps: the best hit chance enemies have on a model at each cell (issue 17,
docs/maps.md).

The chance is the shot preview's: :func:`sim.combat.plan.plan_shot` for each
enemy, shooting weapon (not close-combat ones, R-SHOOT-1) and range band the
base lies in (R-RANGE-1), with cover (R-COV-*), then
:func:`sim.resolution.odds.attack_odds`. Only cells within an enemy's longest
reach (a superset: the planner decides) that the enemy sees
(:mod:`sim.maps.sight`) are planned. :class:`ThreatWork` plans them a few at a
time, for a window that must keep drawing.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from fractions import Fraction

import numpy as np

from sim.combat.plan import AttackRefused, plan_shot, ranged_weapons
from sim.combat.situation import Situation
from sim.maps.grid import BoolGrid, FloatGrid, Grid
from sim.maps.sight import sight_grids
from sim.resolution.attack import AttackProfile
from sim.resolution.odds import attack_odds
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position
from sim.shooting.analysis import prepared_board
from sim.shooting.weapon_range import reach

__all__ = ["ThreatWork", "best_hit", "ranged_weapons", "threat_grids", "threat_values"]


def longest_reach(scenario: Scenario, weapons: tuple[str, ...]) -> float:
    """The farthest any of ``weapons`` reaches, base edge to base edge (R-RANGE-1)."""
    return max((reach(scenario.rules_data, scenario.weapons[w]) for w in weapons), default=0.0)


class ThreatWork:
    """Per enemy, its best hit chance against ``model`` at each cell, planned cell by
    cell in :meth:`step` calls (the sight grids first, at once)."""

    def __init__(self, scenario: Scenario, positions: Mapping[str, Position], model: str,
                 enemies: tuple[str, ...], grid: Grid, z: FloatGrid, stand: BoolGrid,
                 off_table: frozenset[str] = frozenset()) -> None:
        board = prepared_board(scenario)
        gx, gy = grid.centres()
        r = board.radius[model]
        self.armed = [(e, ws) for e in enemies if (ws := ranged_weapons(scenario, e))]
        near = []
        for e, weapons in self.armed:
            p = positions[e]
            far = longest_reach(scenario, weapons) + r + board.radius[e] + 1e-6
            near.append(stand & ((gx - p.x) ** 2 + (gy - p.y) ** 2 <= far * far))
        self.sights = sight_grids(scenario, positions, model, [e for e, _ in self.armed], grid,
                                  z, near, False, off_table)
        seen = (np.logical_or.reduce(self.sights) if self.sights
                else np.zeros(stand.shape, dtype=bool))
        self.cells = [(int(i), int(j)) for i, j in zip(*np.nonzero(seen), strict=True)]
        self.done = 0
        self.out = {e: np.zeros(stand.shape) for e in enemies}
        self.enemies = enemies
        self.args = (scenario, positions, model, gx, gy, z, off_table)
        self.sides = {m: board.side[m] for m in (*positions, model)}
        self.odds: dict[AttackProfile, Fraction] = {}

    @property
    def progress(self) -> float:
        return self.done / len(self.cells) if self.cells else 1.0

    def step(self, budget: float | None) -> bool:
        """Plan cells for about ``budget`` seconds (at least one; None: all); whether
        every cell is planned."""
        scenario, positions, model, gx, gy, z, off_table = self.args
        start = time.perf_counter()
        while self.done < len(self.cells):
            i, j = self.cells[self.done]
            self.done += 1
            here = {**positions, model: Position(float(gx[i, j]), float(gy[i, j]),
                                                 float(z[i, j]))}
            sit = Situation(scenario, here, self.sides, frozenset(off_table))
            for (e, ws), seen in zip(self.armed, self.sights, strict=True):
                if seen[i, j]:
                    self.out[e][i, j] = float(max(
                        (best_hit(sit, e, model, w, self.odds) for w in ws), default=Fraction(0)))
            if budget is not None and time.perf_counter() - start >= budget:
                break
        return self.done >= len(self.cells)

    def grids(self) -> list[FloatGrid]:
        """The chances so far, per enemy in order."""
        return [self.out[e] for e in self.enemies]

    def pending(self, shape: tuple[int, ...]) -> BoolGrid:
        """The cells not planned yet (their chances are not known)."""
        out = np.zeros(shape, dtype=bool)
        rest = self.cells[self.done:]
        if rest:
            ii, jj = zip(*rest, strict=True)
            out[list(ii), list(jj)] = True
        return out


def threat_grids(scenario: Scenario, positions: Mapping[str, Position], model: str,
                 enemies: tuple[str, ...], grid: Grid, z: FloatGrid, stand: BoolGrid,
                 off_table: frozenset[str] = frozenset()) -> list[FloatGrid]:
    """Per enemy (in order), its best hit chance against ``model`` at each cell (0 where
    it cannot shoot it there)."""
    work = ThreatWork(scenario, positions, model, enemies, grid, z, stand, off_table)
    work.step(None)
    return work.grids()


def threat_values(scenario: Scenario, positions: Mapping[str, Position], model: str,
                  enemies: tuple[str, ...], grid: Grid, z: FloatGrid, stand: BoolGrid,
                  off_table: frozenset[str] = frozenset()) -> FloatGrid:
    """The best hit chance against ``model`` at each cell (0 where none can shoot): the
    maximum of :func:`threat_grids`."""
    parts = threat_grids(scenario, positions, model, enemies, grid, z, stand, off_table)
    return np.maximum.reduce(parts) if parts else np.zeros(stand.shape)


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
