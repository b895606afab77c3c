"""The buttons: the engine's listed legal actions, grouped, and a set-up's own choices.

Every button stands for an engine action (or a step towards one): the turn
structure's actions one each, model actions one per kind, and while a model
action is set up its listed variants, targets, climbs and weapons.
"""

from __future__ import annotations

from render.draw.view import Button
from render.input.keys import AddStep, Apply, Do, PickTarget, StartKind
from render.input.paths import vertical_choices
from render.input.setup import Form, Setup, of_kind, options, weapon_name
from render.scene import Scene
from sim.engine.actions import (
    Action,
    Activate,
    ChooseFirst,
    EndActivation,
    EndTurn,
    ModelAction,
    OptionA,
    OptionB,
    ReadyModel,
)
from sim.engine.state import GameState
from sim.scenario.objects import Scenario


def action_label(scene_sides: dict[str, str], action: Action) -> str:
    """A button label for a turn-structure action."""
    if isinstance(action, ChooseFirst):
        return f"{scene_sides.get(action.side, action.side)} goes first"
    if isinstance(action, ReadyModel):
        return f"Ready {action.model}"
    if isinstance(action, OptionA):
        return "A: activate none"
    if isinstance(action, OptionB):
        return "B: activate Ready"
    if isinstance(action, Activate):
        return f"Activate {action.model}"
    if isinstance(action, EndActivation):
        return "End activation"
    if isinstance(action, EndTurn):
        return "End turn"
    return str(action)


def kind_label(keyword: str) -> str:
    """``"close-combat"`` -> ``"Close combat"``."""
    return keyword.replace("-", " ").capitalize()


def turn_buttons(scenario: Scenario, state: GameState, legal: list[Action]) -> list[Button]:
    """The choices outside a set-up: turn actions, one button per model action kind."""
    sides = {s: scenario.sides[s].name for s in scenario.sides}
    out: list[Button] = []
    kinds_seen: list[str] = []
    for a in legal:
        if isinstance(a, ModelAction):
            kind = state.kinds.kind_of(a)
            if kind is not None and kind.keyword not in kinds_seen:
                kinds_seen.append(kind.keyword)
                out.append(Button(kind_label(kind.keyword), StartKind(kind)))
        else:
            out.append(Button(action_label(sides, a), Apply(a)))
    act = state.activation
    if act is not None and act.actions_left > 0:
        _add_free_paths(state, out, kinds_seen)
    return out


def _add_free_paths(state: GameState, out: list[Button], kinds_seen: list[str]) -> None:
    """Free paths (Move, Leave): the engine lists only a few sample paths,
    which can all fail where a shorter one would do; the kind stays offered
    and the engine judges the path drawn."""
    at = len(out) - 1 if out and out[-1].key == Apply(EndActivation()) else len(out)
    for kw, kind in state.kinds.items():
        form = Form.of(kind)
        if kw not in kinds_seen and form.points and not form.target and not form.other:
            out.insert(at, Button(kind_label(kw), StartKind(kind), hint="no sample path listed"))
            at += 1


def _variant_buttons(legal: list[Action], s: Setup) -> list[Button]:
    """Listed variants of the kind (samples, targets, or ways to attack the target)."""
    out: list[Button] = []
    if s.form.other or not (s.form.target or s.form.points):
        for a in of_kind(legal, s):
            out.append(Button(s.kind.describe(a) or str(a), Apply(a)))
    elif s.form.target and s.target is None:
        for a in of_kind(legal, s):
            tgt = a.values()["target"]
            if isinstance(tgt, str) and not any(b.key == PickTarget(tgt) for b in out):
                out.append(Button(f"{s.form.keyword} {tgt}", PickTarget(tgt)))
    elif s.form.target and not s.form.points:
        for a in options(legal, s, s.target):
            out.append(Button(s.kind.describe(a, skip={"target"}) or str(a), Apply(a)))
    return out


def setup_buttons(scenario: Scenario, state: GameState | None, scene: Scene,
                  legal: list[Action], s: Setup) -> list[Button]:
    """The choices while a model action is set up."""
    out = _variant_buttons(legal, s)
    if s.form.points:
        out.append(Button("Commit path", Do("confirm"), enabled=bool(s.steps)))
        out.append(Button("Remove last step", Do("backspace"), enabled=bool(s.steps)))
    if s.form.vertical:
        for step in vertical_choices(scenario, state, scene, s):
            out.append(Button(f"{step.kind.capitalize()} to {step.z:g} in", AddStep(step)))
    if s.form.weapon:
        out.append(Button(f"Weapon: {weapon_name(scenario, legal, s)} (Tab)", Do("next_weapon")))
    out.append(Button("Cancel", Do("escape")))
    return out
