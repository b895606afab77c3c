"""What the scenario's objectives are worth to the AI (R-OBJ-2..6, docs/ai.md).

The holding and carrying rules are the engine's (:mod:`sim.engine.objectives`); this
module only weighs them next to the attacks of :mod:`sim.ai.scoring`, where one
point of the score (an enemy eliminated, R-TURN-10) is worth 1:

- a zone or a marker pulls a model toward it, ``WEIGHT`` per point when its base
  counts there, half that just outside, less the farther it stands (:func:`pull`);
- a cargo marker lying free pulls a model that carries nothing the same way; a
  carrier is pulled toward its side's exit edge (``CARRY`` a point and an inch:
  more than a shot is worth, the cargo outweighs a kill), and carrying it off is worth its
  points (the enemy gains no point for the carrier gone, R-OBJ-4);
- :mod:`sim.ai.objective_moves` adds the walks toward each objective, as near as
  the reachable area goes, and the carrier's ``leave`` over its exit edge;
- search adds :func:`playout_worth` to each playout and, in the last round,
  :func:`last_round_worth` to each candidate.

A player that ignores objectives (``greedy-blind``, the measure in docs/ai.md)
never calls this module.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from sim.engine.actions import Action
from sim.engine.objectives import cargo_at, counts, near
from sim.engine.state import GameState
from sim.movement.kinds import Charge, Leave, LeaveKind, Move, plan_movement
from sim.scenario.objectives import Objective
from sim.scenario.positions import Position

#: What one objective point is worth to a model standing where it counts.
WEIGHT = 0.6
#: The gap (inches) at which an objective's pull is halved.
SCALE = 4.0
#: A carrier's pull toward its exit, per point of its cargo and inch still to go.
CARRY = 0.05
#: A zone or marker a friend already holds pulls this much less.
SHARED = 0.5


def spot_value(state: GameState, model: str, at: Position) -> float:
    """The objectives' worth of ``model`` standing at ``at``: the best pull of one."""
    if not state.scenario.objectives:
        return 0.0
    carried = state.objectives.carried_by(model)
    if carried is not None:
        return _carry(state, model, state.scenario.objective(carried), at)
    best = 0.0
    for o, point in targets(state):
        gap = _gap(state, model, o, point, at)
        share = SHARED if o.kind != "cargo" and _held_by_friends(state, model, o) else 1.0
        best = max(best, share * pull(o.points, gap))
    return best


def targets(state: GameState) -> Iterator[tuple[Objective, tuple[float, float]]]:
    """The objectives a model that carries nothing is pulled to, and their points: every
    zone and marker, and each cargo marker lying free."""
    for o in state.scenario.objectives:
        if o.kind != "cargo":
            yield o, o.at
        elif state.objectives.cargo[o.id].carrier is None:
            point = cargo_at(state, o.id)
            if point is not None:
                yield o, point


def pull(points: int, gap: float) -> float:
    """The worth of standing ``gap`` inches from counting for ``points``: ``WEIGHT`` a
    point where it counts, half that just outside, halved again at ``SCALE`` inches
    (a step at the edge, so a model steps in rather than shooting from just outside)."""
    if gap <= 0.0:
        return WEIGHT * points
    return WEIGHT * points * 0.5 * SCALE / (SCALE + gap)


def _gap(state: GameState, model: str, o: Objective, point: tuple[float, float],
         at: Position) -> float:
    """Inches the base at ``at`` is from counting for the objective (0 when it counts)."""
    return max(0.0, math.dist(at.xy, point) - state.radius(model) - o.reach)


def _held_by_friends(state: GameState, model: str, o: Objective) -> bool:
    """Friends other than ``model`` already outnumber the enemy there."""
    side = state.model(model).side
    n = near(state, o)
    mine = n[side] - (1 if counts(state, o, o.at, model) else 0)
    return mine > n[state.opponent(side)]


def _carry(state: GameState, model: str, o: Objective, at: Position) -> float:
    """A carrier's pull toward its exit edge (none: the cargo is worth holding only)."""
    edge = o.exits.get(state.model(model).side)
    if edge is None:
        return 0.0
    gap = max(0.0, _edge_gap(state.scenario.board, edge, at.xy) - state.radius(model))
    return o.points * max(0.0, WEIGHT - CARRY * gap)


def _edge_gap(board: tuple[float, float], edge: str, xy: tuple[float, float]) -> float:
    x, y = xy
    return {"north": y, "east": board[0] - x, "south": board[1] - y, "west": x}[edge]


def leave_value(state: GameState, action: Leave) -> float | None:
    """Carrying cargo off its exit: its points (no point for the enemy, R-OBJ-4); None
    for any other leave (only a point for the enemy, R-EDGE-2)."""
    cid = state.objectives.carried_by(action.model)
    if cid is None:
        return None
    o = state.scenario.objective(cid)
    if o.exits.get(state.model(action.model).side) != LeaveKind.edge(state, action):
        return None
    return float(o.points)


def last_round_worth(state: GameState, action: Action) -> float:
    """In the last round (sim.ai.last_round), what an action of the acting model does for
    the objectives: the worth of where it leaves the model (a zone or a marker held
    when the round ends, R-OBJ-2/3), or carrying cargo off (R-OBJ-4)."""
    act = state.activation
    if act is None or not state.scenario.objectives:
        return 0.0
    if isinstance(action, Leave):
        return leave_value(state, action) or 0.0
    end: Position | None = state.model(act.model).position
    if isinstance(action, Charge):
        end = plan_movement(state, act.model, action.steps, ruler="charge").end
    elif isinstance(action, Move):
        end = plan_movement(state, act.model, action.steps).end
    return 0.0 if end is None else spot_value(state, act.model, end)


def playout_worth(before: GameState, after: GameState, me: str) -> float:
    """What a search playout did for the objectives, for ``me`` against the opponent:
    the objective points each side scored in it (R-OBJ-2..4) and the worth of where its
    models stand at its end (:func:`spot_value`). 0 without objectives."""
    if not before.scenario.objectives:
        return 0.0
    them = before.opponent(me)

    def scored(side: str) -> int:
        return after.objectives.points.get(side, 0) - before.objectives.points.get(side, 0)

    def standing(side: str) -> float:
        return sum(spot_value(after, m.id, m.position) for m in after.side_models(side))

    return scored(me) - scored(them) + standing(me) - standing(them)
