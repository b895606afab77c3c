"""Immutable, typed scenario objects (scenario format v1, docs/scenario-format.md).

:mod:`sim.scenario.format.loader` builds these from TOML files and checks them;
:mod:`sim.scenario.format.writer` writes them back. They hold the board as set up, never game
state (that is :mod:`sim.engine.state`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

import shapely
from shapely.geometry.base import BaseGeometry

from sim.scenario.objectives import Objective
from sim.scenario.prepared import Prepared
from sim.scenario.rules import RulesData, default_rules

RuleSet = Literal["rulebook", "vts-1.5"]
MovementClass = Literal["normal", "difficult", "impassable"]
Point = tuple[float, float]

# Quarter-circle segments used when a terrain circle needs a polygon (drawing,
# movement sweeps): 64 gives a chord error below 1e-3 in for a 6 in radius,
# a tenth of the touch tolerance (R-UNIT-2).
CIRCLE_QUAD_SEGS = 64


@dataclass(frozen=True)
class Side:
    """A player's side (or a neutral one) (``[sides.ID]``)."""

    id: str
    name: str
    neutral: bool = False


@dataclass(frozen=True)
class Armor:
    """Armor values by damage type (R-ARM-1)."""

    physical: int
    energy: int
    radiation: int

    def for_type(self, damage_type: str) -> int:
        value: int = getattr(self, damage_type)
        return value


@dataclass(frozen=True)
class Unit:
    """A unit card (``[units.ID]``)."""

    id: str
    name: str
    base: float  # diameter in mm (R-BASE-1)
    move: str  # ruler colour
    charge: str  # ruler colour
    special: Mapping[str, int]  # S, P, E, C, I, A, L
    skills: Mapping[str, str]  # skill -> attribute letter (R-SHOOT-1)
    health: int
    armor: Armor
    keywords: frozenset[str] = frozenset()
    weapons: tuple[str, ...] = ()

    def attribute_for(self, skill: str) -> int | None:
        """The S.P.E.C.I.A.L. value a skill test with ``skill`` uses, or None."""
        letter = self.skills.get(skill)
        return None if letter is None else self.special[letter]


@dataclass(frozen=True)
class Weapon:
    """A weapon card (``[weapons.ID]``) (R-RANGE-1)."""

    id: str
    name: str
    skill: str
    short: str  # ruler colour
    long: str | None
    short_dice: tuple[str, ...]
    long_dice: tuple[str, ...]
    damage: int
    damage_type: str
    effects: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class TerrainProps:
    """What a terrain piece is, for one model (R-TER-1)."""

    movement: MovementClass = "normal"
    climbable: bool = False
    blocks_los: bool = False
    cover: bool = False
    area: bool = False
    dense: bool = False
    height: float = 0.0


TERRAIN_PROP_NAMES: tuple[str, ...] = tuple(f.name for f in fields(TerrainProps))


@dataclass(frozen=True)
class TerrainPiece:
    """A terrain piece (``[[terrain]]``): a footprint and its properties.

    Exactly one of ``polygon`` and ``circle`` is set. ``overrides`` maps a unit
    id, a keyword or a size class to a partial table of properties (R-TER-2).
    """

    id: str
    props: TerrainProps
    polygon: tuple[Point, ...] | None = None
    holes: tuple[tuple[Point, ...], ...] = ()
    circle: tuple[Point, float] | None = None  # (centre, radius)
    overrides: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @cached_property
    def footprint(self) -> BaseGeometry:
        """The footprint as a Shapely polygon (a circle to within 1e-3 in)."""
        if self.circle is not None:
            (cx, cy), r = self.circle
            return shapely.Point(cx, cy).buffer(r, quad_segs=CIRCLE_QUAD_SEGS)
        assert self.polygon is not None  # guaranteed by the loader
        return shapely.Polygon(self.polygon, holes=list(self.holes))

    def props_for(self, unit_id: str, keywords: frozenset[str], size_class: str) -> TerrainProps:
        """This piece's properties for one model (R-TER-2).

        Overrides apply from the least to the most specific key: size class,
        then keywords (in sorted order), then the unit id.
        """
        if not self.overrides:
            return self.props
        props = self.props
        keys = [size_class, *sorted(keywords), unit_id]
        for key in keys:
            table = self.overrides.get(key)
            if table:
                props = replace(props, **table)
        return props


@dataclass(frozen=True)
class ModelPlacement:
    """A model on the board at the start (``[[models]]``)."""

    id: str
    unit: str
    side: str
    at: Point
    z: float = 0.0


@dataclass(frozen=True)
class Scenario:
    """A whole scenario file, includes resolved, checked and immutable."""

    name: str
    rules: RuleSet
    board: tuple[float, float]
    sides: Mapping[str, Side]
    units: Mapping[str, Unit]
    weapons: Mapping[str, Weapon]
    terrain: tuple[TerrainPiece, ...]
    models: tuple[ModelPlacement, ...]
    rounds: int | None = None
    seed: int | None = None
    advantage: str | None = None
    rules_overrides: Mapping[str, Any] = field(default_factory=dict)
    # R-OBJ-1, R-OBJ-5: the scenario's objectives and its points per kill (none and 1:
    # a game scored as R-TURN-10 says).
    objectives: tuple[Objective, ...] = ()
    kill_points: int = 1
    rules_data: RulesData = field(default_factory=default_rules, compare=False)
    source: Path | None = field(default=None, compare=False)
    includes: tuple[str, ...] = field(default=(), compare=False)

    def model(self, model_id: str) -> ModelPlacement:
        return self._by_id[model_id]

    @cached_property
    def _by_id(self) -> Mapping[str, ModelPlacement]:
        """The models by id, the first of an id winning (the loader refuses repeats).
        Kept in ``__dict__`` like :attr:`prepared`; the AI asks ~10^5 times a decision."""
        by_id: dict[str, ModelPlacement] = {}
        for m in self.models:
            by_id.setdefault(m.id, m)
        return by_id

    def unit_of(self, model_id: str) -> Unit:
        return self.units[self._by_id[model_id].unit]

    def radius_of(self, model_id: str) -> float:
        """Base radius in inches (R-UNIT-1, exact)."""
        radius = self._radii.get(model_id)
        if radius is None:
            radius = self._radii[model_id] = self.rules_data.base_radius(
                self.unit_of(model_id).base)
        return radius

    @cached_property
    def _radii(self) -> dict[str, float]:
        """The radii asked so far, by model id (like :attr:`_by_id`; the AI asks ~10^5
        times a game)."""
        return {}

    def size_class_of(self, model_id: str) -> str:
        return self.rules_data.size_class(self.unit_of(model_id).base)

    def piece(self, piece_id: str) -> TerrainPiece:
        for p in self.terrain:
            if p.id == piece_id:
                return p
        raise KeyError(piece_id)

    def objective(self, objective_id: str) -> Objective:
        for o in self.objectives:
            if o.id == objective_id:
                return o
        raise KeyError(objective_id)

    @property
    def model_ids(self) -> tuple[str, ...]:
        return tuple(m.id for m in self.models)

    @cached_property
    def prepared(self) -> Prepared:
        """The data derived from this scenario, built once per part (sim.scenario.prepared).

        Kept in the instance ``__dict__``: not a field, so not compared, not in the
        repr and not copied by ``replace()``; it goes with the scenario."""
        return Prepared(self)
