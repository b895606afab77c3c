"""Movement actions: Move, Charge, Leave, with climbing and jumping.

Rules R-MOV-*, R-CLIMB-*, R-JUMP-1, R-FALL-*, R-EDGE-1..2 (docs/rules.md).

A movement is a path of *steps* from the model's position:

- ``X Y``: walk straight to ``(X, Y)`` at the current height;
- ``climb Z``: climb the face the base touches, up or down, to height ``Z``
  (R-CLIMB-1..5);
- ``jump Z``: jump down to height ``Z`` (R-JUMP-1, ``rulebook`` only).

Text forms (numbers round-trip exactly)::

    move MODEL STEP...             e.g. move settler-1 10.0 12.6 climb 6.0 10.0 13.5
    charge MODEL TARGET STEP...    must end in base contact with TARGET
    leave MODEL X Y [X Y ...]      the last leg carries the base over the board edge

:func:`plan_movement` (in :mod:`sim.movement.plan`, re-exported here) checks a
path without changing anything and returns a :class:`Plan` (legality with
the reason, length, ruler, difficult pieces, where it ends); the kinds apply
the plan, rolling AGI tests for climbs (``rulebook``) and fall damage for
jumps and falls. docs/movement.md has the details and the Decisions.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import ClassVar, Literal

import shapely
from shapely.geometry.base import BaseGeometry

from geometry.movement.obstacles import MoveObstacle
from geometry.movement.paths import check_legs, edge_crossing, path_length
from geometry.movement.reach import Reach, paths_through, reachable_area
from geometry.movement.spots import contact_band
from sim.engine.actions import ActionKind, ModelAction, fmt_num, parse_num
from sim.engine.gamedata import Status
from sim.engine.params import Param
from sim.engine.state import ActionContext, GameState
from sim.errors import IllegalActionError
from sim.movement.contact import contact_problem
from sim.movement.falls import fall_model, resolve_fall
from sim.movement.levels import Z_EPS, climbable_faces, terrain_view
from sim.movement.plan import (  # the planning half; re-exported, callers import it from here
    Plan,
    Step,
    StepKind,
    Vertical,
    Xy,
    level_of,
    parse_steps,
    plan_movement,
    vertical_offers,
    walk,
)
from sim.resolution.dice import roll_skill
from sim.scenario.names import model_name
from sim.scenario.objectives import edge_of
from sim.scenario.positions import Position

_EPS = 1e-9  # float noise on lengths and gaps (as in sim.movement.plan and contact)

__all__ = ["AfterContact", "Charge", "ChargeKind", "Leave", "LeaveKind", "Move",
           "MoveArea", "MoveKind", "Plan", "Step", "StepKind", "Vertical", "agi_test",
           "follow_plan", "level_of", "parse_steps", "plan_movement", "reachable",
           "step_offers", "vertical_offers", "walk"]


# --- the action values -------------------------------------------------------------


@dataclass(frozen=True)
class Move(ModelAction):
    """``move MODEL STEP...``: a Move action along a path (R-MOV-1..5)."""

    steps: tuple[Step, ...]
    keyword: ClassVar[str] = "move"
    usage: ClassVar[str] = "move MODEL X Y|climb Z|jump Z ..."
    params: ClassVar[tuple[Param, ...]] = (Param("steps", "steps", vertical=True, item=Step),)

    def args(self) -> tuple[str, ...]:
        return (self.model, *(t for s in self.steps for t in s.tokens()))

    @classmethod
    def from_args(cls, text: str, args: Sequence[str]) -> Move:
        if len(args) < 2:
            raise IllegalActionError(text, f"expected {cls.usage!r}")
        return cls(args[0], parse_steps(text, args[1:], cls.usage))


@dataclass(frozen=True)
class Charge(ModelAction):
    """``charge MODEL TARGET STEP...``: a Charge ending in base contact with TARGET."""

    target: str
    steps: tuple[Step, ...]
    keyword: ClassVar[str] = "charge"
    usage: ClassVar[str] = "charge MODEL TARGET X Y|climb Z|jump Z ..."
    params: ClassVar[tuple[Param, ...]] = (
        Param("target", "target"), Param("steps", "steps", vertical=True, item=Step))

    def args(self) -> tuple[str, ...]:
        return (self.model, self.target, *(t for s in self.steps for t in s.tokens()))

    @classmethod
    def from_args(cls, text: str, args: Sequence[str]) -> Charge:
        if len(args) < 3:
            raise IllegalActionError(text, f"expected {cls.usage!r}")
        return cls(args[0], args[1], parse_steps(text, args[2:], cls.usage))


@dataclass(frozen=True)
class Leave(ModelAction):
    """``leave MODEL X Y [X Y ...]``: leave the board on purpose (R-EDGE-2)."""

    points: tuple[Xy, ...]
    keyword: ClassVar[str] = "leave"
    usage: ClassVar[str] = "leave MODEL X Y [X Y ...]"
    params: ClassVar[tuple[Param, ...]] = (Param("points", "points"),)  # walks, no heights

    def args(self) -> tuple[str, ...]:
        return (self.model, *(fmt_num(c) for p in self.points for c in p))

    @classmethod
    def from_args(cls, text: str, args: Sequence[str]) -> Leave:
        if len(args) < 3 or len(args) % 2 == 0:
            raise IllegalActionError(text, f"expected {cls.usage!r}")
        nums = [parse_num(text, t, "X" if i % 2 == 0 else "Y") for i, t in enumerate(args[1:])]
        return cls(args[0], tuple(zip(nums[0::2], nums[1::2], strict=True)))




# --- applying -------------------------------------------------------------------------


def agi_test(ctx: ActionContext, model: str) -> bool:
    """The AGI test at the start of a vertical movement (R-CLIMB-2): d20 at most A."""
    unit = ctx.scenario.unit_of(model)
    target = unit.special.get("A", 0)
    roll = roll_skill(ctx.rng, ctx.rules)
    ok = roll <= target
    ctx.log("dice", (model,), f"{model_name(ctx.scenario, model)} AGI test for climbing: "
            f"rolled {roll} against {target}: {'pass' if ok else 'fail'}", test="AGI", roll=roll,
            target=target, passed=ok)
    return ok


def follow_plan(ctx: ActionContext, model: str, plan: Plan, verb: str) -> Position:
    """Walk a legal plan, rolling for climbs and jumps; returns where the model ends.

    R-CLIMB-2: a failed AGI test drops the model from where that vertical
    movement started and ends the action. R-FALL-3 / R-JUMP-1: a jump that
    deals damage ends the movement where the model lands.
    """
    state = ctx.state
    vts = ctx.scenario.rules == "vts-1.5"
    name = model_name(ctx.scenario, model)
    start = ctx.model(model).position
    where = start
    for item in plan.route[1:]:
        if isinstance(item, Position):
            where = item
            continue
        if item.kind == "climb" and not vts and not agi_test(ctx, model):
            ctx.log("climb-failed", (model,), f"{name} fails to climb at "
                    f"({item.at[0]:.2f}, {item.at[1]:.2f}, {item.z0:.2f})",
                    at=list(item.at), z=item.z0)
            fall_model(ctx, model, item.at, item.z0, why="fails to climb")
            return ctx.model(model).position
        if item.kind == "jump":
            where = Position(item.at[0], item.at[1], item.z1)
            ctx.set_position(model, where)
            ctx.set_climbing(model, False)
            out = resolve_fall(ctx, model, item.z0 - item.z1, jump=True, cause="jump")
            if out.dealt > 0 or out.removed or not state.model(model).in_play:
                ctx.log("moved", (model,), f"{name} lands at ({where.x:.2f}, {where.y:.2f}) "
                        "hurt; the movement ends (R-FALL-3)", to=[where.x, where.y, where.z])
                return where
    ctx.set_position(model, where)
    ctx.set_climbing(model, plan.climbing_at_end)
    state_txt = " and is climbing" if plan.climbing_at_end else ""
    ctx.log("moved", (model,), f"{name} {verb} {plan.length:.2f} in ({plan.ruler} ruler) to "
            f"({where.x:.2f}, {where.y:.2f}, {where.z:.2f}){state_txt}",
            frm=[start.x, start.y, start.z], to=[where.x, where.y, where.z],
            distance=plan.length, ruler=plan.ruler, difficult=list(plan.difficult),
            climbing=plan.climbing_at_end)
    return where


# --- the kinds -----------------------------------------------------------------------


def step_offers(state: GameState, model: str, param: Param, values: Mapping[str, object],
                ruler: Literal["move", "charge"]) -> tuple[Step, ...]:
    """The climb and jump steps that may follow the ``steps`` set so far
    (:func:`sim.movement.plan.vertical_offers`)."""
    steps = values.get(param.name) or ()
    if param.kind != "steps" or not isinstance(steps, Sequence):
        return ()
    return vertical_offers(state, model, [s for s in steps if isinstance(s, Step)], ruler=ruler)


class MoveKind(ActionKind[Move]):
    """The Move action (replaces the engine's plain move)."""

    action_type = Move

    def offers(self, state: GameState, model: str, param: Param,
               values: Mapping[str, object]) -> tuple[object, ...]:
        return step_offers(state, model, param, values, "move")

    def check(self, state: GameState, action: Move) -> str | None:
        return plan_movement(state, action.model, action.steps).reason

    def apply(self, ctx: ActionContext, action: Move) -> None:
        plan = plan_movement(ctx.state, action.model, action.steps)
        follow_plan(ctx, action.model, plan, "moves")

    def samples(self, state: GameState, model: str) -> Iterable[Move]:
        ms = state.model(model)
        if not ms.climbing:
            # The plain move's eight full-ruler targets (each sample costs a full check).
            d = state.rules.ruler(state.scenario.unit_of(model).move)
            for dx, dy in _DIRECTIONS:
                yield Move(model, walk((ms.position.x + dx * d, ms.position.y + dy * d)))
        yield from _climb_samples(state, model)


def _climb_samples(state: GameState, model: str) -> Iterator[Move]:
    """Climbs for a model at a climbable face: up it part-way or onto its top, and
    for a climbing model a jump down (rulebook). Illegal ones are filtered out by
    the engine; they keep random playouts climbing and falling."""
    ms = state.model(model)
    pos = ms.position
    view = terrain_view(state.scenario, model)
    r, tol = state.radius(model), state.rules.touch_tolerance
    budget = state.rules.ruler(state.rules.shorter(state.scenario.unit_of(model).move))
    here = shapely.Point(pos.xy)
    faces = set(climbable_faces(view, pos.xy, r, tol, pos.z, pos.z))  # (once, not per piece)
    for piece, props in view.pieces:
        if piece.id not in faces:
            continue
        top = props.height
        edge = shapely.shortest_line(here, piece.footprint).coords[-1]
        dx, dy = edge[0] - pos.x, edge[1] - pos.y
        n = math.hypot(dx, dy) or 1.0
        onto = (edge[0] + dx / n * 0.05, edge[1] + dy / n * 0.05)
        yield Move(model, (Step("climb", z=top), *walk(onto)))
        yield Move(model, (Step("climb", z=round(min(top - 0.1, pos.z + budget / 2), 6)),))
    if ms.climbing:
        yield Move(model, (Step("jump", z=0.0),))
    elif pos.z > Z_EPS:
        yield from _down_samples(state, model, budget)


def _down_samples(state: GameState, model: str, budget: float) -> Iterator[Move]:
    """From a top: step to the nearest edge, then jump down or climb down part-way."""
    pos = state.model(model).position
    floor = terrain_view(state.scenario, model).terrain_at(pos.z)[2]
    if floor is None or floor.is_empty:
        return
    edge = shapely.shortest_line(shapely.Point(pos.xy), floor.boundary).coords[-1]
    dx, dy = edge[0] - pos.x, edge[1] - pos.y
    n = math.hypot(dx, dy) or 1.0
    r = state.radius(model)
    lip = walk((edge[0] + dx / n * r, edge[1] + dy / n * r))
    yield Move(model, (*lip, Step("jump", z=0.0)))
    down = round(max(0.0, pos.z - (budget - n - r - 0.05)), 6)
    if down < pos.z:
        yield Move(model, (*lip, Step("climb", z=down)))


#: What a charge that reaches its target does next: ``after_contact(ctx, charge)``.
AfterContact = Callable[["ActionContext", Charge], None]


class ChargeKind(ActionKind[Charge]):
    """The Charge action: the charge ruler, ending in base contact with an enemy.

    ``after_contact`` runs when the charger reaches its target; the game
    declares it where its kinds are built (sim.game.kinds: the close-combat
    attack). None: a charge ends at contact.
    """

    action_type = Charge

    def __init__(self, after_contact: AfterContact | None = None) -> None:
        self.after_contact = after_contact

    def offers(self, state: GameState, model: str, param: Param,
               values: Mapping[str, object]) -> tuple[object, ...]:
        return step_offers(state, model, param, values, "charge")

    def check(self, state: GameState, action: Charge) -> str | None:
        why = _target_problem(state, action.model, action.target)
        if why is not None:
            return why
        plan = plan_movement(state, action.model, action.steps, ruler="charge")
        if plan.reason is not None:
            return plan.reason
        assert plan.end is not None
        if plan.climbing_at_end:
            return "a charge must end in base contact, not part-way up a face"
        return _charge_end_problem(state, action.model, plan.end, action.target)

    def apply(self, ctx: ActionContext, action: Charge) -> None:
        plan = plan_movement(ctx.state, action.model, action.steps, ruler="charge")
        target = model_name(ctx.scenario, action.target)
        where = follow_plan(ctx, action.model, plan, f"charges {target},")
        arrived = (plan.end is not None and where == plan.end
                   and ctx.state.model(action.model).in_play)
        ctx.log("charged", (action.model, action.target),
                f"{model_name(ctx.scenario, action.model)} "
                f"{'reaches' if arrived else 'does not reach'} {target}",
                target=action.target, contact=arrived)
        if arrived and self.after_contact is not None:
            self.after_contact(ctx, action)

    def samples(self, state: GameState, model: str) -> Iterable[Charge]:
        me = state.model(model)
        if me.climbing:
            return
        for other in state.positions():
            o = state.model(other)
            if o.side == me.side or o.climbing or abs(o.position.z - me.position.z) > Z_EPS:
                continue
            dx, dy = me.position.x - o.position.x, me.position.y - o.position.y
            dist = math.hypot(dx, dy)
            if dist == 0:
                continue
            reach = state.radius(model) + state.radius(other)
            x = o.position.x + dx / dist * reach
            y = o.position.y + dy / dist * reach
            yield Charge(model, other, walk((x, y)))


def _target_problem(state: GameState, model: str, target: str) -> str | None:
    if target not in state.models:
        return f"unknown target {target!r}"
    t = state.model(target)
    if not t.in_play:
        return f"{target!r} is not in play"
    if t.side == state.model(model).side or state.scenario.sides[t.side].neutral:
        return f"{target!r} is not an enemy"
    return None


def _charge_end_problem(state: GameState, model: str, end: Position, target: str) -> str | None:
    tm = state.model(target)
    t = tm.position
    gap = math.hypot(t.x - end.x, t.y - end.y) - state.radius(model) - state.radius(target)
    if tm.climbing and gap < -state.rules.touch_tolerance - _EPS:
        return f"the charge would end overlapping {target!r}'s marker"
    return contact_problem(state.rules, model, end, state.radius(model), target, t,
                           state.radius(target), tm.climbing)


class LeaveKind(ActionKind[Leave]):
    """Leave the board on purpose by the model's own movement (R-EDGE-2)."""

    action_type = Leave

    def _plan(self, state: GameState, action: Leave) -> tuple[str | None, float]:
        me = state.model(action.model)
        if me.climbing:
            return "a climbing model cannot leave the board", 0.0
        pts = [me.position.xy, *action.points]
        r, tol = state.radius(action.model), state.rules.touch_tolerance
        crossing = edge_crossing(state.scenario.board, pts, r, tol)
        if crossing is None:
            return "the path does not reach the board edge", 0.0
        at, after = crossing
        upto: list[Xy] = []
        travelled = 0.0
        for a, b in itertools.pairwise(pts):
            upto.append(a)
            leg = math.dist(a, b)
            if travelled + leg >= after - _EPS:
                break
            travelled += leg
        upto.append(at)
        rep = check_legs(level_of(state, action.model, me.position.z), r, upto, rest=False)
        if not rep.legal:
            return rep.reason, rep.length
        unit = state.scenario.unit_of(action.model)
        colour = state.rules.shorter(unit.move) if rep.difficult else unit.move
        limit = state.rules.ruler(colour)
        if after > limit + _EPS:
            why = (f" (difficult ground: {', '.join(dict.fromkeys(rep.difficult))})"
                   if rep.difficult else "")
            return (f"the board edge is {after:.2f} in along the path; the {colour} ruler"
                    f"{why} is {limit:g} in"), after
        return None, after

    def check(self, state: GameState, action: Leave) -> str | None:
        return self._plan(state, action)[0]

    def apply(self, ctx: ActionContext, action: Leave) -> None:
        _, after = self._plan(ctx.state, action)
        ctx.log("moved", (action.model,), f"{model_name(ctx.scenario, action.model)} moves "
                f"{after:.2f} in and leaves the board", distance=after, left=True)
        ctx.remove(action.model, Status.LEFT, "left the board by its own movement",
                   edge=self.edge(ctx.state, action))

    @staticmethod
    def edge(state: GameState, action: Leave) -> str | None:
        """The board edge the path crosses (where a carried cargo goes, R-OBJ-4)."""
        me = state.model(action.model)
        crossing = edge_crossing(state.scenario.board, [me.position.xy, *action.points],
                                 state.radius(action.model), state.rules.touch_tolerance)
        return None if crossing is None else edge_of(state.scenario.board, crossing[0])


_DIAG = math.sqrt(0.5)
_DIRECTIONS = ((1.0, 0.0), (_DIAG, _DIAG), (0.0, 1.0), (-_DIAG, _DIAG),
               (-1.0, 0.0), (-_DIAG, -_DIAG), (0.0, -1.0), (_DIAG, -_DIAG))

# --- reachable areas for the window ---------------------------------------------------


@dataclass(frozen=True)
class MoveArea:
    """Where a model can end a Move or Charge now, with witness paths (R-MOV-1, R-MOV-4)."""

    area: BaseGeometry
    reaches: tuple[Reach, ...] = field(default=())

    def path_to(self, p: Xy, shortest: bool = False) -> list[Xy] | None:
        """Waypoints (start first) of a legal path to ``p``, or None; ``shortest``: the
        shortest over the areas' trees (geometry.movement.reach.Reach.path_to)."""
        if not self.area.covers(shapely.Point(p)):
            return None
        paths = (path for reach in self.reaches
                 if (path := reach.path_to(p, shortest)) is not None)
        if shortest:
            return min(paths, key=path_length, default=None)
        return next(paths, None)

    def paths_to(self, pts: Sequence[Xy]) -> list[list[Xy] | None]:
        """:meth:`path_to` (the first tree's) of many points, tested all at once."""
        return paths_through(self.area, self.reaches, pts)


def reachable(state: GameState, model: str, *, charge: bool = False) -> MoveArea:
    """The area ``model``'s base centre can end in with its Move (or Charge) at its height.

    The union of the area kept by the full ruler without touching difficult
    ground and the area of the next shorter ruler through it (R-MOV-1).
    For a charge, only places in base contact with an enemy at the same
    height, or with a climbing enemy's marker within Orange (R-CLIMB-3).
    Horizontal movement only (climbs and jumps are not drawn).
    Conservative: never contains an illegal end point (geometry.movement.reach).
    """
    me = state.model(model)
    if me.climbing:
        return MoveArea(shapely.Polygon())
    unit = state.scenario.unit_of(model)
    colour = unit.charge if charge else unit.move
    full = state.rules.ruler(colour)
    short = state.rules.ruler(state.rules.shorter(colour))
    level = level_of(state, model, me.position.z)
    r = state.radius(model)
    start = me.position.xy
    reaches = [reachable_area(level, r, start, full, avoid_difficult=True)]
    if len(level.difficult):
        reaches.append(reachable_area(level, r, start, short))
    area = shapely.union_all([x.area for x in reaches])
    if charge:
        bands = [_charge_band(state, model, o, p) for o, p in state.positions().items()
                 if _target_problem(state, model, o) is None]
        kept = [b for b in bands if b is not None]
        area = area.intersection(shapely.union_all(kept)) if kept else shapely.Polygon()
    return MoveArea(area, tuple(reaches))


def _charge_band(state: GameState, model: str, target: str, at: Position) -> BaseGeometry | None:
    """Where ``model``'s centre is in base contact with ``target`` at its own height.

    A target at the same height: the contact band (its base is an obstacle of
    the level, which cuts the overlap side). A climbing target within Orange
    above or below (R-CLIMB-3): its marker is no obstacle, so the band loses a
    circumscribed disc where the bases would overlap by more than half the
    tolerance (the check allows the whole tolerance).
    """
    me = state.model(model).position
    tol = state.rules.touch_tolerance
    r, tr = state.radius(model), state.radius(target)
    dz = abs(at.z - me.z)
    if not state.model(target).climbing:
        return contact_band(at.xy, tr, r, tol) if dz <= Z_EPS else None
    if dz > state.rules.orange + Z_EPS:
        return None
    inner = MoveObstacle.circle(target, at.xy, r + tr - tol / 2).outline(0.0, 32)
    return contact_band(at.xy, tr, r, tol).difference(inner)
