"""The search player: greedy's shortlist, each tried ahead on copies (docs/ai.md).

In an activation it takes greedy's best few candidates (a move or a stay
ranked with the charge it sets up, sim.ai.leaf.charge_threat) and the places
least in the enemies' reach (:data:`SAFE`), and plays each out on copies of the
game (``state.copy()``, ``apply``: the engine's forward model): the rest of
this model's activation, then the opponent's next :data:`DEPTH` turns and this
player's turns between them, all played by a quick greedy player (the
opponent as greedy would answer). Two replies, not one: an enemy that must first
move to see a model, or that acts second, shoots it too. The dice of each playout
are *determinised*: the copy's generator is set to a seed drawn from the player's
own generator, the same seeds for every candidate (so they are compared on the
same luck), never the game's real next rolls.

Greedy's score already holds what the candidate gains by the exact odds; what
it only guesses is the answer (its threat term). So a playout measures the
answer without rolling its dice: each attack the opponent's greedy chooses on
this player's models counts its exact worth (sim.ai.answer: the chance to
eliminate plus DAMAGE_WEIGHT times the share of health taken), each attack of this
player's own later turns likewise as a gain (:data:`GAIN`). What the
candidate's activation leaves open counts with the answer (:data:`EXPOSED`):
each of this player's models' worst attack it can take before it acts again
(sim.ai.leaf: its *exposure*), whichever target the opponent's greedy then
picks (issue 37: a second hound walked into the open beside a wounded one was
free to a playout whose replies all went to the first). After the answer the
position is weighed for both sides (sim.ai.leaf.threats: each model's best
shot, or the charge it could make, from where it stands). A candidate's value
is greedy's score minus :data:`ANSWER` times the answer and the exposure left
open, plus :data:`COUNTER` times this player's firepower after the answer minus
:data:`DANGER` times its exposure then; in the last round a side ahead weighs
losses more and a side behind or level less, and a side level or behind presses
so from the round before the last, with greedy's pull toward the enemy
(:func:`late_weights`, :func:`pressing`). Every candidate is played out on
the same seeds: a move rolls no dice itself, but the replies roll theirs (who
is hit and removed decides what follows), so one playout was one sample of
their luck, against an attack's several. An attack's outcome changes the
answer (a target removed cannot answer): its playouts are split by whether
the target was eliminated and the two means weighted by the exact chance to
eliminate (greedy's score keeps the exact expectation of the attack itself).

Issue 37: the activation's two actions are searched together (sim.ai.widening):
each first candidate with greedy's best few seconds after it, a *plan*, opened
by progressive widening as the decision's playouts are spent one at a time
(UCB1 chooses the next), each plan's k-th playout on the k-th seed. The chosen
plan's second is kept and played at the next decision when the first left the
position the search expected.

The budget per decision is a number of playouts (:data:`PLAYOUTS`): results
are then the same on any machine. ``seconds`` adds a time budget (the window's
solo play): once it is spent no further playout (or, for a turn choice, model)
is tried, and the best of the plans played is chosen (the top of the shortlist
is always played). That makes decisions depend on the machine's speed.

Turn choices: the model to ready or activate is the one whose best action is
worth most, each tried on a copy up to its activation and weighed there as
the activation weighs it: as greedy does, in the last round for the score alone
(greedy itself only guesses from its best attack and danger).
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from functools import partial
from typing import NamedTuple

from sim.ai.answer import attack_value, attack_worth
from sim.ai.candidates import Reaches, straight_moves
from sim.ai.greedy import GreedyPlayer, Weighed, weigh, weigh_actions
from sim.ai.last_round import for_the_score, is_last_round
from sim.ai.leaf import charge_threat, threats
from sim.ai.objectives import playout_worth
from sim.ai.player import Decision
from sim.ai.scoring import APPROACH as GREEDY_APPROACH
from sim.ai.scoring import Scorer
from sim.ai.seen import Seen
from sim.ai.widening import MOST_SECONDS, First, Luck, Pair, best_pair, next_pair
from sim.combat.plan import (
    CloseCombat,
    Shoot,
)
from sim.engine.actions import Action, Activate, EndActivation, ReadyModel
from sim.engine.gamedata import Phase
from sim.engine.rng import SeededRng
from sim.engine.state import GameState
from sim.engine.turns import score
from sim.movement.kinds import Move
from sim.scenario.names import model_name
from sim.scenario.positions import Position

#: Candidates tried ahead, from the top of greedy's list.
SHORTLIST = 6
#: Candidates added to the shortlist: the places least in the enemies' reach.
SAFE = 2
#: Playouts per activation decision (the iteration budget; sim.ai.widening spends them).
PLAYOUTS = 40
#: The weight of the opponent's answer (its attacks' exact worth) next to greedy's score.
ANSWER = 1.0
#: The weight of this player's threats after the answer (its firepower, sim.ai.leaf).
COUNTER = 0.3
#: The weight of the opponent's threats after the answer: this player's exposure.
DANGER = 0.3
#: In the last round, how much more a side ahead weighs what it could lose (and a
#: side behind what it could gain): see late_weights.
LATE = 1.5
#: Rounds before the last in which a side level or behind already presses (see
#: late_weights): the round before the last sets up the last round's attacks.
PRESS = 1
#: Turn steps between readying a model and its activation (option B, activate).
LEAD_IN = 3
#: Decisions a playout may take at most per turn played (a whole turn is about six).
HORIZON = 12
#: Opponent turns a playout plays (this player's turns between them too, by the quick
#: greedy): more of the round's replies, moves before shots included.
DEPTH = 2
#: The weight of what the candidate's activation leaves open, next to the answer: each of
#: this player's models' worst attack it can take before it acts again (sim.ai.leaf
#: exposure), whichever target the opponent's greedy then chooses.
EXPOSED = 1.0
#: The weight of this player's own attacks in a playout after the candidate's activation.
GAIN = 1.0
#: Search's pull toward the enemy per inch beyond striking range (greedy's is
#: sim.ai.scoring.APPROACH, 0.03): the playouts measure what closing in buys (the
#: attacks that follow, the threats after the answer) and what it costs (the answer),
#: so only a tie-breaker is left of the guess; at greedy's weight a melee model walks
#: into the open for a few inches and is shot.
APPROACH = 0.01


class SearchPlayer:
    """Plans of greedy's candidates, weighed by the opponent's answer on determinised copies."""

    name = "search"

    def __init__(self, seed: int = 0, *, shortlist: int = SHORTLIST, playouts: int = PLAYOUTS,
                 seconds: float | None = None, answer: float = ANSWER,
                 counter: float = COUNTER, danger: float = DANGER, depth: int = DEPTH,
                 gain: float = GAIN, safe: int = SAFE, approach: float = APPROACH) -> None:
        self.rng = SeededRng(seed)
        self.answer, self.counter, self.danger = answer, counter, danger
        self.depth, self.gain, self.safe = depth, gain, safe
        self.shortlist, self.playouts, self.seconds = shortlist, playouts, seconds
        self.approach = approach
        self.scorer = Scorer(approach=approach)
        self.reaches = Reaches()
        self.policy = GreedyPlayer(seed, quick=True)
        self.seen = Seen()  # what the playouts worked out, by position (sim.ai.seen)
        self._plan: tuple[Hashable, Weighed] | None = None  # the chosen pair's second

    def decide(self, state: GameState) -> Decision:
        # pressing late, the pull toward the enemy is greedy's guess again (late_weights)
        self.scorer.approach = GREEDY_APPROACH if pressing(state) else self.approach
        planned = self._planned(state)
        if planned is not None:
            return planned
        options = candidates(state, self.scorer, self.reaches)
        if state.phase in (Phase.READY, Phase.ACTIVATE) and len(options) > 1:
            return self._which_model(state, options)
        if state.phase is not Phase.ACTIVATION or len(options) == 1:
            return options[0].decision
        if is_last_round(state):
            options = for_the_score(state, self.scorer, options)
            if len(options) == 1:
                return options[0].decision
        return self._activation(state, options)

    def _activation(self, state: GameState, options: list[Weighed]) -> Decision:
        """The activation's two actions searched together (sim.ai.widening): each visit
        of a pair is one playout on the pair's next seed, the same seeds for every
        pair; the first action of the best pair is chosen, its second kept as the plan."""
        short = self._shortlist(state, options)
        rest = [w for w in sorted(options, key=lambda w: -w.score) if w not in short]
        seeds = [self.rng.randint(0, 2**63 - 1) for _ in range(self.playouts)]
        weights = late_weights(state, Weights(self.answer, self.counter, self.danger, self.gain))
        firsts = [First(w, partial(self._pairs, state, w, seeds[0])) for w in short + rest]
        luck = Luck()
        start = time.perf_counter()
        for visit in range(self.playouts):
            if visit and self.seconds is not None and time.perf_counter() - start > self.seconds:
                break  # the budget is spent: choose among the pairs played out
            first, pair = next_pair(firsts, visit, luck)
            first.n += 1
            pair.play(*self._playout(state, pair.actions, seeds[pair.n], weights, pair.target),
                      luck)
        first, pair = best_pair(firsts, luck)
        self._plan = None
        if pair.second is not None:
            self._plan = (_where(pair.after), pair.second)
        return _chosen(first, pair, firsts, luck)

    def _pairs(self, state: GameState, w: Weighed, seed: int) -> list[Pair]:
        """The first action ``w`` and greedy's best few second actions after it, on a
        copy with seeded dice (an attack's outcome is one of its possible ones); or
        ``w`` alone when it ends the activation. A pair's exact score is the first's
        (which holds greedy's guess of the best second) less how much worse greedy
        finds its second than the best: the best pair keeps the first's own score."""
        act = state.activation
        assert act is not None
        target, p_kill = self._target(state, w.action)
        sim = state.copy()
        sim.rng.setstate(seed)
        sim.apply(w.action)
        after = sim.activation
        if sim.is_over or after is None or after.model != act.model:
            return [Pair((w.action,), w.score, None, sim, target, p_kill)]
        seconds = weigh(sim, self.scorer, self.reaches)
        if is_last_round(sim):
            seconds = for_the_score(sim, self.scorer, seconds)
        out = []
        for s in seconds[:MOST_SECONDS]:
            t, p = (target, p_kill) if target is not None else self._target(sim, s.action)
            out.append(Pair((w.action, s.action), w.score - (seconds[0].score - s.score),
                            s, sim, t, p))
        return out

    def _target(self, state: GameState, action: Action) -> tuple[str | None, float]:
        """An attack's target and its exact chance to eliminate it (else None, 0)."""
        hit = attack_worth(state, self.scorer, action)
        return (None, 0.0) if hit is None else (hit[0], self._p_kill(state, action))

    def _planned(self, state: GameState) -> Decision | None:
        """The second action of the pair chosen at the activation's first, when the
        first left the position the search expected (a move rolls no dice)."""
        plan, self._plan = self._plan, None
        if plan is None or plan[0] != _where(state) or not state.is_legal(plan[1].action):
            return None
        d = plan[1].decision
        return Decision(d.action, d.why, "the second action of the pair chosen")

    def _shortlist(self, state: GameState, options: list[Weighed]) -> list[Weighed]:
        """Greedy's best candidates, a move's or a stay's counted with the charge it
        sets up (greedy's spot counts close combat only once in base contact); then
        the :data:`SAFE` places least in the enemies' reach (greedy's danger at the
        spot, the better score first among equals): greedy's pull toward the enemy
        never ranks hanging back among its best, so the look-ahead would never
        weigh it."""
        act = state.activation
        assert act is not None
        here = state.model(act.model).position

        def where(w: Weighed) -> tuple[Position, int] | None:
            """Where a stay or a walk on the ground leaves the model, and its actions left."""
            a = w.action
            if isinstance(a, EndActivation):
                return here, 0
            if (isinstance(a, Move) and here.z == 0.0
                    and all(s.kind == "walk" for s in a.steps)):
                return Position(a.steps[-1].x, a.steps[-1].y, 0.0), act.actions_left - 1
            return None

        last = is_last_round(state)

        def pre(w: Weighed) -> float:
            at = where(w)
            if at is None or (last and at[1] == 0):  # last round: no later charge (R-TURN-10)
                return w.score
            return w.score + self.counter * charge_threat(state, self.scorer, act.model, at[0])

        ranked = sorted(options, key=lambda w: -pre(w))
        short = ranked[: self.shortlist]
        safe = sorted((self.scorer.spot(state, act.model, *at).threat, i, w)
                      for i, w in enumerate(options)
                      if w not in short and (at := where(w)) is not None)
        return short + [w for _, _, w in safe[: self.safe]]

    def _p_kill(self, state: GameState, action: Action) -> float:
        if not isinstance(action, Shoot | CloseCombat):
            return 0.5  # a charge: its attack's odds depend on the contact point
        v = attack_value(state, self.scorer, action)
        return 0.0 if v is None else v.p_kill

    def _which_model(self, state: GameState, options: list[Weighed]) -> Decision:
        """Ready (or activate) the model whose best action is worth most: each is
        tried on a copy, up to its activation, and weighed there as greedy would.
        The time budget caps this too: once spent no further model is tried (the
        first, greedy's most urgent, always is)."""
        best: tuple[float, Weighed, Weighed | None] | None = None
        start = time.perf_counter()
        models = [w for w in options if isinstance(w.action, ReadyModel | Activate)]
        tried = 0
        for w in models:
            if tried and self.seconds is not None and time.perf_counter() - start > self.seconds:
                break
            tried += 1
            action = w.action
            assert isinstance(action, ReadyModel | Activate)
            sim = state.copy()
            sim.apply(action)
            for _ in range(LEAD_IN):  # option B, then activating it (rulebook)
                if sim.phase is Phase.ACTIVATION or sim.is_over or sim.acting != state.acting:
                    break
                sim.apply(weigh(sim, self.scorer, self.reaches)[0].action)
            first = (self._first(sim)
                     if sim.phase is Phase.ACTIVATION and sim.activation is not None
                     and sim.activation.model == action.model else None)
            value = first.score if first is not None else w.score
            if best is None or value > best[0]:
                best = (value, w, first)
        if best is None:
            return options[0].decision
        value, w, first = best
        then = ""
        if first is not None and isinstance(w.action, ReadyModel | Activate):
            name = model_name(state.scenario, w.action.model)
            then = f"; then {_short(first.decision.why, name)}"
        cut = f"; {tried} of {len(models)} models tried (time)" if tried < len(models) else ""
        return Decision(w.action, f"{w.decision.why}{then}{cut}",
                        f"its best action's score {value:+.2f}")

    def _first(self, sim: GameState) -> Weighed:
        """The best first action of the activation begun on ``sim``, weighed as the
        activation will weigh it: for the score alone in the last round."""
        options = weigh(sim, self.scorer, self.reaches)
        if is_last_round(sim):
            options = for_the_score(sim, self.scorer, options)
        return options[0]

    def _playout(self, state: GameState, actions: tuple[Action, ...], seed: int,
                 weights: Weights, target: str | None = None) -> tuple[float, bool]:
        """The opponent's answer to ``actions`` (a pair) on a copy with seeded dice: the rest of
        this activation is played, then the opponent's next ``depth`` turns (this
        player's between them) as the quick greedy plays them; each of the opponent's
        attacks on this player's models counts its exact worth, each of this player's
        later attacks its worth as a gain (the dice are rolled only to go on). Also:
        whether ``target`` left play."""
        me = state.acting
        assert me is not None
        mover = state.activation.model if state.activation is not None else None
        sim = state.copy()
        sim.rng.setstate(seed)
        for action in actions:  # a second made illegal by the first's dice: the policy's
            if sim.is_over or not sim.is_legal(action):
                break
            sim.apply(action)
        gone = target is not None and not sim.model(target).in_play
        answer = gains = exposed = 0.0
        own = True  # still the candidate's own activation
        turns, acting = 0, me  # opponent turns begun; the side that acted last
        for _ in range(HORIZON * (2 * self.depth - 1)):
            if sim.is_over:
                break
            act, side = sim.activation, sim.acting
            still = own and side == me and act is not None and act.model == mover
            if own and not still:
                exposed = self._exposure(sim, me)  # the activation over: what it left open
            own = still
            if not own and side == me and turns >= self.depth:
                break  # this player's own choice after the replies: seen enough
            if side is not None and (side != acting or sim.phase is Phase.READY):
                # a turn begins: the side changes, or a side takes turns in a row
                # (R-TURN-8, a new round's first), each begun by readying (R-TURN-4)
                acting = side
                turns += side != me
            chosen = self._policy(sim)
            hit = self._worth(sim, chosen)
            if hit is not None:
                if sim.acting != me and sim.model(hit[0]).side == me:
                    answer += hit[1]
                elif sim.acting == me and not own and sim.model(hit[0]).side != me:
                    gains += hit[1]
            sim.apply(chosen)
        return (weights.answer * (answer + EXPOSED * exposed) - weights.gain * gains
                - self._leaf(sim, me, weights) - playout_worth(state, sim, me)), gone

    def _policy(self, sim: GameState) -> Action:
        """The quick greedy's action in a playout (worked out once per position)."""
        return self.seen.get(sim, "policy", lambda: self.policy.decide(sim).action)

    def _worth(self, sim: GameState, action: Action) -> tuple[str, float] | None:
        """:func:`sim.ai.answer.attack_worth` of a playout's action (once per position)."""
        return self.seen.get(sim, ("worth", action),
                             lambda: attack_worth(sim, self.scorer, action))

    def _exposure(self, sim: GameState, me: str) -> float:
        """This player's exposure as its activation leaves the board: every enemy's
        attack counts, a Used one's too (it acts again before this model does)."""
        return self.seen.get(sim, ("exposure", me), lambda: threats(
            sim, self.scorer, sim.opponent(me), used=1.0).exposure) if not sim.is_over else 0.0

    def _leaf(self, sim: GameState, me: str, weights: Weights) -> float:
        """The position after the answer for both sides (sim.ai.leaf): this player's
        firepower against its exposure (0 once the game is over)."""
        if sim.is_over:
            return 0.0
        mine, theirs = self.seen.get(sim, ("leaf", me), lambda: (
            threats(sim, self.scorer, me).firepower,
            threats(sim, self.scorer, sim.opponent(me)).exposure))
        return weights.counter * mine - weights.danger * theirs


class Weights(NamedTuple):
    """One decision's weights: the opponent's answer, this player's threats after it
    and the opponent's (sim.ai.leaf.firepower)."""

    answer: float
    counter: float
    danger: float
    gain: float


def late_weights(state: GameState, w: Weights) -> Weights:
    """The weights of the answer, the counter and the danger for this decision. In
    the scenario's last round only the score is left to play for (R-TURN-10): a
    side ahead weighs what it could lose more (LATE times the answer and the
    danger, its own threats less), a side behind weighs it less (it loses anyway
    unless it scores). A level side plays as one behind: a draw is no win, and a
    kill now decides the game. A side level or behind presses from the round
    before the last (:data:`PRESS`, :func:`pressing`): a model kept out of reach
    then has no attack in the last round (Decision, docs/ai.md)."""
    me = state.acting
    if me is None or not is_last_round(state):
        return _pressed(w) if pressing(state) else w
    lead = score(state, me) - score(state, state.opponent(me))
    if lead > 0:
        return Weights(w.answer * LATE, w.counter / LATE, w.danger * LATE, w.gain / LATE)
    return _pressed(w)


def _pressed(w: Weights) -> Weights:
    """A side behind or level late: what it could lose weighs less, what it could gain more."""
    return Weights(w.answer / LATE, w.counter * LATE, w.danger / LATE, w.gain * LATE)


def pressing(state: GameState) -> bool:
    """The side to act is level or behind on the score (R-TURN-10) in the scenario's
    last round or the :data:`PRESS` rounds before it: it must score to win."""
    me = state.acting
    if me is None or state.rounds is None or state.round < state.rounds - PRESS:
        return False
    return score(state, me) <= score(state, state.opponent(me))


def candidates(state: GameState, scorer: Scorer, reaches: Reaches) -> list[Weighed]:
    """Greedy's candidates, best first, and in an activation the quick straight walks
    too (sim.ai.candidates.straight_moves): the reachable area's points avoid
    difficult ground, so a model hemmed in by it (a Behemoth between a forest and
    water) had no move forward at all; a straight walk may cross it on the shorter
    ruler (R-MOV-1). For the activation's first action only (the seconds after
    it, from on the difficult ground, have the shorter ruler's area): the walks
    cost a quick weighing each time."""
    options = weigh(state, scorer, reaches)
    if state.activation is None:
        return options
    have = {w.action for w in options}
    walks = weigh_actions(state, scorer, [m for m in straight_moves(
        state, state.activation.model) if m not in have])
    return sorted(options + sorted(walks, key=lambda w: -w.score), key=lambda w: -w.score)


def _where(state: GameState) -> Hashable:
    """A position as the plan compares it: the models, the turn and the history's length."""
    return (tuple(state.models.values()), state.turn, len(state.history))


def _chosen(first: First, pair: Pair, firsts: list[First], luck: Luck) -> Decision:
    """The first action of the chosen pair, in its own words; the figures go to the
    debug field (the window's debug view)."""
    pairs = [p for f in firsts for p in f.pairs or [] if p.n]
    others = [p.value(luck) for p in pairs if p is not pair]
    against = f" against {max(others):+.2f}" if others else ""
    d = first.weighed.decision
    then = ""
    if pair.second is not None:
        assert pair.after.activation is not None  # a second: the activation went on
        name = model_name(pair.after.scenario, pair.after.activation.model)
        then = f"; then {_short(pair.second.decision.why, name)}"
    tried = sum(1 for f in firsts if f.n)
    return Decision(d.action, f"{d.why}{then}",
                    f"{len(pairs)} plans of {tried} first actions tried ahead, "
                    f"{sum(p.n for p in pairs)} playouts: {pair.value(luck):+.2f}{against}")


def _short(why: str, name: str) -> str:
    """A later action's line without the model's name (the first line gave it)."""
    return why.removeprefix(f"{name} ")
