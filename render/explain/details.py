"""The words of the Details panel: a model's card, what to do next, who is out of play."""

from __future__ import annotations

from render.draw.theme import TEXT_DIM
from render.draw.view import TextLine
from render.scene import Scene
from sim.combat.plan import ranged_weapons
from sim.engine.gamedata import Phase
from sim.engine.state import GameState
from sim.scenario.names import model_name
from sim.scenario.objects import Scenario


def card(scene: Scene, model_id: str) -> tuple[TextLine, ...]:
    """A model's unit, side, state, where it stands, profile and weapons."""
    scenario = scene.scenario
    m = scene.model(model_id)
    unit = scenario.unit_of(model_id)
    state = "" if m.readiness == "unready" else f", {m.readiness}"
    where = " (climbing)" if m.climbing else ""
    where += f", standing {m.z:g} in up" if m.z > 0 and not m.climbing else ""
    where += " (off the table)" if m.off_table else " (eliminated)" if m.removed else ""
    lines = [
        TextLine(f"{model_name(scenario, m.id)}, {scenario.sides[m.side].name}{state}{where}"),
        TextLine(f"health {m.health}/{m.max_health}, base {unit.base:g} mm, "
                 f"move {unit.move}, charge {unit.charge}", TEXT_DIM),
        TextLine("S.P.E.C.I.A.L. " + " ".join(f"{k}{v}" for k, v in unit.special.items()),
                 TEXT_DIM),
    ]
    if unit.keywords:  # what they change: docs/units.md (climb-incapable: R-CLIMB-4)
        lines.append(TextLine("keywords: " + ", ".join(sorted(unit.keywords)), TEXT_DIM))
    for w in unit.weapons:
        wp = scenario.weapons[w]
        rng = wp.short + (f"+{wp.long}" if wp.long else "")
        lines.append(TextLine(f"  {wp.name}: {rng}, damage {wp.damage} {wp.damage_type}",
                              TEXT_DIM))
    return tuple(lines)


def _phase_text(scenario: Scenario, st: GameState, side: str) -> str | None:
    phase, act = st.phase, st.activation
    if phase is Phase.CHOOSE_FIRST:
        return f"{side} holds the advantage: choose who takes the first turn (R-TURN-3)"
    if phase is Phase.READY:
        return f"{side}: ready one of your Unready models: click it or its button (R-TURN-4)"
    if phase is Phase.CHOOSE_OPTION:
        return (f"{side}: A activates none and ends the turn at once; B activates every "
                "Ready model, one at a time (R-TURN-4)")
    if phase is Phase.ACTIVATE:
        return (f"{side}: activate a Ready model (click it or its button); End turn makes "
                "the rest Used (R-TURN-6)")
    if phase is Phase.ACTIVATION and act is not None:
        n = act.actions_left
        text = (f"{model_name(scenario, act.model)}: {n} action{'' if n == 1 else 's'} "
                "left: choose one, or End activation (R-TURN-7)")
        if ranged_weapons(scenario, act.model):
            text += "; hover an enemy to see if it can be shot"
        return text
    return None


def next_step(scenario: Scenario, st: GameState | None) -> list[TextLine]:
    """What the side to act does now, in words (R-TURN-3..7); the buttons hold the choices."""
    if st is None or st.is_over:
        return []
    acting = st.acting
    side = scenario.sides[acting].name if acting is not None else "-"
    text = _phase_text(scenario, st, side)
    return [] if text is None else [TextLine(text, TEXT_DIM)]


def out_of_play(scene: Scene) -> list[TextLine]:
    """Models not drawn on the board (R-EDGE-2, R-TURN-10): where they went."""
    out = [f"{model_name(scene.scenario, m.id)} "
           f"({'left the board' if m.off_table else 'eliminated'})"
           for m in scene.models if not m.on_board]
    return [TextLine("out of play: " + ", ".join(out), TEXT_DIM)] if out else []
