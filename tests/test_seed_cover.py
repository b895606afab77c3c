"""Seed 004 cover examples 1-4 and the plasma rifle range example, as scenario files.

Each stated outcome of the seed text is asserted through :func:`sim.shooting.analysis.analyse`
(the CLI's answers are checked in tests/test_los_cli.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import shapely

from sim.scenario.format.loader import load_scenario
from sim.scenario.positions import initial_positions
from sim.shooting.analysis import ENTERS_ONLY, FRIENDLY, TOUCHES_ATTACKER, ShotAnalysis, analyse

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


def shot(name: str, attacker: str, target: str, weapon: str | None = None) -> ShotAnalysis:
    s = load_scenario(SCENARIOS / f"{name}.toml")
    return analyse(s, initial_positions(s), attacker, target, weapon)


def test_example_1_knight_shoots_past_the_building_it_touches() -> None:
    """R-COV-2/3: the crate does not block; the building touching the knight is ignored."""
    s = shot("seed-cover-1", "knight", "mutant")
    assert s.line_of_sight
    assert s.cover == ("crate",)
    assert s.skill_modifier == -2 and s.armor_bonus == 1 and s.armor_boost == 0
    assert [(i.id, i.reason) for i in s.ignored_cover] == [("building", TOUCHES_ATTACKER)]


def test_example_1_mutant_shoots_back_through_building_and_crate() -> None:
    """R-COV-2/3: both objects count, -4, and the armor still rises by 1 only."""
    s = shot("seed-cover-1", "mutant", "knight")
    assert s.line_of_sight
    assert set(s.cover) == {"building", "crate"}
    assert s.skill_modifier == -4 and s.armor_bonus == 1


def test_example_2_friendly_settler_gives_no_cover_one_way() -> None:
    """R-LOS-2, R-COV-5: settler B is on settler A's side."""
    s = shot("seed-cover-2", "settler-a", "knight-1")
    assert s.line_of_sight
    assert s.cover == () and s.skill_modifier == 0 and s.armor_bonus == 0
    assert [(i.id, i.reason) for i in s.ignored_cover] == [("settler-b", FRIENDLY)]


def test_example_2_enemy_settler_gives_cover_the_other_way() -> None:
    """R-COV-5: for knight patrol 1, settler B is an enemy model on the line of cover."""
    s = shot("seed-cover-2", "knight-1", "settler-a")
    assert s.line_of_sight
    assert s.cover == ("settler-b",) and s.skill_modifier == -2 and s.armor_bonus == 1


def test_example_3_knight_on_the_desk() -> None:
    """R-COV-2: the LoC enters the desk but does not pass through; the crate counts."""
    s = shot("seed-cover-3", "mutant", "knight")
    assert s.line_of_sight
    assert s.cover == ("crate",) and s.skill_modifier == -2 and s.armor_bonus == 1
    assert ("desk", ENTERS_ONLY) in [(i.id, i.reason) for i in s.ignored_cover]


@pytest.mark.parametrize("variant", ["seed-cover-4", "seed-cover-4-dense"])
def test_example_4_forest_edge(variant: str) -> None:
    """R-COV-4: mutant 1 (centre outside the forest) no cover, mutants 2 and 3 cover.
    In the dense forest (R-LOS-4) mutants 1 and 2 are the same, mutant 3 is out of sight."""
    scenario = load_scenario(SCENARIOS / f"{variant}.toml")
    forest = scenario.piece("forest").footprint
    for k in (1, 2, 3):  # the seed's set-up: every mutant's base touches the forest ...
        at = shapely.Point(scenario.model(f"mutant-{k}").at)
        assert forest.distance(at) <= scenario.radius_of(f"mutant-{k}")
    # ... and mutant 1 stands partly in it with its centre outside.
    assert not forest.contains(shapely.Point(scenario.model("mutant-1").at))
    assert forest.intersects(shapely.Point(scenario.model("mutant-1").at).buffer(
        scenario.radius_of("mutant-1")))
    m1, m2, m3 = (shot(variant, "paladin", f"mutant-{k}") for k in (1, 2, 3))
    assert m1.line_of_sight and m1.cover == ()
    assert m2.line_of_sight and m2.cover == ("forest",) and m2.skill_modifier == -2
    assert m3.cover == ("forest",)
    if variant.endswith("dense"):
        assert not m3.line_of_sight and m3.sight.blocked_by == ("forest",)
    else:
        assert m3.line_of_sight


@pytest.mark.parametrize("k", [1, 2, 3])
def test_example_4_mutants_shooting_back_ignore_the_forest(k: int) -> None:
    """R-COV-4: the forest touches every mutant's base, so it is no cover for the paladin."""
    s = shot("seed-cover-4", f"mutant-{k}", "paladin")
    assert s.cover == ()
    assert k == 1 or ("forest", TOUCHES_ATTACKER) in [(i.id, i.reason) for i in s.ignored_cover]


def test_plasma_rifle_short_and_long_range() -> None:
    """R-RANGE-1: mutant A in short range (accuracy and armor-reduction dice),
    mutant B in long range (a damage die), mutant C beyond the reach."""
    scenario = load_scenario(SCENARIOS / "seed-plasma-range.toml")
    rifle = scenario.weapons["plasma_rifle"]
    assert rifle.short_dice == ("accuracy", "armor-reduction")
    assert rifle.long_dice == ("damage",)
    a = shot("seed-plasma-range", "survivor", "mutant-a", "plasma_rifle")
    b = shot("seed-plasma-range", "survivor", "mutant-b", "plasma_rifle")
    c = shot("seed-plasma-range", "survivor", "mutant-c", "plasma_rifle")
    assert a.bands == ("short",) and a.in_range
    assert b.bands == ("long",) and b.in_range
    assert c.bands == () and c.in_range is False
    assert a.line_of_sight and b.line_of_sight
