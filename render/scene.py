"""What the window shows, as plain values: a snapshot of the board.

Drawing is a pure function of a :class:`Scene` and view options. A scene is
built from a scenario as set up (``wasteland render``, the read-only board)
or from a game state (:func:`scene_from_state`, which the controller calls)
and carries everything drawn of the board, the significant edges too, so the
drawing code never reaches into the engine or the rules itself. This module
is the bottom of render/: render.draw, render.explain and render.input all
read it (tests/test_layers.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shapely.geometry.base import BaseGeometry

from sim.engine import objectives as held
from sim.engine.gamedata import Readiness, Status
from sim.engine.state import GameState
from sim.engine.turns import score
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position, initial_positions
from sim.shooting.elevation_rules import board_elevation


@dataclass(frozen=True)
class ModelView:
    """One model as drawn."""

    id: str
    side: str
    unit_name: str
    x: float
    y: float
    z: float
    radius: float
    health: int
    max_health: int
    readiness: Readiness = Readiness.UNREADY  # no marker (R-TURN-1)
    climbing: bool = False  # R-CLIMB-3: off the table, position marked
    off_table: bool = False  # left the board (R-EDGE-2)
    removed: bool = False  # eliminated (R-TURN-10)

    @property
    def on_board(self) -> bool:
        return not (self.off_table or self.removed)


@dataclass(frozen=True)
class ObjectiveView:
    """One objective as drawn (R-OBJ-1): where it is now, how near a base must be,
    and who holds it now (a zone or marker) or carries it (cargo)."""

    id: str
    kind: str  # zone, marker, cargo
    x: float
    y: float
    reach: float  # a zone's radius, a marker's distance
    points: int
    holder: str | None = None  # the side that would score it if the round ended now
    carrier: str | None = None  # the model carrying the cargo


@dataclass(frozen=True)
class Scene:
    """The board at one moment: models plus the turn context."""

    scenario: Scenario
    models: tuple[ModelView, ...]
    edges: tuple[BaseGeometry, ...]  # the board's significant edges (R-ELEV-2)
    round: int | None = None
    rounds: int | None = None
    advantage: str | None = None
    side_to_act: str | None = None
    active_model: str | None = None
    actions_left: int | None = None
    phase: str = ""
    result: str | None = None  # game over text
    side_order: tuple[str, ...] = field(default=())
    objectives: tuple[ObjectiveView, ...] = ()  # R-OBJ-1; cargo gone off the board left out
    scores: tuple[tuple[str, int], ...] = ()  # the running score, side by side (R-OBJ-6)

    def model(self, model_id: str) -> ModelView:
        for m in self.models:
            if m.id == model_id:
                return m
        raise KeyError(model_id)

    def positions(self) -> dict[str, Position]:
        return {m.id: Position(m.x, m.y, m.z) for m in self.models if m.on_board}

    def climbing(self) -> frozenset[str]:
        """The models part-way up a face (R-CLIMB-3): neither blocking nor giving cover."""
        return frozenset(m.id for m in self.models if m.climbing)

    def side_index(self, side: str) -> int:
        order = self.side_order or tuple(self.scenario.sides)
        return order.index(side) if side in order else 0


def significant_edge_lines(scenario: Scenario) -> tuple[BaseGeometry, ...]:
    """The board's significant edges (R-ELEV-2), as the elevation rules derive them."""
    return tuple(e.geometry for e in board_elevation(scenario).edges.edges)


def scene_from_scenario(scenario: Scenario, positions: dict[str, Position] | None = None) -> Scene:
    """The board as the scenario sets it up (or with models moved to ``positions``)."""
    pos = dict(initial_positions(scenario))
    if positions:
        pos.update(positions)
    models = tuple(
        ModelView(
            id=m.id,
            side=m.side,
            unit_name=scenario.units[m.unit].name,
            x=pos[m.id].x,
            y=pos[m.id].y,
            z=pos[m.id].z,
            radius=scenario.radius_of(m.id),
            health=scenario.units[m.unit].health,
            max_health=scenario.units[m.unit].health,
        )
        for m in scenario.models
    )
    return Scene(
        scenario=scenario,
        models=models,
        edges=significant_edge_lines(scenario),
        rounds=scenario.rounds,
        advantage=scenario.advantage,
        phase="set-up (read only)",
        side_order=tuple(scenario.sides),
        objectives=tuple(ObjectiveView(o.id, o.kind, o.at[0], o.at[1], o.reach, o.points)
                         for o in scenario.objectives),
    )


def scene_from_state(scenario: Scenario, st: GameState) -> Scene:
    """The board as the engine has it in ``st``: positions, health, readiness, turn."""
    models = []
    for m in st.models.values():
        unit = scenario.unit_of(m.id)
        models.append(ModelView(
            id=m.id, side=m.side, unit_name=unit.name,
            x=m.position.x, y=m.position.y, z=m.position.z,
            radius=st.radius(m.id), health=m.health, max_health=unit.health,
            readiness=m.readiness, climbing=m.climbing,
            off_table=m.status is Status.LEFT, removed=m.status is Status.ELIMINATED))
    act = st.activation
    return Scene(
        scenario=scenario, models=tuple(models), edges=significant_edge_lines(scenario),
        round=st.round, rounds=st.rounds,
        advantage=st.advantage, side_to_act=st.acting,
        active_model=act.model if act else None,
        actions_left=act.actions_left if act else None,
        phase=str(st.phase), result=str(st.result) if st.result else None,
        side_order=st.sides, objectives=_objectives(st),
        scores=tuple((side, score(st, side)) for side in st.sides)
        if scenario.objectives else ())


def _objectives(st: GameState) -> tuple[ObjectiveView, ...]:
    """The objectives as the engine has them: holders now, cargo where it lies or rides."""
    out = []
    for o in st.scenario.objectives:
        if o.kind != "cargo":
            out.append(ObjectiveView(o.id, o.kind, o.at[0], o.at[1], o.reach, o.points,
                                     holder=held.holder(st, o)))
            continue
        at = held.cargo_at(st, o.id)
        if at is not None:
            out.append(ObjectiveView(o.id, o.kind, at[0], at[1], o.reach, o.points,
                                     carrier=st.objectives.cargo[o.id].carrier))
    return tuple(out)
