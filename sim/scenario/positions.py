"""Where models stand: the one position type shared by the engine and the rules glue."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from sim.scenario.objects import Scenario


@dataclass(frozen=True)
class Position:
    """A base centre ``(x, y)`` on the board and the height ``z`` it stands at (inches)."""

    x: float
    y: float
    z: float = 0.0

    @property
    def xy(self) -> tuple[float, float]:
        return (self.x, self.y)


def initial_positions(scenario: Scenario) -> Mapping[str, Position]:
    """Every model's position as the scenario places it."""
    return {m.id: Position(m.at[0], m.at[1], m.z) for m in scenario.models}
