"""The status bar's words for input: what to do in a set-up, what was undone or refused.

Player words (issue 16, bug 6): the kind's label and the model's display
name, then the engine's own reason (``IllegalActionError.reason``), never
the action's text.
"""

from __future__ import annotations

from render.explain.setup import Setup
from render.input.choices import action_label, kind_label
from sim.engine.actions import Action, ModelAction
from sim.errors import IllegalActionError, WastelandError
from sim.scenario.names import display_names
from sim.scenario.objects import Scenario


def described(scenario: Scenario, action: Action) -> str:
    """An action in player words: ``Move by Knight``, ``Ready Settler``."""
    names = display_names(scenario)
    if isinstance(action, ModelAction):
        return f"{kind_label(action.keyword)} by {names.model(action.model)}"
    return action_label(names, action)


def refusal(scenario: Scenario, action: Action, exc: WastelandError) -> str:
    """A refused action: what was refused, by whom, and the engine's reason.

    ``Move by Knight: not allowed: base overlaps 'wall-1' on leg 1``.
    """
    reason = exc.reason if isinstance(exc, IllegalActionError) else str(exc)
    return f"{described(scenario, action)}: not allowed: {reason}"


def setup_hint(s: Setup) -> str:
    """What to do in a set-up: ``Move: click where to go (...) or waypoints, Enter commits
    ...; Esc cancels``."""
    form = s.form
    hint = []
    if form.target and s.target is None:
        hint.append("click a target")
    if form.points:
        hint.append("click where to go (the shortest legal path) or waypoints, Enter "
                    "commits the solid path" if form.many_points
                    else "click where to go")
    return f"{kind_label(form.keyword)}: " + (", ".join(hint) or "choose one") + "; Esc cancels"
