"""Concrete actions worth weighing now, every one legal by the engine's own check.

A Move's destination is a continuous parameter, so the AI picks points: the
far edge of the model's reachable area in sixteen directions, points half way,
and *cover spots*: points just outside each piece that gives cover or blocks
sight (``footprint`` grown by the base radius). Each point is reached along
the witness path of the reachable area (geometry.movement.reach, so around walls),
and kept only when ``state.is_legal`` accepts the resulting action. Charges
aim at points in base contact with each enemy, nearest side first. The
engine's listed samples (shots, close combat, climbs, straight charges, the
turn actions) are added as they come. Leaving the board is never offered: it
gives the opponent a point (R-EDGE-2, R-TURN-10).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from typing import Protocol

import numpy as np
import numpy.typing as npt
import shapely

from geometry.movement.paths import path_length
from geometry.movement.reach import reachable_area
from geometry.movement.reach_points import PointReach
from sim.ai.charge_reach import charge_reaches
from sim.engine.actions import Action, EndActivation
from sim.engine.state import GameState
from sim.movement.kinds import Charge, Leave, Move, MoveArea, level_of, walk
from sim.movement.plan import plan_walks
from sim.scenario.objects import Scenario
from sim.scenario.prepared import Part

Xy = tuple[float, float]

DIRECTIONS = 12
#: Cover spots kept per decision (spread along the rings, nearest pieces first).
COVER_SPOTS = 8
#: Points this close to one already taken are dropped (inches).
SPACING = 1.0
#: Where a cover spot stands off its piece, beyond the base radius (inches).
STAND_OFF = 0.15


def listed(state: GameState) -> list[Action]:
    """The engine's listed legal actions, without leaving the board."""
    return [a for a in state.legal_actions() if not isinstance(a, Leave)]


def activation_actions(state: GameState, reaches: Reaches, quick: bool = False
                       ) -> list[Action]:
    """What the active model may do: each kind's samples but plain walks and leaving
    (the sampled walks here replace them), then the sampled walks and charges, then
    ending the activation; all legal.

    The kind's own straight charges stay next to the sampled ones: a sampled charge
    avoids difficult ground, and R-MOV-1 lets a charge cross it on the shorter
    ruler. ``quick`` (the search player's playouts): straight walks instead of the
    reachable area's points.
    """
    act = state.activation
    assert act is not None  # only during an activation
    model = act.model
    samples = [a for kind in state.kinds.values() for a in kind.samples(state, model)
               if not (isinstance(a, Leave) or (
                   isinstance(a, Move) and all(s.kind == "walk" for s in a.steps))
                       or (isinstance(a, Charge) and _beyond_ruler(state, a)))]
    # (the straight charges' paths swept in one call)
    plan_walks(state, model, [a.steps for a in samples if isinstance(a, Charge)], ruler="charge")
    out: list[Action] = [a for a in samples if state.is_legal(a)]
    if quick:
        out.extend(straight_moves(state, model))
    else:
        out.extend(moves(state, model, reaches))
        out.extend(charges(state, model, reaches))
    out.append(EndActivation())
    return out


def _beyond_ruler(state: GameState, charge: Charge) -> bool:
    """Whether a walking charge is longer, as the crow flies, than the unit's Charge
    ruler: illegal whatever it crosses (R-MOV-1, R-MOV-5), so not swept at all (the
    kinds offer a straight charge at every enemy, most of them across the table)."""
    if not all(s.kind == "walk" for s in charge.steps):
        return False
    p = state.model(charge.model).position
    points = [(p.x, p.y), *((s.x, s.y) for s in charge.steps)]
    ruler = state.rules.ruler(state.scenario.unit_of(charge.model).charge)
    return path_length(points) > ruler + 1e-6


#: The quick walks: directions, and the shares of the ruler tried along each.
QUICK_DIRECTIONS = 6
QUICK_SHARES = (1.0, 0.6, 0.3)


def straight_moves(state: GameState, model: str) -> list[Move]:
    """Straight walks toward the nearest enemy and in six directions, each as far as
    is legal of the full ruler, 60% or 30% of it."""
    me = state.model(model)
    if me.climbing:
        return []
    p = me.position
    d = state.rules.ruler(state.scenario.unit_of(model).move)
    enemies = [e for e in state.positions() if state.model(e).side != me.side]
    heads: list[float] = []
    if enemies:
        e = min(enemies, key=lambda e: _distance(state, model, e))
        q = state.model(e).position
        heads.append(math.atan2(q.y - p.y, q.x - p.x))
    heads.extend(2 * math.pi * k / QUICK_DIRECTIONS for k in range(QUICK_DIRECTIONS))
    tries = [[Move(model, walk((p.x + math.cos(a) * d * share, p.y + math.sin(a) * d * share)))
              for share in QUICK_SHARES] for a in heads]
    plan_walks(state, model, [m.steps for row in tries for m in row])  # swept in one call
    out: list[Move] = []
    for row in tries:
        for move in row:
            if state.is_legal(move):
                out.append(move)
                break
    return out


class Reaches:
    """The reachable areas of the position last asked about (a player's own; the
    next action of an activation that did not move anyone asks the same)."""

    def __init__(self) -> None:
        self._key: object = None
        self._areas: dict[tuple[str, bool], MoveArea] = {}
        self._points: dict[str, Paths] = {}

    def _same(self, state: GameState) -> None:
        key = tuple(sorted((i, m.position, m.climbing) for i, m in state.models.items()
                           if m.in_play))
        if key != self._key:
            self._key, self._areas, self._points = key, {}, {}

    def of(self, state: GameState, model: str, charge: bool) -> MoveArea:
        self._same(state)
        if (model, charge) not in self._areas:
            area = _walk_area(state, model, charge)
            shapely.prepare(area.area)
            self._areas[(model, charge)] = area
        return self._areas[(model, charge)]

    def charge_paths(self, state: GameState, model: str) -> Paths:
        """The witness paths of the charge's area (:meth:`of`) to a few points, each
        point tested alone (geometry.movement.reach.PointReach) when the area is
        surely not empty; else the area itself (it may be the shorter ruler's)."""
        self._same(state)
        if model not in self._points:
            lazy = _point_reach(state, model)
            self._points[model] = (lazy if lazy.surely_reaches
                                   else self.of(state, model, True))
        return self._points[model]


class Paths(Protocol):
    def path_to(self, p: Xy) -> list[Xy] | None: ...


def _point_reach(state: GameState, model: str) -> PointReach:
    """The full charge ruler's area without difficult ground, as :func:`_walk_area` starts."""
    me = state.model(model)
    level = level_of(state, model, me.position.z)
    ruler = state.rules.ruler(state.scenario.unit_of(model).charge)
    return PointReach(level, state.radius(model), me.position.xy, ruler, avoid_difficult=True)


def _walk_area(state: GameState, model: str, charge: bool) -> MoveArea:
    """Where the model's full ruler takes it without touching difficult ground; from
    on difficult ground (where that is empty), the next shorter ruler's area (R-MOV-1).
    Half the work of :func:`sim.movement.kinds.reachable`, which unites both."""
    me = state.model(model)
    unit = state.scenario.unit_of(model)
    colour = unit.charge if charge else unit.move
    level = level_of(state, model, me.position.z)
    r, start = state.radius(model), me.position.xy
    reach = reachable_area(level, r, start, state.rules.ruler(colour), avoid_difficult=True)
    if reach.area.is_empty and len(level.difficult):
        short = state.rules.ruler(state.rules.shorter(colour))
        reach = reachable_area(level, r, start, short)
    return MoveArea(reach.area, (reach,))


def moves(state: GameState, model: str, reaches: Reaches | None = None) -> list[Move]:
    """Legal walks of ``model`` to sampled points of its reachable area."""
    if state.model(model).climbing:
        return []
    area = (reaches or Reaches()).of(state, model, False)
    if area.area.is_empty:
        return []
    return walks_to(state, model, area, _spread(_points(state, model, area)))


def walks_to(state: GameState, model: str, area: MoveArea, points: Iterable[Xy]) -> list[Move]:
    """Legal walks of ``model`` to each point, along the area's witness paths."""
    tries: list[Move] = []
    for path in area.paths_to(list(points)):
        if path is not None and len(path) >= 2:
            tries.append(Move(model, walk(*path[1:])))
    plan_walks(state, model, [m.steps for m in tries])  # swept in one call
    return [m for m in tries if state.is_legal(m)]


def charges(state: GameState, model: str, reaches: Reaches | None = None) -> list[Charge]:
    """For each enemy, one legal charge into base contact (the nearest side that works)."""
    me = state.model(model)
    enemies = [e for e in state.positions() if state.model(e).side != me.side
               and charge_reaches(state.scenario, model, me.position, e, state.model(e).position)]
    if me.climbing or not enemies:
        return []
    # Every point of the charge's area lies within its ruler of the start (a path no
    # longer than the ruler leads there): contact spots beyond it are never in the
    # area, so an area none of them could be in is not built at all.
    ruler = state.rules.ruler(state.scenario.unit_of(model).charge)
    spots = {e: [p for p in _contact_spots(state, model, e)
                 if math.hypot(p[0] - me.position.x, p[1] - me.position.y) <= ruler]
             for e in enemies}
    if not any(spots.values()):
        return []
    area = (reaches or Reaches()).charge_paths(state, model)
    out: list[Charge] = []
    for enemy in enemies:
        charge = _charge_at(state, model, enemy, area, spots[enemy])
        if charge is not None:
            out.append(charge)
    return out


def _distance(state: GameState, a: str, b: str) -> float:
    pa, pb = state.model(a).position, state.model(b).position
    return math.hypot(pa.x - pb.x, pa.y - pb.y)


def _contact_spots(state: GameState, model: str, enemy: str) -> list[Xy]:
    """Centre points in base contact with ``enemy`` in twelve directions, nearest first."""
    me, at = state.model(model).position, state.model(enemy).position
    reach = state.radius(model) + state.radius(enemy)
    spots = [(at.x + reach * math.cos(a), at.y + reach * math.sin(a))
             for a in (2 * math.pi * k / DIRECTIONS for k in range(DIRECTIONS))]
    spots.sort(key=lambda p: math.hypot(p[0] - me.x, p[1] - me.y))
    return spots


def _charge_at(state: GameState, model: str, enemy: str, area: Paths,
               spots: list[Xy]) -> Charge | None:
    """The first of ``spots`` (the contact spots within the ruler) a legal charge reaches."""
    for p in spots:
        path = area.path_to(p)  # (None outside the area)
        if path is None or len(path) < 2:
            continue
        charge = Charge(model, enemy, walk(*path[1:]))
        if state.is_legal(charge):
            return charge
    return None


def _points(state: GameState, model: str, area: MoveArea) -> Iterator[Xy]:
    """Far points in every direction, half-way points, then cover spots."""
    me = state.model(model).position
    geom = area.area
    x0, y0, x1, y1 = geom.bounds
    far = math.hypot(max(x1 - me.x, me.x - x0), max(y1 - me.y, me.y - y0))
    # Each direction steps in from ``far`` by half an inch to the first covered point:
    # every step of every direction tested in one vectorised call.
    steps: list[float] = []
    t = far
    while t > 0.5:
        steps.append(t)
        t -= 0.5
    ts = np.array(steps)
    # (the same coordinates as direction by direction: elementwise arithmetic)
    angles = [2 * math.pi * k / DIRECTIONS for k in range(DIRECTIONS)]
    dx = np.array([math.cos(a) for a in angles])[:, None]
    dy = np.array([math.sin(a) for a in angles])[:, None]
    xs, ys = me.x + dx * ts, me.y + dy * ts
    inside = shapely.covers(geom, shapely.points(xs, ys))
    half: list[Xy] = []
    for k in range(DIRECTIONS):
        hits = np.flatnonzero(inside[k])
        if len(hits):
            j = int(hits[0])
            yield (float(xs[k, j]), float(ys[k, j]))
            if k % 2 == 0:
                t = steps[j]
                half.append((me.x + float(dx[k, 0]) * t / 2, me.y + float(dy[k, 0]) * t / 2))
    if half:
        ok = shapely.covers(geom, shapely.points(np.array(half))).tolist()
        yield from (p for p, y in zip(half, ok, strict=True) if y)
    yield from _cover_spots(state, model, area)


class _CoverPieces:
    """The pieces that give cover or block sight (areas aside), and the spots around
    each where a base of one radius stands off it: derived once per scenario."""

    def __init__(self, scenario: Scenario) -> None:
        self.pieces = [t for t in scenario.terrain
                       if (t.props.cover or t.props.blocks_los) and not t.props.area]
        self.footprints = np.array([t.footprint for t in self.pieces], dtype=object)
        self._rings: dict[float, list[npt.NDArray[np.float64]]] = {}
        self._spots: dict[float, list[npt.NDArray[np.object_]]] = {}

    def rings(self, r: float) -> list[npt.NDArray[np.float64]]:
        """Per piece, the spots one inch apart on its footprint grown by ``r`` and the
        stand-off (x, y rows)."""
        if r not in self._rings:
            out = []
            for footprint in self.footprints:
                ring = footprint.buffer(r + STAND_OFF, quad_segs=4).exterior
                n = max(4, int(ring.length / 1.0))
                at = shapely.line_interpolate_point(ring, np.arange(n) / n, normalized=True)
                out.append(shapely.get_coordinates(at))
            self._rings[r] = out
        return self._rings[r]

    def spots(self, r: float) -> list[npt.NDArray[np.object_]]:
        """:meth:`rings` as point geometries, made once (each decision tests some)."""
        if r not in self._spots:
            self._spots[r] = [shapely.points(ring) for ring in self.rings(r)]
        return self._spots[r]


COVER_PIECES = Part("the AI's cover pieces", _CoverPieces)


def _cover_spots(state: GameState, model: str, area: MoveArea) -> Iterator[Xy]:
    me = state.model(model).position
    known = state.scenario.prepared.get(COVER_PIECES)
    rings, geoms = known.rings(state.radius(model)), known.spots(state.radius(model))
    near = shapely.distance(known.footprints, shapely.Point(me.xy)).tolist()
    found: list[Xy] = []
    for i in sorted(range(len(near)), key=lambda i: near[i]):
        spots = rings[i]
        inside = shapely.covers(area.area, geoms[i])
        found.extend((float(x), float(y)) for x, y in spots[inside])
        if len(found) >= 4 * COVER_SPOTS:
            break
    step = max(1, len(found) // COVER_SPOTS)
    yield from found[::step][:COVER_SPOTS]


def _spread(points: Iterator[Xy]) -> list[Xy]:
    """The points in order, without any closer than SPACING to one kept before."""
    kept: list[Xy] = []
    for p in points:
        if all(math.hypot(p[0] - q[0], p[1] - q[1]) >= SPACING for q in kept):
            kept.append(p)
    return kept
