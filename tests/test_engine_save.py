"""Save and load (JSON, replayed from the seed), changed scenarios refused, ``wasteland replay``."""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import pytest

from sim.commands import replay
from sim.engine.state import GameState
from sim.errors import SaveError
from sim.game.kinds import new_game
from sim.game.save import load_game, save_game
from sim.scenario.format.loader import load_scenario
from tests.conftest import SCENARIOS
from tests.dice_script import ScriptedRng
from tests.engine_util import SEED_FILE, engine_kinds, play

pytestmark = pytest.mark.usefixtures("engine_kinds")
__all__ = ["engine_kinds"]  # the fixture, used through pytestmark

ROUND_ONE = ("first settlers", "ready settler-1", "option-b", "activate settler-1",
             "move settler-1 4.0 6.0", "zap settler-1 mutant-a 2",
             "ready mutant-a", "option-a", "ready settler-2", "option-b",
             "activate settler-2")  # ends mid-activation


def _copy_scenario(tmp: Path) -> Path:
    folder = tmp / "scenarios"
    folder.mkdir()
    shutil.copy(SEED_FILE, folder / SEED_FILE.name)
    return folder / SEED_FILE.name


def _game(path: Path, seed: int = 21, **kw) -> GameState:
    return play(new_game(load_scenario(path), seed, **kw), *ROUND_ONE)


def test_save_then_load_gives_an_equal_state(tmp_path) -> None:
    """R-ALL-1: the same seed and choices replay exactly (dice included)."""
    state = _game(_copy_scenario(tmp_path), rounds=2)
    save = tmp_path / "saves" / "game.json"
    save.parent.mkdir()
    save_game(state, save)
    data = json.loads(save.read_text())
    assert data["scenario"] == "../scenarios/seed-activation.toml"
    assert data["seed"] == 21 and data["rounds"] == 2
    assert data["actions"] == list(ROUND_ONE)
    loaded = load_game(save)
    assert loaded == state
    assert loaded.model("mutant-a").health == 2
    assert loaded.rng.getstate() == state.rng.getstate()
    play(loaded, "end-activation")  # the loaded game goes on
    play(state, "end-activation")
    assert loaded == state


def test_a_changed_scenario_is_refused(tmp_path) -> None:
    scenario = _copy_scenario(tmp_path)
    save = tmp_path / "game.json"
    save_game(_game(scenario), save)
    text = scenario.read_text().replace("at = [16, 3]", "at = [16, 4]")
    scenario.write_text(text)
    with pytest.raises(SaveError, match=r"changed since the game was saved") as err:
        load_game(save)
    assert "scenarios/seed-activation.toml" in str(err.value)


def test_a_changed_included_library_is_refused(tmp_path) -> None:
    folder = tmp_path / "scenarios"
    shutil.copytree(SCENARIOS / "units", folder / "units")
    shutil.copy(SCENARIOS / "skirmish.toml", folder / "skirmish.toml")
    state = new_game(load_scenario(folder / "skirmish.toml"), 3)
    play(state, f"first {state.acting}")
    save = tmp_path / "s.json"
    save_game(state, save)
    assert load_game(save) == state
    library = folder / "units" / "wasteland.toml"
    library.write_text(library.read_text() + "\n# tuned\n")
    with pytest.raises(SaveError, match="changed since"):
        load_game(save)


@pytest.mark.parametrize(("content", "message"), [
    ("{not json", "invalid JSON at line 1"),
    ("[]", "expected a JSON object"),
    ('{"format": "chess"}', "not a wasteland save"),
    ('{"format": "wasteland-save", "version": 9}', "unknown save version 9"),
    ('{"format": "wasteland-save", "version": 1}', "missing key 'scenario'"),
])
def test_a_broken_save_is_refused_with_a_clear_message(tmp_path, content, message) -> None:
    save = tmp_path / "bad.json"
    save.write_text(content)
    with pytest.raises(SaveError, match=message) as err:
        load_game(save)
    assert "bad.json" in str(err.value)


def test_an_illegal_action_in_a_save_is_reported_with_its_index(tmp_path) -> None:
    save = tmp_path / "game.json"
    save_game(_game(_copy_scenario(tmp_path)), save)
    data = json.loads(save.read_text())
    data["actions"][3] = "activate settler-4"  # settler-1 was readied, not settler-4
    save.write_text(json.dumps(data))
    with pytest.raises(SaveError, match=r"actions\[3\]: illegal action 'activate settler-4'"):
        load_game(save)


def test_missing_scenario_and_unsaveable_games(tmp_path) -> None:
    scenario = _copy_scenario(tmp_path)
    save = tmp_path / "game.json"
    save_game(_game(scenario), save)
    scenario.unlink()
    with pytest.raises(SaveError, match="not found"):
        load_game(save)
    scripted = new_game(load_scenario(SEED_FILE), 1, rng=ScriptedRng([]))
    with pytest.raises(SaveError, match="substituted generator"):
        save_game(scripted, tmp_path / "x.json")


def run_replay(*argv: str) -> int:
    """``wasteland replay ...`` through the command module alone."""
    parser = argparse.ArgumentParser(prog="wasteland")
    replay.register(parser.add_subparsers())
    args = parser.parse_args(["replay", *argv])
    code: int = args.run(args)
    return code


def test_wasteland_replay_prints_the_event_log(tmp_path, capsys) -> None:
    save = tmp_path / "game.json"
    save_game(_game(_copy_scenario(tmp_path)), save)
    assert run_replay(str(save), "--actions") == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "[round 1] Round 1 begins; every model is Unready."
    # Actions by id (what a save holds), events by display name (issue 14).
    readied = "[round 1] Settlers readies Settler (settler-1)."
    assert "> ready settler-1" in out and readied in out
    assert out.index("> ready settler-1") < out.index(readied)
    assert any("Super Mutant (mutant-a) takes 2 damage" in line for line in out)
    assert out[-2:] == ["> activate settler-2",
                        "[round 1] Settler (settler-2) is activated: 2 actions."]


def test_wasteland_replay_reports_a_bad_save(tmp_path) -> None:
    save = tmp_path / "nope.json"
    save.write_text("{}")
    with pytest.raises(SaveError, match=r"nope\.json"):
        run_replay(str(save))
