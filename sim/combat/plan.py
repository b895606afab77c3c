"""Shoot and Close combat actions (R-SHOOT-1..2, R-RANGE-1, R-COV-3, R-CLIMB-3, R-DMG-1).

Planning is read-only and shared by the engine, the ``wasteland shoot`` CLI
and the window: :func:`plan_shot` and :func:`plan_close_combat` turn a
situation into an :class:`~sim.resolution.attack.AttackProfile` (or a reason why the
attack is illegal); :mod:`sim.resolution.odds` previews it exactly and
:func:`sim.resolution.attack.resolve_attack` rolls it. Sight, cover and range come
from :func:`sim.shooting.analysis.analyse` only, never recomputed here.

The action kinds plug into the engine through its extension contract
(docs/engine.md): ``shoot MODEL TARGET WEAPON BAND`` and
``close-combat MODEL TARGET WEAPON``; a Charge that reaches its target ends
with a close-combat attack: :func:`charge_attack`, declared where the game's
kinds are built (sim.game.kinds).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, ClassVar, Literal, cast

from sim.combat.refusal import AttackRefused as AttackRefused  # (its home for callers)
from sim.combat.refusal import (
    ShotText,
    not_in_band,
    out_of_reach,
    refuse,
)
from sim.combat.situation import Situation
from sim.engine.actions import ActionKind, ModelAction
from sim.engine.params import Param
from sim.errors import IllegalActionError
from sim.movement.contact import contact_problem
from sim.resolution.attack import AttackOutcome, AttackProfile, resolve_attack
from sim.scenario.names import DisplayNames, display_names, model_name
from sim.scenario.objects import Scenario, Unit, Weapon
from sim.shooting.analysis import ShotAnalysis, analyse

if TYPE_CHECKING:
    from sim.engine.state import ActionContext, GameState
    from sim.movement.kinds import Charge

Band = Literal["short", "long"]
BANDS: tuple[Band, ...] = ("short", "long")

#: The skill of close-combat weapons (a weapon with any other skill shoots).
MELEE_SKILL = "melee"

# --- who is where ---------------------------------------------------------------------


# --- planning -------------------------------------------------------------------------


@dataclass(frozen=True)
class AttackPlan:
    """A legal attack, ready to preview or roll: who, with what, and the analysis."""

    attacker: str
    target: str
    weapon: Weapon
    band: Band | None  # None for close combat
    bands: tuple[Band, ...]  # bands the target lies in (shots)
    profile: AttackProfile
    analysis: ShotAnalysis | None  # None for close combat
    target_health: int | None

    @property
    def verb(self) -> str:
        return "close combat" if self.band is None else "shot"

    def headline(self, names: DisplayNames | None = None) -> str:
        """Who attacks whom with what: by display name with ``names``, else by id."""
        how = f"{self.band} range" if self.band is not None else "close combat"
        a, t = ((names.model(self.attacker), names.model(self.target)) if names is not None
                else (self.attacker, self.target))
        return f"{a} attacks {t} with {self.weapon.name} ({how})"


def common_problem(sit: Situation, attacker: str, target: str, weapon_id: str) -> str | None:
    """Checks shared by shooting and close combat (ids, sides, the weapon carried)."""
    if attacker not in sit.positions:
        return f"attacker {attacker!r} is not in play"
    if target not in sit.positions:
        return f"target {target!r} is not in play"
    if target == attacker:
        return "a model cannot attack itself"
    if sit.sides[target] == sit.sides[attacker]:
        return f"{target!r} is on the attacker's own side"
    unit = sit.scenario.unit_of(attacker)
    if weapon_id not in unit.weapons:
        return (f"{attacker!r} ({unit.name}) does not carry {weapon_id!r}; "
                f"it carries {', '.join(unit.weapons) or 'nothing'}")
    if attacker in sit.climbing:
        return f"{attacker!r} is climbing and cannot attack (R-CLIMB-3)"
    return None


def skill_problem(unit: Unit, weapon: Weapon) -> str | None:
    """Why the unit cannot use the weapon's skill (R-SHOOT-1), or None."""
    if unit.attribute_for(weapon.skill) is None:
        return (f"{unit.name} lacks the {weapon.skill!r} skill {weapon.name} needs "
                f"(R-SHOOT-1); its skills: {', '.join(sorted(unit.skills)) or 'none'}")
    return None


def _armor(sit: Situation, target: str, weapon: Weapon) -> int:
    return sit.scenario.unit_of(target).armor.for_type(weapon.damage_type)


def _profile(sit: Situation, attacker: str, target: str, weapon: Weapon,
             dice: Sequence[str], modifier: int, cover_bonus: int,
             armor_boost: int) -> AttackProfile:
    unit = sit.scenario.unit_of(attacker)
    value = unit.attribute_for(weapon.skill)
    assert value is not None  # skill_problem ran first
    return AttackProfile(
        skill=weapon.skill, attribute_letter=unit.skills[weapon.skill], attribute=value,
        modifier=modifier, dice=tuple(dice), damage=weapon.damage,
        damage_type=weapon.damage_type, armor=_armor(sit, target, weapon),
        cover_bonus=cover_bonus, armor_boost=armor_boost,
        min_value=sit.scenario.rules_data.min_skill_value,
    )


def analysis_key(sit: Situation, attacker: str, target: str, weapon_id: str,
                  names: bool = True) -> Hashable:
    """Where a shot's analysis is kept in the situation's memo."""
    # (bare analyses, names=False, under their own key: the window and the CLI read
    # the blockers' names of the named ones from the same memo)
    return ("shot-analysis" if names else "shot-analysis-bare", sit.board, sit.climbing,
            attacker, target, weapon_id)


def _analysis(sit: Situation, attacker: str, target: str, weapon_id: str,
              names: bool = True) -> ShotAnalysis:
    # Asked several times for one board (checks, samples, apply): kept in the situation's
    # memo (the game state's, dropped whenever a model changes), keyed by value. A bare
    # request takes the named analysis when there is one (the same verdict and numbers).
    memo = sit.memo
    if not names:
        named = memo.peek(analysis_key(sit, attacker, target, weapon_id))
        if named is not None:
            return cast(ShotAnalysis, named)
    return memo.get(analysis_key(sit, attacker, target, weapon_id, names),
                    lambda: analyse(sit.scenario, sit.positions, attacker, target,
                                    weapon_id, sit.climbing, names=names))


def shot_bands(analysis: ShotAnalysis) -> tuple[Band, ...]:
    """The range bands the target's base lies in (R-RANGE-1), in band order."""
    found = set(analysis.bands or ())
    return tuple(b for b in BANDS if b in found)


def plan_shot(sit: Situation, attacker: str, target: str, weapon_id: str,
              band: Band | None = None, *, names: bool = True) -> AttackPlan:
    """Plan a Shoot action or raise :class:`AttackRefused` with the reason (R-SHOOT-1).

    ``band`` may be None only when the target lies in one band; when its base
    lies in both the attacker chooses (R-RANGE-1). ``names=False``: the plan's
    analysis need not name a blocked sight's blockers (:func:`analyse`; a plan
    is made only with sight, so the same plan): for callers that read only
    whether a shot is refused and its odds. A refusal still names them when its
    reason is read.
    """
    what = ShotText(attacker, target, weapon_id, band)
    weapon, ana = _sighted(sit, attacker, target, weapon_id, names, what)
    bands = shot_bands(ana)
    if band is None:
        if len(bands) != 1:
            raise refuse(what, attacker, f"{target!r} lies in both range bands; choose "
                          "short or long (R-RANGE-1)")
        band = bands[0]
    elif band not in bands:
        raise refuse(what, attacker, partial(not_in_band, target, band, bands))
    return _shot_plan(sit, attacker, target, weapon, ana, band, bands)


def plan_shots(sit: Situation, attacker: str, target: str, weapon_id: str, *,
               names: bool = True) -> tuple[AttackPlan, ...]:
    """The plans of :func:`plan_shot` in each band the target lies in, in band order
    (R-RANGE-1); none when the shot is refused. One analysis for both bands."""
    try:
        weapon, ana = _sighted(sit, attacker, target, weapon_id, names,
                               ShotText(attacker, target, weapon_id, None))
    except AttackRefused:
        return ()
    bands = shot_bands(ana)
    return tuple(_shot_plan(sit, attacker, target, weapon, ana, b, bands) for b in bands)


def sighted(sit: Situation, attacker: str, target: str, weapon_id: str, *,
            names: bool = True) -> ShotAnalysis | None:
    """The analysis of a shot :func:`plan_shots` would plan (in reach and in sight), or
    None where it refuses: the same checks (:func:`_shot_check`) without the refusal,
    for the AI's many questions (R-SHOOT-1, R-CLIMB-3)."""
    checked = _shot_check(sit, attacker, target, weapon_id, names)
    return checked[1] if isinstance(checked, tuple) else None


def _sighted(sit: Situation, attacker: str, target: str, weapon_id: str, names: bool,
             what: object) -> tuple[Weapon, ShotAnalysis]:
    """The weapon and the analysis of a shot in reach and in sight, or the refusal."""
    checked = _shot_check(sit, attacker, target, weapon_id, names)
    if not isinstance(checked, tuple):
        raise refuse(what, attacker, checked)
    return checked


def _shot_check(sit: Situation, attacker: str, target: str, weapon_id: str, names: bool
                ) -> tuple[Weapon, ShotAnalysis] | str | Callable[[], str]:
    """The weapon and the analysis of a shot in reach and in sight, or why not (the
    reasons that need the analysis written only when read)."""
    why = common_problem(sit, attacker, target, weapon_id)
    if why is not None:
        return why
    weapon = sit.scenario.weapons[weapon_id]
    if weapon.skill == MELEE_SKILL:
        return f"{weapon.name} is a close-combat weapon; use close combat"
    why = skill_problem(sit.scenario.unit_of(attacker), weapon)
    if why is not None:
        return why
    ana = _analysis(sit, attacker, target, weapon_id, names)
    if not ana.in_range:
        return partial(out_of_reach, sit, target, weapon, ana)
    if not ana.line_of_sight:
        return partial(_no_sight, sit, attacker, target, weapon_id)
    return weapon, ana


def _shot_plan(sit: Situation, attacker: str, target: str, weapon: Weapon, ana: ShotAnalysis,
               band: Band, bands: tuple[Band, ...]) -> AttackPlan:
    dice = weapon.short_dice if band == "short" else weapon.long_dice
    profile = _profile(sit, attacker, target, weapon, dice, ana.skill_modifier,
                       ana.armor_bonus, ana.armor_boost)
    health = None if sit.health is None else sit.health.get(target)
    return AttackPlan(attacker, target, weapon, band, bands, profile, ana, health)


# (a refusal's reason, written when read: sim.combat.refusal)
def _no_sight(sit: Situation, attacker: str, target: str, weapon_id: str) -> str:
    ana = _analysis(sit, attacker, target, weapon_id)  # (named: the pieces in the way)
    blockers = ", ".join(ana.sight.blocked_by) or "terrain"
    return (f"no line of sight to {model_name(sit.scenario, target)}: blocked by "
            f"{blockers} (R-SHOOT-1, R-LOS-1)")


def close_combat_contact(sit: Situation, attacker: str, target: str) -> str | None:
    """Why two models are not in base contact for close combat, or None (sim.movement.contact)."""
    return contact_problem(
        sit.scenario.rules_data, attacker, sit.positions[attacker],
        sit.scenario.radius_of(attacker), target, sit.positions[target],
        sit.scenario.radius_of(target), target in sit.climbing)


def melee_weapons(scenario: Scenario, unit: Unit) -> tuple[str, ...]:
    """The close-combat weapons on a unit card, in card order."""
    return tuple(w for w in unit.weapons if scenario.weapons[w].skill == MELEE_SKILL)


def ranged_weapons(scenario: Scenario, model: str) -> tuple[str, ...]:
    """The weapons ``model`` shoots with (not close-combat ones, R-SHOOT-1), in card order."""
    return tuple(w for w in scenario.unit_of(model).weapons
                 if scenario.weapons[w].skill != MELEE_SKILL)


def plan_close_combat(sit: Situation, attacker: str, target: str, weapon_id: str) -> AttackPlan:
    """Plan a close-combat attack or raise :class:`AttackRefused` with the reason.

    House default: a skill test on the weapon's skill (melee) with the
    weapon's dice (its short band) and damage; no cover in close combat.
    """
    what = f"close-combat {attacker} {target} {weapon_id}"
    why = common_problem(sit, attacker, target, weapon_id)
    if why is not None:
        raise refuse(what, attacker, why)
    weapon = sit.scenario.weapons[weapon_id]
    if weapon.skill != MELEE_SKILL:
        raise refuse(what, attacker, f"{weapon.name} is not a close-combat weapon; shoot "
                      "with it")
    why = (skill_problem(sit.scenario.unit_of(attacker), weapon)
           or close_combat_contact(sit, attacker, target))
    if why is not None:
        raise refuse(what, attacker, why)
    profile = _profile(sit, attacker, target, weapon, weapon.short_dice, 0, 0, 0)
    health = None if sit.health is None else sit.health.get(target)
    return AttackPlan(attacker, target, weapon, None, (), profile, None, health)


# --- carrying an attack out -------------------------------------------------------------


def roll_attack(ctx: ActionContext, plan: AttackPlan) -> AttackOutcome:
    """Roll a planned attack and apply it: every roll and outcome goes to the log."""
    out = resolve_attack(ctx.rng, ctx.rules, plan.profile)
    who = (plan.attacker, plan.target)
    p = plan.profile
    names = display_names(ctx.scenario)
    cover = ""
    if plan.analysis is not None and plan.analysis.cover:  # (pieces keep their ids)
        cover = f"; cover: {', '.join(map(names.thing, plan.analysis.cover))}"
    attacker, target = names.model(plan.attacker), names.model(plan.target)
    ctx.log("attack", who, f"{plan.headline(names)}: {p.describe()}{cover}",
            weapon=plan.weapon.id, band=plan.band, skill=p.skill, attribute=p.attribute,
            modifier=p.modifier, target_number=p.target, dice=list(p.dice),
            cover=list(plan.analysis.cover) if plan.analysis else [],
            armor=p.armor, cover_bonus=p.cover_bonus, armor_boost=p.armor_boost)
    faces = "; ".join(f"{k} die: {', '.join(f) or 'blank'}" for k, f in out.effects)
    ctx.log("dice", who, f"{out.lines()[1]}" + (f"; {faces}" if faces else ""),
            skill_roll=out.skill_roll, effects=[[k, list(f)] for k, f in out.effects],
            accuracy=out.accuracy, result=out.result, success=out.success)
    if out.damage is None:
        ctx.log("missed", who, f"{attacker} misses {target}.")
        return out
    ctx.log("hit", who, f"{attacker} hits {target}: {out.damage}",
            total=out.damage.total, armor_roll=out.damage.armor_roll,
            effective_armor=out.damage.effective_armor, blocked=out.damage.blocked,
            boosted=out.damage.boosted, dealt=out.damage.dealt)
    if out.damage.dealt > 0:
        ctx.damage(plan.target, out.damage.dealt, f"{plan.verb} by {attacker} with "
                   f"{plan.weapon.name}")
    _weapon_effects(ctx, plan)
    return out


def _weapon_effects(ctx: ActionContext, plan: AttackPlan) -> None:
    """Weapon effects of a hit; push back (R-EDGE-3) through the movement rules."""
    colour = plan.weapon.effects.get("push_back")
    if not isinstance(colour, str) or not ctx.model(plan.target).in_play:
        return
    from sim.movement.falls import push_model  # the movement rules own pushes

    a = ctx.model(plan.attacker).position
    push_model(ctx, plan.target, a.xy, colour, by=plan.attacker)


# --- the action kinds ---------------------------------------------------------------------


@dataclass(frozen=True)
class Shoot(ModelAction):
    """``shoot MODEL TARGET WEAPON BAND``: a ranged attack (R-SHOOT-1..2)."""

    target: str
    weapon: str
    band: Band
    keyword: ClassVar[str] = "shoot"
    usage: ClassVar[str] = "shoot MODEL TARGET WEAPON short|long"
    params: ClassVar[tuple[Param, ...]] = (
        Param("target", "target"), Param("weapon", "weapon"),
        Param("band", "band", choices=BANDS))

    def args(self) -> tuple[str, ...]:
        return (self.model, self.target, self.weapon, self.band)

    @classmethod
    def from_args(cls, text: str, args: Sequence[str]) -> Shoot:
        if len(args) != 4 or args[3] not in BANDS:
            raise IllegalActionError(text, f"expected {cls.usage!r}")
        band: Band = "short" if args[3] == "short" else "long"
        return cls(args[0], args[1], args[2], band)


@dataclass(frozen=True)
class CloseCombat(ModelAction):
    """``close-combat MODEL TARGET WEAPON``: an attack in base contact."""

    target: str
    weapon: str
    keyword: ClassVar[str] = "close-combat"
    usage: ClassVar[str] = "close-combat MODEL TARGET WEAPON"
    params: ClassVar[tuple[Param, ...]] = (Param("target", "target"), Param("weapon", "weapon"))

    def args(self) -> tuple[str, ...]:
        return (self.model, self.target, self.weapon)

    @classmethod
    def from_args(cls, text: str, args: Sequence[str]) -> CloseCombat:
        if len(args) != 3:
            raise IllegalActionError(text, f"expected {cls.usage!r}")
        return cls(args[0], args[1], args[2])


def _known_ids(state: GameState, action: Shoot | CloseCombat) -> str | None:
    if action.target not in state.models:
        return f"unknown target {action.target!r}; known: {', '.join(state.models)}"
    if action.weapon not in state.scenario.weapons:
        return f"unknown weapon {action.weapon!r}; known: {', '.join(state.scenario.weapons)}"
    return None


def _enemies(state: GameState, model: str) -> list[str]:
    me = state.model(model)
    return [i for i in state.positions() if state.model(i).side != me.side]


class ShootKind(ActionKind[Shoot]):
    """The Shoot action (R-SHOOT-1..2, R-RANGE-1, R-COV-3, R-CLIMB-3)."""

    action_type = Shoot

    def check(self, state: GameState, action: Shoot) -> str | None:
        why = _known_ids(state, action)
        if why is not None:
            return why
        try:
            # (a refusal names the blockers when its reason is read: no names asked)
            plan_shot(Situation.of_state(state), action.model, action.target, action.weapon,
                      action.band, names=False)
        except AttackRefused as exc:
            return exc.reason
        return None

    def apply(self, ctx: ActionContext, action: Shoot) -> None:
        plan = plan_shot(Situation.of_state(ctx.state), action.model, action.target,
                         action.weapon, action.band)
        roll_attack(ctx, plan)

    def samples(self, state: GameState, model: str) -> Iterable[Shoot]:
        sit = Situation.of_state(state)
        if model in sit.climbing:
            return
        for w in ranged_weapons(state.scenario, model):
            for t in _enemies(state, model):  # (legality only: no names asked)
                try:
                    _, ana = _sighted(sit, model, t, w, False, ShotText(model, t, w, None))
                except AttackRefused:
                    continue
                for b in shot_bands(ana):  # a shot in reach and sight: each band it lies in
                    yield Shoot(model, t, w, b)


class CloseCombatKind(ActionKind[CloseCombat]):
    """The Close combat action: base contact, a melee skill test (house default)."""

    action_type = CloseCombat

    def check(self, state: GameState, action: CloseCombat) -> str | None:
        why = _known_ids(state, action)
        if why is not None:
            return why
        try:
            plan_close_combat(Situation.of_state(state), action.model, action.target,
                              action.weapon)
        except AttackRefused as exc:
            return exc.reason
        return None

    def apply(self, ctx: ActionContext, action: CloseCombat) -> None:
        plan = plan_close_combat(Situation.of_state(ctx.state), action.model, action.target,
                                 action.weapon)
        roll_attack(ctx, plan)

    def samples(self, state: GameState, model: str) -> Iterable[CloseCombat]:
        sit = Situation.of_state(state)
        unit = state.scenario.unit_of(model)
        for w in melee_weapons(state.scenario, unit):
            for t in _enemies(state, model):
                if close_combat_contact(sit, model, t) is None:
                    yield CloseCombat(model, t, w)


def charge_attack(ctx: ActionContext, charge: Charge) -> None:
    """A Charge that reached its target ends with a close-combat attack.

    Decision: the charging model attacks with the first close-combat weapon
    on its unit card; without one, or when the attack is not possible (no
    melee skill), the charge ends without an attack and the log says why.
    """
    target = charge.target
    if not ctx.model(charge.model).in_play:
        return
    unit = ctx.scenario.unit_of(charge.model)
    weapons = melee_weapons(ctx.scenario, unit)
    if not weapons:
        ctx.log("attack", (charge.model, target), f"{model_name(ctx.scenario, charge.model)} has "
                "no close-combat weapon: the charge ends without an attack")
        return
    try:
        plan = plan_close_combat(Situation.of_state(ctx.state), charge.model, target, weapons[0])
    except AttackRefused as exc:
        ctx.log("attack", (charge.model, target), f"{model_name(ctx.scenario, charge.model)} "
                f"cannot attack after the charge: {exc.reason}")
        return
    roll_attack(ctx, plan)
