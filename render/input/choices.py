"""The buttons: the engine's listed legal actions, grouped, and a set-up's own choices.

Every button stands for an engine action (or a step towards one): the turn
structure's actions one each, model actions one per kind, and while a model
action is set up its listed variants, targets, climbs and weapons.
"""

from __future__ import annotations

from render.draw.view import Button
from render.explain.answers import Answers
from render.explain.moves import reason
from render.explain.setup import Form, Setup, build, current_weapon, of_kind, options, weapon_name
from render.input.hotkeys import MINOR_KINDS, with_keys
from render.input.keys import AddStep, Apply, Do, PickTarget, StartKind
from render.input.paths import vertical_choices
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
from sim.movement.plan import Step
from sim.scenario.names import DisplayNames, display_names
from sim.scenario.objects import Scenario


def action_label(names: DisplayNames, action: Action) -> str:
    """A button label for a turn-structure action, in display names."""
    if isinstance(action, ChooseFirst):
        return f"{names.side(action.side)} goes first"
    if isinstance(action, ReadyModel):
        return f"Ready {names.model(action.model)}"
    if isinstance(action, OptionA):
        return "Activate none (option A)"
    if isinstance(action, OptionB):
        return "Activate Ready (option B)"
    if isinstance(action, Activate):
        return f"Activate {names.model(action.model)}"
    if isinstance(action, EndActivation):
        return "End activation"
    if isinstance(action, EndTurn):
        return "End turn"
    return str(action)


def menu_label(names: DisplayNames, action: Action) -> str:
    """A turn action's button: a model menu's entry is the model's name alone
    (the title asks "Ready which model?"), anything else :func:`action_label`."""
    if isinstance(action, ReadyModel | Activate):
        return names.model(action.model)
    return action_label(names, action)


def kind_label(keyword: str) -> str:
    """``"close-combat"`` -> ``"Close combat"``."""
    return keyword.replace("-", " ").capitalize()


def turn_buttons(scenario: Scenario, state: GameState, legal: list[Action]) -> list[Button]:
    """The choices outside a set-up: turn actions, one button per model action kind.

    Minor kinds (Leave) come after the others; every button gets its fixed key
    or menu number (render.input.hotkeys).
    """
    names = display_names(scenario)
    out: list[Button] = []
    kinds_seen: list[str] = []
    for a in legal:
        if isinstance(a, ModelAction):
            kind = state.kinds.kind_of(a)
            if kind is not None and kind.keyword not in kinds_seen:
                kinds_seen.append(kind.keyword)
                out.append(Button(kind_label(kind.keyword), StartKind(kind)))
        else:
            out.append(Button(menu_label(names, a), Apply(a)))
    act = state.activation
    if act is not None and act.actions_left > 0:
        _add_free_paths(state, out, kinds_seen)
    # End turn before the menu of models to activate: a long menu may not fit.
    out.sort(key=lambda b: b.key != Apply(EndTurn()))
    return with_keys(_minor_last(out))


def _minor_last(buttons: list[Button]) -> list[Button]:
    """Minor kinds (Leave) moved after the other kinds, before the turn actions."""
    def minor(b: Button) -> bool:
        return isinstance(b.key, StartKind) and b.key.kind.keyword in MINOR_KINDS
    kinds = [b for b in buttons if isinstance(b.key, StartKind)]
    rest = iter([b for b in kinds if not minor(b)] + [b for b in kinds if minor(b)])
    return [next(rest) if isinstance(b.key, StartKind) else b for b in buttons]


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


def way_label(scenario: Scenario, values: dict[str, object]) -> str:
    """A way to attack in words: the weapon's name and the range band
    (``Hunting rifle, long range``); ids stay in the action."""
    words = []
    weapon = values.get("weapon")
    if isinstance(weapon, str):
        words.append(scenario.weapons[weapon].name if weapon in scenario.weapons else weapon)
    band = values.get("band")
    if isinstance(band, str):
        words.append(f"{band} range")
    return ", ".join(words)


def _variant_buttons(scenario: Scenario, legal: list[Action], s: Setup) -> list[Button]:
    """Listed variants of the kind (samples, targets, or ways to attack the target)."""
    out: list[Button] = []
    names = display_names(scenario)
    title = kind_label(s.form.keyword)
    if s.form.other or not (s.form.target or s.form.points):
        for a in of_kind(legal, s):
            out.append(Button(s.kind.describe(a) or str(a), Apply(a)))
    elif s.form.target and s.target is None:
        for a in of_kind(legal, s):
            tgt = a.values()["target"]
            if isinstance(tgt, str) and not any(b.key == PickTarget(tgt) for b in out):
                out.append(Button(f"{title} {names.model(tgt)}", PickTarget(tgt)))
    elif s.form.target and not s.form.points:
        for a in options(legal, s, s.target):
            label = way_label(scenario, a.values()) or s.kind.describe(a, skip={"target"})
            out.append(Button(label or str(a), Apply(a)))
    return out


def setup_buttons(scenario: Scenario, state: GameState | None, scene: Scene,
                  legal: list[Action], s: Setup, kept: Answers | None = None) -> list[Button]:
    """The choices while a model action is set up.

    Commit is enabled only for a path the engine would accept now (Enter on a
    refused one says why and applies nothing).
    """
    out = _variant_buttons(scenario, legal, s)
    if s.form.points:
        out.append(Button("Commit path", Do("confirm"),
                          enabled=committable(scenario, state, legal, s, kept)))
        out.append(Button("Remove last step", Do("backspace"), enabled=bool(s.steps)))
    if s.form.vertical:
        for step in vertical_choices(state, s, kept):
            out.append(Button(step_label(step), AddStep(step)))
    if s.form.weapon:
        out.append(Button(f"Weapon: {weapon_name(scenario, legal, s)}", Do("next_weapon")))
    out.append(Button("Cancel", Do("escape")))
    return with_keys(out)


def step_label(step: Step) -> str:
    """``Climb to 3 in``, ``Jump down to 1 in``; a jump to the table says so, not
    ``Jump to 0 in`` (a jump is always down, R-JUMP-1; issue 34, bug 6)."""
    z = f"{step.z:.2f}".rstrip("0").rstrip(".")
    if step.kind == "jump":
        return "Jump down to the table" if step.z <= 0 else f"Jump down to {z} in"
    return f"{step.kind.capitalize()} to {z} in"


def committable(scenario: Scenario, state: GameState | None, legal: list[Action],
                s: Setup, kept: Answers | None = None) -> bool:
    """Whether the path set up so far is one the engine accepts now."""
    if state is None or not s.steps:
        return False
    weapon = current_weapon(scenario, legal, s) if s.form.weapon else None
    action = build(s, weapon)
    if action is None:
        return False
    return (kept.reason(state, action) if kept is not None else reason(state, action)) == ""
