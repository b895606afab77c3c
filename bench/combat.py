"""Exact shot odds against rolling shots (issue 7).

The preview (:func:`sim.resolution.odds.attack_odds`) is computed from the dice faces;
the baseline is resolving one shot with the game's generator
(:func:`sim.resolution.attack.resolve_attack`), in the same process. Printed: the time
of one preview, one rolled shot, and the preview as a number of rolled
shots (a 10,000-shot simulation would cost 10,000 of them and still only
estimate the odds). Also the time to plan a shot on the default scenario
(sight, cover and range from :func:`sim.shooting.analysis.analyse`).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from functools import partial
from importlib import resources

from sim.combat.plan import AttackRefused, plan_shot
from sim.combat.situation import Situation
from sim.engine.rng import SeededRng
from sim.resolution.attack import AttackProfile, resolve_attack
from sim.resolution.odds import attack_odds
from sim.scenario.format.loader import load_scenario
from sim.scenario.rules import default_rules

PROFILES = {
    "no dice": AttackProfile("rifle", "P", 7, 0, (), 3, "energy", 1),
    "2 dice (plasma, short)": AttackProfile("rifle", "P", 7, 0, ("accuracy", "armor-reduction"),
                                            3, "energy", 1),
    "4 dice": AttackProfile("melee", "S", 9, 0, ("damage", "damage", "accuracy",
                                                 "armor-reduction"), 4, "physical", 3, 1),
}


def _per_call(fn: Callable[[], object], n: int) -> float:
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t0) / n


def run() -> None:
    rules = default_rules()
    rng = SeededRng(1)
    for name, profile in PROFILES.items():
        shot = _per_call(partial(resolve_attack, rng, rules, profile), 20_000)
        odds = _per_call(partial(attack_odds, profile, rules), 200)
        print(f"{name:24s} preview {odds * 1e3:7.3f} ms  rolled shot {shot * 1e6:6.1f} us  "
              f"preview = {odds / shot:7.1f} rolled shots")
    with resources.as_file(resources.files("scenarios").joinpath("skirmish.toml")) as path:
        scenario = load_scenario(path)
    sit = Situation.of_scenario(scenario)
    pairs = [(a.id, t.id, w) for a in scenario.models for t in scenario.models
             if a.side != t.side for w in scenario.units[a.unit].weapons
             if scenario.weapons[w].skill != "melee"]

    def plan_all() -> None:
        for a, t, w in pairs:
            with contextlib.suppress(AttackRefused):
                plan_shot(sit, a, t, w, "short")

    cold = _per_call(plan_all, 1) / len(pairs)
    warm = _per_call(plan_all, 5) / len(pairs)
    print(f"plan a shot on the default scenario ({len(pairs)} attacker/target/weapon): "
          f"{cold * 1e3:.2f} ms first, {warm * 1e3:.3f} ms cached "
          f"(cached = {warm / cold:.3f} of first)")
