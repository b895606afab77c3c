"""The threat map off the frame loop (issue 34, bug 1; render/input/map_thread.py).

The threat map (F5 twice) sat at "computing, 95%" while the pointer was over
the side panel: it was worked a slice per frame and the view was redrawn only
when the pointer moved. Now a thread makes it, the window draws it as it
fills in, and it finishes wherever the pointer is. Values: the shot preview's
odds, R-SHOOT-1, R-COV-*, R-RANGE-1.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from pathlib import Path

import numpy as np
import pygame

from render.map_layer import MapOverlay
from sim.maps.visibility import Map, MapWork, make_map
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import Scenario
from sim.scenario.positions import initial_positions
from tests.window_driver import Driver

ROOT = Path(__file__).resolve().parent.parent


def shown_map(d: Driver) -> Map | None:
    maps = [o.map for o in d.controller.view().overlays if isinstance(o, MapOverlay)]
    return maps[0] if maps else None


def details(d: Driver) -> list[str]:
    return [line.text for line in d.controller.view().details]


def seen_map_of_settler(s: Scenario, tmp_path: Path) -> Driver:
    """The window on ``s`` with the pointer on settler-1 and F5 pressed once (its seen map)."""
    d = Driver(s, save_dir=tmp_path)
    p = d.state.model("settler-1").position
    d.move_to(d.board_px(p.x, p.y))
    d.key(pygame.K_F5)
    return d


def test_the_threat_map_finishes_with_the_pointer_over_the_side_panel(tmp_path: Path) -> None:
    """Bug 1: F5 twice, the pointer left over Details; no event after that, yet the
    frames show the finished threat map (not "computing")."""
    s = load_scenario(ROOT / "scenarios" / "skirmish.toml")
    d = seen_map_of_settler(s, tmp_path)
    try:
        d.key(pygame.K_F5)
        details_box = d.app.layout.details
        d.move_to((details_box.x + 10, details_box.y + 10))  # off the board
        assert d.controller.hover_point is None
        assert any("computing" in t for t in details(d))
        assert d.controller.maps.busy  # a thread works on it, not the frames
        assert d.app.frame_rate() < 60  # fewer frames meanwhile: the thread gets the time
        d.controller.maps.settle()
        d.step()  # no event: one frame
        assert not any("computing" in t for t in details(d))
        assert details(d)[0].startswith("F5 threat map of Settler")
        m = shown_map(d)
        assert m is not None and m.kind == "threat"
        scene = d.controller.scene()
        want = make_map(s, scene.positions(), "settler-1", "threat", climbing=scene.climbing())
        assert np.array_equal(np.nan_to_num(m.values, nan=-1), np.nan_to_num(want.values, nan=-1))
    finally:
        d.close()


def test_the_map_so_far_holds_only_final_values() -> None:
    """Drawn as it fills in: every cell of the map so far has its final value or none
    (a cell still to plan is not shaded, never shaded wrong)."""
    s = load_scenario(ROOT / "scenarios" / "skirmish.toml")
    pos = initial_positions(s)
    whole = make_map(s, pos, "settler-1", "threat")
    work = MapWork(s, pos, "settler-1", "threat")
    work.step(0.0)  # one cell at least
    part = work.partial()
    known = ~np.isnan(part.values)
    assert known.sum() < (~np.isnan(whole.values)).sum()  # some cells still to plan
    assert np.array_equal(part.values[known], whole.values[known])
    assert work.finish() is not None
    assert np.array_equal(np.nan_to_num(work.partial().values, nan=-1),
                          np.nan_to_num(whole.values, nan=-1))


def test_a_new_map_is_drawn_even_when_its_chunks_match_the_old_ones(tmp_path: Path) -> None:
    """Found when every map went into a thread: the view's key is taken before the view
    starts a new map (a model moved), and a seen map made in one chunk has the same
    chunk count as the one before, so the key never changed and the window kept showing
    "computing" (seen under load in test_the_map_follows_the_active_model_and_its_moves).
    The key counts the maps started."""
    from dataclasses import replace

    d = seen_map_of_settler(load_scenario(ROOT / "scenarios" / "skirmish.toml"), tmp_path)
    try:
        maps, ui = d.controller.maps, d.controller.ui_state()
        scene = d.controller.scene()
        maps.map_of(ui, scene)
        maps.settle()
        before = maps.key(None)
        moved = replace(scene, models=tuple(replace(m, x=m.x + 1.0) if m.id == "settler-1"
                                            else m for m in scene.models))
        maps.map_of(ui, moved)  # what it depends on changed: a new map, in a new thread
        maps.settle()
        assert maps.key(None) != before
    finally:
        d.close()
