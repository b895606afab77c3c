"""Zoom at the pointer, drag to pan, Home to fit (issue 34; render/draw/transform.py).

Events only, under the dummy driver. The wheel over the board zooms with the
board point under the pointer kept there; a drag that draws no path pans; Home
fits the whole board again; and a click after any of it still lands on what is
drawn under it (the model is readied: R-TURN-4).
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from pathlib import Path

import pygame
import pytest

from render.draw.frame import board_transform
from render.draw.layout import Camera
from render.draw.transform import MAX_ZOOM, BoardTransform
from render.window import ZOOM_STEP
from sim.engine.gamedata import Phase, Readiness
from sim.scenario.format.loader import load_scenario
from tests.window_driver import Driver

ROOT = Path(__file__).resolve().parent.parent


def wheel(d: Driver, pos: tuple[int, int], notches: int) -> None:
    d.post(pygame.MOUSEWHEEL, x=0, y=notches, pos=pos, flipped=False, precise_x=0.0,
           precise_y=float(notches), touch=False, which=0)
    d.step()


def drag(d: Driver, a: tuple[int, int], b: tuple[int, int], button: int = 1) -> None:
    d.post(pygame.MOUSEMOTION, pos=a, rel=(0, 0), buttons=(0, 0, 0))
    d.post(pygame.MOUSEBUTTONDOWN, pos=a, button=button)
    mid = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
    for q in (mid, b):
        d.post(pygame.MOUSEMOTION, pos=q, rel=(0, 0), buttons=(1, 0, 0))
    d.post(pygame.MOUSEBUTTONUP, pos=b, button=button)
    d.step()


def transform(d: Driver) -> BoardTransform:
    return board_transform(d.app.layout, d.controller.scene())


def driver(tmp_path: Path) -> Driver:
    d = Driver(load_scenario(ROOT / "scenarios" / "skirmish.toml"), save_dir=tmp_path)
    d.click_button("Commonwealth Settlers goes first")
    d.key(pygame.K_LSHIFT)  # dismisses the hand-over banner
    assert d.state.phase is Phase.READY
    return d


def test_the_wheel_zooms_at_the_pointer_and_clicks_land_on_what_is_drawn(
        tmp_path: Path) -> None:
    d = driver(tmp_path)
    try:
        fitted = transform(d)
        p = d.state.model("knight").position
        near = d.board_px(p.x + 3.0, p.y + 2.0)
        under = d.board_point(near)
        wheel(d, near, 2)
        t = transform(d)
        assert t.scale == pytest.approx(fitted.scale * ZOOM_STEP ** 2)
        assert t.to_board(*near) == pytest.approx(under, abs=1e-9)  # it stays under the pointer
        # the knight is drawn bigger, elsewhere: a click where it is drawn now readies it
        knight_px = d.board_px(p.x, p.y)
        assert knight_px != fitted.to_screen(p.x, p.y)
        d.click_px(knight_px)
        assert d.state.model("knight").readiness is Readiness.READY
        for _ in range(30):  # zoom stays within its bounds both ways
            wheel(d, near, 1)
        assert transform(d).scale == pytest.approx(fitted.scale * MAX_ZOOM)
        for _ in range(30):
            wheel(d, near, -1)
        assert transform(d) == fitted
    finally:
        d.close()


def test_a_drag_pans_and_home_fits_the_board(tmp_path: Path) -> None:
    d = driver(tmp_path)
    try:
        fitted = transform(d)
        centre = (d.app.layout.board.x + d.app.layout.board.w // 2,
                  d.app.layout.board.y + d.app.layout.board.h // 2)
        wheel(d, centre, 3)
        zoomed = transform(d)
        drag(d, (centre[0] + 40, centre[1] + 30), (centre[0] + 100, centre[1] + 50))
        t = transform(d)
        assert (t.ox - zoomed.ox, t.oy - zoomed.oy) == pytest.approx((60, 20))  # it follows
        assert d.state.phase is Phase.READY and d.controller.setup is None  # nothing else
        drag(d, (centre[0] + 100, centre[1] + 50), (centre[0] + 40, centre[1] + 30), button=2)
        assert transform(d) == zoomed  # the middle button pans too
        drag(d, centre, (centre[0] + 5000, centre[1] + 5000))  # never past the board's edge
        assert transform(d).to_screen(0, 0) == fitted.to_screen(0, 0)
        p = d.state.model("survivor").position  # in the top-left corner shown now
        assert d.board_px(p.x, p.y) != fitted.to_screen(p.x, p.y)
        d.click_px(d.board_px(p.x, p.y))  # clicks map back through the panned view
        assert d.state.model("survivor").readiness is Readiness.READY
        d.key(pygame.K_HOME)
        assert d.app.layout.camera == Camera() and transform(d) == fitted
    finally:
        d.close()


def test_shift_wheel_over_the_board_scrolls_details_instead(tmp_path: Path) -> None:
    """A shot preview lasts while the pointer is on its target: Shift+wheel there scrolls
    Details and leaves the zoom alone."""
    d = driver(tmp_path)
    try:
        fitted = transform(d)
        centre = (d.app.layout.board.x + 50, d.app.layout.board.y + 50)
        pygame.key.set_mods(pygame.KMOD_LSHIFT)
        try:
            wheel(d, centre, -1)
        finally:
            pygame.key.set_mods(0)
        assert transform(d) == fitted
    finally:
        d.close()


def test_a_zoom_outlives_a_resize(tmp_path: Path) -> None:
    """Zoomed in on a point, the window resized: the zoom stays and the board point that
    was at the middle of the view is still there (it was lost, issue 34's notes)."""
    d = driver(tmp_path)
    try:
        lay = d.app.layout
        wheel(d, (lay.board.x + lay.board.w // 3, lay.board.y + lay.board.h // 3), 3)
        before = d.app.layout
        mid = transform(d).to_board(before.board.x + before.board.w / 2,
                                    before.board.y + before.board.h / 2)
        d.post(pygame.VIDEORESIZE, size=(1000, 700), w=1000, h=700)
        d.step()
        after = d.app.layout
        assert after.board != before.board  # the board was fitted anew
        assert after.camera.zoom == before.camera.zoom > 1.0
        centre = (after.board.x + after.board.w / 2, after.board.y + after.board.h / 2)
        here = transform(d).to_board(*centre)
        assert here == pytest.approx(mid, abs=0.1)
        d.key(pygame.K_HOME)
        assert d.app.layout.camera == Camera()
    finally:
        d.close()
