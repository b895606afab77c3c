"""What a button hands back when clicked: one small typed value per kind of choice.

The controller matches on these (``match key: case Apply(a): ...``); the
drawing code only carries them (``Button.key``) and never reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from sim.engine.actions import Action, ActionKind
from sim.movement.plan import Step

Command = Literal["confirm", "backspace", "next_weapon", "escape"]


@dataclass(frozen=True)
class Apply:
    """Apply this engine action (a turn action, or a listed model action)."""

    action: Action


@dataclass(frozen=True)
class StartKind:
    """Start setting up an action of this kind for the active model."""

    kind: ActionKind[Any]


@dataclass(frozen=True)
class PickTarget:
    """Choose the target of the action being set up."""

    target: str


@dataclass(frozen=True)
class AddStep:
    """Add a step (a climb or jump at the path's end) to the path being set up."""

    step: Step


@dataclass(frozen=True)
class Do:
    """A key command the button stands for (Enter, Backspace, Tab, Esc)."""

    command: Command


Key = Apply | StartKind | PickTarget | AddStep | Do
