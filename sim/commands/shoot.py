"""``wasteland shoot SCENARIO ATTACKER TARGET --weapon W``: the exact shot preview.

Prints whether the shot is legal (R-SHOOT-1, with the reason when not), the
sight, cover and range the rules glue found, and for each band the skill
value, the dice and the exact odds (:mod:`sim.resolution.odds`) without rolling. With
``--roll --seed N`` it also resolves one shot with the game's generator and
prints the log lines. ``--json``: one ``wasteland-shoot/1`` object
(its schema: ``wasteland schema shoot``). Exit status: 0 legal, 1 the shot is not legal or
the input is refused (unknown ids), 2 usage (``--roll`` without ``--seed``...).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from sim.cli_io import check_model, load_scenario_arg, print_json
from sim.errors import WastelandError
from sim.resolution.odds import attack_odds

# The rules (and their compiled kernels) are imported when the command runs, so
# `wasteland --help` stays quick (issue 30).
if TYPE_CHECKING:
    from sim.combat.plan import AttackPlan, Band
    from sim.combat.situation import Situation
    from sim.scenario.objects import Scenario


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "shoot", help="preview (and optionally roll) a shot with exact odds",
        description="Preview a shot: legality, cover, range band, skill value and the exact "
                    "odds of success and damage, without rolling. --roll --seed N also "
                    "resolves one shot and prints the log. Exit 0 legal, 1 not legal or "
                    "refused input, 2 usage.")
    p.add_argument("scenario", metavar="SCENARIO",
                   help="scenario file, shipped scenario name, or - for stdin")
    p.add_argument("attacker", metavar="ATTACKER")
    p.add_argument("target", metavar="TARGET")
    p.add_argument("--weapon", required=True, metavar="W")
    p.add_argument("--band", choices=["short", "long"],
                   help="range band when the target lies in both (default: show both)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (its schema: wasteland schema shoot)")
    p.add_argument("--roll", action="store_true", help="also resolve one shot")
    p.add_argument("--seed", type=int, help="seed of the roll (with --roll)")
    p.set_defaults(run=run, parser=p)


def _check_options(args: argparse.Namespace) -> None:
    if args.roll and args.seed is None:
        args.parser.error("--roll needs --seed N (the dice come from one seeded generator)")
    if args.seed is not None and not args.roll:
        args.parser.error("--seed is only used with --roll")


def _check_ids(scenario: Scenario, args: argparse.Namespace) -> None:
    check_model(scenario, args.attacker, "attacker")
    check_model(scenario, args.target, "target")
    if args.weapon not in scenario.weapons:
        raise WastelandError(f"unknown weapon {args.weapon!r}; known weapons: "
                             f"{', '.join(scenario.weapons)}")


def _plans(sit: Situation, args: argparse.Namespace) -> list[AttackPlan]:
    """One plan per band to preview: the chosen band, or every band the target lies in."""
    from sim.combat.plan import AttackRefused, plan_shot

    band: Band | None = args.band
    if band is not None:
        return [plan_shot(sit, args.attacker, args.target, args.weapon, band)]
    try:
        return [plan_shot(sit, args.attacker, args.target, args.weapon)]
    except AttackRefused as exc:
        if "both range bands" not in exc.reason:
            raise
    return [plan_shot(sit, args.attacker, args.target, args.weapon, b)
            for b in ("short", "long")]


def _roll(scenario: Scenario, plan: AttackPlan, seed: int) -> list[str]:
    """Resolve ``plan`` in a fresh game with ``seed``; the lines the game log gets."""
    from sim.combat.plan import roll_attack
    from sim.engine.state import ActionContext
    from sim.game.kinds import new_game

    state = new_game(scenario, seed=seed)
    start = len(state.events)
    roll_attack(ActionContext(state), plan)
    return [e.text for e in state.events[start:]]


def _ids(scenario: Scenario, args: argparse.Namespace) -> dict[str, Any]:
    return {"scenario": args.scenario, "rules": scenario.rules, "attacker": args.attacker,
            "target": args.target, "weapon": args.weapon}


def _preview_json(plan: AttackPlan, scenario: Scenario) -> dict[str, Any]:
    p = plan.profile
    return {
        "band": plan.band, "skill": p.skill, "attribute": p.attribute,
        "skill_modifier": p.modifier, "target_number": p.target,
        "dice": list(p.dice), "damage": p.damage, "damage_type": p.damage_type,
        "armor": p.armor, "armor_bonus": p.cover_bonus, "armor_boost": p.armor_boost,
        **attack_odds(p, scenario.rules_data).to_json(plan.target_health),
    }


def _print_text(scenario: Scenario, plans: list[AttackPlan], log: list[str] | None,
                seed: int | None) -> None:
    first = plans[0]
    print(f"{first.attacker} shoots {first.target} with {first.weapon.name} "
          f"({scenario.rules} rules)")
    print(f"  {first.analysis}".replace("\n", "\n  "))
    for plan in plans:
        print(f"{plan.band} range: {plan.profile.describe()}")
        for line in attack_odds(plan.profile, scenario.rules_data).lines(plan.target_health):
            print(f"  {line}")
    if log is not None:
        print(f"roll (seed {seed}):")
        for line in log:
            print(f"  {line}")


def run(args: argparse.Namespace) -> int:
    _check_options(args)
    scenario = load_scenario_arg(args.scenario)
    _check_ids(scenario, args)
    from sim.combat.plan import AttackRefused
    from sim.combat.situation import Situation

    sit = Situation.of_scenario(scenario)
    try:
        plans = _plans(sit, args)
    except AttackRefused as exc:
        if args.json:
            print_json("shoot", {**_ids(scenario, args), "legal": False, "reason": exc.reason})
        else:
            print(f"{args.attacker} cannot shoot {args.target} with {args.weapon}: {exc.reason}")
        return 1
    if args.roll and len(plans) > 1:
        args.parser.error(f"{args.target!r} lies in both range bands; pick one with --band "
                          "to roll")
    log = _roll(scenario, plans[0], args.seed) if args.roll else None
    ana = plans[0].analysis
    if ana is None:  # shots always carry their analysis
        raise WastelandError(f"{args.weapon!r} is not a shooting weapon")
    if args.json:
        print_json("shoot", {
            **_ids(scenario, args), "legal": True,
            "distance": ana.distance, "bands": list(plans[0].bands),
            "cover": list(ana.cover), "target_health": plans[0].target_health,
            "previews": [_preview_json(plan, scenario) for plan in plans],
            "roll": log,
        })
    else:
        _print_text(scenario, plans, log, args.seed)
    return 0
