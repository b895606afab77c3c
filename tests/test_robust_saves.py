"""Hostile save files are refused with one message naming the save (issue 13), R-ALL-1.

Also: a game of a shipped scenario is saved by its name and reloads from
any folder (issue 14).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from sim.cli import main
from sim.errors import SaveError
from sim.game.kinds import new_game
from sim.game.save import load_game, save_data, save_game, scenario_hash
from sim.scenario.format.limits import MAX_NAME_BYTES, MAX_NESTING, MAX_PATH_BYTES
from sim.scenario.format.loader import load_scenario
from tests.conftest import SCENARIOS

SEED = SCENARIOS / "seed-activation.toml"


def _saved(tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    """A real save of a one-action game of a copied scenario, and its data."""
    shutil.copy(SEED, tmp_path / SEED.name)
    state = new_game(load_scenario(tmp_path / SEED.name), seed=4)
    state.apply(next(iter(state.legal_actions())))
    path = tmp_path / "game.save.json"
    save_game(state, path)
    return path, json.loads(path.read_text())


def _refused(path: Path, *needles: str) -> str:
    with pytest.raises(SaveError) as info:
        load_game(path)
    text = str(info.value)
    assert str(path) in text
    for needle in needles:
        assert needle in text
    return text


def _write(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(json.dumps(data))
    return path


def test_the_saved_game_itself_reloads(tmp_path: Path) -> None:
    path, data = _saved(tmp_path)
    assert len(load_game(path).history) == len(data["actions"]) == 1


def test_a_save_that_is_not_utf8_is_refused(tmp_path: Path) -> None:
    path, data = _saved(tmp_path)
    text = json.dumps({**data, "note": "é"}, ensure_ascii=False)
    path.write_bytes(text.encode("latin-1"))
    _refused(path, "not UTF-8 text: byte 0xe9 on line 1")


def test_json_nested_100000_deep_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "deep.save.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    _refused(path, "nested too deeply")


def test_json_nested_past_the_limit_is_refused(tmp_path: Path) -> None:
    path, data = _saved(tmp_path)
    nested: list[object] = []
    for _ in range(MAX_NESTING + 1):
        nested = [nested]
    _write(path, {**data, "actions": nested})
    _refused(path, f"the limit is {MAX_NESTING} levels")


def test_an_integer_of_thousands_of_digits_is_refused(tmp_path: Path) -> None:
    path, data = _saved(tmp_path)
    path.write_text(json.dumps(data).replace('"seed": 4', '"seed": ' + "9" * 5000))
    _refused(path, "too long")


@pytest.mark.parametrize("scenario, why", [
    ("x" * (MAX_PATH_BYTES + 1) + ".toml", f"longer than {MAX_PATH_BYTES} bytes"),
    ("a/" + "x" * (MAX_NAME_BYTES + 1) + ".toml", f"longer than {MAX_NAME_BYTES} bytes"),
    ("a\0b.toml", "NUL byte"),
    ("", "empty string"),
])
def test_a_bad_scenario_path_is_refused(tmp_path: Path, scenario: str, why: str) -> None:
    path, data = _saved(tmp_path)
    _write(path, {**data, "scenario": scenario})
    _refused(path, "scenario:", why)


def test_a_save_pointing_at_a_binary_scenario_is_refused(tmp_path: Path) -> None:
    path, data = _saved(tmp_path)
    binary = tmp_path / "noise.toml"
    binary.write_bytes(bytes(range(256)))
    _write(path, {**data, "scenario": "noise.toml", "scenario_sha256": scenario_hash(binary)})
    _refused(path, "does not load", "not UTF-8 text")


def test_a_save_pointing_at_a_folder_is_refused(tmp_path: Path) -> None:
    path, data = _saved(tmp_path)
    (tmp_path / "folder.toml").mkdir()
    _write(path, {**data, "scenario": "folder.toml"})
    _refused(path, "is a directory")


@pytest.mark.parametrize("rounds", [0, -3])
def test_rounds_below_one_are_refused(tmp_path: Path, rounds: int) -> None:
    path, data = _saved(tmp_path)
    _write(path, {**data, "rounds": rounds})
    _refused(path, f"rounds: expected a positive integer or null, got {rounds}")


def test_a_save_that_is_a_fifo_or_device_is_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.save.json"
    os.mkfifo(fifo)
    _refused(fifo, "FIFO")
    _refused(Path("/dev/zero"), "device")


def test_play_load_of_a_hostile_save_exits_1_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "deep.save.json"
    path.write_text("[" * 100_000 + "]" * 100_000)
    assert main(["play", "--load", str(path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(path) in err[0]


# --- shipped scenarios by name ------------------------------------------------------------

def test_a_shipped_scenario_is_saved_by_name_and_reloads_anywhere(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    state = new_game(load_scenario(SEED), seed=9)
    state.apply(next(iter(state.legal_actions())))
    elsewhere = tmp_path / "far" / "away"
    elsewhere.mkdir(parents=True)
    save = elsewhere / "g.save.json"
    save_game(state, save)
    assert json.loads(save.read_text())["scenario"] == f"wasteland:{SEED.name}"
    monkeypatch.chdir(tmp_path)
    assert load_game(save).to_dict() == state.to_dict()


def test_a_copied_scenario_is_saved_by_relative_path(tmp_path: Path) -> None:
    shutil.copy(SEED, tmp_path / SEED.name)
    state = new_game(load_scenario(tmp_path / SEED.name), seed=9)
    assert save_data(state, tmp_path)["scenario"] == SEED.name


def test_a_shipped_name_cannot_leave_the_shipped_folder(tmp_path: Path) -> None:
    path, data = _saved(tmp_path)
    _write(path, {**data, "scenario": "wasteland:../../../etc/passwd"})
    _refused(path, "outside")
