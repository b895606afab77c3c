"""The worth of one attack action by the exact odds, for the search player's look-ahead.

:func:`attack_worth` values a Shoot, a CloseCombat or a Charge (its close-combat
attack at the contact point) as :class:`sim.ai.scoring.AttackValue` does: the
chance to eliminate plus, should the target survive, DAMAGE_WEIGHT times the share
of its health the attack takes on average (``p_kill + DAMAGE_WEIGHT * (1 - p_kill)
* share``). The
search player counts the opponent's answer with it instead of rolling the
answer's dice, so its look-ahead has no dice noise of its own (docs/ai.md).
"""

from __future__ import annotations

from sim.ai.scoring import AttackValue, Scorer, situation_with
from sim.combat.plan import AttackRefused, CloseCombat, Shoot, plan_close_combat, plan_shot
from sim.combat.situation import Situation
from sim.engine.actions import Action
from sim.engine.state import GameState
from sim.movement.kinds import Charge, plan_movement


def attack_worth(state: GameState, scorer: Scorer, action: Action) -> tuple[str, float] | None:
    """``(target, worth)`` of an attack action, or None for any other action."""
    v = attack_value(state, scorer, action)
    return (v.target, v.value) if v is not None else None


def attack_value(state: GameState, scorer: Scorer, action: Action) -> AttackValue | None:
    """The :class:`AttackValue` of an attack action (a charge's at its contact point),
    or None for any other action or an attack the rules refuse."""
    if isinstance(action, Shoot | CloseCombat):
        sit = Situation.of_state(state)
        try:
            # (a plan is made only with sight: the bare analysis, no blockers to name)
            plan = (plan_shot(sit, action.model, action.target, action.weapon, action.band,
                              names=False) if isinstance(action, Shoot)
                    else plan_close_combat(sit, action.model, action.target, action.weapon))
        except AttackRefused:
            return None
        return scorer.value_of(plan, state.model(action.target).health, state.rules)
    if isinstance(action, Charge):
        route = plan_movement(state, action.model, action.steps, ruler="charge")
        if route.end is None:
            return None
        return scorer.melee(situation_with(state, action.model, route.end), action.model,
                            action.target)
    return None
