"""Movement paths checked without changing anything (R-MOV-*, R-CLIMB-*, R-JUMP-1,
R-EDGE-1): the steps of a movement, and :func:`plan_movement`, which returns a
:class:`Plan` (legality with the reason, length, ruler, difficult pieces,
where it ends). :mod:`sim.movement.kinds` holds the action kinds that apply a plan.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Literal

import shapely
from shapely.geometry.base import BaseGeometry

from geometry.movement.paths import LegsReport, Level, check_legs, check_legs_many
from sim.engine.actions import fmt_num, parse_num
from sim.engine.state import GameState
from sim.errors import IllegalActionError
from sim.movement.levels import (
    Z_EPS,
    climbable_faces,
    is_level,
    level_for,
    level_heights,
    terrain_view,
)
from sim.scenario.positions import Position

StepKind = Literal["walk", "climb", "jump"]
Xy = tuple[float, float]
_EPS = 1e-9


@dataclass(frozen=True)
class Step:
    """One step of a path: walk to ``(x, y)``, or climb/jump to height ``z``."""

    kind: StepKind
    x: float = 0.0
    y: float = 0.0
    z: float = 0.0

    def tokens(self) -> tuple[str, ...]:
        if self.kind == "walk":
            return (fmt_num(self.x), fmt_num(self.y))
        return (self.kind, fmt_num(self.z))


def walk(*points: Xy) -> tuple[Step, ...]:
    """Walk steps through ``points`` (a helper for code and tests)."""
    return tuple(Step("walk", float(x), float(y)) for x, y in points)


def parse_steps(text: str, tokens: Sequence[str], usage: str) -> tuple[Step, ...]:
    """Read ``X Y`` / ``climb Z`` / ``jump Z`` steps; at least one."""
    steps: list[Step] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok in ("climb", "jump"):
            if i + 1 >= len(tokens):
                raise IllegalActionError(text, f"{tok!r} needs a height; expected {usage!r}")
            steps.append(Step(tok, z=parse_num(text, tokens[i + 1], "Z")))  # type: ignore[arg-type]
            i += 2
            continue
        if i + 1 >= len(tokens):
            raise IllegalActionError(text, f"a waypoint needs X and Y; expected {usage!r}")
        steps.append(Step("walk", parse_num(text, tok, "X"), parse_num(text, tokens[i + 1], "Y")))
        i += 2
    if not steps:
        raise IllegalActionError(text, f"expected {usage!r}")
    return tuple(steps)


# --- planning (read only) ------------------------------------------------------------


@dataclass(frozen=True)
class Vertical:
    """A vertical step of a plan: where, from and to which height, and how."""

    kind: Literal["climb", "jump"]
    at: Xy
    z0: float
    z1: float
    pieces: tuple[str, ...] = ()  # the faces climbed
    partway: bool = False  # ends off any surface: the model is climbing (R-CLIMB-3)


@dataclass(frozen=True)
class Plan:
    """A checked movement: legal or the reason; length, ruler, pieces; the path walked."""

    reason: str | None
    length: float = 0.0
    ruler: str = ""
    limit: float = 0.0
    difficult: tuple[str, ...] = ()
    blocked_by: tuple[str, ...] = ()
    end: Position | None = None
    climbing_at_end: bool = False
    # The path as a sequence of positions and vertical steps, in order.
    route: tuple[Position | Vertical, ...] = ()

    @property
    def legal(self) -> bool:
        return self.reason is None


def _context(state: GameState, model: str) -> tuple[dict[str, Position], dict[str, str],
                                                    dict[str, float], frozenset[str]]:
    positions = dict(state.positions())
    sides = {i: state.model(i).side for i in positions}
    radii = {i: state.radius(i) for i in positions}
    climbing = frozenset(i for i in positions if state.model(i).climbing and i != model)
    return positions, sides, radii, climbing


def level_of(state: GameState, model: str, z: float) -> Level:
    """What ``model`` meets moving at height ``z`` now (kept in ``state.memo`` until a
    model changes)."""
    return state.memo.get(("level", model, z), lambda: _level(state, model, z))


def _level(state: GameState, model: str, z: float) -> Level:
    positions, sides, radii, climbing = _context(state, model)
    return level_for(state.scenario, model, z, positions, sides, radii,
                     state.rules.touch_tolerance, climbing=climbing)


def plan_movement(state: GameState, model: str, steps: Sequence[Step], *,
                  ruler: Literal["move", "charge"] = "move") -> Plan:
    """Check a movement path for ``model`` now (read only; see the module docstring).

    The ruler is the unit's Move or Charge colour, one shorter when the base
    crosses difficult ground or any step climbs (R-MOV-1, R-CLIMB-1). The
    length is the horizontal length plus every height climbed or jumped
    (R-MOV-5). A jump always completes: it may carry the length past the
    ruler when it is the last step (R-JUMP-1).

    Kept in ``state.memo`` until a model changes: the legality check, the AI's
    weighing and the apply step plan the same path on the same board.
    """
    return state.memo.get(_plan_key(model, steps, ruler),
                          lambda: _Walk(state, model).plan(steps, ruler))


def _plan_key(model: str, steps: Sequence[Step], ruler: str) -> Hashable:
    return ("movement-plan", model, tuple(steps), ruler)


def plan_walks(state: GameState, model: str, walks: Sequence[Sequence[Step]], *,
               ruler: Literal["move", "charge"] = "move") -> None:
    """:func:`plan_movement` for many plain walks of a model not climbing (the AI's
    candidates), their paths swept in one batched check
    (:func:`geometry.movement.paths.check_legs_many`, the same answers), into
    ``state.memo`` where :func:`plan_movement` finds them."""
    me = state.model(model)
    if me.climbing:
        return
    todo = list({tuple(w): None for w in walks if all(s.kind == "walk" for s in w)
                 and not state.memo.has(_plan_key(model, w, ruler))})
    if len(todo) < 2:  # nothing to batch
        return
    walk = _Walk(state, model)
    start = me.position.xy
    swept = check_legs_many(walk.level(walk.z), walk.r,
                            [[start, *((s.x, s.y) for s in w)] for w in todo])
    for steps, rep in zip(todo, swept, strict=True):
        plan = _Walk(state, model, swept=rep).plan(steps, ruler)
        state.memo.get(_plan_key(model, steps, ruler), _planned(plan))


def _planned(plan: Plan) -> Callable[[], Plan]:
    return lambda: plan


class _Refused(Exception):
    """A step the rules refuse: its reason (raised inside :class:`_Walk` only)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class _Walk:
    """One path being checked step by step for :func:`plan_movement`: the walking run
    not yet swept, the route so far, its length and what it met."""

    def __init__(self, state: GameState, model: str, swept: LegsReport | None = None) -> None:
        self.state, self.model = state, model
        self.swept = swept  # the whole walk's sweep, when checked already (plan_walks)
        me = state.model(model)
        self.r, self.tol = state.radius(model), state.rules.touch_tolerance
        self.z = me.position.z
        # A model climbing at the top of a face (its base resting on the top) may walk on.
        self.partway = me.climbing and not is_level(
            terrain_view(state.scenario, model), me.position.xy, self.z, self.r, self.tol)
        self.run: list[Xy] = [me.position.xy]  # the walk since the last vertical step
        self.route: list[Position | Vertical] = [me.position]
        self.difficult: list[str] = []
        self.blocked: list[str] = []
        self.length = 0.0
        self.climbed = me.climbing  # finishing a climb is climbing (R-CLIMB-1)
        self.jump_last = False
        self._levels: dict[float, Level] = {}

    def level(self, at: float) -> Level:
        if at not in self._levels:
            self._levels[at] = level_of(self.state, self.model, at)
        return self._levels[at]

    def plan(self, steps: Sequence[Step], ruler: Literal["move", "charge"]) -> Plan:
        try:
            for n, step in enumerate(steps, 1):
                self.jump_last = False
                if step.kind == "walk":
                    self.walk(n, step)
                else:
                    self.vertical(n, step)
            self.finish(steps)
        except _Refused as exc:
            return Plan(exc.reason, self.length, blocked_by=tuple(self.blocked),
                        difficult=tuple(dict.fromkeys(self.difficult)))
        return self.measured(ruler)

    def walk(self, n: int, step: Step) -> None:
        if self.partway:
            raise _Refused(f"step {n}: a climbing model must climb or jump before walking "
                           "(R-CLIMB-3)")
        self.run.append((step.x, step.y))
        self.route.append(Position(step.x, step.y, self.z))

    def sweep(self, final: bool) -> None:
        """Sweep the base along the walk so far (R-MOV-1..4, R-EDGE-1)."""
        if self.partway:
            return  # off the table: nothing to sweep (R-CLIMB-3)
        rep = (self.swept if final and self.swept is not None
               else check_legs(self.level(self.z), self.r, self.run, rest=final))
        self.difficult.extend(rep.difficult)
        self.length += rep.length
        if not rep.legal:
            self.blocked.extend(rep.blocked_by or rep.ends_on)
            if rep.edge_at is not None:
                raise _Refused(rep.reason + "; use 'leave' to leave the board (R-EDGE-2)")
            raise _Refused(rep.reason)

    def vertical(self, n: int, step: Step) -> None:
        """A climb or a jump at the end of the walk so far (R-CLIMB-1..5, R-JUMP-1)."""
        self.sweep(final=False)
        here, z = self.run[-1], self.z
        if abs(step.z - z) <= Z_EPS:
            raise _Refused(f"step {n}: {step.kind} to {step.z:g} in does not change height")
        if step.z < -Z_EPS:
            raise _Refused(f"step {n}: height {step.z:g} in is below the table")
        checked = _vertical(self.state, self.model, step, here, z, self.level(z).floor)
        if isinstance(checked, str):
            raise _Refused(f"step {n}: {checked}")
        if checked.kind == "jump":
            # The landing spot must be one the model could end its movement on:
            # a hurt jumper stops there (R-FALL-3); no landing on a base.
            rep = check_legs(self.level(step.z), self.r, [here])
            if not rep.legal:
                names = rep.blocked_by or rep.ends_on
                self.blocked.extend(names)
                what = ("the base would overlap " + ", ".join(repr(x) for x in names)
                        if names else rep.reason)
                raise _Refused(f"step {n}: the jump cannot land at ({here[0]:.2f}, "
                               f"{here[1]:.2f}, {step.z:g}): {what}")
        self.route.append(checked)
        self.climbed = self.climbed or checked.kind == "climb"
        self.jump_last = checked.kind == "jump"
        self.length += abs(step.z - z)
        self.z = step.z
        self.partway = checked.partway
        self.run = [here]
        self.route.append(Position(here[0], here[1], self.z))

    def finish(self, steps: Sequence[Step]) -> None:
        """The last walk swept; where the path ends allowed (R-CLIMB-3, R-CLIMB-5)."""
        floor = self.level(self.z).floor
        if (not self.partway and steps[-1].kind == "climb" and floor is not None
                and not floor.covers(shapely.Point(self.run[-1]))):
            self.partway = True  # stopped at the top of the face, not on it yet (R-CLIMB-3)
        self.sweep(final=True)
        if self.partway and self.state.scenario.rules == "vts-1.5":
            raise _Refused("in vts-1.5 a movement cannot end part-way up a face (R-CLIMB-5)")

    def measured(self, ruler: Literal["move", "charge"]) -> Plan:
        """The path against the unit's ruler (R-MOV-1, R-MOV-5, R-JUMP-1)."""
        rules, unit = self.state.rules, self.state.scenario.unit_of(self.model)
        base_colour = unit.charge if ruler == "charge" else unit.move
        # Climbing counts as difficult ground (R-CLIMB-1), which an unhindered
        # model treats as normal (R-MOV-2; Decision in docs/movement.md).
        hindered = bool(self.difficult) or (self.climbed and "unhindered" not in unit.keywords)
        colour = rules.shorter(base_colour) if hindered else base_colour
        limit = rules.ruler(colour)
        difficult = tuple(dict.fromkeys(self.difficult))
        if self.length > limit + _EPS:
            jump_ok = self.jump_last and _length_before_last_jump(self.route) <= limit + _EPS
            if not jump_ok:
                why_short = (" (difficult ground)" if self.difficult
                             else " (climbing)" if hindered else "")
                return Plan(f"the path is {self.length:.2f} in long; the {colour} ruler"
                            f"{why_short} is {limit:g} in", self.length, colour, limit,
                            difficult)
        end = self.route[-1]
        assert isinstance(end, Position)
        return Plan(None, self.length, colour, limit, difficult, (), end, self.partway,
                    tuple(self.route))


def _vertical(state: GameState, model: str, step: Step, here: Xy, z: float,
              floor: BaseGeometry | None) -> Vertical | str:
    """Check one ``climb`` or ``jump`` step at ``here`` from height ``z``; the reason if not.

    R-CLIMB-1/4/5 and R-JUMP-1; see docs/movement.md (Decisions).
    """
    scenario = state.scenario
    unit = scenario.unit_of(model)
    view = terrain_view(scenario, model)
    r, tol = state.radius(model), state.rules.touch_tolerance
    vts = scenario.rules == "vts-1.5"
    lands = is_level(view, here, step.z, r, tol)
    if step.kind == "climb":
        if "climb-incapable" in unit.keywords:
            return f"{unit.name} cannot climb (climb-incapable, R-CLIMB-4)"
        low, high = min(z, step.z), max(z, step.z)
        faces = climbable_faces(view, here, r, tol, low, high)
        if not faces:
            return (f"no climbable face reaching {high:g} in touches the base at "
                    f"({here[0]:.2f}, {here[1]:.2f})")
        if not lands and vts:
            return "in vts-1.5 a climb must end on a surface (R-CLIMB-5)"
        return Vertical("climb", here, z, step.z, tuple(faces), partway=not lands)
    if vts:
        return "there is no jumping in vts-1.5 (R-CLIMB-5)"
    if step.z > z:
        return "a jump only goes down (R-JUMP-1)"
    if not lands:
        return f"no surface at {step.z:g} in under the base to land on"
    if floor is not None and floor.contains(shapely.Point(here)):
        return "the base centre must be past the edge to jump down"
    return Vertical("jump", here, z, step.z)


def vertical_offers(state: GameState, model: str, steps: Sequence[Step], *,
                    ruler: Literal["move", "charge"] = "move") -> tuple[Step, ...]:
    """Climb and jump steps that may follow ``steps``: the heights a player can stop at.

    Each offer passes the same step check as :func:`plan_movement` (a climbable
    face reaching the height touches the base, R-CLIMB-1; a surface to land
    on, R-JUMP-1; R-CLIMB-5 in ``vts-1.5``), and a climb fits the ruler that
    climbing leaves (R-CLIMB-1, R-MOV-5; a jump may carry past it, R-JUMP-1).
    Part-way up a face (R-CLIMB-3, ``rulebook``): every whole inch below its
    top and the highest tenth of an inch the ruler reaches.
    """
    me = state.model(model)
    if not me.in_play or "climb-incapable" in state.scenario.unit_of(model).keywords:
        return ()
    here, z = me.position.xy, me.position.z
    for step in steps:
        if step.kind == "walk":
            here = (step.x, step.y)
        else:
            z = step.z
    length = plan_movement(state, model, steps, ruler=ruler).length if steps else 0.0
    budget = _climb_limit(state, model, ruler) - length
    floor = level_of(state, model, z).floor
    out: list[Step] = []
    for h in _candidate_heights(state, model, here, z, budget):
        climb = Step("climb", z=h)
        if abs(h - z) <= budget + _EPS and isinstance(
                _vertical(state, model, climb, here, z, floor), Vertical):
            out.append(climb)
        jump = Step("jump", z=h)
        if h < z and isinstance(_vertical(state, model, jump, here, z, floor), Vertical):
            out.append(jump)
    return tuple(out)


def _climb_limit(state: GameState, model: str, ruler: Literal["move", "charge"]) -> float:
    """The ruler of a movement that climbs: one shorter unless unhindered (R-CLIMB-1, R-MOV-2)."""
    unit = state.scenario.unit_of(model)
    colour = unit.charge if ruler == "charge" else unit.move
    if "unhindered" not in unit.keywords:
        colour = state.rules.shorter(colour)
    return state.rules.ruler(colour)


def _candidate_heights(state: GameState, model: str, here: Xy, z: float,
                       budget: float) -> list[float]:
    """Heights to try at ``here``: levels the base touches, tops of climbable faces
    it touches, and (rulebook) stops part-way up them (see :func:`vertical_offers`)."""
    view = terrain_view(state.scenario, model)
    r, tol = state.radius(model), state.rules.touch_tolerance
    heights = set(level_heights(view, here, r, tol))
    # Faces rising above ``z`` (to climb up), and faces reaching ``z`` (to climb down).
    faces = set(climbable_faces(view, here, r, tol, z, z))
    faces |= set(climbable_faces(view, here, r, tol, 0.0, z)) if z > Z_EPS else set()
    for piece, props in view.pieces:
        if piece.id not in faces:
            continue
        heights.add(props.height)
        if state.scenario.rules == "rulebook" and props.height > z + Z_EPS:
            stops = [float(i) for i in range(math.floor(z) + 1, math.ceil(props.height))]
            top = math.floor((z + budget) * 10 + _EPS) / 10
            heights.update(h for h in [*stops, top] if z + Z_EPS < h < props.height - Z_EPS)
    return sorted(h for h in heights if abs(h - z) > Z_EPS)


def _length_before_last_jump(route: Sequence[Position | Vertical]) -> float:
    total = 0.0
    prev: Position | None = None
    for item in route:
        if isinstance(item, Vertical):
            if item.kind == "jump" and item is route[-2]:
                return total
            total += abs(item.z1 - item.z0)
            continue
        if prev is not None and abs(prev.z - item.z) <= Z_EPS:
            total += math.hypot(item.x - prev.x, item.y - prev.y)
        prev = item
    return total
