"""Editing a scenario without a window (issue 19): operations, checks placed on pieces,
typed fields, saving that changes only what changed, and ``wasteland edit``'s arguments.

R-TER-1: a piece is a footprint with properties and must lie on the board; R-TER-2:
per-model overrides; R-UNIT-2: bases do not overlap. The checks are the loader's.
"""

from __future__ import annotations

import argparse
import difflib
import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sim.cli import main
from sim.errors import ScenarioError, WastelandError
from sim.scenario import edit
from sim.scenario.draft import Draft, blank
from sim.scenario.fields import set_field
from sim.scenario.format.loader import load_scenario
from sim.scenario.format.rewrite import loads, rewrite_text, scenario_text, tidy_text
from sim.scenario.objects import TerrainProps
from sim.scenario.presets import PRESETS

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = sorted((ROOT / "scenarios").glob("*.toml"))


def changed_lines(before: str, after: str) -> list[str]:
    return [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(),
                                                  lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_shipped_round_trip_tidy_and_in_place(path: Path) -> None:
    s = load_scenario(path)
    text = path.read_text(encoding="utf-8")
    assert loads(tidy_text(s, path), path) == s  # a new file loads back equal
    assert rewrite_text(text, s, s) == text  # nothing changed: not one byte


def test_moving_one_piece_changes_its_lines_only() -> None:
    path = ROOT / "scenarios" / "skirmish.toml"
    s, text = load_scenario(path), path.read_text(encoding="utf-8")
    moved = edit.move_piece(s, "water-tower", 0.0, -1.0)
    new = scenario_text(moved, path, (text, s))
    assert changed_lines(text, new) == ["-circle = { center = [18, 13.5], radius = 1.0 }",
                                        "+circle = { center = [18, 12.5], radius = 1.0 }"]
    assert loads(new, path) == moved


def test_deleting_and_adding_keep_the_rest() -> None:
    path = ROOT / "scenarios" / "skirmish.toml"
    s, text = load_scenario(path), path.read_text(encoding="utf-8")
    after = edit.add_model(edit.delete(s, "crates-2"), "knight", "settlers", (2.0, 2.0), "k9")
    new = scenario_text(after, path, (text, s))
    gone = [line for line in changed_lines(text, new) if line.startswith("-")]
    assert all(line in ("-", "-[[terrain]]", '-id = "crates-2"', "-movement = \"difficult\"",
                        "-cover = true", "-height = 1.5")
               or line.startswith("-polygon = [[30, 9]") for line in gone), gone
    assert new.rstrip().endswith('[[models]]\nid = "k9"\nunit = "knight"\nside = "settlers"\n'
                                 'at = [2, 2]')
    assert "# The default scenario: a ruined crossroads." in new  # comments stay
    assert loads(new, path) == after


def test_rotate_scale_move_by_hand() -> None:
    s = blank((36.0, 36.0), Path("x.toml"))
    s = edit.add_piece(s, edit.rect_piece("w", TerrainProps(), (10.0, 10.0), (14.0, 12.0)))
    turned = edit.rotate_piece(s, "w", 90.0).piece("w").polygon
    # about the centre (12, 11): a 4 x 2 box becomes 2 x 4, clockwise on screen (y down)
    assert turned == ((13.0, 9.0), (13.0, 13.0), (11.0, 13.0), (11.0, 9.0))
    grown = edit.scale_piece(s, "w", 2.0).piece("w").polygon
    assert grown == ((8.0, 9.0), (16.0, 9.0), (16.0, 13.0), (8.0, 13.0))
    assert edit.move(s, "w", -10.0, 1.5).piece("w").polygon == (
        (0.0, 11.5), (4.0, 11.5), (4.0, 13.5), (0.0, 13.5))
    c = edit.add_piece(s, edit.circle_piece("c", TerrainProps(), (5.0, 5.0), 1.0))
    assert edit.scale_piece(c, "c", 1.5).piece("c").circle == ((5.0, 5.0), 1.5)
    assert edit.rotate_piece(s, "w", 30.0).piece("w").footprint.area == pytest.approx(8.0,
                                                                                    abs=1e-2)


def test_problems_land_on_what_they_name() -> None:
    s = blank((36.0, 36.0), Path("x.toml"))
    s = edit.add_piece(s, edit.rect_piece("off", TerrainProps(), (34.0, 1.0), (38.0, 3.0)))
    s = edit.add_piece(s, edit.polygon_piece("bow", TerrainProps(),
                                             [(5, 5), (9, 9), (9, 5), (5, 9)]))
    s = edit.add_model(s, "knight", "settlers", (20.0, 20.0), "a")
    s = edit.add_model(s, "knight", "settlers", (20.5, 20.0), "b")  # bases overlap (R-UNIT-2)
    d = Draft.of(s)
    assert d.marked == {"off", "bow", "a", "b"}  # "a" by its key path, "b" by name
    assert "lies outside the board" in d.on("off")[0].message
    assert "self-intersecting" in d.on("bow")[0].message
    assert "overlap" in d.on("a")[0].message and d.on("b") == d.on("a")
    with pytest.raises(ScenarioError):  # saving refuses what check refuses
        scenario_text(s, Path("x.toml"))


def test_a_model_stands_on_the_roof_under_it() -> None:
    s = blank((36.0, 36.0), Path("x.toml"))
    s = edit.add_piece(s, edit.rect_piece("roof", PRESETS["crate"].props, (10, 10), (14, 14)))
    s = edit.add_model(s, "knight", "settlers", (12.0, 12.0), "k")
    assert s.model("k").z == 1.5  # the crate's top (R-TER-1: a surface)
    assert edit.move_model(s, "k", 10.0, 0.0).model("k").z == 0.0
    assert Draft.of(s).valid


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_is_a_piece_the_loader_takes(name: str, tmp_path: Path) -> None:
    s = blank((20.0, 20.0), tmp_path / "p.toml")
    s = edit.add_piece(s, edit.rect_piece("p", PRESETS[name].props, (5, 5), (8, 8)))
    assert Draft.of(s).valid
    assert loads(tidy_text(s, tmp_path / "p.toml"), tmp_path / "p.toml").piece("p").props == (
        PRESETS[name].props)


@pytest.mark.parametrize(("field", "text", "says"), [
    ("height", "-1", "expected a number of inches from 0"),
    ("height", "nan", "expected a number of inches from 0"),
    ("rounds", "0", "positive whole number"),
    ("id", "two words", "whitespace"),
    ("id", "m", "is taken"),
    ("overrides", "{ hover = ", "expected an inline TOML table"),
    ("overrides", "{ hover = 3 }", "a table of tables"),
    ("name", "  ", "empty"),
])
def test_bad_typed_values_are_refused_and_change_nothing(field: str, text: str, says: str
                                                         ) -> None:
    s = blank((20.0, 20.0), Path("x.toml"))
    s = edit.add_piece(s, edit.rect_piece("p", TerrainProps(), (5, 5), (8, 8)))
    s = edit.add_model(s, "knight", "settlers", (2.0, 2.0), "m")
    with pytest.raises(WastelandError, match=says):
        set_field(s, "p", field, text)


def test_overrides_typed_reach_the_loader() -> None:
    s = blank((20.0, 20.0), Path("x.toml"))
    s = edit.add_piece(s, edit.rect_piece("p", TerrainProps(), (5, 5), (8, 8)))
    ok = set_field(s, "p", "overrides", '{ hover = { movement = "impassable" } }')
    assert Draft.of(ok).valid
    bad = set_field(s, "p", "overrides", '{ hovr = { movement = "impassable" } }')
    assert "unknown unit id, keyword or size class 'hovr'" in Draft.of(bad).on("p")[0].message


@pytest.mark.parametrize("board", [(0.0, 10.0), (300.0, 10.0)])
def test_a_new_board_of_a_bad_size_is_refused(board: tuple[float, float]) -> None:
    with pytest.raises(ScenarioError, match="board"):
        blank(board, Path("x.toml"))


# --- wasteland edit's arguments (no window opens for any of these) ------------------------

@pytest.mark.parametrize("argv", [["edit"], ["edit", "skirmish", "--new", "36x36"],
                                  ["edit", "--new", "36"], ["edit", "--new", "axb"]])
def test_edit_usage_errors_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    assert "wasteland edit: error:" in capsys.readouterr().err


def test_edit_refusals_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    taken = tmp_path / "taken.toml"
    taken.write_text("", encoding="utf-8")
    assert main(["edit", "--new", "36x36", "-o", str(taken)]) == 1
    assert "exists" in capsys.readouterr().err
    assert main(["edit", "--new", "0x36"]) == 1
    assert "board" in capsys.readouterr().err
    assert main(["edit", "-"]) == 1
    assert main(["edit", "no-such-scenario"]) == 1


def test_edit_without_a_display_says_so(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    r = subprocess.run([sys.executable, "-m", "sim", "edit", "--new", "30x20"], cwd=tmp_path,
                       env={**env, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 1
    assert r.stderr.strip().endswith("wasteland edit: no display found (set DISPLAY, or run "
                                     "under Xvfb); nothing opened")
    assert not any(tmp_path.iterdir())


def test_a_shipped_name_is_edited_as_a_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    from sim.commands import edit as command

    monkeypatch.chdir(tmp_path)
    args = command_args(["edit", "skirmish"])
    scenario, target, text = command.opened(args)
    assert target == tmp_path / "skirmish.toml" and text is None
    assert scenario.includes == ("wasteland:units/wasteland.toml",)
    saved = scenario_text(scenario, target)
    assert loads(saved, target) == load_scenario(ROOT / "scenarios" / "skirmish.toml")
    local = tmp_path / "mine.toml"
    shutil.copy(ROOT / "scenarios" / "elev-low-wall.toml", local)
    scenario, target, text = command.opened(command_args(["edit", str(local)]))
    assert target == local and text == local.read_text(encoding="utf-8")
    assert math.isfinite(scenario.board[0])


def command_args(argv: list[str]) -> argparse.Namespace:
    from sim.cli import build_parser

    return build_parser().parse_args(argv)


def test_emptied_board_still_saves_a_file_that_loads(tmp_path: Path) -> None:
    path = ROOT / "scenarios" / "skirmish.toml"
    s, text = load_scenario(path), path.read_text(encoding="utf-8")
    empty = s
    for ident in [*s.model_ids, *(p.id for p in s.terrain)]:
        empty = edit.delete(empty, ident)
    assert loads(scenario_text(empty, path, (text, s)), path) == empty
    new = blank((10.0, 10.0), tmp_path / "n.toml")
    assert loads(scenario_text(new, tmp_path / "n.toml"), tmp_path / "n.toml") == new


def test_edit_hands_the_window_its_scenario_and_target(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Through the CLI, with the window replaced: what it would open, and nothing written."""
    from sim import cli_render

    opened: list[tuple[object, Path, str | None]] = []

    def window(scenario: object, target: Path, text: str | None, *rest: object,
               **options: object) -> int:
        opened.append((scenario, target, text))
        return 0

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setattr(cli_render, "open_editor_window", window)
    assert main(["edit", "seed-hound"]) == 0
    assert main(["edit", "--new", "30x22.5"]) == 0
    (hound, hound_target, hound_text), (new, new_target, new_text) = opened
    assert hound == load_scenario(ROOT / "scenarios" / "seed-hound.toml")
    assert hound_target == tmp_path / "seed-hound.toml" and hound_text is None
    assert new == blank((30.0, 22.5), new_target) and new_target == tmp_path / "untitled.toml"
    assert new_text is None and not any(tmp_path.iterdir())
