"""Values the AI weighs: attacks from the exact odds, and a model's place on the board.

Every number comes from the rules' own answers: a shot is planned by
:func:`sim.combat.plan.plan_shot` (sight, cover, range from
:func:`sim.shooting.analysis.analyse`) and valued with the exact odds of
:func:`sim.resolution.odds.attack_odds`; close combat likewise with
:func:`sim.combat.plan.plan_close_combat`. The score counts what the game
counts (R-TURN-10: one point per enemy model removed), so an attack is worth
its chance to eliminate plus, should the target survive, half the share of its
health the attack takes on average (:attr:`AttackValue.value`).

A :class:`Scorer` belongs to one player (its odds table grows with the
profiles it meets); nothing here is kept between players or processes.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, replace

from sim.ai.charge_reach import LEVEL, charge_reach, charge_within, within_charge
from sim.ai.objectives import spot_value
from sim.combat.plan import (
    AttackPlan,
    AttackRefused,
    close_combat_contact,
    melee_weapons,
    plan_close_combat,
    plan_shots,
    ranged_weapons,
    sighted,
)
from sim.combat.priming import prime_boards, prime_shots
from sim.combat.situation import Situation
from sim.engine.memo import Memo
from sim.engine.state import GameState
from sim.resolution.attack import AttackProfile
from sim.resolution.odds import attack_odds
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position
from sim.scenario.prepared import Part
from sim.scenario.rules import RulesData
from sim.shooting.weapon_range import reach

#: What a share of a target's health is worth next to eliminating it.
DAMAGE_WEIGHT = 0.5
#: How much of an enemy's threat counts while the model still has actions to
#: move away (1.0 once it has none).
THREAT_WHILE_FREE = 0.5
#: The share of each enemy's threat that counts (not every enemy shoots at this model).
THREAT_SHARE = 0.2
#: A shot available after a move counts this much (the target may still act first).
SHOT_AFTER_MOVE = 0.9
#: A shot only possible next turn counts this much.
SHOT_NEXT_TURN = 0.35
#: Value per inch too far from the nearest enemy (gets idle models moving).
APPROACH = 0.03


@dataclass(frozen=True)
class AttackValue:
    """One attack's worth: ``p_hit`` and ``expected`` (damage, at most the health left)
    from the exact odds, ``p_kill`` the chance to eliminate."""

    attacker: str
    target: str
    weapon: str
    band: str | None
    p_hit: float
    expected: float
    p_kill: float
    cover: int  # the skill modifier from cover (R-COV-2), 0 in close combat
    share: float  # the expected share of the target's health left that it takes

    @property
    def value(self) -> float:
        return self.p_kill + DAMAGE_WEIGHT * (1.0 - self.p_kill) * self.share


@dataclass(frozen=True)
class Spot:
    """What a place on the board is worth to one model with ``left`` actions after it."""

    model: str
    at: Position
    best: AttackValue | None  # the best attack from here on the enemies as they stand
    threat: float  # the enemies' attacks on this model here, weighted
    worst: AttackValue | None  # the most dangerous of them
    gap: float  # inches to the nearest enemy, beyond the model's own reach
    score: float


@dataclass(frozen=True)
class _Place:
    """A :class:`Spot` before its score (which weighs the actions left)."""

    best: AttackValue | None
    threat: float
    worst: AttackValue | None
    gap: float


#: Boards whose places a scorer keeps (a model's own board stays while it acts).
BOARDS_KEPT = 16
#: Slack on the contact bound before the rules' own test (far above float noise).
_NEAR = 1e-6


class _Foes:
    """What every place of one model on one board shares: its enemies in play in board
    order, each as ``(id, spot, radius, the two radii added, health, charge reach)``
    (the reach: its charge ruler plus touching, R-DIST-1, R-UNIT-2), and the model's own
    radius, health and striking range. Worked out once per board, not once per place."""

    __slots__ = ("ground", "health", "r", "rows", "striking")

    def __init__(self, sit: Situation, model: str) -> None:
        sc = sit.scenario
        self.r = r = sc.radius_of(model)
        self.health = _health(sit, model)
        self.striking = striking_range(sit, model)
        self.ground = not ranged_weapons(sc, model)  # (_gap: its own level first)
        self.rows = [(e, at, sc.radius_of(e), r + sc.radius_of(e), _health(sit, e),
                      charge_reach(sc, e))
                     for e, at in sit.positions.items() if sit.sides[e] != sit.sides[model]]


class _Board:
    """The places kept for one board a model meets, and its :class:`_Foes` there."""

    __slots__ = ("_foes", "places")

    def __init__(self) -> None:
        self.places: dict[tuple[Position, bool], _Place] = {}
        self._foes: _Foes | None = None

    def foes(self, sit: Situation, model: str) -> _Foes:
        if self._foes is None:
            self._foes = _Foes(sit, model)
        return self._foes


class Scorer:
    """Attack and position values for one player (its odds table is its own).
    ``approach``: a place's pull toward the enemy, per inch beyond striking range
    (greedy's :data:`APPROACH`; search passes its own, sim.ai.search.APPROACH)."""

    def __init__(self, approach: float = APPROACH, *, objectives: bool = True) -> None:
        self.approach = approach
        self.objectives = objectives  # False: the blind player (sim.ai.objectives)
        # (the scenario's own table once one is met: the odds are the rules' answer, the
        # same for every player and game of the scenario)
        self._odds: dict[tuple[AttackProfile, int], tuple[float, float, float]] = {}
        self._melee: dict[tuple[str, str, int], AttackValue | None] = {}
        # A weapon's best shot by what its value depends on (_shot); for one scenario.
        self._shots: dict[Hashable, AttackValue | None] = {}
        self._scenario: Scenario | None = None
        # What places are worth, by the board the model meets there: the other models
        # in play (where, how hurt, climbing) and its own health. Readying, activating
        # and the first action of a turn ask about the same models on the same board;
        # a model's own move leaves its board as it was, so its second action meets
        # the places of its first again.
        self._boards: dict[Hashable, _Board] = {}

    # --- attacks --------------------------------------------------------------------
    def value_of(self, plan: AttackPlan, health: int, rules: RulesData) -> AttackValue:
        """The worth of a planned attack on a target with ``health`` left."""
        key = (plan.profile, health)
        if key not in self._odds:
            odds = attack_odds(plan.profile, rules)
            expected = sum(min(k, health) * float(p) for k, p in odds.damage.items())
            self._odds[key] = (float(odds.p_success), expected, float(odds.p_at_least(health)))
        p_hit, expected, p_kill = self._odds[key]
        cover = plan.analysis.skill_modifier if plan.analysis is not None else 0
        return AttackValue(plan.attacker, plan.target, plan.weapon.id, plan.band, p_hit,
                           expected, p_kill, cover, share=expected / health)

    def best_shot(self, sit: Situation, attacker: str, target: str) -> AttackValue | None:
        """The best shot ``attacker`` has on ``target`` (any ranged weapon, any band)."""
        return self._best_shot(sit, attacker, target, _health(sit, target),
                               _distance(sit, attacker, target), _radii(sit, attacker, target),
                               sit.scenario.prepared.get(ARMS)[attacker])

    def _best_shot(self, sit: Situation, attacker: str, target: str, health: int,
                   distance: float, radii: float, arms: tuple[tuple[str, float], ...]
                   ) -> AttackValue | None:
        """:meth:`best_shot` with its numbers known: the first best of every weapon in
        reach and every band (each weapon's first best, then the first best of those)."""
        best: AttackValue | None = None
        for weapon, farthest in arms:
            if not _reaches(distance, farthest, radii):
                continue
            v = self._shot(sit, attacker, target, weapon, health)
            if v is not None and (best is None or v.value > best.value):
                best = v
        return best

    def _shot(self, sit: Situation, attacker: str, target: str, weapon: str, health: int
              ) -> AttackValue | None:
        """The best band of one weapon's shot (R-RANGE-1), None where refused. Its value
        depends on the two models, the weapon, the health left and the analysis's cover
        numbers and bands only (sim.combat.plan._shot_plan): kept by those."""
        ana = sighted(sit, attacker, target, weapon, names=False)
        if ana is None:
            return None
        if sit.scenario is not self._scenario:  # (the ids mean other units elsewhere)
            self._shots.clear()
            self._scenario = sit.scenario
            self._odds = sit.scenario.prepared.get(ODDS)
        key = (attacker, target, weapon, health, ana.skill_modifier, ana.armor_bonus,
               ana.armor_boost, ana.bands)
        if key not in self._shots:
            best: AttackValue | None = None
            for plan in plan_shots(sit, attacker, target, weapon, names=False):
                v = self.value_of(plan, health, sit.scenario.rules_data)
                if best is None or v.value > best.value:
                    best = v
            self._shots[key] = best
        return self._shots[key]

    def melee(self, sit: Situation, attacker: str, target: str) -> AttackValue | None:
        """The attacker's close combat on ``target`` as if in base contact (no cover in
        close combat, so the value depends on the two units and the health left)."""
        health = _health(sit, target)
        key = (attacker, target, health)
        if key not in self._melee:
            weapons = melee_weapons(sit.scenario, sit.scenario.unit_of(attacker))
            self._melee[key] = None
            if weapons:
                touching = _touching(sit, attacker, target)
                try:
                    plan = plan_close_combat(touching, attacker, target, weapons[0])
                    self._melee[key] = self.value_of(plan, health, sit.scenario.rules_data)
                except AttackRefused:
                    pass
        return self._melee[key]

    def best_charge(self, state: GameState, model: str, at: Position) -> AttackValue | None:
        """The best close combat ``model`` standing at ``at`` could charge into: on an
        enemy within its charge ruler at its own level (None without one)."""
        sit = situation_with(state, model, at)
        best: AttackValue | None = None
        for e in state.side_models(state.opponent(state.model(model).side)):
            if within_charge(state, model, e.id, at):
                hit = self.melee(sit, model, e.id)
                if hit is not None and (best is None or hit.value > best.value):
                    best = hit
        return best

    # --- places -----------------------------------------------------------------------
    @staticmethod
    def _board(state: GameState, model: str) -> Hashable:
        """The board ``model`` meets: the other models in play and its own health."""
        return (model, state.model(model).health, tuple(sorted(
            (i, m.position, m.health, m.climbing) for i, m in state.models.items()
            if m.in_play and i != model)))

    def _board_key(self, state: GameState, model: str) -> Hashable:
        """:meth:`_board`, kept in the state's memo (dropped when a model changes)."""
        return state.memo.get(("AI board", model), lambda: self._board(state, model))

    def _places(self, state: GameState, model: str) -> _Board:
        """The places kept for the board ``model`` meets (made the most recently asked)."""
        key = self._board_key(state, model)
        board = self._boards.pop(key, None)
        if board is None:
            board = _Board()
            while len(self._boards) >= BOARDS_KEPT:
                del self._boards[next(iter(self._boards))]  # the one asked about longest ago
        self._boards[key] = board  # (last: the most recently asked)
        return board

    def places(self, state: GameState, model: str, spots: Iterable[Position]) -> None:
        """Work out at once the places ``model`` may stand at (greedy's candidate ends),
        so :meth:`spot` finds them: every spot's shots both ways in one analysis per
        weapon (:func:`sim.combat.priming.prime_boards`), the same values as one spot
        at a time."""
        me = state.model(model)
        board, here = self._places(state, model), me.position
        places = board.places
        # (where it stands climbing, it keeps climbing there: a board apart, left to spot)
        todo = list(dict.fromkeys(at for at in spots if (at, False) not in places
                                  and not (at == here and me.climbing)))
        if len(todo) < 2:
            return
        base = Situation.of_state(state)
        sits = [_moved(base, model, at) for at in todo]
        arms, foes = state.scenario.prepared.get(ARMS), board.foes(base, model)
        rows = foes.rows
        # (each spot's distances to the enemies, once: the bounds below and the places)
        dists = [[math.hypot(at.x - p.x, at.y - p.y) for _, p, *_ in rows] for at in todo]
        for weapon, farthest in arms[model]:
            prime_boards(sits, model, model, [
                [row[0] for row, d in zip(rows, ds, strict=True)
                 if _reaches(d, farthest, row[3])] for ds in dists], weapon, names=False)
        for j, (e, _, _, radii, *_) in enumerate(rows):
            for weapon, farthest in arms[e]:
                prime_boards(sits, model, e, [
                    [model] if _reaches(ds[j], farthest, radii) else [] for ds in dists],
                    weapon, names=False)
        for at, sit, ds in zip(todo, sits, dists, strict=True):
            places[(at, False)] = self._place(sit, model, foes, ds)

    def standing(self, state: GameState, models: Iterable[str], *, mine: bool = False
                 ) -> None:
        """Work out at once the enemies' shots at ``models`` where they stand (the turn
        weighs each one's place there), with ``mine`` theirs at every enemy too, in
        reach or not (the active model's Shoot samples ask them all, and its place):
        one analysis per model and weapon."""
        sit, arms = Situation.of_state(state), state.scenario.prepared.get(ARMS)
        ids = set(models) & set(sit.positions)
        # (the threats at a place kept already are not asked again)
        weighed = {m for m in ids if (board := self._boards.get(self._board_key(state, m)))
                   is None or (sit.positions[m], m in sit.climbing) not in board.places}
        for a in sit.positions:
            foes = [m for m in sit.positions if sit.sides[m] != sit.sides[a]]
            for weapon, farthest in arms[a]:
                targets = foes if mine and a in ids else [
                    m for m in foes if m in weighed
                    and _reaches(_distance(sit, a, m), farthest, _radii(sit, a, m))]
                prime_shots(sit, a, targets, weapon, names=False)

    def spot(self, state: GameState, model: str, at: Position, left: int) -> Spot:
        """The worth of ``model`` standing at ``at`` with ``left`` actions still to take."""
        me = state.model(model)
        board = self._places(state, model)
        places = board.places
        # (where it stands climbing, the model keeps climbing: situation_with)
        key = (at, me.climbing and at == me.position)
        if key not in places:
            sit = situation_with(state, model, at)
            places[key] = self._place(sit, model, board.foes(sit, model))
        p = places[key]
        weight = SHOT_AFTER_MOVE if left >= 1 else SHOT_NEXT_TURN
        score = ((p.best.value * weight if p.best is not None else 0.0)
                 - THREAT_SHARE * p.threat * (THREAT_WHILE_FREE if left >= 1 else 1.0)
                 - self.approach * p.gap
                 # (outside the cache: what the objectives hold changes with no model moving)
                 + (spot_value(state, model, at) if self.objectives else 0.0))
        return Spot(model, at, p.best, p.threat, p.worst, p.gap, score)

    def _place(self, sit: Situation, model: str, foes: _Foes,
               dists: list[float] | None = None) -> _Place:
        """What ``model``'s place on ``sit`` is worth whatever the actions left: the best
        attack from there, the enemies' threat on it (each enemy's best shot, or a charge
        within its ruler) and the most dangerous one, the gap to the nearest. ``dists``
        (to each of ``foes``, from :meth:`places`): its shots are primed already."""
        at, arms = sit.positions[model], sit.scenario.prepared.get(ARMS)
        rows, mine_arms = foes.rows, arms[model]
        if dists is None:
            dists = [math.hypot(at.x - p.x, at.y - p.y) for _, p, *_ in rows]
            for weapon, farthest in mine_arms:  # the shots below, in one call
                prime_shots(sit, model, [row[0] for row, d in zip(rows, dists, strict=True)
                                         if _reaches(d, farthest, row[3])],
                            weapon, names=False)
        touch = sit.scenario.rules_data.touch_tolerance + _NEAR
        best: AttackValue | None = None
        worst: AttackValue | None = None
        threat = 0.0
        for (e, there, r_e, radii, health, charge), d in zip(rows, dists, strict=True):
            mine = self._best_shot(sit, model, e, health, d, radii, mine_arms)
            # (a bound before the contact rule: bases farther apart than touching never are)
            if d - radii <= touch and in_contact(sit, model, e):
                hit = self.melee(sit, model, e)
                mine = hit if mine is None or (hit is not None and hit.value > mine.value) \
                    else mine
            if mine is not None and (best is None or mine.value > best.value):
                best = mine
            theirs = self._best_shot(sit, e, model, foes.health, d, radii, arms[e])
            if charge_within(d, r_e, foes.r, charge, there.z, at.z):
                hit = self.melee(sit, e, model)
                if hit is not None and (theirs is None or hit.value > theirs.value):
                    theirs = hit
            if theirs is not None:
                threat += theirs.value
                if worst is None or theirs.value > worst.value:
                    worst = theirs
        return _Place(best, threat, worst, _gap(foes, at, dists))


def situation_with(state: GameState, model: str, at: Position) -> Situation:
    """The game's situation with ``model`` moved to ``at`` (not climbing there)."""
    return _moved(Situation.of_state(state), model, at)


def _moved(sit: Situation, model: str, at: Position) -> Situation:
    """``sit`` with ``model`` moved to ``at`` (not climbing there); ``sit`` itself where
    the model stands there."""
    if sit.positions.get(model) == at:
        return sit
    return sit.moved(model, at) if model in sit.positions else replace(
        sit, positions={**sit.positions, model: at}, climbing=sit.climbing - {model},
        memo=Memo())


def in_contact(sit: Situation, a: str, b: str) -> bool:
    return close_combat_contact(sit, a, b) is None


def _touching(sit: Situation, attacker: str, target: str) -> Situation:
    """The situation with ``attacker`` moved into base contact with ``target``."""
    a, t = sit.positions[attacker], sit.positions[target]
    d = math.hypot(a.x - t.x, a.y - t.y) or 1.0
    reach = _radii(sit, attacker, target)
    at = Position(t.x + (a.x - t.x) / d * reach, t.y + (a.y - t.y) / d * reach, t.z)
    return replace(sit, positions={**sit.positions, attacker: at},
                   climbing=sit.climbing - {attacker}, memo=Memo())


def _health(sit: Situation, model: str) -> int:
    if sit.health is not None and model in sit.health:
        return max(1, sit.health[model])
    return sit.scenario.unit_of(model).health


def _distance(sit: Situation, a: str, b: str) -> float:
    pa, pb = sit.positions[a], sit.positions[b]
    return math.hypot(pa.x - pb.x, pa.y - pb.y)


def _radii(sit: Situation, a: str, b: str) -> float:
    return sit.scenario.radius_of(a) + sit.scenario.radius_of(b)


def striking_range(sit: Situation, model: str) -> float:
    """How close the model wants to be to an enemy, centre gap in inches: its ranged
    weapons' short band (the better dice), or without one its charge ruler."""
    rules = sit.scenario.rules_data
    weapons = ranged_weapons(sit.scenario, model)
    if weapons:
        return max(rules.ruler(sit.scenario.weapons[w].short) for w in weapons)
    return rules.ruler(sit.scenario.unit_of(model).charge)


def _reaches(distance: float, farthest: float, radii: float) -> bool:
    """Centres ``distance`` apart are within a weapon's reach ``farthest`` of bases whose
    radii add up to ``radii`` (R-RANGE-1, R-DIST-1; a bound: the plan decides)."""
    return distance <= farthest + radii + 1e-6


def _arms(scenario: Scenario) -> dict[str, tuple[tuple[str, float], ...]]:
    """Each model's ranged weapons with their reach (R-SHOOT-1, R-RANGE-1), in card
    order: what the AI asks of a model's card again and again."""
    rules = scenario.rules_data
    return {m.id: tuple((w, reach(rules, scenario.weapons[w]))
                        for w in ranged_weapons(scenario, m.id)) for m in scenario.models}


#: Every model's ranged weapons and their reach, built once per scenario.
ARMS: Part[dict[str, tuple[tuple[str, float], ...]]] = Part("AI arms", _arms)
#: The exact odds of each attack profile on each health left (Scorer.value_of): the
#: rules' answer, kept for every player and game of the scenario.
ODDS: Part[dict[tuple[AttackProfile, int], tuple[float, float, float]]] = Part(
    "AI odds", lambda scenario: {})


def _gap(foes: _Foes, at: Position, dists: list[float]) -> float:
    """Inches between the model at ``at`` and its nearest enemy beyond its striking
    range (``dists``: to each of ``foes``); a model without a ranged weapon counts the
    enemies at its own height first (it cannot charge one on a roof)."""
    if not dists:
        return 0.0
    gaps = [d - row[3] for row, d in zip(foes.rows, dists, strict=True)]
    if foes.ground:
        gaps = [g for row, g in zip(foes.rows, gaps, strict=True)
                if abs(row[1].z - at.z) < LEVEL] or gaps
    return max(0.0, min(gaps) - foes.striking)
