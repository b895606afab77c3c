"""``wasteland map`` (issue 17, docs/maps.md, docs/cli.md): the JSON object validates
against sim/data/schemas/map.json and holds the engine's map, the PNG is written, and the
CLI conventions hold (exit 0/1/2, JSON errors, ``-`` for stdin and stdout)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pygame
import pytest

from sim.cli import main
from sim.maps.visibility import make_map
from sim.scenario.format.loader import load_scenario
from sim.scenario.positions import initial_positions
from tests.conftest import ROOT, SCENARIOS

SCHEMA = json.loads((ROOT / "sim" / "data" / "schemas" / "map.json").read_text(encoding="utf-8"))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code, out, err = run(capsys, *argv, "--json")
    assert err == ""
    return code, json.loads(out)


def test_the_schema_is_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["properties"]["format"] == {"const": "wasteland-map/1"}


@pytest.mark.parametrize(("kind", "extra"), [("seen", []), ("threat", []),
                                             ("sees", ["--target", "mutant"])])
def test_json_validates_and_is_the_engines_map(capsys: pytest.CaptureFixture[str], kind: str,
                                               extra: list[str]) -> None:
    code, out = run_json(capsys, "map", "seed-cover-1", "knight", "--kind", kind, *extra,
                         "--cell", "0.5")
    assert code == 0
    jsonschema.Draft202012Validator(SCHEMA).validate(out)
    s = load_scenario(SCENARIOS / "seed-cover-1.toml")
    want = make_map(s, initial_positions(s), "knight", kind,
                    target="mutant" if extra else None, cell=0.5)
    assert out["format"] == "wasteland-map/1" and out["scenario"] == "seed-cover-1"
    assert {k: v for k, v in out.items() if k not in ("format", "scenario")} == want.to_json()
    g = want.grid
    assert out["origin"] == [g.x0, g.y0] and len(out["values"]) == out["ny"] == g.ny
    assert all(len(row) == out["nx"] for row in out["values"])


def test_the_schema_rejects_a_wrong_value() -> None:
    bad = {"format": "wasteland-map/1", "scenario": "x", "model": "m", "kind": "sees",
           "target": "t", "cell": 0.25, "origin": [0.125, 0.125], "nx": 1, "ny": 1,
           "values": [[2]]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(SCHEMA).validate(bad)
    with pytest.raises(jsonschema.ValidationError):  # a seen map names no target
        jsonschema.Draft202012Validator(SCHEMA).validate({**bad, "kind": "seen",
                                                           "values": [[1]]})


def test_the_summary_and_the_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out = tmp_path / "map.png"
    code, text, err = run(capsys, "map", "seed-cover-1", "knight", "--cell", "0.5", "-o",
                          str(out), "--width", "900")
    assert code == 0 and err == ""
    assert text.startswith("seen map of knight: enemies with sight\n")
    assert f"wrote {out}" in text
    image = pygame.image.load(str(out))
    assert image.get_width() == 900


def test_the_png_to_stdout(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy",
           "SDL_AUDIODRIVER": "dummy"}
    got = subprocess.run([sys.executable, "-m", "sim", "map", "seed-cover-1", "knight",
                          "--cell", "1", "-o", "-"], capture_output=True, env=env,
                         timeout=120, check=False, cwd=tmp_path)
    assert got.returncode == 0, got.stderr
    assert got.stdout.startswith(b"\x89PNG\r\n\x1a\n") and got.stderr == b""
    assert list(tmp_path.iterdir()) == []


def test_a_scenario_on_stdin(capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(SCENARIOS)
    monkeypatch.setattr(sys, "stdin", io.StringIO(
        (SCENARIOS / "seed-cover-1.toml").read_text(encoding="utf-8")))
    code, out = run_json(capsys, "map", "-", "knight", "--cell", "1")
    assert code == 0 and out["scenario"] == "-" and out["nx"] >= 1


@pytest.mark.parametrize(("argv", "message"), [
    (["map", "seed-cover-1", "ghost"], "unknown model 'ghost'"),
    (["map", "seed-cover-1", "knight", "--kind", "sees", "--target", "ghost"],
     "unknown target 'ghost'"),
    (["map", "seed-cover-1", "knight", "--kind", "sees", "--target", "knight"],
     "another model"),
    (["map", "no-such-scenario", "knight"], "no-such-scenario"),
    (["map", "seed-cover-1", "knight", "-o", "/no/such/folder/map.png"], "does not exist"),
    (["map", "seed-cover-1", "knight", "-o", "map.txt"], "expected a .png"),
])
def test_refused_input_exits_1_with_a_json_error(capsys: pytest.CaptureFixture[str],
                                                 argv: list[str], message: str) -> None:
    code, out = run_json(capsys, *argv)
    assert code == 1 and out["format"] == "wasteland-error/1" and out["exit_status"] == 1
    assert message in out["error"]
    code, text, err = run(capsys, *argv)
    assert code == 1 and text == "" and message in err and "Traceback" not in err


@pytest.mark.parametrize(("argv", "message"), [
    (["map", "seed-cover-1", "knight", "--kind", "sees"], "needs --target"),
    (["map", "seed-cover-1", "knight", "--target", "mutant"], "only for --kind sees"),
    (["map", "seed-cover-1", "knight", "--cell", "0"], "at least 0.05"),
    (["map", "seed-cover-1", "knight", "--cell", "nan"], "at least 0.05"),
    (["map", "seed-cover-1", "knight", "--cell", "wide"], "a number of inches"),
    (["map", "seed-cover-1", "knight", "--kind", "heat"], "invalid choice"),
    (["map", "seed-cover-1", "knight", "-o", "-", "--json"], "both write to stdout"),
])
def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str],
                             message: str) -> None:
    if "--json" not in argv:
        code, text, err = run(capsys, *argv)
        assert code == 2 and text == "" and message in err and "usage:" in err
    code, out = run_json(capsys, *(a for a in argv if a != "--json"))
    assert code == 2 and out["exit_status"] == 2 and message in out["error"]


def test_json_keeps_one_row_of_values_per_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, text, _ = run(capsys, "map", "seed-cover-1", "knight", "--cell", "0.5", "--json")
    out = json.loads(text)
    lines = text.splitlines()
    assert code == 0 and len(lines) == out["ny"] + 16
    assert lines[1] == '  "format": "wasteland-map/1",'
