"""Hostile values (issue 31, defects 6 to 8): what ``check`` accepts plays, renders and
saves in bounded time, and every refusal is one clear message, never a traceback.

The refused files themselves are in tests/data/bad/ (touch-tolerance-*, too-many-holes,
name-too-long, override-removes-library-colour, self-intersecting), each with its message.
"""

from __future__ import annotations

import json
import math
import shutil
import warnings
from pathlib import Path
from typing import Any

import pytest

from sim.cli import main
from sim.engine.rng import SeededRng
from sim.errors import SaveError, ScenarioError
from sim.game.kinds import new_game
from sim.game.save import load_game, save_game
from sim.scenario.format.limits import MAX_CONCAVE_CORNERS, MAX_HOLES, MIN_TOUCH_TOLERANCE
from sim.scenario.format.loader import load_scenario
from tests.conftest import ROOT, SCENARIOS

SEED = SCENARIOS / "seed-activation.toml"
BAD = ROOT / "tests" / "data" / "bad"


def _with(tmp_path: Path, extra: str, name: str = "s.toml", base: Path = SEED) -> Path:
    """``base`` copied with ``extra`` TOML appended."""
    path = tmp_path / name
    path.write_text(base.read_text(encoding="utf-8") + "\n" + extra, encoding="utf-8")
    return path


def _play(path: Path, steps: int = 12) -> None:
    """A random game of the scenario, saved and reloaded (R-ALL-1)."""
    state = new_game(load_scenario(path), seed=7)
    policy = SeededRng(7)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(policy.choice(list(state.legal_actions())))
    save = path.with_suffix(".save.json")
    save_game(state, save)
    assert load_game(save).to_dict() == state.to_dict()


# --- touch_tolerance (R-UNIT-2) -----------------------------------------------------------------

@pytest.mark.parametrize("value", ["0", "5e-324", "1e-300", "1e-7"])
def test_a_touch_tolerance_below_the_minimum_is_refused_for_its_reason(
        tmp_path: Path, value: str) -> None:
    """Issue 31: 0 and 5e-324 passed check, then the reachable area divided by zero."""
    path = _with(tmp_path, f"[rules_data]\ntouch_tolerance = {value}\n")
    with pytest.raises(ScenarioError, match=r"expected a number from 1e-06 to 0\.1 .*float "
                                            r"noise"):
        load_scenario(path)


def test_the_smallest_touch_tolerance_plays_renders_and_shows_reach(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _with(tmp_path, f"[rules_data]\ntouch_tolerance = {MIN_TOUCH_TOLERANCE}\n")
    scenario = load_scenario(path)
    _play(path)
    model = scenario.model_ids[0]
    out = tmp_path / "reach.png"
    assert main(["render", str(path), "-o", str(out), "--reach", model]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG"


# --- holes ------------------------------------------------------------------------------------

def _roof(holes: int) -> str:
    rings = [[[3 + 1.3 * i, 14], [3.6 + 1.3 * i, 14], [3 + 1.3 * i, 14.6]]
             for i in range(holes)]
    return (f'[[terrain]]\nid = "roof"\npolygon = [[2, 13], [18, 13], [18, 16], [2, 16]]\n'
            f"holes = {json.dumps(rings)}\nheight = 3\nclimbable = true\n")


def test_a_board_at_the_holes_limit_plays(tmp_path: Path) -> None:
    text = SEED.read_text(encoding="utf-8")
    cut = text.index("[[models]]")
    path = tmp_path / "holes.toml"
    path.write_text(text[:cut] + _roof(MAX_HOLES) + "\n" + text[cut:], encoding="utf-8")
    _play(path)


def test_a_roof_at_the_concave_corner_limit_plays_with_a_model_on_it(tmp_path: Path) -> None:
    """Issue 31 (measured): a star-shaped roof of 100 points, 50 concave corners, made one
    reachable area on it take 19 s; at the limit of 16 it is under a second."""
    points = [[round(12 + (6 + 1.5 * (k % 2)) * math.cos(math.pi * k / MAX_CONCAVE_CORNERS),
                     6),
               round(12 + (6 + 1.5 * (k % 2)) * math.sin(math.pi * k / MAX_CONCAVE_CORNERS),
                     6)] for k in range(2 * MAX_CONCAVE_CORNERS)]
    path = tmp_path / "star.toml"
    path.write_text(f"""format = 1
name = "star roof"
rules = "rulebook"
board = [24, 24]
include = ["wasteland:units/wasteland.toml"]
[sides.settlers]
name = "S"
[sides.mutants]
name = "M"
[[terrain]]
id = "star"
polygon = {json.dumps(points)}
height = 3
climbable = true
[[models]]
id = "hound"
unit = "mutant_hound"
side = "settlers"
at = [12, 12]
z = 3
[[models]]
id = "b"
unit = "settler"
side = "mutants"
at = [22.5, 22.5]
""", encoding="utf-8")
    _play(path, steps=6)


# --- long names and the text cutter -----------------------------------------------------------

def test_the_panel_text_cutter_measures_a_few_times_not_once_a_character(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 31: a 900 KB name was cut one character at a time (397 s, 7.2 GB)."""
    import pygame

    from render.draw import panels, theme

    pygame.font.init()
    theme.reset_fonts()
    real = theme.font
    measured: list[int] = []

    class Counting:
        def __init__(self, f: Any) -> None:
            self.f = f

        def size(self, text: str) -> tuple[int, int]:
            measured.append(len(text))
            return tuple(self.f.size(text))  # type: ignore[return-value]

        def __getattr__(self, name: str) -> Any:
            return getattr(self.f, name)

    monkeypatch.setattr(theme, "font", lambda size: Counting(real(size)))
    text = "w" * 20_000
    cut = panels.cut_text(text, 17, 300)
    assert len(measured) < 40
    assert cut.endswith("…") and real(17).size(cut)[0] <= 300
    assert real(17).size(cut[:-1] + "w…")[0] > 300  # the longest that fits


def test_a_name_at_the_limit_renders(tmp_path: Path) -> None:
    text = SEED.read_text(encoding="utf-8")
    start = text.index("\nname = ") + 1
    end = text.index("\n", start)
    path = tmp_path / "long.toml"
    path.write_text(text[:start] + 'name = "' + "W" * 200 + '"' + text[end:], encoding="utf-8")
    assert main(["render", str(path), "-o", str(tmp_path / "long.png")]) == 0


# --- an integer Python will not read (defect 7) -------------------------------------------------

def test_an_integer_of_thousands_of_digits_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _with(tmp_path, "")
    text = path.read_text(encoding="utf-8").replace("format = 1", "format = " + "9" * 5000, 1)
    path.write_text(text, encoding="utf-8")
    line = text[:text.index("9" * 5000)].count("\n") + 1
    for command in (["check"], ["render", "-o", str(tmp_path / "x.png")], ["los"]):
        argv = [command[0], str(path), *command[1:]]
        if command[0] == "los":
            argv += ["a", "b"]
        assert main(argv) == 1
        out = capsys.readouterr()  # check: problems on stdout; the others: stderr
        joined = (out.out + out.err).strip()
        assert f"a number of more than 4300 digits at line {line}" in joined, joined
        assert "Traceback" not in joined and "ValueError" not in joined
    assert main(["check", str(path), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert "more than 4300 digits" in data["files"][0]["problems"][0]["message"]
    assert main(["los", str(path), "a", "b", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "wasteland-error/1"
    assert "more than 4300 digits" in data["problems"][0]["message"]


# --- messages (defect 8) ------------------------------------------------------------------------

def test_a_save_naming_a_lone_surrogate_says_so(tmp_path: Path) -> None:
    shutil.copy(SEED, tmp_path / SEED.name)
    save = tmp_path / "g.save.json"
    save_game(new_game(load_scenario(tmp_path / SEED.name), seed=1), save)
    data = json.loads(save.read_text())
    save.write_text(json.dumps({**data, "scenario": "a\ud800b.toml"}))
    with pytest.raises(SaveError) as info:
        load_game(save)
    assert "lone surrogate '\\ud800'" in str(info.value) and "NUL" not in str(info.value)


def test_a_coordinate_of_1e308_is_refused_without_float_warnings(tmp_path: Path) -> None:
    text = SEED.read_text(encoding="utf-8")
    cut = text.index("[[models]]")
    piece = ('[[terrain]]\nid = "wild"\npolygon = [[8, 8], [12, 8], [12, 12], [8, 12]]\n'
             "holes = [[[1e308, 1e308], [-1e308, 1e308], [1e308, -1e308]]]\n\n")
    path = tmp_path / "wild.toml"
    path.write_text(text[:cut] + piece + text[cut:], encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(ScenarioError, match="terrain 'wild'"):
            load_scenario(path)
    assert [str(w.message) for w in caught] == []


def test_a_refusal_does_not_echo_a_huge_action_text(tmp_path: Path) -> None:
    shutil.copy(SEED, tmp_path / SEED.name)
    save = tmp_path / "g.save.json"
    save_game(new_game(load_scenario(tmp_path / SEED.name), seed=1), save)
    data = json.loads(save.read_text())
    save.write_text(json.dumps({**data, "actions": ["move " + "k" * 900_000 + " 1 2"]}))
    with pytest.raises(SaveError) as info:
        load_game(save)
    message = str(info.value)
    assert len(message) < 1000 and "(900013 characters)" in message

