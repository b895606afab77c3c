"""The hot-seat flow, driven only by the engine's legal actions.

(Read-only viewer for now; the engine flow is wired in as sim/state.py lands.)
"""

from __future__ import annotations

from pathlib import Path

from render.draw_models import model_at
from render.scene import Scene, scene_from_scenario
from render.view import TextLine, ViewState
from sim.errors import UsageError
from sim.scenario import Scenario


class Controller:
    """Holds what the window shows and turns clicks and keys into engine calls."""

    def __init__(self, scenario: Scenario, save_dir: Path | None = None) -> None:
        self.scenario = scenario
        self.save_dir = save_dir or Path.cwd()
        self.quit_requested = False
        self.status = "Read-only board. F1: help."
        self.status_error = False
        self.show_help = False
        self.debug = False
        self.hovered: str | None = None
        self.hover_index: int | None = None
        self._scene = scene_from_scenario(scenario)

    def load(self, path: Path) -> None:
        """Continue a saved game (needs the engine's sim/save.py)."""
        raise UsageError(f"cannot load {str(path)!r}: saved games are not supported yet")

    def scene(self) -> Scene:
        return self._scene

    def view(self) -> ViewState:
        details: tuple[TextLine, ...] = ()
        if self.hovered:
            details = self._card(self.hovered)
        return ViewState(
            details=details,
            status=self.status,
            status_error=self.status_error,
            show_help=self.show_help,
            debug=self.debug,
            hover_button=self.hover_index,
        )

    def _card(self, model_id: str) -> tuple[TextLine, ...]:
        m = self._scene.model(model_id)
        unit = self.scenario.unit_of(model_id)
        lines = [
            TextLine(f"{m.id}: {unit.name} ({self.scenario.sides[m.side].name})"),
            TextLine(
                f"health {m.health}/{m.max_health}, base {unit.base:g} mm, "
                f"move {unit.move}, charge {unit.charge}"
            ),
            TextLine("S.P.E.C.I.A.L. " + " ".join(f"{k}{v}" for k, v in unit.special.items())),
            TextLine(f"weapons: {', '.join(self.scenario.weapons[w].name for w in unit.weapons)}"),
        ]
        return tuple(lines)

    # --- input -----------------------------------------------------------------
    def command(self, name: str) -> None:
        if name == "help":
            self.show_help = not self.show_help
        elif name == "escape":
            self.show_help = False
        elif name == "debug":
            self.debug = not self.debug

    def press_button(self, index: int) -> None:
        pass

    def hover_button(self, index: int | None) -> None:
        self.hover_index = index

    def click(self, x: float, y: float) -> None:
        pass

    def hover(self, point: tuple[float, float] | None) -> None:
        self.hovered = None if point is None else model_at(self._scene, *point, slack=0.2)

    def drag_start(self, x: float, y: float) -> bool:
        return False

    def drag_to(self, x: float, y: float) -> None:
        pass

    def drag_end(self, x: float | None, y: float | None) -> None:
        pass
