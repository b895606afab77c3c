"""What the editor holds: an immutable draft, the selection and the tool; undo and redo.

A :class:`History` is two stacks of :class:`~sim.scenario.draft.Draft` values: each
change pushes the draft it replaces, undo and redo move drafts between the
stacks. Nothing is ever changed in place, so an undone draft is exactly
the one that was shown before.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.scenario.draft import Draft
from sim.scenario.objects import Scenario

TOOLS = ("select", "rect", "circle", "polygon", "model", "objective")
TOOL_NAMES = {"select": "Select", "rect": "Rectangle", "circle": "Circle",
              "polygon": "Polygon", "model": "Model", "objective": "Objective"}
UNDO_KEPT = 200  # drafts kept for undo


@dataclass(frozen=True)
class Tool:
    """The tool in hand and what it places: a terrain preset, or a unit for a side."""

    name: str = "select"
    preset: str = "wall"
    unit: str = ""
    side: str = ""
    objective: str = "zone"  # the objective kind it places (R-OBJ-1)


@dataclass
class History:
    """The draft shown now and the drafts undo and redo go back and forth to."""

    draft: Draft
    undos: list[Draft] = field(default_factory=list)
    redos: list[Draft] = field(default_factory=list)

    @property
    def scenario(self) -> Scenario:
        return self.draft.scenario

    def change(self, scenario: Scenario) -> bool:
        """Make ``scenario`` the draft (checked by the loader); False when nothing changed."""
        if scenario == self.draft.scenario:
            return False
        self.undos = [*self.undos[-(UNDO_KEPT - 1):], self.draft]
        self.redos = []
        self.draft = Draft.of(scenario)
        return True

    def undo(self) -> bool:
        if not self.undos:
            return False
        self.redos.append(self.draft)
        self.draft = self.undos.pop()
        return True

    def redo(self) -> bool:
        if not self.redos:
            return False
        self.undos.append(self.draft)
        self.draft = self.redos.pop()
        return True
