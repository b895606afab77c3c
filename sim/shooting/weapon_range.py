"""A weapon's rulers and reach in inches (R-RANGE-1): the one place that reads them from
a weapon card, for the shot analysis, the engine's refusals, the maps and the window.

A weapon has a short ruler and usually a long one; laid end to end they are its
reach (:class:`geometry.ranges.RangeBands` measures a base against them).

Examples
--------
>>> from sim.scenario.objects import Weapon
>>> from sim.scenario.rules import default_rules
>>> rifle = Weapon("r", "Rifle", "rifle", "red", "black", (), (), 2, "physical")
>>> rulers(default_rules(), rifle), reach(default_rules(), rifle)
((6.0, 12.0), 18.0)
"""

from __future__ import annotations

from sim.scenario.objects import Weapon
from sim.scenario.rules import RulesData


def rulers(rules: RulesData, weapon: Weapon) -> tuple[float, float | None]:
    """The weapon's short and long rulers in inches (long None for a short-only weapon)."""
    return rules.ruler(weapon.short), rules.ruler(weapon.long) if weapon.long else None


def reach(rules: RulesData, weapon: Weapon) -> float:
    """Both rulers end to end: the farthest a target's base may be (R-RANGE-1)."""
    short, long = rulers(rules, weapon)
    return short + (long or 0.0)
