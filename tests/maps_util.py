"""Random scenarios and per-cell reference answers for the map tests (issue 17).

The references ask the rules code one cell at a time, the way a player's
question would be asked: put the model there (``analyse``, ``plan_shot``), or
test the placement with plain per-cell Shapely calls (``stand_reference``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import shapely

from geometry.elevation.edges import default_height
from sim.combat.plan import AttackRefused, plan_shot
from sim.combat.situation import Situation
from sim.maps.grid import Grid
from sim.maps.visibility import enemies_of, ranged_weapons
from sim.movement.levels import in_the_way
from sim.resolution.odds import attack_odds
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position
from sim.shooting.analysis import analyse
from sim.shooting.elevation_rules import surfaces_of

UNITS = ["settler", "settler_rifle", "sole_survivor", "knight", "paladin", "super_mutant",
         "mutant_hound", "behemoth"]


def _poly(rng: np.random.Generator, size: float) -> list[list[float]]:
    cx, cy = rng.uniform(1.0, size - 1.0, 2)
    k = int(rng.integers(3, 8))
    ang = np.sort(rng.uniform(0, 2 * math.pi, k))
    rad = rng.uniform(0.3, size / 6, k)
    pts = [[round(float(cx + r * math.cos(a)), 3), round(float(cy + r * math.sin(a)), 3)]
           for a, r in zip(ang, rad, strict=True)]
    hull = shapely.MultiPoint(pts).convex_hull.intersection(
        shapely.box(0.1, 0.1, size - 0.1, size - 0.1))
    if hull.geom_type != "Polygon" or hull.area < 0.05:
        w = float(rng.uniform(0.4, 2.0))
        hull = shapely.box(cx - w, cy - 0.2, cx + w, cy + 0.2).intersection(
            shapely.box(0.1, 0.1, size - 0.1, size - 0.1))
    return [[round(x, 3), round(y, 3)] for x, y in list(hull.exterior.coords)[:-1]]


def random_scenario_text(seed: int, size: float = 14.0, pieces: int = 7, models: int = 5,
                         heights: bool = True) -> str:
    """A scenario on a ``size`` board: blocking, cover, dense and climbable pieces (some
    with tops a model stands on), and models of two sides (a huge one sometimes)."""
    rng = np.random.default_rng(seed)
    out = ["format = 1", f'name = "maps {seed}"', 'rules = "rulebook"',
           f"board = [{size}, {size}]", 'include = ["wasteland:units/wasteland.toml"]',
           '[sides.a]\nname = "A"', '[sides.b]\nname = "B"']
    shapes = []
    for k in range(pieces):
        kind = rng.choice(["block", "block", "cover", "dense", "roof", "low"])
        poly = _poly(rng, size)
        shapes.append(shapely.Polygon(poly))
        lines = ["[[terrain]]", f'id = "p{k}"', f"polygon = {poly}"]
        if kind == "block":
            lines += ['movement = "impassable"', "blocks_los = true", "cover = true"]
            if heights and rng.random() < 0.6:
                lines.append(f"height = {float(rng.choice([1.5, 3.0, 5.0]))}")
        elif kind == "roof":
            lines += ['movement = "impassable"', "climbable = true", "cover = true",
                      f"height = {float(rng.choice([2.5, 4.0])) if heights else 0.0}"]
        elif kind == "cover":
            lines += ['movement = "difficult"', "cover = true", "height = 1.0"]
        elif kind == "dense":
            lines += ['movement = "difficult"', "cover = true", "area = true", "dense = true"]
        else:
            lines += ['movement = "difficult"']
        out.append("\n".join(lines))
    placed: list[tuple[float, float, float]] = []
    for m in range(models):
        unit = UNITS[int(rng.integers(0, len(UNITS)))]
        for _ in range(200):
            x, y = (round(float(v), 2) for v in rng.uniform(1.7, size - 1.7, 2))
            if all(math.hypot(x - px, y - py) > 3.2 for px, py, _ in placed) and all(
                    sh.distance(shapely.Point(x, y)) > 1.7 for sh in shapes):
                break
        else:  # no room left: fewer models
            continue
        placed.append((x, y, 0.0))
        out.append(f'[[models]]\nid = "m{m}"\nunit = "{unit}"\nside = "{"ab"[m % 2]}"\n'
                   f"at = [{x}, {y}]")
    return "\n\n".join(out) + "\n"


def random_scenario(tmp: Path, seed: int, **kw: object) -> Scenario:
    """:func:`random_scenario_text` loaded from a file in ``tmp``."""
    path = tmp / f"maps-{seed}.toml"
    path.write_text(random_scenario_text(seed, **kw))  # type: ignore[arg-type]
    return load_scenario(path)


def placed(positions: Mapping[str, Position], model: str, grid: Grid, row: int, col: int,
           z: float) -> dict[str, Position]:
    """``positions`` with ``model`` moved to the centre of cell ``[row][col]``."""
    x, y = grid.x0 + col * grid.cell, grid.y0 + row * grid.cell
    return {**positions, model: Position(x, y, z)}


def seen_reference(s: Scenario, positions: Mapping[str, Position], model: str, grid: Grid,
                   row: int, col: int, z: float) -> int:
    """How many enemies see ``model`` at that cell: one ``analyse`` per pair."""
    here = placed(positions, model, grid, row, col, z)
    others = {m: p for m, p in positions.items() if m != model}
    return sum(analyse(s, here, e, model).line_of_sight for e in enemies_of(s, others, model))


def sees_reference(s: Scenario, positions: Mapping[str, Position], model: str, target: str,
                   grid: Grid, row: int, col: int, z: float) -> int:
    here = placed(positions, model, grid, row, col, z)
    return int(analyse(s, here, model, target).line_of_sight)


def threat_reference(s: Scenario, positions: Mapping[str, Position], model: str, grid: Grid,
                     row: int, col: int, z: float) -> float:
    """The best shot preview against ``model`` at that cell: every enemy, weapon, band."""
    here = placed(positions, model, grid, row, col, z)
    sit = Situation(s, here, {m.id: m.side for m in s.models})
    others = {m: p for m, p in positions.items() if m != model}
    best = 0.0
    for e in enemies_of(s, others, model):
        for w in ranged_weapons(s, e):
            for band in ("short", "long"):
                try:
                    plan = plan_shot(sit, e, model, w, band)
                except AttackRefused:
                    continue
                best = max(best, float(attack_odds(plan.profile, s.rules_data).p_success))
    return best


def stand_reference(s: Scenario, positions: Mapping[str, Position], model: str, x: float,
                    y: float) -> float | None:
    """The height ``model`` would stand at with its centre at ``(x, y)``, or None where its
    base may not stand: one point, one piece at a time."""
    unit = s.unit_of(model)
    r = s.radius_of(model)
    z = default_height(x, y, [(f.footprint, f.height) for f in surfaces_of(s)])
    w, h = s.board
    if not (r - 1e-9 <= x <= w - r + 1e-9 and r - 1e-9 <= y <= h - r + 1e-9):
        return None
    centre = shapely.Point(x, y)
    for p in s.terrain:
        props = p.props_for(unit.id, unit.keywords, s.size_class_of(model))
        if not (props.movement == "impassable" or props.blocks_los) or not in_the_way(props, z):
            continue
        if p.circle is not None:
            (cx, cy), rad = p.circle
            gap = math.hypot(x - cx, y - cy) - rad
        else:
            gap = p.footprint.distance(centre)
        if gap < r - 1e-9:
            return None
    for other, pos in positions.items():
        if other != model and abs(pos.z - z) <= 1e-6 and (
                math.hypot(x - pos.x, y - pos.y) < r + s.radius_of(other) - 1e-9):
            return None
    return z
