"""Every ``--json`` output validates against its schema in sim/data/schemas/ (``wasteland
schema KIND``), carries its ``format`` and the ids it is about, and errors under
``--json`` are JSON too (issue 14)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from sim.cli import main
from tests.conftest import ROOT, SCENARIOS

SCHEMAS = ROOT / "sim" / "data" / "schemas"


def schema(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((SCHEMAS / f"{name}.json").read_text(encoding="utf-8"))
    return data


def validate(name: str, instance: Any) -> None:
    jsonschema.Draft202012Validator(schema(name)).validate(instance)


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    code = main([*argv, "--json"])
    out = capsys.readouterr()
    return code, json.loads(out.out), out.err


@pytest.mark.parametrize("name", ["los", "shoot", "scenarios", "check", "error"])
def test_schemas_are_valid_json_schemas(name: str) -> None:
    jsonschema.Draft202012Validator.check_schema(schema(name))
    assert schema(name)["properties"]["format"] == {"const": f"wasteland-{name}/1"}


@pytest.mark.parametrize("argv", [
    ("skirmish", "knight", "mutant-2"),  # the example: no sight
    ("seed-cover-1", "knight", "mutant"),  # sight, cover and ignored cover (R-COV-2)
    ("seed-plasma-range", "survivor", "mutant-c", "--weapon", "plasma_rifle"),  # out of reach
    ("elev-sniper-edge", "sniper-back", "mutant"),  # elevation (R-ELEV-1)
])
def test_los_json_is_valid_and_names_its_ids(capsys: pytest.CaptureFixture[str],
                                             argv: tuple[str, ...]) -> None:
    code, data, err = run_json(capsys, "los", *argv)
    assert code == 0 and err == ""
    validate("los", data)
    weapon = argv[4] if len(argv) > 3 else None
    assert (data["format"], data["scenario"], data["attacker"], data["target"],
            data["weapon"]) == ("wasteland-los/1", argv[0], argv[1], argv[2], weapon)


def test_los_without_sight_exits_0_and_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    """Decision (docs/cli.md): los exits 0 when it answered, whatever the answer."""
    code, data, _ = run_json(capsys, "los", "seed-cover-4-dense", "paladin", "mutant-3")
    assert code == 0 and data["line_of_sight"] is False and data["blocked_by"] == ["forest"]


@pytest.mark.parametrize("argv, code", [
    (("seed-plasma", "survivor", "mutant-a", "--weapon", "plasma_rifle"), 0),
    (("seed-plasma", "survivor", "mutant-straddle", "--weapon", "plasma_rifle"), 0),
    (("seed-cover-1", "knight", "mutant", "--weapon", "laser_rifle", "--roll", "--seed", "4"), 0),
    (("seed-plasma", "survivor", "mutant-hidden", "--weapon", "plasma_rifle"), 1),
    (("seed-plasma", "rookie", "mutant-a", "--weapon", "plasma_rifle"), 1),
])
def test_shoot_json_is_valid_and_names_its_ids(capsys: pytest.CaptureFixture[str],
                                               argv: tuple[str, ...], code: int) -> None:
    got, data, _ = run_json(capsys, "shoot", *argv)
    assert got == code
    validate("shoot", data)
    assert (data["format"], data["attacker"], data["target"], data["weapon"]) == (
        "wasteland-shoot/1", argv[1], argv[2], argv[4])
    assert data["legal"] is (code == 0)


def test_scenarios_json_lists_every_shipped_file(capsys: pytest.CaptureFixture[str]) -> None:
    code, data, _ = run_json(capsys, "scenarios")
    assert code == 0
    validate("scenarios", data)
    names = [s["name"] for s in data["scenarios"]]
    assert names == sorted(p.stem for p in SCENARIOS.glob("*.toml"))
    skirmish = next(s for s in data["scenarios"] if s["name"] == "skirmish")
    assert skirmish["title"] == "Crossroads Skirmish" and skirmish["rules"] == "rulebook"
    # count the [[models]] tables of the file itself, not through the loader
    text = (SCENARIOS / "skirmish.toml").read_text(encoding="utf-8")
    assert skirmish["models"] == text.count("\n[[models]]")


def test_check_json_reports_each_file(capsys: pytest.CaptureFixture[str],
                                      tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('format = 1\nname = "x"\nrules = "rulebook"\nboard = [0, 10]\n',
                   encoding="utf-8")
    code, data, _ = run_json(capsys, "check", "skirmish", str(bad))
    assert code == 1
    validate("check", data)
    ok, broken = data["files"]
    assert ok == {"scenario": "skirmish", "ok": True, "problems": []}
    assert broken["ok"] is False
    assert {"file": str(bad), "key": "board"} in [
        {"file": p["file"], "key": p["key"]} for p in broken["problems"]]


@pytest.mark.parametrize("argv, code, needle", [
    (("los", "no-such-scenario", "a", "b"), 1, "file not found"),
    (("los", "seed-cover-1", "knigth", "mutant"), 1, "unknown attacker 'knigth'"),
    (("shoot", "seed-cover-1", "knight", "mutant", "--weapon", "lazer"), 1, "unknown weapon"),
    (("los", "seed-cover-1", "knight"), 2, "required: TARGET"),
    (("shoot", "seed-cover-1", "knight", "mutant", "--weapon", "laser_rifle", "--roll"), 2,
     "--roll needs --seed"),
    (("los", "seed-cover-1", "knight", "mutant", "--bogus"), 2, "--bogus"),
])
def test_errors_under_json_are_one_json_object(capsys: pytest.CaptureFixture[str],
                                               argv: tuple[str, ...], code: int,
                                               needle: str) -> None:
    """Errors under --json: a JSON object on stdout, nothing on stderr, the usual exit."""
    got, data, err = run_json(capsys, *argv)
    assert got == code and err == ""
    validate("error", data)
    assert data["exit_status"] == code and needle in data["error"]


def test_scenario_error_under_json_names_file_and_key(capsys: pytest.CaptureFixture[str],
                                                      tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text((SCENARIOS / "seed-cover-1.toml").read_text(encoding="utf-8")
                   .replace('rules = "rulebook"', 'rules = "chess"'), encoding="utf-8")
    shutil.copytree(SCENARIOS / "units", tmp_path / "units")
    got, data, _ = run_json(capsys, "los", str(bad), "knight", "mutant")
    assert got == 1
    validate("error", data)
    assert (data["file"], data["key"]) == (str(bad), "rules")
    assert "'chess'" in data["problems"][0]["message"]


def test_the_schemas_reject_what_they_should(capsys: pytest.CaptureFixture[str]) -> None:
    """The schemas are not vacuous: an output without its ids, or with an extra key, fails."""
    _, data, _ = run_json(capsys, "los", "seed-cover-1", "knight", "mutant")
    for broken in ({k: v for k, v in data.items() if k != "attacker"},
                   {**data, "surprise": 1}, {**data, "format": "wasteland-los/2"}):
        with pytest.raises(jsonschema.ValidationError):
            validate("los", broken)


def test_wasteland_schema_prints_each_shipped_schema(capsys: pytest.CaptureFixture[str]) -> None:
    """``wasteland schema KIND`` (issue 30): what every --json help text points at."""
    assert main(["schema"]) == 0
    kinds = capsys.readouterr().out.split()
    assert kinds == sorted(p.stem for p in SCHEMAS.glob("*.json"))
    for kind in kinds:
        assert main(["schema", kind]) == 0
        printed = json.loads(capsys.readouterr().out)
        assert printed == json.loads((SCHEMAS / f"{kind}.json").read_text(encoding="utf-8"))
    assert main(["schema", "nonsense"]) == 2
    assert "invalid choice: 'nonsense'" in capsys.readouterr().err
