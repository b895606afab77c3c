"""The search player: greedy's shortlist, each tried ahead on copies (docs/ai.md).

In an activation it takes greedy's best few candidates and plays each out on
copies of the game (``state.copy()``, ``apply``: the engine's forward model):
the rest of this model's activation, then the opponent's next activation, both
played by a quick greedy player (the opponent as greedy would answer). The
dice of each playout are *determinised*: the copy's generator is set to a seed
drawn from the player's own generator, the same seeds for every candidate (so
they are compared on the same luck), never the game's real next rolls.

A playout is worth the change in material it sees: for each model removed one
point, for damage the share of the health taken times
:data:`sim.ai.scoring.DAMAGE_WEIGHT`, enemies counting for the player and its
own against. A candidate's value is the mean over its playouts plus
:data:`PRIOR` times greedy's own score (the playouts are few and noisy, the
score sees what they do not: cover, sight for later).

The budget per decision is a number of playouts (``playouts``): results are
then the same on any machine. ``seconds`` adds a time budget (the window's
solo play): playouts stop when it is spent, at least one per candidate, which
makes decisions depend on the machine's speed. Turn choices (readying,
activating) are greedy's.
"""

from __future__ import annotations

import time

from sim.ai.candidates import Reaches
from sim.ai.greedy import GreedyPlayer, Weighed, weigh
from sim.ai.player import Decision
from sim.ai.scoring import DAMAGE_WEIGHT, Scorer
from sim.engine.actions import Action
from sim.engine.gamedata import Phase
from sim.engine.rng import SeededRng
from sim.engine.state import GameState

#: Candidates tried ahead, from the top of greedy's list.
SHORTLIST = 3
#: Playouts per decision (split evenly among the candidates).
PLAYOUTS = 6
#: The weight of greedy's score next to the playouts' mean.
PRIOR = 0.5
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
            values.append(total / n + PRIOR * w.score)
        return _chosen(short, values, len(seeds))

    def _playout(self, state: GameState, action: Action, seed: int) -> float:
        """Material gained by ``action`` and what follows, on a copy with seeded dice."""
        me = state.acting
        assert me is not None
        mover = state.activation.model if state.activation is not None else None
        sim = state.copy()
        sim.rng.setstate(seed)
        before = material(sim, me)
        sim.apply(action)
        for _ in range(HORIZON):
            if sim.is_over:
                break
            act = sim.activation
            if sim.acting == me and (act is None or act.model != mover):
                break  # this player's own next choice: the playout has seen enough
            sim.apply(self.policy.decide(sim).action)
        return material(sim, me) - before


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
