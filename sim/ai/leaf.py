"""The search player's leaf evaluation: each side's threats as the board stands.

After a playout (sim.ai.search) the position is weighed for BOTH sides by what
they could do next: each model's attack on each enemy from where they stand, a
shot (:meth:`sim.ai.scoring.Scorer.best_shot`, the exact odds with sight, cover
and range) or, on an enemy within its charge ruler at its own level, the close
combat its charge would end with (:meth:`sim.ai.scoring.Scorer.melee`). Greedy's
spot only counts close combat already in base contact, so a model that sets up
a charge gets nothing for it there: this is what lets the melee side (the
mutants of the skirmish) close in.

Two sums of that table (:class:`Threats`): a side's *firepower*, each of its
models' best attack (what it can do), and a side's *exposure*, each of its
models' worst attack taken, from the enemy most dangerous to it (what a player
sees when it looks at its own models). Exposure is what the player weighs of the
opponent: the opponent's firepower counts an enemy rifle once, on its best
target, so a second model walked into the open next to a wounded one costs
nothing there (issue 37's two hounds); its exposure counts both.

A model that can still act this round attacks fully; a model already Used this
round counts :data:`NEXT_ROUND` (its attack waits for the next round, and the
enemy may act first), nothing in the scenario's last round (R-TURN-10: the
game ends with it).
"""

from __future__ import annotations

from typing import NamedTuple

from sim.ai.charge_reach import within_charge
from sim.ai.last_round import is_last_round
from sim.ai.scoring import Scorer
from sim.combat.situation import Situation
from sim.engine.gamedata import ModelState, Readiness
from sim.engine.state import GameState
from sim.scenario.positions import Position

#: The weight of a Used model's attack (it waits for the next round).
NEXT_ROUND = 0.5


class Threats(NamedTuple):
    """One side's attacks on the other as the board stands, summed two ways."""

    firepower: float  # each of the side's models' best attack
    exposure: float  # each of the other side's models' worst attack taken from the side


def threats(state: GameState, scorer: Scorer, side: str, used: float = NEXT_ROUND) -> Threats:
    """``side``'s attacks, each weighted by when its model can make it (module docstring);
    ``used``: the weight of a model already Used this round."""
    last_round = is_last_round(state)
    sit = Situation.of_state(state)
    enemies = [m.id for m in state.side_models(state.opponent(side))]
    worst = dict.fromkeys(enemies, 0.0)
    total = 0.0
    for m in state.side_models(side):
        weight = _weight(m, last_round, used)
        if weight == 0.0:
            continue
        best = 0.0
        for e in enemies:
            hit = weight * _attack(state, sit, scorer, m.id, e)
            best = max(best, hit)
            worst[e] = max(worst[e], hit)
        total += best
    return Threats(total, sum(worst.values()))


def firepower(state: GameState, scorer: Scorer, side: str) -> float:
    """The sum over ``side``'s models in play of each one's best attack from where it
    stands, weighted by when it can make it (module docstring)."""
    return threats(state, scorer, side).firepower


def _weight(m: ModelState, last_round: bool, used: float) -> float:
    if m.climbing:
        return 0.0
    if m.readiness is Readiness.USED:
        return 0.0 if last_round else used
    return 1.0


def _attack(state: GameState, sit: Situation, scorer: Scorer, model: str, enemy: str) -> float:
    """The worth of ``model``'s best attack on ``enemy`` from where it stands: a shot,
    or the close combat its charge would end with."""
    best = 0.0
    shot = scorer.best_shot(sit, model, enemy)
    if shot is not None:
        best = shot.value
    if within_charge(state, model, enemy):
        hit = scorer.melee(sit, model, enemy)
        if hit is not None:
            best = max(best, hit.value)
    return best


def charge_threat(state: GameState, scorer: Scorer, model: str, at: Position) -> float:
    """The worth of the best close combat ``model`` standing at ``at`` could charge
    into (0 if no enemy is within its charge ruler at its level)."""
    best = scorer.best_charge(state, model, at)
    return best.value if best is not None else 0.0
