"""The window's questions to the engine and geometry, turned into overlays and text.

Every answer comes from the one module that owns the rule: sight, cover and
range from :func:`sim.analysis.analyse`, shot odds from :mod:`sim.odds`
(through the combat module's preview), the reachable area and the path
ruler from the movement module, significant edges from
:mod:`geometry.elevation`. Nothing here decides a rule; it only picks
shapes and words for what those modules return.
"""

from __future__ import annotations

from collections.abc import Mapping

from shapely.geometry.base import BaseGeometry

from geometry.paths import path_length
from render.overlays import Segment, ShotOverlay
from render.theme import TEXT_DIM
from render.view import TextLine
from sim.positions import Position
from sim.scenario import Scenario
from sim.state import GameState

Point = tuple[float, float]


def shot(scenario: Scenario, positions: Mapping[str, Position], attacker: str, target: str,
         weapon: str | None, climbing: frozenset[str]) -> tuple[ShotOverlay, list[TextLine]]:
    """The shot overlay and its explanation for ``attacker`` -> ``target``."""
    raise NotImplementedError("waiting for sim.analysis")


def sight_web(scenario: Scenario, positions: Mapping[str, Position],
              climbing: frozenset[str]) -> tuple[tuple[Segment, bool], ...]:
    """Every model's sight to every enemy: the witness, or centre to centre when blocked."""
    return ()


def significant_edge_lines(scenario: Scenario) -> tuple[BaseGeometry, ...]:
    return ()


def reach_area(scenario: Scenario, state: GameState | None, model: str) -> BaseGeometry | None:
    return None


def odds_lines(state: GameState, attacker: str, target: str, weapon: str | None) -> list[TextLine]:
    return []


def path_text(scenario: Scenario, state: GameState | None, model: str, points: list[Point]) -> str:
    """Path length against the model's Move ruler."""
    unit = scenario.unit_of(model)
    limit = scenario.rules_data.ruler(unit.move)
    return f"{path_length(points):.2f} / {limit:g} in ({unit.move})"


_ = TEXT_DIM


def reach_lines(scenario: Scenario, model: str, area: BaseGeometry | None) -> list[TextLine]:
    unit = scenario.unit_of(model)
    return [TextLine(f"{model}: reachable area with its Move ruler ({unit.move})")]
