"""The headline pinned at the top of Details (issue 16): "Hit 32% - kill 2% -
cover -2 (wall-1)", from the same plan and odds as the shot preview, and one
per charge target before a target is chosen.

R-SHOOT-2 (the skill test), R-COV-2 (cover modifier), R-UNIT-2 (base contact
for the attack that ends a charge).
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

import math
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from render.draw.pinned import scrolled_rect
from sim.combat.plan import melee_weapons, plan_close_combat, plan_shot
from sim.combat.situation import Situation
from sim.movement.kinds import Charge
from sim.resolution.odds import attack_odds
from sim.scenario.names import display_names
from sim.scenario.positions import Position
from tests.combat_util import at_activation, scenario
from tests.window_driver import Driver

PLASMA = "plasma_rifle"


def pct(p: Fraction) -> int:
    return round(float(p) * 100)


@pytest.fixture
def driver(tmp_path: Path):
    d = Driver(scenario("seed-plasma"), save_dir=tmp_path,
               state=at_activation(scenario("seed-plasma"), "survivor"))
    d.app.show.dismiss()
    yield d
    d.close()


def hover_model(d: Driver, model: str) -> None:
    p = d.state.model(model).position
    d.move_to(d.board_px(p.x, p.y))


def test_shoot_headline_is_the_previews_odds(driver: Driver) -> None:
    d = driver
    d.click_button("Shoot")
    hover_model(d, "mutant-a")
    plan = plan_shot(Situation.of_state(d.state), "survivor", "mutant-a", PLASMA, "short")
    odds = attack_odds(plan.profile, d.state.rules)
    head = d.app.show.headlines[0].text
    name = display_names(d.state.scenario).model("mutant-a")
    assert head.startswith(f"{name}: Hit {pct(odds.p_success)}% - "
                           f"kill {pct(odds.p_at_least(plan.target_health or 0))}%")
    assert plan.analysis is not None
    if plan.analysis.cover:
        assert f"cover {plan.analysis.skill_modifier:+d}" in head
    else:
        assert "no cover" in head


def test_headline_is_pinned_above_the_scrolled_text(driver: Driver) -> None:
    d = driver
    d.click_button("Shoot")
    hover_model(d, "mutant-a")
    shown = d.app.show.shown(0, d.controller.scene())
    assert shown.pinned[0] == d.app.show.headlines[0]
    details = d.app.layout.details
    assert scrolled_rect(details, shown.pinned).y > details.y  # the wheel scrolls below it


def test_hovering_an_enemy_in_an_activation_shows_its_headline(driver: Driver) -> None:
    d = driver
    hover_model(d, "mutant-a")
    name = display_names(d.state.scenario).model("mutant-a")
    assert [h.text.split(":")[0] for h in d.app.show.headlines] == [name]


def test_charge_shows_one_headline_per_target_before_one_is_chosen(driver: Driver) -> None:
    d = driver
    d.click_button("Charge")
    targets = {a.target for a in d.state.legal_actions()
               if isinstance(a, Charge) and a.model == "survivor"}
    names = display_names(d.state.scenario)
    heads = [h.text for h in d.app.show.headlines]
    assert len(heads) == len(targets) > 0
    assert {h.removeprefix("charge ").split(":")[0] for h in heads} == {
        names.model(t) for t in targets}
    # The odds are the close-combat attack's with the charger in base contact.
    t = sorted(targets)[0]
    weapons = melee_weapons(d.state.scenario, d.state.scenario.unit_of("survivor"))
    head = next(h for h in heads if h.removeprefix("charge ").startswith(names.model(t) + ":"))
    if not weapons:
        assert "no close-combat weapon" in head
        return
    sit = Situation.of_state(d.state)
    a, b = sit.positions["survivor"], sit.positions[t]
    gap = d.state.radius("survivor") + d.state.radius(t)
    dist = math.hypot(a.x - b.x, a.y - b.y)
    touch = Position(b.x + (a.x - b.x) / dist * gap, b.y + (a.y - b.y) / dist * gap, b.z)
    plan = plan_close_combat(replace(sit, positions={**sit.positions, "survivor": touch}),
                             "survivor", t, weapons[0])
    assert f"Hit {pct(attack_odds(plan.profile, d.state.rules).p_success)}%" in head


def test_hovered_charge_target_comes_first(driver: Driver) -> None:
    d = driver
    d.click_button("Charge")
    targets = sorted({a.target for a in d.state.legal_actions()
                      if isinstance(a, Charge) and a.model == "survivor"})
    last = targets[-1]
    hover_model(d, last)
    name = display_names(d.state.scenario).model(last)
    assert d.app.show.headlines[0].text.removeprefix("charge ").startswith(name + ":")
