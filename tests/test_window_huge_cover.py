"""Issue 36, Done when: on a board with a huge model of the shooter's own side
(``scenarios/errata-huge-cover-own-side.toml``), the threat map, the window's shot
preview and ``wasteland shoot`` give the same cover and the same odds (R-COV-6,
revised): lane 1's brute covers raider-1 from its own side's settler; lane 2's brute,
in base contact with raider-2, does not (close combat).
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

import json
from pathlib import Path
from typing import Any

import pytest

from render.draw.overlays import ShotOverlay
from sim.cli import main
from sim.maps.visibility import make_map
from sim.scenario.format.loader import load_scenario
from sim.scenario.names import model_name
from sim.scenario.objects import Scenario
from sim.scenario.positions import initial_positions
from tests.conftest import SCENARIOS
from tests.test_window_shoot import activate  # (the same activation, by clicks)
from tests.window_driver import Driver

PATH = SCENARIOS / "errata-huge-cover-own-side.toml"
LANES = [("settler-1", "brute-1", "raider-1", True), ("settler-2", "brute-2", "raider-2", False)]


@pytest.fixture(scope="module")
def board() -> Scenario:
    return load_scenario(PATH)


def shoot_json(capsys: pytest.CaptureFixture[str], attacker: str, target: str) -> Any:
    assert main(["shoot", str(PATH), attacker, target, "--weapon", "hunting_rifle",
                 "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("attacker, brute, target, covered", LANES)
def test_threat_map_window_preview_and_shoot_agree(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, board: Scenario,
        attacker: str, brute: str, target: str, covered: bool) -> None:
    cli = shoot_json(capsys, attacker, target)
    assert cli["legal"] and cli["cover"] == ([brute] if covered else [])
    (preview,) = cli["previews"]  # long range only
    assert (preview["skill_modifier"], preview["armor_bonus"]) == (
        (-2, 1) if covered else (0, 0))
    p = preview["p_success"]

    # The threat map of the target: its cell (the target's own spot, a cell centre of
    # the 0.5 in grid) is its lane's settler's best shot (the brutes carry claws only,
    # and the wall hides the other lane).
    pos = initial_positions(board)
    m = make_map(board, pos, target, "threat", cell=0.5)
    t = pos[target]
    col, row = round((t.x - m.grid.x0) / m.grid.cell), round((t.y - m.grid.y0) / m.grid.cell)
    assert (m.grid.x0 + col * m.grid.cell, m.grid.y0 + row * m.grid.cell) == (t.x, t.y)
    assert m.rows()[row][col] == pytest.approx(p, abs=1e-12)

    # The window: the shooter's preview on hover, cover marks and the same odds.
    d = Driver(board, save_dir=tmp_path)
    try:
        activate(d, attacker)
        d.click_button("Shoot")
        d.move_to(d.board_px(t.x, t.y))
        shots = [o for o in d.controller.view().overlays if isinstance(o, ShotOverlay)]
        assert len(shots) == 1
        assert {mk.id: mk.counts for mk in shots[0].cover} == {model_name(board, brute): covered}
        text = "\n".join(line.text for line in d.controller.view().details)
        assert f"success {p:.1%}" in text
    finally:
        d.close()
