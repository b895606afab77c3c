"""The AI's one answer to "could this model charge that one from there?" (R-DIST-1,
R-UNIT-2): the bases' gap within the charge ruler plus touching, at one level. Greedy's
candidates, the places' threats and the search's leaves all ask it here.
"""

from __future__ import annotations

import math

from sim.engine.state import GameState
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position

#: Heights closer than this are one level (inches).
LEVEL = 0.01


def within_charge(state: GameState, model: str, enemy: str, at: Position | None = None) -> bool:
    """The enemy's base is within the model's charge ruler, at the model's level."""
    return charge_reaches(state.scenario, model, at or state.model(model).position,
                          enemy, state.model(enemy).position)


def charge_reaches(scenario: Scenario, model: str, a: Position, enemy: str,
                   b: Position) -> bool:
    """The AI's one answer to "could ``model`` at ``a`` charge ``enemy`` at ``b``?": the
    bases' gap within its charge ruler (R-DIST-1, touching within the tolerance of R-UNIT-2)
    at the same level (a charge up or down a face is the planner's to find, not a guess's)."""
    return charge_within(math.hypot(a.x - b.x, a.y - b.y), scenario.radius_of(model),
                         scenario.radius_of(enemy), charge_reach(scenario, model), a.z, b.z)


def charge_reach(scenario: Scenario, model: str) -> float:
    """How far the model's base may be from an enemy's and still charge it: its Charge
    ruler plus touching (R-DIST-1, R-UNIT-2)."""
    rules = scenario.rules_data
    return rules.ruler(scenario.unit_of(model).charge) + rules.touch_tolerance


def charge_within(distance: float, r_charger: float, r_target: float, reach: float,
                  z_charger: float, z_target: float) -> bool:
    """:func:`charge_reaches` with its numbers known (the places of one board share
    them): centres ``distance`` apart, the charge ruler plus touching ``reach``."""
    return abs(z_charger - z_target) < LEVEL and distance - r_charger - r_target <= reach
