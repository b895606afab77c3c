"""Base contact between two models: one rule for charges and close combat.

Two bases are in contact when the gap between them is at most the touch
tolerance (R-UNIT-2, R-DIST-1) and they stand at the same height; a climbing
model can be reached by an enemy within Orange above or below it (R-CLIMB-3).
"""

from __future__ import annotations

from geometry.discs import Disc, gap
from sim.movement.levels import Z_EPS
from sim.scenario.positions import Position
from sim.scenario.rules import RulesData

_EPS = 1e-9  # float noise on the gap


def contact_problem(rules: RulesData, model: str, at: Position, radius: float,
                    target: str, target_at: Position, target_radius: float,
                    target_climbing: bool) -> str | None:
    """Why ``model`` standing at ``at`` is not in base contact with ``target``, or None.

    Examples
    --------
    >>> from sim.scenario.rules import default_rules
    >>> r = default_rules()
    >>> contact_problem(r, "a", Position(0, 0), 0.5, "b", Position(1.005, 0), 0.5, False)
    >>> contact_problem(r, "a", Position(0, 0), 0.5, "b", Position(1.5, 0), 0.5, False)
    "'a' is not in base contact with 'b': the gap is 0.500 in, touching allows 0.01 in (R-UNIT-2)"
    """
    dz = abs(at.z - target_at.z)
    if target_climbing:
        if dz > rules.orange + Z_EPS:
            return (f"{target!r} is climbing at {target_at.z:g} in, {dz:.2f} in from {model!r}; "
                    f"base contact needs at most Orange ({rules.orange:g} in) above or below "
                    "it (R-CLIMB-3)")
    elif dz > Z_EPS:
        return (f"{model!r} stands at {at.z:g} in and {target!r} at {target_at.z:g} in; "
                "base contact needs the same height")
    g = gap(Disc(at.x, at.y, radius), Disc(target_at.x, target_at.y, target_radius))
    if g > rules.touch_tolerance + _EPS:
        return (f"{model!r} is not in base contact with {target!r}: the gap is {g:.3f} in, "
                f"touching allows {rules.touch_tolerance:g} in (R-UNIT-2)")
    return None
