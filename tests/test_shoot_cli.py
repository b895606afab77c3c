"""``wasteland shoot``: the exact preview and a seeded roll (issue 7, seed 004)."""

from __future__ import annotations

import json
import shutil
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from sim.cli import main
from sim.scenario.rules import default_rules
from tests.conftest import SCENARIOS

PLASMA = str(SCENARIOS / "seed-plasma.toml")
COVER = str(SCENARIOS / "seed-cover-1.toml")
RULES = default_rules()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["shoot", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code, out, _ = run(capsys, *argv, "--json")
    return code, json.loads(out)


def p_with_accuracy_die(target: int) -> Fraction:
    """Chance of target-or-less on the d20 with one accuracy die, from the face data."""
    faces = RULES.effect_faces["accuracy"]
    return sum((Fraction(min(20, target + f.count("accuracy")), 20) / len(faces)
                for f in faces), Fraction(0))


def test_plasma_short_range_preview(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 004: 7 or less; short range adds an accuracy and an armor-reduction die."""
    code, out, _ = run(capsys, PLASMA, "survivor", "mutant-a", "--weapon", "plasma_rifle")
    assert code == 0
    assert "short range: rifle (P 7) needs 7 or less; dice: accuracy, armor-reduction" in out
    code, data = run_json(capsys, PLASMA, "survivor", "mutant-a", "--weapon", "plasma_rifle")
    (prev,) = data["previews"]
    assert (prev["band"], prev["target_number"], prev["dice"]) == (
        "short", 7, ["accuracy", "armor-reduction"])
    assert prev["p_success"] == pytest.approx(float(p_with_accuracy_die(7)))
    assert sum(prev["damage_dealt"].values()) == pytest.approx(1.0)


def test_plasma_long_range_preview(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 004: long range rolls only the skill die and a damage die: 7/20."""
    code, data = run_json(capsys, PLASMA, "survivor", "mutant-b", "--weapon", "plasma_rifle")
    assert code == 0
    (prev,) = data["previews"]
    assert (prev["band"], prev["dice"]) == ("long", ["damage"])
    assert prev["p_success"] == pytest.approx(7 / 20)


def test_straddling_target_shows_both_bands_or_the_chosen_one(
        capsys: pytest.CaptureFixture[str]) -> None:
    """R-RANGE-1: the attacker chooses; without --band both previews are shown."""
    args = (PLASMA, "survivor", "mutant-straddle", "--weapon", "plasma_rifle")
    code, data = run_json(capsys, *args)
    assert code == 0 and data["bands"] == ["short", "long"]
    assert [p["band"] for p in data["previews"]] == ["short", "long"]
    code, data = run_json(capsys, *args, "--band", "long")
    assert [p["band"] for p in data["previews"]] == ["long"]


@pytest.mark.parametrize("attacker, target, reason", [
    ("rookie", "mutant-a", "lacks the 'rifle' skill"),
    ("survivor", "mutant-c", "out of reach"),
    ("survivor", "mutant-hidden", "no line of sight"),
])
def test_illegal_shots_exit_1_with_the_reason(capsys: pytest.CaptureFixture[str], attacker: str,
                                              target: str, reason: str) -> None:
    """R-SHOOT-1: each missing requirement is named."""
    code, out, _ = run(capsys, PLASMA, attacker, target, "--weapon", "plasma_rifle")
    assert code == 1 and reason in out
    code, data = run_json(capsys, PLASMA, attacker, target, "--weapon", "plasma_rifle")
    assert code == 1 and data["legal"] is False and reason in data["reason"]


def test_cover_example_1_both_directions(capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 004 example 1 (rulebook): -2 and +1 armor one way, -4 and +1 the other."""
    code, data = run_json(capsys, COVER, "knight", "mutant", "--weapon", "laser_rifle")
    assert code == 0 and data["cover"] == ["crate"]
    (p,) = data["previews"]
    assert (p["skill_modifier"], p["target_number"], p["armor_bonus"], p["armor_boost"]) == (
        -2, 4, 1, 0)
    code, data = run_json(capsys, COVER, "mutant", "knight", "--weapon", "assault_rifle")
    assert sorted(data["cover"]) == ["building", "crate"]
    (p,) = data["previews"]
    # PER 4 - 4 = 0, never below 1 (R-SHOOT-2): only a 1 hits.
    assert (p["skill_modifier"], p["target_number"], p["armor_bonus"]) == (-4, 1, 1)
    assert p["p_success"] == pytest.approx(1 / 20)


def test_cover_example_1_in_vts(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """R-COV-3 vts-1.5: one Armor Boost instead of +1 armor, either direction."""
    shutil.copytree(SCENARIOS / "units", tmp_path / "units")
    text = Path(COVER).read_text(encoding="utf-8").replace('rules = "rulebook"',
                                                           'rules = "vts-1.5"')
    vts = tmp_path / "cover-vts.toml"
    vts.write_text(text, encoding="utf-8")
    for a, t, w, mod in (("knight", "mutant", "laser_rifle", -2),
                         ("mutant", "knight", "assault_rifle", -4)):
        code, data = run_json(capsys, str(vts), a, t, "--weapon", w)
        (p,) = data["previews"]
        assert (code, p["skill_modifier"], p["armor_bonus"], p["armor_boost"]) == (0, mod, 0, 1)


def test_roll_is_seeded_and_logged(capsys: pytest.CaptureFixture[str]) -> None:
    """--roll --seed N resolves one shot and prints its log; the same seed, the same lines."""
    args = (COVER, "knight", "mutant", "--weapon", "laser_rifle", "--roll", "--seed", "11")
    code, first, _ = run(capsys, *args)
    assert code == 0 and "roll (seed 11):" in first
    outcome = first.split("roll (seed 11):")[1]
    assert "skill die" in outcome and (" hits " in outcome or " misses " in outcome)
    assert run(capsys, *args)[1] == first
    code, data = run_json(capsys, *args)
    assert data["roll"] and any("skill die" in line for line in data["roll"])


@pytest.mark.parametrize("argv, message", [
    (("nobody", "mutant-a", "--weapon", "plasma_rifle"), "unknown attacker 'nobody'"),
    (("survivor", "mutant-z", "--weapon", "plasma_rifle"), "known models: survivor"),
    (("survivor", "mutant-a", "--weapon", "railgun"), "unknown weapon 'railgun'"),
])
def test_unknown_ids_exit_1(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                            message: str) -> None:
    """Ids the scenario lacks are refused input: exit 1, like every command (docs/cli.md)."""
    code, out, err = run(capsys, PLASMA, *argv)
    assert code == 1 and message in err and out == ""


@pytest.mark.parametrize("argv, message", [
    (("survivor", "mutant-a", "--weapon", "plasma_rifle", "--roll"), "--roll needs --seed"),
    (("survivor", "mutant-a", "--weapon", "plasma_rifle", "--seed", "3"), "only used with --roll"),
    (("survivor", "mutant-straddle", "--weapon", "plasma_rifle", "--roll", "--seed", "1"),
     "pick one with --band"),
    (("survivor", "mutant-a"), "--weapon"),
])
def test_bad_usage_exits_2(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                           message: str) -> None:
    """Options missing or contradicting each other are usage errors: exit 2 with the usage."""
    code, _, err = run(capsys, PLASMA, *argv)
    assert code == 2 and message in err and "usage: wasteland shoot" in err


def test_scenario_dice_replace_the_house_defaults(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    """R-DICE-1: a scenario's [rules_data.dice] replaces the shipped faces, and the preview
    uses them: an accuracy die that always shows two accuracy symbols makes the
    survivor's 7-or-less a 9-or-less (9/20)."""
    shutil.copytree(SCENARIOS / "units", tmp_path / "units")
    text = Path(PLASMA).read_text(encoding="utf-8")
    text = text.replace("[sides.survivor]", '[rules_data.dice.effect]\n'
                        'accuracy = [["accuracy", "accuracy"]]\n'
                        'armor-reduction = [[]]\n\n[sides.survivor]')
    custom = tmp_path / "custom-dice.toml"
    custom.write_text(text, encoding="utf-8")
    code, data = run_json(capsys, str(custom), "survivor", "mutant-a", "--weapon",
                          "plasma_rifle")
    assert code == 0
    assert data["previews"][0]["p_success"] == pytest.approx(9 / 20)
