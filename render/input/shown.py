"""What the controller shows besides the buttons: overlays, Details text, titles.

Pure functions of the frozen UI state (:class:`render.input.ui_state.UiState`)
and the engine's answers; split out of the controller so the flow of input and
the composition of the picture stay apart. Text names models and sides by
their display names (sim.scenario.names); ids appear only in the debug view.
"""

from __future__ import annotations

from render.draw.theme import TEXT_DIM
from render.draw.view import Overlay, TextLine
from render.explain import debug, details
from render.explain.answers import Answers
from render.explain.setup import Setup, current_weapon
from render.input import attacks, paths
from render.input.choices import kind_label
from render.input.ui_state import UiState
from render.scene import Scene
from sim.engine.gamedata import Phase
from sim.scenario.names import model_name

OverlaysAndText = tuple[list[Overlay], list[TextLine]]  # overlays and Details text


def buttons_title(v: UiState, scene: Scene) -> str:
    """The title over the buttons: the set-up, the activation, or the phase."""
    if v.state is None:
        return "Choices"
    if v.setup is not None:
        return f"{kind_label(v.setup.form.keyword)} with {model_name(v.scenario, v.setup.model)}"
    act = v.state.activation
    if act is not None:
        n = act.actions_left
        return f"{model_name(v.scenario, act.model)}: {n} action{'' if n == 1 else 's'} left"
    if v.state.phase is Phase.READY:
        return "Ready which model? (click it, or its number)"
    if v.state.phase is Phase.ACTIVATE:
        return "Activate which model? (click it, or its number)"
    return f"Choices: {scene.phase}"


def highlight(v: UiState) -> frozenset[str]:
    """Models ringed in white besides the active one: picks, selection, target."""
    if v.debug:
        return frozenset(v.debug_picks)
    ids = {v.selected, v.setup.target if v.setup else None}
    return frozenset(i for i in ids if i is not None)


def overlays_and_details(answers: Answers, v: UiState, scene: Scene) -> OverlaysAndText:
    """The overlays and the Details text of the picture now."""
    if v.debug:
        return debug.debug_details(answers, v.state, scene, list(v.debug_picks),
                                   v.debug_sight, v.debug_reach)
    s = v.setup
    if s is None:
        overlays, lines = _turn_details(answers, v, scene)
    else:
        overlays, lines, close_combat = _setup_details(answers, v, scene, s)
        if close_combat:  # base contact and odds only
            return overlays, lines
    shown = v.hovered or v.selected
    if shown is not None and (s is None or not s.form.target):
        lines += details.card(scene, shown)
    return overlays, lines + details.out_of_play(scene)


def _turn_details(answers: Answers, v: UiState, scene: Scene) -> OverlaysAndText:
    """Outside a set-up: the hovered enemy's shot check, the next step, the outcome."""
    overlays: list[Overlay] = []
    lines: list[TextLine] = []
    enemy = attacks.hovered_enemy(v.state, v.hovered, v.quiet_hover)
    if enemy is not None and v.state is not None:  # what the pointer asks comes first
        overlay, text = attacks.could_shoot(answers, v.state, scene, enemy)
        if overlay is not None:
            overlays.append(overlay)
        lines += text
    lines += details.next_step(v.scenario, v.state)
    if enemy is None:
        lines += v.last_outcome
    return overlays, lines


def _setup_details(answers: Answers, v: UiState, scene: Scene, s: Setup
                   ) -> tuple[list[Overlay], list[TextLine], bool]:
    """While a model action is set up: its path, or its attack on the pointed model."""
    overlays: list[Overlay] = []
    lines: list[TextLine] = []
    if s.form.points:
        overlays, lines = paths.path_details(answers, v.state, scene, s, v.hover_point,
                                             v.weapon(s))
    target = s.target or (v.hovered if s.form.target else None)
    attack = s.form.target and not s.form.points  # a charge shows its path instead
    if attack and target is not None and target != s.model:
        weapon = current_weapon(v.scenario, v.legal, s)
        more, text, close = attacks.attack_preview(answers, v.state, scene, v.legal, s,
                                                   target, weapon)
        return overlays + more, lines + text, close
    if s.form.target and s.target is None:
        lines.append(TextLine("hover an enemy model to preview, click to choose", TEXT_DIM))
    elif s.target is not None:
        lines.append(TextLine(f"target: {model_name(v.scenario, s.target)}"))
    return overlays, lines, False
