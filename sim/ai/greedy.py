"""The greedy player: the best action now by the exact odds and the board (docs/ai.md).

In an activation it weighs every candidate (sim.ai.candidates) by what it
gains now plus what the place it leaves the model in is worth
(:meth:`sim.ai.scoring.Scorer.spot`): a shot's or a close combat's value from
the exact odds, a charge's attack at the contact point, a move's destination
(the best attack from there, the enemies' attacks on it there, how far it is
from reaching one). Ending the activation is the place as it stands. So it
moves to the best cover that has sight of a target, takes the shot with the
best expected value and charges when the odds favour it.

Turn choices: it takes the first turn (R-TURN-3), readies and activates the
model with the most to gain or to fear first, always takes option B (a model
readied is activated now), and never ends a turn with Ready models left.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from sim.ai import why
from sim.ai.answer import attack_value
from sim.ai.candidates import Reaches, activation_actions, listed
from sim.ai.objective_moves import objective_moves
from sim.ai.objectives import leave_value
from sim.ai.player import Decision
from sim.ai.scoring import Scorer, Spot, situation_with
from sim.combat.plan import CloseCombat, Shoot
from sim.combat.situation import Situation
from sim.engine.actions import (
    Action,
    Activate,
    ChooseFirst,
    EndActivation,
    EndTurn,
    ModelAction,
    OptionB,
    ReadyModel,
)
from sim.engine.gamedata import Phase
from sim.engine.state import GameState
from sim.movement.kinds import Charge, Leave, Move, plan_movement
from sim.scenario.names import display_names
from sim.scenario.positions import Position

#: A move that leaves the model part-way up a face (it cannot attack, R-CLIMB-3).
CLIMBING_PENALTY = 0.2


@dataclass(frozen=True)
class Weighed:
    """A candidate action and its score (higher is better). Its why line is written
    when the decision is asked for: only the chosen candidates' ever are."""

    score: float
    action: Action
    line: Callable[[], str] = field(compare=False)

    @property
    def decision(self) -> Decision:
        return Decision(self.action, self.line())


def _said(line: str) -> Callable[[], str]:
    return lambda: line


class GreedyPlayer:
    """Picks the highest-scoring candidate; ties go to the first listed (deterministic)."""

    name = "greedy"

    def __init__(self, seed: int = 0, *, quick: bool = False, objectives: bool = True) -> None:
        self.seed = seed
        self.quick = quick
        self.scorer = Scorer(objectives=objectives)  # False: greedy-blind (docs/ai.md)
        self.reaches = Reaches()

    def decide(self, state: GameState) -> Decision:
        return weigh(state, self.scorer, self.reaches, quick=self.quick)[0].decision


def weigh(state: GameState, scorer: Scorer, reaches: Reaches | None = None, *,
          quick: bool = False) -> list[Weighed]:
    """Every candidate now, best first (the search player's shortlist too); ``quick``
    weighs fewer moves (sim.ai.candidates.straight_moves)."""
    options = (_activation(state, scorer, reaches or Reaches(), quick)
               if state.phase is Phase.ACTIVATION else _turn(state, scorer))
    return sorted(options, key=lambda w: -w.score)


# --- activations --------------------------------------------------------------------


def _activation(state: GameState, scorer: Scorer, reaches: Reaches, quick: bool
                ) -> list[Weighed]:
    act = state.activation
    assert act is not None  # the phase is ACTIVATION
    model = act.model
    names = display_names(state.scenario)
    extra = objective_moves(state, model, reaches) if scorer.objectives else []
    scorer.standing(state, [model], mine=True)  # (its shots listed and weighed, its place)
    out = weigh_actions(state, scorer, [*activation_actions(state, reaches, quick), *extra])
    if not out:  # nothing scored: the first listed action, so the AI is never stuck
        first = listed(state)[0]
        out.append(Weighed(0.0, first, _said(f"{names.model(model)}: {first}")))
    return out


def weigh_actions(state: GameState, scorer: Scorer, actions: Iterable[Action]
                  ) -> list[Weighed]:
    """Each of the active model's ``actions`` weighed once, in order (the ones greedy
    cannot score left out)."""
    act = state.activation
    assert act is not None  # the phase is ACTIVATION
    sit = Situation.of_state(state)
    todo = list(dict.fromkeys(actions))  # (each once, in order)
    scorer.places(state, act.model, _ends(state, todo))  # (every move's end at once)
    out: list[Weighed] = []
    for a in todo:
        w = _weigh_one(state, scorer, sit, a, act.model, act.actions_left)
        if w is not None:
            out.append(w)
    return out


def _weigh_one(state: GameState, scorer: Scorer, sit: Situation, a: Action, model: str,
               left: int) -> Weighed | None:
    """One candidate's score: what it gains now plus the worth of where it leaves the model."""
    sc = state.scenario
    here = state.model(model).position

    def spot(where: Position, k: int) -> Spot:
        return scorer.spot(state, model, where, k)

    if isinstance(a, EndActivation):
        stay = spot(here, 0)
        return Weighed(stay.score, a, lambda: why.stay_line(sc, stay))
    if isinstance(a, Shoot | CloseCombat):
        v = attack_value(state, scorer, a)
        if v is None:  # refused by the rules
            return None
        shot = isinstance(a, Shoot)
        return Weighed(v.value + spot(here, left - 1).score, a,
                       lambda: why.shot_line(sc, v) if shot else why.melee_line(sc, v, "fights"))
    if isinstance(a, Charge):
        route = plan_movement(state, a.model, a.steps, ruler="charge")
        if route.end is None:
            return None
        hit = scorer.melee(situation_with(state, a.model, route.end), a.model, a.target)
        if hit is None:
            return None
        score = hit.value + spot(route.end, left - 1).score
        return Weighed(score, a, lambda: why.melee_line(sc, hit, "charges"))
    if isinstance(a, Move):
        end, climbing = move_end(state, a, here)
        if end is None:
            return None
        there = spot(end, left - 1)
        penalty = CLIMBING_PENALTY if climbing else 0.0
        r = state.radius(a.model)
        return Weighed(there.score - penalty, a, lambda: why.move_line(sc, there, r))
    if isinstance(a, Leave):  # only offered to carry cargo off (R-OBJ-4)
        worth = leave_value(state, a)
        return None if worth is None else Weighed(worth, a, _said(
            f"{display_names(sc).model(a.model)} carries its cargo off the board"))
    if isinstance(a, ModelAction):  # a kind this player does not know: worth nothing more
        return Weighed(spot(here, left - 1).score - 0.01, a,
                       _said(f"{display_names(sc).model(a.model)}: {a}"))
    return None


def _ends(state: GameState, actions: list[Action]) -> Iterator[Position]:
    """Where the moves and charges among ``actions`` leave the model (the legal ones)."""
    for a in actions:
        if isinstance(a, Move):
            end = move_end(state, a, state.model(a.model).position)[0]
        elif isinstance(a, Charge):
            end = plan_movement(state, a.model, a.steps, ruler="charge").end
        else:
            continue
        if end is not None:
            yield end


def move_end(state: GameState, a: Move, here: Position) -> tuple[Position | None, bool]:
    """Where a legal move ends, and whether climbing; a walk on the ground ends at its
    last point (no need to plan it again), anything else is planned."""
    last = a.steps[-1]
    if here.z == 0.0 and all(s.kind == "walk" for s in a.steps):
        return Position(last.x, last.y, 0.0), False
    plan = plan_movement(state, a.model, a.steps)
    return plan.end, plan.climbing_at_end


# --- turn choices -------------------------------------------------------------------------


def _turn(state: GameState, scorer: Scorer) -> list[Weighed]:
    names = display_names(state.scenario)
    me = state.acting
    options = listed(state)
    out: list[Weighed] = []
    urgency = _urgency(state, scorer)
    scorer.standing(state, [a.model for a in options if isinstance(a, ReadyModel | Activate)])
    for a in options:
        if isinstance(a, ChooseFirst):
            first = a.side == me
            out.append(Weighed(1.0 if first else 0.0, a, _said(
                f"{names.side(a.side)} take the first turn"
                + (": the first shots are ours" if first else ""))))
        elif isinstance(a, ReadyModel | Activate):
            score, line = urgency(a.model)
            verb = "readies" if isinstance(a, ReadyModel) else "activates"
            out.append(Weighed(score, a, _said(
                f"{names.side(me or '')} {verb} {names.model(a.model)}: {line}")))
        elif isinstance(a, OptionB):
            out.append(Weighed(1.0, a, _said("option B: the readied model acts now")))
        elif isinstance(a, EndTurn):
            out.append(Weighed(-1e9, a, _said("end of the turn: no Ready model is worth "
                                              "activating")))
        else:
            out.append(Weighed(0.0, a, _said(f"{names.side(me or '')}: {a}")))
    return out


def _urgency(state: GameState, scorer: Scorer) -> Callable[[str], tuple[float, str]]:
    """A model's case for acting now: its best attack, the danger it is in, nearness."""

    def of(model: str) -> tuple[float, str]:
        spot = scorer.spot(state, model, state.model(model).position, 2)
        best = spot.best.value if spot.best is not None else 0.0
        score = best + 0.3 * spot.threat - 0.01 * spot.gap
        return score, why.spot_words(state.scenario, spot)

    return of
