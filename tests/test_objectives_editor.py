"""The editor places, moves and saves objectives (issue 35, R-OBJ-1; docs/editor.md),
with real events under the dummy driver, and the writer round-trips them."""

from __future__ import annotations

import difflib
from pathlib import Path

import pygame

from render.editor.controller import EditorController
from sim.cli import main
from sim.scenario.format.loader import load_scenario, load_scenario_text
from sim.scenario.format.writer import scenario_to_toml
from tests.test_editor_window import EditorDriver, shipped_copy


def _changed(before: str, after: str) -> list[str]:
    return [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(),
                                                  lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def test_an_objective_placed_with_the_tool_is_saved_and_checks(tmp_path: Path) -> None:
    """O takes the objective tool, K turns zone into marker, a click places marker-1
    (1 point, within 1 in by default) at the snapped point; Ctrl+S adds its table to
    the opened file and changes nothing else."""
    path = shipped_copy(tmp_path, "skirmish.toml")
    before = path.read_text(encoding="utf-8")
    d = EditorDriver(EditorController(load_scenario(path), path, before))
    try:
        d.key(pygame.K_o)
        d.key(pygame.K_k)
        assert "Objective kind: marker" in d.labels()
        d.click(18.0, 17.0)
        assert d.editor.selected == "marker-1"
        assert "Points: 1 (+1)" in d.labels()
        d.click_button("Points: 1 (+1)")
        d.key(pygame.K_s, pygame.KMOD_CTRL)
    finally:
        d.close()
    after = path.read_text(encoding="utf-8")
    assert all(line.startswith("+") for line in _changed(before, after))
    saved = load_scenario(path)
    (marker,) = saved.objectives
    assert (marker.id, marker.kind, marker.at, marker.points, marker.within) == (
        "marker-1", "marker", (18.0, 17.0), 2, 1.0)
    assert main(["check", str(path)]) == 0


def test_moving_a_zone_changes_only_its_point(tmp_path: Path) -> None:
    """A drag on pump-west (centre (4, 9)) with the select tool moves it 2 in east;
    saving rewrites its ``at`` line alone."""
    path = shipped_copy(tmp_path, "objectives-zones.toml")
    before = path.read_text(encoding="utf-8")
    d = EditorDriver(EditorController(load_scenario(path), path, before))
    try:
        d.drag((4.0, 9.5), (6.0, 9.5))
        d.key(pygame.K_s, pygame.KMOD_CTRL)
    finally:
        d.close()
    after = path.read_text(encoding="utf-8")
    assert _changed(before, after) == ["-at = [4, 9]", "+at = [6, 9]"]
    assert load_scenario(path).objective("pump-west").at == (6.0, 9.0)


def test_the_writer_round_trips_objectives_and_kill_points() -> None:
    """R-OBJ-1/5: both shipped scenarios written and read back are equal, objectives,
    exits and points per kill included."""
    for name in ("objectives-zones", "objectives-cargo"):
        s = load_scenario(Path("scenarios") / f"{name}.toml")
        again = load_scenario_text(scenario_to_toml(s), f"{name}.toml")
        assert again.objectives == s.objectives and again.kill_points == s.kill_points
    s = load_scenario("scenarios/objectives-cargo.toml")
    text = scenario_to_toml(s).replace("format = 1", "format = 1\nkill_points = 0", 1)
    zero = load_scenario_text(text, "k.toml")
    assert zero.kill_points == 0
    assert "kill_points = 0" in scenario_to_toml(zero)


def test_a_zones_radius_and_a_crates_exit_are_changed_by_their_buttons(
        tmp_path: Path) -> None:
    """pump-west (radius 2) selected: its Radius button grows it by half an inch; a crate
    selected: "Exit of North Gang: north" takes the next edge (east, R-OBJ-4). Ctrl+S
    rewrites only those lines; the files load as edited and `check` passes."""
    (tmp_path / "z").mkdir()
    (tmp_path / "c").mkdir()
    zones = shipped_copy(tmp_path / "z", "objectives-zones.toml")
    before = zones.read_text(encoding="utf-8")
    d = EditorDriver(EditorController(load_scenario(zones), zones, before))
    try:
        d.click(4.0, 9.0)
        assert d.editor.selected == "pump-west"
        d.click_button("Radius: 2 in (+0.5)")
        assert "Radius: 2.5 in (+0.5)" in d.labels()
        d.key(pygame.K_s, pygame.KMOD_CTRL)
    finally:
        d.close()
    assert _changed(before, zones.read_text(encoding="utf-8")) == ["-radius = 2",
                                                                   "+radius = 2.5"]
    assert load_scenario(zones).objective("pump-west").radius == 2.5
    assert main(["check", str(zones)]) == 0

    cargo = shipped_copy(tmp_path / "c", "objectives-cargo.toml")
    before = cargo.read_text(encoding="utf-8")
    s = load_scenario(cargo)
    crate = s.objectives[0]
    d = EditorDriver(EditorController(s, cargo, before))
    try:
        d.click(*crate.at)
        assert d.editor.selected == crate.id
        d.click_button("Exit of North Gang: north")
        assert "Exit of North Gang: east" in d.labels()
        assert "Exit of South Gang: south" in d.labels()
        d.key(pygame.K_s, pygame.KMOD_CTRL)
    finally:
        d.close()
    changed = _changed(before, cargo.read_text(encoding="utf-8"))
    assert len(changed) == 2 and all("exits" in line for line in changed)
    assert dict(load_scenario(cargo).objective(crate.id).exits) == {"north": "east",
                                                                      "south": "south"}
    assert main(["check", str(cargo)]) == 0


def test_an_objective_is_duplicated_and_pasted_like_a_piece(tmp_path: Path) -> None:
    """Ctrl+D on radio-north (a marker at (12, 6)) adds radio-north-1 an inch right and
    down; Ctrl+C then Ctrl+V at (20, 14) adds radio-north-2 there; both save and check."""
    path = shipped_copy(tmp_path, "objectives-zones.toml")
    before = path.read_text(encoding="utf-8")
    s = load_scenario(path)
    radio = s.objective("radio-north")
    d = EditorDriver(EditorController(s, path, before))
    try:
        d.click(*radio.at)
        assert d.editor.selected == "radio-north"
        d.key(pygame.K_d, pygame.KMOD_CTRL)
        assert d.editor.selected == "radio-north-1"
        d.click(*radio.at)
        d.key(pygame.K_c, pygame.KMOD_CTRL)
        d.post(pygame.MOUSEMOTION, pos=d.px(20.0, 14.0), rel=(0, 0), buttons=(0, 0, 0))
        d.key(pygame.K_v, pygame.KMOD_CTRL)
        d.key(pygame.K_s, pygame.KMOD_CTRL)
    finally:
        d.close()
    saved = load_scenario(path)
    copy, pasted = saved.objective("radio-north-1"), saved.objective("radio-north-2")
    assert (copy.kind, copy.points, copy.within) == (radio.kind, radio.points, radio.within)
    assert copy.at == (radio.at[0] + 1.0, radio.at[1] + 1.0)
    assert pasted.at == (20.0, 14.0)
    assert main(["check", str(path)]) == 0
