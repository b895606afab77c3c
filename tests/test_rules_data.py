"""Rules data: every rules number comes from sim/data/rules.toml (R-RULER-1, R-BASE-1)."""

from __future__ import annotations

from typing import Any

import pytest

from sim.errors import ScenarioError
from sim.resolution.attack import AttackProfile
from sim.scenario.rules import default_rules, default_rules_table, merge_tables, parse_rules


def test_rulers_shortest_first_with_their_lengths() -> None:
    """R-RULER-1: Orange 2, Yellow 4, Red 6, Green 8, Blue 10, Black 12."""
    r = default_rules()
    assert r.rulers == (("orange", 2.0), ("yellow", 4.0), ("red", 6.0), ("green", 8.0),
                        ("blue", 10.0), ("black", 12.0))


def test_one_ruler_shorter_and_orange_stays_orange() -> None:
    """R-RULER-1 Decision: Orange has no shorter ruler."""
    r = default_rules()
    assert [r.shorter(c) for c in r.colours] == ["orange", "orange", "yellow", "red", "green",
                                                 "blue"]


def test_size_classes_by_base_diameter() -> None:
    """R-BASE-1: normal < 40 mm, large 40 to < 60 mm, huge >= 60 mm."""
    r = default_rules()
    assert [r.size_class(mm) for mm in (30, 39.9, 40, 59.9, 60, 80)] == [
        "normal", "normal", "large", "large", "huge", "huge"]


def test_base_radius_is_exact_inches() -> None:
    assert default_rules().base_radius(25.4) == 0.5


def test_the_modified_skill_floor_is_rules_data() -> None:
    """R-SHOOT-2: never below 1, unless a scenario's rules data says otherwise."""
    profile = AttackProfile("rifle", "P", 4, -6, (), 2, "physical", 1)
    assert profile.target == 1
    floor = parse_rules(merge_tables(default_rules_table(), {"min_skill_value": 2}))
    assert floor.min_skill_value == 2
    assert AttackProfile("rifle", "P", 4, -6, (), 2, "physical", 1,
                         min_value=floor.min_skill_value).target == 2


@pytest.mark.parametrize(("override", "path"), [
    ({"rulers": []}, "rulers"),
    ({"rulers": [{"colour": "orange", "length": 4}, {"colour": "red", "length": 2}]}, "rulers"),
    ({"rulers": [{"colour": "red", "length": 2}, {"colour": "red", "length": 3}]}, "rulers[1]"),
    ({"actions_per_activation": 0}, "actions_per_activation"),
    ({"mm_per_inch": 0}, "mm_per_inch"),
    ({"dice": {"armor_faces": []}}, "dice.armor_faces"),
    ({"fall_damage": {"red": -1}}, "fall_damage.red"),
])
def test_out_of_range_rules_data_is_refused_at_its_key(override: dict[str, Any], path: str) -> None:
    with pytest.raises(ScenarioError) as info:
        parse_rules(merge_tables(default_rules_table(), override))
    assert path in {p.path for p in info.value.problems}


@pytest.mark.parametrize(("distance", "fall", "jump"), [
    (0.5, "orange", "orange"),
    (2.0, "orange", "orange"),    # up to Orange: no damage; a jump of up to Orange neither
    (2.01, "yellow", "orange"),   # a jump is one ruler shorter (R-JUMP-1)
    (4.0, "yellow", "orange"),
    (4.01, "red", "yellow"),
    (6.0, "red", "yellow"),
    (8.0, "green", "red"),
    (10.0, "blue", "green"),
    (12.0, "black", "blue"),
    (12.01, None, "black"),       # above Black: removed; a jump counts as Black (Decision)
])
def test_fall_table_rows_at_the_ruler_ends(distance: float, fall: str | None, jump: str) -> None:
    """R-FALL-1: the shortest ruler the fall is within, ends included."""
    from sim.movement.falls import fall_table_colour

    rules = default_rules()
    assert fall_table_colour(rules, distance, jump=False) == fall
    assert fall_table_colour(rules, distance, jump=True) == jump


def test_fall_damage_table_is_the_rules_text() -> None:
    """R-FALL-1: up to Orange 0; Yellow +2; Red +4; Green +6; Blue +8; Black +10."""
    assert dict(default_rules().fall_damage) == {
        "orange": 0, "yellow": 2, "red": 4, "green": 6, "blue": 8, "black": 10}
