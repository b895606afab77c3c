"""The window's UI state as one frozen value: what a picture depends on.

The controller changes its UI state click by click (a set-up, the pointer,
toggles, scrolling, the status bar); each frame it takes a :class:`UiState`
snapshot, and the view is worked out again only when the snapshot differs from
the last one. The snapshot is the view cache's key, with names instead of a
tuple's positions; the game, its legal actions and the exact pointer ride along
for the pictures but are left out of the comparison (the engine state counts
through ``state_key``, the pointer only where a path follows it). A set-up is
copied into it, so later clicks never change a snapshot taken.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from render.draw.view import TextLine
from render.explain.setup import Setup, current_weapon
from sim.engine.actions import Action
from sim.engine.state import GameState
from sim.scenario.objects import Scenario


@dataclass(frozen=True)
class UiState:
    """A snapshot of the controller's UI state (see the module docstring)."""

    scenario: Scenario = field(compare=False)
    state: GameState | None = field(compare=False)
    legal: list[Action] = field(compare=False)
    hover_point: tuple[float, float] | None = field(compare=False)
    state_key: object
    setup: Setup | None
    path_hover: tuple[float, float] | None  # the pointer, while a path follows it
    hovered: str | None
    quiet_hover: str | None  # no hover preview on it (an attack's outcome stays)
    selected: str | None
    last_outcome: tuple[TextLine, ...]
    debug: bool
    debug_sight: bool
    debug_reach: bool
    debug_picks: tuple[str, ...]
    show_help: bool = False
    show_legend: bool = False
    status: str = ""
    status_error: bool = False
    hover_index: int | None = None
    reach_work: int = 0  # F4's areas worked out so far
    scroll: tuple[int, int] = (0, 0)  # Details, log
    maps: object = None  # the F5 map's part (render.input.map_toggle.MapToggle.key)
    tape: tuple[tuple[float, float], tuple[float, float]] | None = None  # the tape laid

    def weapon(self, s: Setup) -> str | None:
        """The weapon Tab has cycled to, when the action takes one."""
        return current_weapon(self.scenario, self.legal, s) if s.form.weapon else None


def frozen_setup(s: Setup | None) -> Setup | None:
    """A copy of ``s`` no later click changes (its steps are a list of its own)."""
    return None if s is None else replace(s, steps=list(s.steps))
