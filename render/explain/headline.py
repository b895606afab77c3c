"""The headline of an attack: "Hit 32% - kill 2% - cover -2 (wall-1)" (issue 16).

One line per attack, pinned at the top of Details so it never needs the
wheel. The numbers are those of the shot preview: the engine's plan
(:func:`sim.combat.plan.plan_shot`, :func:`~sim.combat.plan.plan_close_combat`)
and its exact odds (:func:`sim.resolution.odds.attack_odds`); the cover is the
plan's analysis (R-COV-2). Models are named by display name
(:mod:`sim.scenario.names`), pieces by their id (they have no other name).
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

from render.draw.theme import TEXT_BAD, TEXT_WARN
from render.draw.view import TextLine
from sim.combat.plan import AttackPlan, melee_weapons, plan_close_combat, plan_shot
from sim.combat.situation import Situation
from sim.engine.state import GameState
from sim.errors import WastelandError
from sim.resolution.odds import attack_odds
from sim.scenario.names import display_names
from sim.scenario.positions import Position


def percent(p: Fraction) -> str:
    """A chance in whole percent; a chance that is neither none nor certain never rounds to
    0% or 100%."""
    if p == 0 or p == 1:
        return f"{int(p * 100)}%"
    return f"{min(99, max(1, round(float(p) * 100)))}%"


def plan_attack(state: GameState, attacker: str, target: str, weapon: str,
                band: str | None = None, close: bool = False) -> AttackPlan:
    """The engine's plan of the attack (raises its refusal)."""
    sit = Situation.of_state(state)
    if close:
        return plan_close_combat(sit, attacker, target, weapon)
    return plan_shot(sit, attacker, target, weapon,
                     band if band in ("short", "long") else None)  # type: ignore[arg-type]


def headline_text(state: GameState, plan: AttackPlan) -> str:
    """``Hit 32% - kill 2% - cover -2 (wall-1)`` for one planned attack."""
    odds = attack_odds(plan.profile, state.rules)
    names = display_names(state.scenario)
    parts = [f"Hit {percent(odds.p_success)}"]
    if plan.target_health is not None:
        parts.append(f"kill {percent(odds.p_at_least(plan.target_health))}")
    a = plan.analysis
    if a is None:
        parts.append("close combat, no cover")
    elif a.cover:
        parts.append(f"cover {a.skill_modifier:+d} ({', '.join(map(names.model, a.cover))})")
    else:
        parts.append("no cover")
    if plan.band is not None:
        parts.append(f"{plan.band} range")
    return " - ".join(parts)


def headline(state: GameState, attacker: str, target: str, weapon: str | None,
             band: str | None = None, close: bool = False) -> TextLine:
    """The headline of ``attacker`` attacking ``target``, or why it cannot."""
    name = display_names(state.scenario).model(target)
    if weapon is None:
        return TextLine(f"{name}: no weapon to attack with", TEXT_BAD)
    try:
        plan = plan_attack(state, attacker, target, weapon, band, close)
    except WastelandError as exc:
        return TextLine(f"{name}: cannot attack ({getattr(exc, 'reason', str(exc))})",
                        TEXT_BAD)
    return TextLine(f"{name}: {headline_text(state, plan)}", TEXT_WARN)


def charge_headline(state: GameState, attacker: str, target: str) -> TextLine:
    """The close-combat attack that ends a charge at ``target``, as if the charge reached it.

    Before a charge the models are apart, so the plan is asked with the
    charger put in base contact (centre on the line between them, at the
    target's height): the same odds the attack after contact rolls
    (``sim.combat.plan.charge_attack``, its first close-combat weapon).
    """
    name = display_names(state.scenario).model(target)
    weapons = melee_weapons(state.scenario, state.scenario.unit_of(attacker))
    if not weapons:
        return TextLine(f"{name}: no close-combat weapon, the charge ends without an attack",
                        TEXT_BAD)
    sit = Situation.of_state(state)
    pa, pt = sit.positions[attacker], sit.positions[target]
    gap = state.radius(attacker) + state.radius(target)
    d = max(1e-9, math.hypot(pa.x - pt.x, pa.y - pt.y))
    touch = Position(pt.x + (pa.x - pt.x) / d * gap, pt.y + (pa.y - pt.y) / d * gap, pt.z)
    sit = replace(sit, positions={**sit.positions, attacker: touch})
    try:
        plan = plan_close_combat(sit, attacker, target, weapons[0])
    except WastelandError as exc:
        return TextLine(f"{name}: cannot attack ({getattr(exc, 'reason', str(exc))})",
                        TEXT_BAD)
    return TextLine(f"charge {name}: {headline_text(state, plan)}", TEXT_WARN)
