"""The measuring tape (issue 34; render/explain/tape.py, render/draw/tape.py).

A right drag on the board lays a tape; from a model it runs from its base's
edge (R-DIST-1), and its length comes with the shortest ruler that reaches it
(R-RULER-1), drawn in that ruler's colour. A right click puts it away; laying
it never cancels the action being set up. Events only, under the dummy driver.
"""

from __future__ import annotations

import math
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from pathlib import Path

import pygame
import pytest

from render.draw.tape import TapeOverlay
from render.draw.theme import RULER_RGB
from sim.scenario.format.loader import load_scenario
from tests.window_driver import Driver

ROOT = Path(__file__).resolve().parent.parent


def right_drag(d: Driver, a: tuple[int, int], b: tuple[int, int]) -> None:
    d.post(pygame.MOUSEMOTION, pos=a, rel=(0, 0), buttons=(0, 0, 0))
    d.post(pygame.MOUSEBUTTONDOWN, pos=a, button=3)
    for q in (((a[0] + b[0]) // 2, (a[1] + b[1]) // 2), b):
        d.post(pygame.MOUSEMOTION, pos=q, rel=(0, 0), buttons=(0, 0, 1))
    d.post(pygame.MOUSEBUTTONUP, pos=b, button=3)
    d.step()


def tapes(d: Driver) -> list[TapeOverlay]:
    return [o for o in d.controller.view().overlays if isinstance(o, TapeOverlay)]


def tape_line(d: Driver) -> str:
    return next(t.text for t in d.controller.view().details if t.text.startswith("tape: "))


def shortest_ruler(d: Driver, length: float) -> str | None:
    """R-RULER-1 read from the rules data by hand: the first ruler at least that long."""
    return next((c for c, n in d.state.scenario.rules_data.rulers if length <= n + 1e-9), None)


def test_a_tape_between_two_bases_runs_edge_to_edge(tmp_path: Path) -> None:
    d = Driver(load_scenario(ROOT / "scenarios" / "skirmish.toml"), save_dir=tmp_path)
    try:
        a, b = d.state.model("settler-1").position, d.state.model("settler-2").position
        right_drag(d, d.board_px(a.x, a.y), d.board_px(b.x, b.y))
        want = math.hypot(b.x - a.x, b.y - a.y) - d.state.radius("settler-1") - d.state.radius(
            "settler-2")
        ruler = shortest_ruler(d, want)
        assert ruler is not None
        assert tape_line(d) == (f"tape: {want:.2f} in ({ruler}), Settler to "
                                "Settler Rifleman (settler-2)")  # display names
        (t,) = tapes(d)
        assert t.colour == RULER_RGB[ruler]
        assert math.dist(t.start, (a.x, a.y)) == pytest.approx(d.state.radius("settler-1"))
        assert math.dist(t.end, (b.x, b.y)) == pytest.approx(d.state.radius("settler-2"))
        d.click_px(d.board_px(30.0, 20.0), button=3)  # a right click puts it away
        assert tapes(d) == []
    finally:
        d.close()


def test_a_tape_between_two_spots_beyond_every_ruler(tmp_path: Path) -> None:
    d = Driver(load_scenario(ROOT / "scenarios" / "skirmish.toml"), save_dir=tmp_path)
    try:
        pa, pb = d.board_px(2.0, 20.0), d.board_px(34.0, 20.0)
        right_drag(d, pa, pb)
        (ax, ay), (bx, by) = d.board_point(pa), d.board_point(pb)
        want = math.hypot(bx - ax, by - ay)
        assert shortest_ruler(d, want) is None  # 32 in: longer than any ruler
        assert tape_line(d) == f"tape: {want:.2f} in (beyond every ruler), a spot to a spot"
    finally:
        d.close()


def test_laying_a_tape_keeps_the_move_being_set_up(tmp_path: Path) -> None:
    d = Driver(load_scenario(ROOT / "scenarios" / "skirmish.toml"), save_dir=tmp_path)
    try:
        d.click_button("Commonwealth Settlers goes first")
        d.key(pygame.K_LSHIFT)
        d.click_model("knight")
        d.key(pygame.K_b)
        d.click_model("knight")
        d.key(pygame.K_m)
        assert d.controller.setup is not None
        p = d.state.model("knight").position
        right_drag(d, d.board_px(p.x, p.y), d.board_px(p.x + 5, p.y + 5))
        assert d.controller.setup is not None and tapes(d)
        d.key(pygame.K_ESCAPE)  # Esc puts the tape away first
        assert d.controller.setup is not None and not tapes(d)
        d.click_px(d.board_px(p.x + 5, p.y + 5), button=3)  # then a right click cancels
        assert d.controller.setup is None
    finally:
        d.close()


def test_the_tapes_label_and_the_what_if_count_never_cover_each_other() -> None:
    """Seen under Xvfb: a tape laid to where the pointer also asks "what if I stood here"
    drew "12.91 in" over "seen by 6, 3 could shoot". Both go through the frame's label
    placer now (issue 34: labels never hide one another), so the two boxes are apart and
    neither covers the spot's base."""
    from render.draw.labels import Placer
    from render.draw.layout import Rect
    from render.draw.pinned import WhatIfShown, draw_what_if
    from render.draw.transform import BoardTransform

    surface = pygame.Surface((800, 800))
    t = BoardTransform.fit(Rect(0, 0, 800, 800), (36.0, 36.0))
    spot = (18.0, 18.0)
    cx, cy = t.to_screen(*spot)
    r = round(t.length(0.6))
    base = pygame.Rect(cx - r, cy - r, 2 * r, 2 * r)
    placer = Placer([base], clip=surface.get_rect())
    TapeOverlay((6.0, 18.0), spot, (20, 20, 20), "12.91 in (beyond every ruler)").draw_top(
        surface, t, placer)
    draw_what_if(surface, t, WhatIfShown(spot, 0.6, (((6.0, 6.0), spot),), 1), placer)
    tape_box, count_box = placer.taken[1:]
    assert not tape_box.colliderect(count_box)
    assert not base.colliderect(tape_box) and not base.colliderect(count_box)
