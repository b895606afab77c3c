"""The search player's leaf evaluation: each side's threats as the board stands.

After a playout (sim.ai.search) the position is weighed for BOTH sides by what
they could do next: each model's *best attack* from where it stands, a shot
(:meth:`sim.ai.scoring.Scorer.best_shot`, the exact odds with sight, cover and
range) or, on an enemy within its charge ruler at its own level, the close
combat its charge would end with (:meth:`sim.ai.scoring.Scorer.melee`). Greedy's
spot only counts close combat already in base contact, so a model that sets up
a charge gets nothing for it there: this is what lets the melee side (the
mutants of the skirmish) close in.

A model that can still act this round counts fully; a model already Used this
round counts :data:`NEXT_ROUND` (its attack waits for the next round, and the
enemy may act first), nothing in the scenario's last round (R-TURN-10: the
game ends with it).
"""

from __future__ import annotations

from sim.ai.last_round import is_last_round
from sim.ai.scoring import Scorer, within_charge
from sim.combat.situation import Situation
from sim.engine.gamedata import Readiness
from sim.engine.state import GameState
from sim.scenario.positions import Position

#: The weight of a Used model's attack (it waits for the next round).
NEXT_ROUND = 0.5


def firepower(state: GameState, scorer: Scorer, side: str) -> float:
    """The sum over ``side``'s models in play of each one's best attack from where it
    stands, weighted by when it can make it (module docstring)."""
    last_round = is_last_round(state)
    sit = Situation.of_state(state)
    enemies = [m.id for m in state.side_models(state.opponent(side))]
    total = 0.0
    for m in state.side_models(side):
        if m.climbing:
            continue
        if m.readiness is Readiness.USED:
            if last_round:
                continue
            weight = NEXT_ROUND
        else:
            weight = 1.0
        best = 0.0
        for e in enemies:
            shot = scorer.best_shot(sit, m.id, e)
            if shot is not None and shot.value > best:
                best = shot.value
            if within_charge(state, m.id, e):
                hit = scorer.melee(sit, m.id, e)
                if hit is not None and hit.value > best:
                    best = hit.value
        total += weight * best
    return total


def charge_threat(state: GameState, scorer: Scorer, model: str, at: Position) -> float:
    """The worth of the best close combat ``model`` standing at ``at`` could charge
    into (0 if no enemy is within its charge ruler at its level)."""
    best = scorer.best_charge(state, model, at)
    return best.value if best is not None else 0.0
