"""Objectives in play (R-OBJ-1..6): who holds a zone or a marker, who carries which
cargo, and the objective points each side has scored.

The state is one frozen :class:`ObjectiveState` in the :class:`~sim.engine.state.GameState`,
changed only through its :class:`~sim.engine.state.StateWriter`, so undo, saves and
replays keep it. The score itself is :func:`sim.engine.turns.score` (kills and these
points together, R-OBJ-5/6); the AI reads the holding rules here too.

Distances are on the plan (heights ignored): a base counts for a zone when it
overlaps or touches its circle, for a marker or a cargo marker when the gap from
the base's edge to the point is at most ``within`` (R-DIST-1, R-UNIT-2's tolerance).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING

from sim.engine.gamedata import Status
from sim.scenario.names import display_names
from sim.scenario.objectives import Objective

if TYPE_CHECKING:
    from sim.engine.state import GameState, StateWriter
    from sim.scenario.objects import Scenario


@dataclass(frozen=True)
class Cargo:
    """A cargo marker in play: where it lies, who carries it (then it is where the
    carrier is), or ``gone`` ("scored" or "lost") once carried off the board."""

    at: tuple[float, float]
    carrier: str | None = None
    gone: str | None = None


@dataclass(frozen=True)
class ObjectiveState:
    """Objective points scored per side, and every cargo marker (R-OBJ-4, R-OBJ-6)."""

    points: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    cargo: Mapping[str, Cargo] = field(default_factory=lambda: MappingProxyType({}))

    def with_points(self, side: str, n: int) -> ObjectiveState:
        return replace(self, points=MappingProxyType(
            {**self.points, side: self.points.get(side, 0) + n}))

    def with_cargo(self, cid: str, cargo: Cargo) -> ObjectiveState:
        return replace(self, cargo=MappingProxyType({**self.cargo, cid: cargo}))

    def carried_by(self, model: str) -> str | None:
        """The cargo ``model`` carries, or None."""
        return next((c for c, v in self.cargo.items() if v.carrier == model), None)


def initial(scenario: Scenario, sides: tuple[str, str]) -> ObjectiveState:
    cargo = {o.id: Cargo(o.at) for o in scenario.objectives if o.kind == "cargo"}
    return ObjectiveState(MappingProxyType(dict.fromkeys(sides, 0)), MappingProxyType(cargo))


def counts(state: GameState, objective: Objective, at: tuple[float, float],
           model: str, where: tuple[float, float] | None = None) -> bool:
    """Whether ``model`` (standing at ``where``, default its place) counts for the
    objective point ``at`` (a zone's centre, a marker, a cargo marker)."""
    p = where or state.model(model).position.xy
    gap = math.dist(p, at) - state.radius(model)
    return gap <= objective.reach + state.rules.touch_tolerance


def near(state: GameState, objective: Objective) -> dict[str, int]:
    """How many models of each side in play count for a zone or a marker."""
    return {side: sum(1 for m in state.side_models(side)
                      if counts(state, objective, objective.at, m.id))
            for side in state.sides}


def holder(state: GameState, objective: Objective) -> str | None:
    """R-OBJ-2: a zone's holder has more models touching it than the enemy; R-OBJ-3: a
    marker's has a base within reach and the enemy none. None: held by nobody."""
    n = near(state, objective)
    a, b = state.sides
    if objective.kind == "marker":
        return a if n[a] and not n[b] else b if n[b] and not n[a] else None
    return a if n[a] > n[b] else b if n[b] > n[a] else None


def cargo_at(state: GameState, cid: str) -> tuple[float, float] | None:
    """Where a cargo marker is now (its carrier's place when carried), None once gone."""
    c = state.objectives.cargo[cid]
    if c.gone is not None:
        return None
    return state.model(c.carrier).position.xy if c.carrier is not None else c.at


def score_round(w: StateWriter) -> None:
    """R-OBJ-2/3: at the end of every round, each zone and marker scores for its holder."""
    state = w.state
    names = display_names(state.scenario)
    for o in state.scenario.objectives:
        if o.kind == "cargo":
            continue
        side = holder(state, o)
        if side is None:
            continue
        w.set_objectives(state.objectives.with_points(side, o.points))
        w.emit("objective-held", (), f"{names.side(side)} holds {o.id} at the end of "
               f"round {state.round}: {o.points} point(s).", objective=o.id, side=side,
               points=o.points)


def pick_up(w: StateWriter, model: str) -> None:
    """R-OBJ-4: after its action, a model in play that carries nothing picks up the first
    cargo marker lying within its reach."""
    state = w.state
    ms = state.model(model)
    if not ms.in_play or ms.climbing or state.objectives.carried_by(model) is not None:
        return
    for cid, c in state.objectives.cargo.items():
        if c.gone is None and c.carrier is None and counts(
                state, state.scenario.objective(cid), c.at, model):
            w.set_objectives(state.objectives.with_cargo(cid, replace(c, carrier=model)))
            w.emit("cargo-picked-up", (model,), f"{display_names(state.scenario).model(model)}"
                   f" picks up {cid}.", objective=cid)
            return


def removed(w: StateWriter, model: str, how: Status, edge: str | None) -> None:
    """R-OBJ-4: a carrier eliminated drops its cargo where it stood; one that leaves the
    board by its side's exit scores the cargo's points (and no point for the enemy:
    :func:`escaped`), by any other edge loses it."""
    state = w.state
    cid = state.objectives.carried_by(model)
    if cid is None:
        return
    ms, o = state.model(model), state.scenario.objective(cid)
    name = display_names(state.scenario).model(model)
    c = state.objectives.cargo[cid]
    if how is Status.ELIMINATED or edge is None:
        w.set_objectives(state.objectives.with_cargo(cid, Cargo(ms.position.xy)))
        w.emit("cargo-dropped", (model,), f"{name} drops {cid}.", objective=cid)
    elif o.exits.get(ms.side) == edge:  # the carrier stays recorded: no point for the enemy
        w.set_objectives(state.objectives.with_cargo(cid, replace(c, gone="scored"))
                         .with_points(ms.side, o.points))
        w.emit("cargo-scored", (model,), f"{name} carries {cid} off the {edge} edge: "
               f"{o.points} point(s).", objective=cid, side=ms.side, points=o.points)
    else:
        w.set_objectives(state.objectives.with_cargo(cid, replace(c, gone="lost")))
        w.emit("cargo-lost", (model,), f"{name} carries {cid} off the {edge} edge, not "
               "its side's exit: the cargo is lost.", objective=cid)


def escaped(state: GameState, model: str) -> bool:
    """R-OBJ-4: the model left the board with cargo by its exit, so it does not count as
    eliminated for scoring (the scenario says otherwise, as R-EDGE-2 allows)."""
    return any(c.carrier == model and c.gone == "scored"
               for c in state.objectives.cargo.values())


def to_dict(o: ObjectiveState) -> dict[str, object]:
    """The objective state as plain data (saves' and the state's ``to_dict``)."""
    return {"points": dict(o.points),
            "cargo": {c: {"at": list(v.at), "carrier": v.carrier, "gone": v.gone}
                      for c, v in o.cargo.items()}}
