"""The visibility maps in the window (issue 17, F5; render/input/map_toggle.py).

Events only, under the dummy driver: F5 cycles seen / threat / sees / off for
the hovered (or active) model; the shaded values are make_map's (R-LOS-1..4,
R-ELEV-*; threat: the shot preview's odds, R-SHOOT-1), the legend is drawn in the
side panel,
hovering a cell names the enemies that see it as per-pair ``analyse`` answers
(display names), the map follows a move, and the debug view shows it too.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from pathlib import Path

import numpy as np
import pygame
import pytest

from render.map_layer import MapOverlay, cell_colours
from sim.maps.visibility import Map, make_map
from sim.scenario.format.loader import load_scenario
from sim.scenario.names import model_name
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position
from sim.shooting.analysis import analyse
from tests.window_driver import Driver

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def skirmish() -> Scenario:
    return load_scenario(ROOT / "scenarios" / "skirmish.toml")


def shown_map(d: Driver) -> Map | None:
    """The map drawn once its thread is done (every map is made off the frame loop:
    render/input/map_thread.py) and a frame has been drawn."""
    d.controller.view()  # starts the map if what it depends on changed (a frame may not
    while d.controller.maps.busy:  # have been drawn yet: fewer are while a map is made)
        d.controller.maps.settle()
        d.controller.view()
    d.step()
    maps = [o.map for o in d.controller.view().overlays if isinstance(o, MapOverlay)]
    assert len(maps) <= 1
    return maps[0] if maps else None


def details(d: Driver) -> list[str]:
    return [line.text for line in d.controller.view().details]


def hover_model(d: Driver, model: str) -> None:
    p = d.state.model(model).position
    d.move_to(d.board_px(p.x, p.y))


def expected(d: Driver, model: str, kind: str, target: str | None = None) -> Map:
    scene = d.controller.scene()
    return make_map(scene.scenario, scene.positions(), model, kind, target,
                    climbing=scene.climbing())


def same_values(a: Map, b: Map) -> bool:
    return bool(np.array_equal(a.values, b.values, equal_nan=True))


def who_sees(s: Scenario, d: Driver, model: str, m: Map, x: float, y: float) -> list[str]:
    """Per-pair analyse at the cell's centre, the model standing there at its height."""
    g = m.grid
    col, row = round((x - g.x0) / g.cell), round((y - g.y0) / g.cell)
    cx, cy = g.x0 + col * g.cell, g.y0 + row * g.cell
    from sim.maps.grid import cell_heights

    z = float(cell_heights(s, g)[row, col])
    here = {**d.controller.scene().positions(), model: Position(cx, cy, z)}
    return [model_name(s, e) for e in m.enemies if analyse(s, here, e, model).line_of_sight]


def test_f5_cycles_the_maps_of_the_hovered_model(skirmish: Scenario, tmp_path: Path) -> None:
    d = Driver(skirmish, save_dir=tmp_path)
    try:
        hover_model(d, "settler-1")
        bare = d.app.surface.copy()
        d.key(pygame.K_F5)
        m = shown_map(d)
        assert m is not None and (m.kind, m.model) == ("seen", "settler-1")
        assert same_values(m, expected(d, "settler-1", "seen"))
        assert "seen map of Settler" in d.controller.status
        # The shading and the legend are on the screen: the legend in the side
        # panel's legend box, a shaded cell in its colour's tint.
        shot = d.app.surface
        legend = d.app.layout.legend
        corner = (legend.x + 20, legend.y + 30)
        assert shot.get_at(corner) != bare.get_at(corner)
        rgba = cell_colours(m)
        row, col = np.argwhere(rgba[:, :, 3] > 0)[len(np.argwhere(rgba[:, :, 3] > 0)) // 2]
        px = d.board_px(m.grid.x0 + col * m.grid.cell, m.grid.y0 + row * m.grid.cell)
        assert shot.get_at(px) != bare.get_at(px)

        # Hover cells: Details names who sees each, as per-pair analyse answers it.
        checked = 0
        for x, y in [(18.0, 18.0), (12.0, 10.0), (30.0, 25.0), (6.0, 20.0), (20.0, 12.0)]:
            d.move_to(d.board_px(x, y))
            text = details(d)
            assert text[0].startswith("F5 seen map of Settler")
            if m.at(x, y) is None:
                assert "cannot stand" in text[1]
                continue
            names = who_sees(skirmish, d, "settler-1", m, x, y)
            assert text[1] == f"here: seen by {len(names)}: {', '.join(names) or 'no enemy'}"
            checked += 1
        assert checked >= 3

        d.key(pygame.K_F5)  # threat: planned in a thread, "computing" meanwhile
        assert any("computing" in t for t in details(d))
        assert d.controller.maps.busy
        d.controller.maps.settle()  # the thread is done
        d.step()
        m = shown_map(d)
        assert m is not None and (m.kind, m.model) == ("threat", "settler-1")
        assert same_values(m, expected(d, "settler-1", "threat"))

        hover_model(d, "mutant-2")  # F5 into sees: the hovered model is the target
        d.key(pygame.K_F5)
        m = shown_map(d)
        assert m is not None and (m.kind, m.model, m.target) == ("sees", "settler-1", "mutant-2")
        assert same_values(m, expected(d, "settler-1", "sees", "mutant-2"))

        d.key(pygame.K_F5)
        assert shown_map(d) is None
        assert not any(t.startswith("F5") for t in details(d))
    finally:
        d.close()


def test_the_map_follows_the_active_model_and_its_moves(tmp_path: Path) -> None:
    """During an activation the map is the active model's; after the knight moved, the
    mutant's map is made with the knight where it now stands."""
    s = load_scenario(ROOT / "scenarios" / "seed-cover-1.toml")
    d = Driver(s, save_dir=tmp_path)
    try:
        d.click_button(f"{s.sides[d.state.model('knight').side].name} goes first")
        for _ in range(4):
            if d.state.activation is not None:
                break
            if "Activate Ready (option B)" in d.labels():
                d.click_button("Activate Ready (option B)")
            else:
                d.click_model("knight")
        assert d.state.activation is not None and d.state.activation.model == "knight"
        old = expected(d, "mutant", "seen")
        d.move_to(d.board_px(1.0, 1.0))  # over no model: the active one is the map's
        d.key(pygame.K_F5)
        m = shown_map(d)
        assert m is not None and m.model == "knight"
        start = d.state.model("knight").position
        d.click_button("Move")
        d.click_px(d.board_px(start.x, start.y + 3.0))
        d.key(pygame.K_RETURN)
        assert d.state.model("knight").position != start
        m = shown_map(d)
        assert m is not None and m.model == "knight"
        assert same_values(m, expected(d, "knight", "seen"))
        d.key(pygame.K_e)  # end the activation: no model is active
        assert d.state.activation is None
        for _ in range(3):  # threat, sees, off
            d.key(pygame.K_F5)
        assert shown_map(d) is None
        hover_model(d, "mutant")
        d.key(pygame.K_F5)
        m = shown_map(d)
        assert m is not None and m.model == "mutant"
        assert same_values(m, expected(d, "mutant", "seen"))
        assert not same_values(m, old)  # the knight stands elsewhere now
    finally:
        d.close()


def test_the_debug_view_shows_the_first_picked_models_map(skirmish: Scenario,
                                                         tmp_path: Path) -> None:
    d = Driver(skirmish, save_dir=tmp_path)
    try:
        d.key(pygame.K_F2)
        d.click_model("mutant-1")
        d.key(pygame.K_F5)
        m = shown_map(d)
        assert m is not None and (m.kind, m.model) == ("seen", "mutant-1")
        assert same_values(m, expected(d, "mutant-1", "seen"))
        d.move_to(d.board_px(18.0, 18.0))
        text = details(d)
        assert text[0].startswith("F5 seen map of mutant-1")  # ids in the debug view
        assert text[1].startswith("here: seen by")
        assert any("DEBUG VIEW" in t for t in text)
    finally:
        d.close()
