"""``wasteland los`` in both output forms (issue 3), on the seed 004 scenarios."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from sim.cli import main

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
KEYS = {"line_of_sight", "sight_line", "blocked_by", "cover", "ignored_cover",
        "skill_modifier", "armor_bonus", "armor_boost", "distance", "bands", "in_range"}


def los(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["los", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def los_json(capsys: pytest.CaptureFixture[str], name: str, *argv: str) -> dict[str, Any]:
    code, out, _ = los(capsys, str(SCENARIOS / f"{name}.toml"), *argv, "--json")
    assert code == 0
    data: dict[str, Any] = json.loads(out)
    return data


def test_json_has_the_issue_keys_and_types(capsys: pytest.CaptureFixture[str]) -> None:
    d = los_json(capsys, "seed-cover-1", "knight", "mutant")
    assert set(d) >= KEYS
    assert d["line_of_sight"] is True
    (x0, y0), (x1, y1) = d["sight_line"]
    assert all(isinstance(v, float) for v in (x0, y0, x1, y1))
    assert d["bands"] is None and d["in_range"] is None


# (scenario, attacker, target, weapon, sight, cover, skill, armor bonus, bands)
CASES = [
    ("seed-cover-1", "knight", "mutant", None, True, {"crate"}, -2, 1, None),
    ("seed-cover-1", "mutant", "knight", None, True, {"crate", "building"}, -4, 1, None),
    ("seed-cover-2", "settler-a", "knight-1", None, True, set(), 0, 0, None),
    ("seed-cover-2", "knight-1", "settler-a", None, True, {"settler-b"}, -2, 1, None),
    ("seed-cover-3", "mutant", "knight", None, True, {"crate"}, -2, 1, None),
    ("seed-cover-4", "paladin", "mutant-1", None, True, set(), 0, 0, None),
    ("seed-cover-4", "paladin", "mutant-2", None, True, {"forest"}, -2, 1, None),
    ("seed-cover-4", "paladin", "mutant-3", None, True, {"forest"}, -2, 1, None),
    ("seed-cover-4-dense", "paladin", "mutant-1", None, True, set(), 0, 0, None),
    ("seed-cover-4-dense", "paladin", "mutant-2", None, True, {"forest"}, -2, 1, None),
    ("seed-cover-4-dense", "paladin", "mutant-3", None, False, {"forest"}, -2, 1, None),
    ("seed-plasma-range", "survivor", "mutant-a", "plasma_rifle", True, set(), 0, 0, ["short"]),
    ("seed-plasma-range", "survivor", "mutant-b", "plasma_rifle", True, set(), 0, 0, ["long"]),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}:{c[1]}->{c[2]}" for c in CASES])
def test_seed_examples_in_json(capsys: pytest.CaptureFixture[str], case: tuple[Any, ...]) -> None:
    """Seed 004 examples 1-4 and the plasma rifle example (R-COV-*, R-LOS-4, R-RANGE-1)."""
    name, attacker, target, weapon, sight, cover, skill, bonus, bands = case
    extra = ["--weapon", weapon] if weapon else []
    d = los_json(capsys, name, attacker, target, *extra)
    assert d["line_of_sight"] is sight
    assert (d["sight_line"] is None) is (not sight)
    assert set(d["cover"]) == cover
    assert d["skill_modifier"] == skill
    assert d["armor_bonus"] == bonus and d["armor_boost"] == 0
    assert d["bands"] == bands
    if weapon:
        assert d["in_range"] is True


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}:{c[1]}->{c[2]}" for c in CASES])
def test_seed_examples_in_text(capsys: pytest.CaptureFixture[str], case: tuple[Any, ...]) -> None:
    """The human-readable form says the same, naming pieces by id."""
    name, attacker, target, weapon, sight, cover, skill, _, bands = case
    extra = ["--weapon", weapon] if weapon else []
    code, out, _ = los(capsys, str(SCENARIOS / f"{name}.toml"), attacker, target, *extra)
    assert code == 0
    assert ("line of sight along" in out) is sight
    if not sight:
        assert "no line of sight: blocked by forest" in out
    if cover:
        assert f"skill {skill:+d}" in out
        assert all(c in out.split("cover:")[1] for c in cover)
    else:
        assert "no cover" in out
    if bands:
        assert f"{bands[0]} range" in out


def test_ignored_cover_reason_in_both_forms(capsys: pytest.CaptureFixture[str]) -> None:
    """R-COV-2: the building touching the knight is listed as ignored, with its reason."""
    d = los_json(capsys, "seed-cover-1", "knight", "mutant")
    assert d["ignored_cover"] == [{"id": "building",
                                   "reason": "touches the attacker's base (R-COV-2)"}]
    _, out, _ = los(capsys, str(SCENARIOS / "seed-cover-1.toml"), "knight", "mutant")
    assert "building: touches the attacker's base" in out


def test_out_of_reach(capsys: pytest.CaptureFixture[str]) -> None:
    d = los_json(capsys, "seed-plasma-range", "survivor", "mutant-c", "--weapon", "plasma_rifle")
    assert d["bands"] == [] and d["in_range"] is False


@pytest.mark.parametrize("argv, listed", [
    (["knigth", "mutant"], "known models: knight, mutant"),
    (["knight", "mutnat"], "known models: knight, mutant"),
    (["knight", "mutant", "--weapon", "lazer"], "laser_rifle"),
])
def test_unknown_ids_exit_1_listing_known_ids(capsys: pytest.CaptureFixture[str],
                                              argv: list[str], listed: str) -> None:
    """Refused input exits 1 (docs/cli.md), nothing on stdout, the known ids on stderr."""
    code, out, err = los(capsys, str(SCENARIOS / "seed-cover-1.toml"), *argv)
    assert code == 1 and out == ""
    assert listed in err and "unknown" in err
