"""The search player: greedy's shortlist, each tried ahead on copies (docs/ai.md).

In an activation it takes greedy's best few candidates and plays each out on
copies of the game (``state.copy()``, ``apply``: the engine's forward model):
the rest of this model's activation, then the opponent's next activation, both
played by a quick greedy player (the opponent as greedy would answer). The
dice of each playout are *determinised*: the copy's generator is set to a seed
drawn from the player's own generator, the same seeds for every candidate (so
they are compared on the same luck), never the game's real next rolls.

Greedy's score already holds what the candidate gains by the exact odds; what
it only guesses is the answer (its threat term). So a playout measures the
answer: the change in material over the opponent's activation (for each
model removed one point, for damage the share of the health taken times
:data:`sim.ai.scoring.DAMAGE_WEIGHT`, enemies counting for the player and its
own against), and a candidate's value is greedy's score plus :data:`ANSWER`
times the mean of its playouts. Leaving the sampled outcome of the
candidate's own dice out of the value keeps the exact expectation of it.

The budget per decision is a number of playouts (``playouts``): results are
then the same on any machine. ``seconds`` adds a time budget (the window's
solo play): playouts stop when it is spent, at least one per candidate, which
makes decisions depend on the machine's speed.

Turn choices: the model to ready or activate is the one whose best action is
worth most, each tried on a copy up to its activation and weighed there as
greedy weighs (greedy itself only guesses from its best attack and danger).
"""

from __future__ import annotations

import time

from sim.ai.candidates import Reaches
from sim.ai.greedy import GreedyPlayer, Weighed, weigh
from sim.ai.player import Decision
from sim.ai.scoring import DAMAGE_WEIGHT, Scorer
from sim.engine.actions import Action, Activate, ReadyModel
from sim.engine.gamedata import Phase
from sim.engine.rng import SeededRng
from sim.engine.state import GameState

#: Candidates tried ahead, from the top of greedy's list.
SHORTLIST = 4
#: Playouts per decision (split evenly among the candidates).
PLAYOUTS = 8
#: The weight of the opponent's answer, as the playouts measure it, next to greedy's score.
ANSWER = 0.3
#: Turn steps between readying a model and its activation (option B, activate).
LEAD_IN = 3
#: Decisions a playout may take at most (a whole opponent activation is about five).
HORIZON = 12


class SearchPlayer:
    """Greedy's shortlist, re-ranked by determinised playouts."""

    name = "search"

    def __init__(self, seed: int = 0, *, shortlist: int = SHORTLIST, playouts: int = PLAYOUTS,
                 seconds: float | None = None) -> None:
        self.rng = SeededRng(seed)
        self.shortlist, self.playouts, self.seconds = shortlist, playouts, seconds
        self.scorer = Scorer()
        self.reaches = Reaches()
        self.policy = GreedyPlayer(seed, quick=True)

    def decide(self, state: GameState) -> Decision:
        options = weigh(state, self.scorer, self.reaches)
        if state.phase in (Phase.READY, Phase.ACTIVATE) and len(options) > 1:
            return self._which_model(state, options)
        if state.phase is not Phase.ACTIVATION or len(options) == 1:
            return options[0].decision
        short = options[: self.shortlist]
        per = max(1, self.playouts // len(short))
        seeds = [self.rng.randint(0, 2**63 - 1) for _ in range(per)]
        start = time.perf_counter()
        values: list[float] = []
        for w in short:
            total, n = 0.0, 0
            for seed in seeds:
                if n and self.seconds is not None and \
                        time.perf_counter() - start > self.seconds:
                    break
                total += self._playout(state, w.decision.action, seed)
                n += 1
            values.append(w.score + ANSWER * total / n)
        return _chosen(short, values, len(seeds))

    def _which_model(self, state: GameState, options: list[Weighed]) -> Decision:
        """Ready (or activate) the model whose best action is worth most: each is
        tried on a copy, up to its activation, and weighed there as greedy would."""
        best: tuple[float, Weighed, Weighed | None] | None = None
        for w in options:
            action = w.decision.action
            if not isinstance(action, ReadyModel | Activate):
                continue
            sim = state.copy()
            sim.apply(action)
            for _ in range(LEAD_IN):  # option B, then activating it (rulebook)
                if sim.phase is Phase.ACTIVATION or sim.is_over or sim.acting != state.acting:
                    break
                sim.apply(weigh(sim, self.scorer, self.reaches)[0].decision.action)
            first = (weigh(sim, self.scorer, self.reaches)[0]
                     if sim.phase is Phase.ACTIVATION and sim.activation is not None
                     and sim.activation.model == action.model else None)
            value = first.score if first is not None else w.score
            if best is None or value > best[0]:
                best = (value, w, first)
        if best is None:
            return options[0].decision
        value, w, first = best
        then = f"; then {first.decision.why} ({value:+.2f})" if first is not None else ""
        return Decision(w.decision.action, f"{w.decision.why}{then}")

    def _playout(self, state: GameState, action: Action, seed: int) -> float:
        """What the opponent's answer to ``action`` costs this player, on a copy with
        seeded dice: the rest of this activation is played, then the change of
        material over the opponent's next activation is measured (0 if none comes)."""
        me = state.acting
        assert me is not None
        mover = state.activation.model if state.activation is not None else None
        sim = state.copy()
        sim.rng.setstate(seed)
        sim.apply(action)
        answered: float | None = None
        for _ in range(HORIZON):
            if sim.is_over:
                break
            act = sim.activation
            if sim.acting == me and (act is None or act.model != mover):
                break  # this player's own next choice: the playout has seen enough
            if answered is None and sim.acting != me:
                answered = material(sim, me)
            sim.apply(self.policy.decide(sim).action)
        return 0.0 if answered is None else material(sim, me) - answered


def _chosen(short: list[Weighed], values: list[float], per: int) -> Decision:
    best = max(range(len(short)), key=lambda i: (values[i], -i))
    others = [v for i, v in enumerate(values) if i != best]
    against = f" against {max(others):+.2f}" if others else ""
    d = short[best].decision
    return Decision(d.action, f"{d.why}; {per} playouts each of {len(short)} choices: "
                              f"{values[best]:+.2f}{against}")


def material(state: GameState, side: str) -> float:
    """Enemy losses minus own: a point per model out of play, and the share of
    health taken from those in play times DAMAGE_WEIGHT (R-TURN-10 scores)."""
    total = 0.0
    for m in state.models.values():
        if m.side not in state.sides:
            continue
        full = state.scenario.unit_of(m.id).health
        lost = 1.0 if not m.in_play else DAMAGE_WEIGHT * (1.0 - m.health / full)
        total += lost if m.side != side else -lost
    return total
