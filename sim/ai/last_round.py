"""What an action is worth in the scenario's last round, when only the score is left.

The game ends with the last round and is won on models removed (R-TURN-10), so
in that round greedy's place terms stop meaning anything: there is no next turn
to shoot in and no reason to close in. What counts is the chance to eliminate,
and damage short of it only while a later attack of the same side can still
finish the target this round. The search player weighs its candidates so in
the last round (sim.ai.search); the opponent's answer is still measured by
playouts, as in every round.

>>> from sim.ai.scoring import AttackValue
>>> v = AttackValue("a", "t", "rifle", "short", p_hit=0.5, expected=1.0, p_kill=0.2,
...                 cover=0, share=0.5)
>>> round(v.value, 2), worth(v, follow_up=False), round(worth(v, follow_up=True), 2)
(0.4, 0.2, 0.4)
"""

from __future__ import annotations

from sim.ai.answer import attack_value
from sim.ai.greedy import Weighed, move_end
from sim.ai.objectives import last_round_worth
from sim.ai.scoring import SHOT_AFTER_MOVE, AttackValue, Scorer
from sim.engine.actions import Action, EndActivation
from sim.engine.gamedata import Readiness
from sim.engine.state import GameState
from sim.movement.kinds import Charge, Move, plan_movement
from sim.scenario.positions import Position


def is_last_round(state: GameState) -> bool:
    """The scenario's last round is being played (R-TURN-10: the game ends with it)."""
    return state.rounds is not None and state.round >= state.rounds


def follow_up(state: GameState, attacker: str, later_actions: int) -> bool:
    """Can the attacker's side still attack again this round after this attack: the
    attacker with actions left, or another model of its side not yet Used?"""
    if later_actions > 0:
        return True
    side = state.model(attacker).side
    return any(m.id != attacker and m.readiness is not Readiness.USED and not m.climbing
               for m in state.side_models(side))


def worth(v: AttackValue, *, follow_up: bool) -> float:
    """An attack's worth for the score: the chance to eliminate, plus its damage's
    worth (:attr:`AttackValue.value`) only when a later attack can finish the job."""
    return v.value if follow_up else v.p_kill


def action_score(state: GameState, scorer: Scorer, action: Action) -> float | None:
    """A candidate of the acting model's activation weighed for the score alone: its
    attack's worth, plus, when an action is left after it, the best attack from
    where it leaves the model (times SHOT_AFTER_MOVE, as greedy counts it). A stay
    is worth nothing; None for a move that cannot be made."""
    act = state.activation
    if act is None or isinstance(action, EndActivation):
        return 0.0
    model, later = act.model, act.actions_left - 1
    here = state.model(model).position
    score, end = 0.0, here
    hit = attack_value(state, scorer, action)
    if hit is not None:
        score = worth(hit, follow_up=follow_up(state, model, later))
        if isinstance(action, Charge):
            end = plan_movement(state, model, action.steps, ruler="charge").end or here
    elif isinstance(action, Move):
        moved, climbing = move_end(state, action, here)
        if moved is None:
            return None
        if climbing:
            return 0.0  # part-way up a face: no attack from there (R-CLIMB-3)
        end = moved
    if later >= 1:
        score += SHOT_AFTER_MOVE * _next_attack(state, scorer, model, end, later)
    return score


def _next_attack(state: GameState, scorer: Scorer, model: str, at: Position, left: int) -> float:
    """The worth of the model's best attack from ``at`` with its last action: a shot,
    a close combat in base contact, or the charge it could make from there (a hound
    that walks into charge reach charges with its second action, R-TURN-7)."""
    spot = scorer.spot(state, model, at, left).best
    charge = scorer.best_charge(state, model, at)
    later = follow_up(state, model, left - 1)
    return max((worth(v, follow_up=later) for v in (spot, charge) if v is not None), default=0.0)


def for_the_score(state: GameState, scorer: Scorer, options: list[Weighed]) -> list[Weighed]:
    """Greedy's candidates weighed again for the score alone (:func:`action_score`),
    best first: greedy's place terms (the pull toward the enemy, the attack next
    turn) count for nothing in the last round (R-TURN-10); the objectives' worth of where
    an action leaves the model does (R-OBJ-2..4). Moves that cannot be made are dropped."""
    out = [Weighed(score + (last_round_worth(state, w.action)
                            if scorer.objectives else 0.0), w.action, w.line) for w in options
           if (score := action_score(state, scorer, w.action)) is not None]
    return sorted(out, key=lambda w: -w.score) or options
