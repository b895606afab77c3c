"""Display names of sides and models, for the event log (issue 14).

Event texts name sides and models as a player reads them; ids stay in the
action text that saves and the CLI use. A side is named by its ``name``
(``[sides.ID] name``). A model is named by its unit's name; when another
model of the scenario has a unit of the same name, its id follows in
parentheses, as the window labels the base (docs/engine.md, Decisions).

Examples
--------
>>> from pathlib import Path
>>> from sim.scenario.format.loader import load_scenario
>>> s = load_scenario(Path(__file__).parents[2] / "scenarios" / "seed-activation.toml")
>>> names = display_names(s)
>>> names.side("settlers"), names.model("settler-1")
('Settlers', 'Settler (settler-1)')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from geometry.elevation.edges import edge_id
from sim.scenario.objects import Scenario
from sim.scenario.prepared import Part


@dataclass(frozen=True)
class DisplayNames:
    """The display name of every side and model of one scenario."""

    sides: Mapping[str, str]
    models: Mapping[str, str]

    @staticmethod
    def of(scenario: Scenario) -> DisplayNames:
        unit_name = {m.id: scenario.units[m.unit].name for m in scenario.models}
        shared = Counter(unit_name.values())
        return DisplayNames(
            sides={sid: s.name for sid, s in scenario.sides.items()},
            models={mid: name if shared[name] == 1 else f"{name} ({mid})"
                    for mid, name in unit_name.items()},
        )

    def side(self, side_id: str) -> str:
        """The side's name (its id when the scenario has no such side)."""
        return self.sides.get(side_id, side_id)

    def model(self, model_id: str) -> str:
        """The model's name (its id when the scenario has no such model)."""
        return self.models.get(model_id, model_id)

    def thing(self, ident: str) -> str:
        """What an analysis id names, in words: a model by its name, a significant edge
        (``"<piece>:edge"``, :func:`geometry.elevation.edges.edge_id`) as the edge of its piece,
        a piece by its id (pieces have no other name).

        >>> DisplayNames({}, {}).thing("rock-shelf:edge")
        'edge of rock-shelf'
        """
        if ident in self.models:
            return self.models[ident]
        if ident.endswith(EDGE_SUFFIX):
            return f"edge of {ident[: -len(EDGE_SUFFIX)]}"
        return ident


EDGE_SUFFIX = edge_id("")  # how results name a piece's significant edge (R-ELEV-2)

NAMES: Part[DisplayNames] = Part("display names", DisplayNames.of)


def display_names(scenario: Scenario) -> DisplayNames:
    """The :class:`DisplayNames` of a scenario, built once (``scenario.prepared``)."""
    return scenario.prepared.get(NAMES)


def model_name(scenario: Scenario, model_id: str) -> str:
    """The display name of one model (:meth:`DisplayNames.model`)."""
    return display_names(scenario).model(model_id)
