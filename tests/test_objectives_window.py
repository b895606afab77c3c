"""The window draws the objectives and the running score (issue 35, R-OBJ-1..6): a zone
takes the colour of the side that holds it now, a free one the free colour, and the
score names both sides' points; the same frame the window and PNGs draw."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from dataclasses import replace
from typing import Any

import pygame
import pytest

from render.draw import theme
from render.draw.frame import board_transform, draw_steady
from render.draw.layout import compute_layout
from render.draw.objectives import FREE
from render.draw.view import ViewState
from render.png import render_surface
from render.scene import scene_from_state
from sim.game.kinds import new_game
from tests.combat_util import scenario
from tests.test_render_png import colour_near_point

WIDTH = 1280


def _edge_pixel(state, objective: str) -> tuple[pygame.Surface, tuple[int, int]]:
    """The frame of ``state`` and the pixel on the zone's outline straight below its
    centre (its 2 px ring is drawn in the holder's colour)."""
    scene = scene_from_state(state.scenario, state)
    img = render_surface(scene, ViewState(), WIDTH)
    lay = compute_layout(img.get_size(), scene.scenario.board, status=False, buttons=False)
    t = board_transform(lay, scene)
    o = state.scenario.objective(objective)
    x, y = t.to_screen(o.at[0], o.at[1])
    return img, (x, y + round(t.length(o.radius)) - 1)


def test_a_held_zone_is_drawn_in_its_holders_colour_and_a_free_one_free() -> None:
    """Pump Stations: at set-up nobody touches pump-west (R-OBJ-2): its ring is the free
    colour. With north-mutant-1 set down at (4, 6.5), 1.71 in from its centre (radius 2),
    North holds it: the ring turns North's colour (the first side's)."""
    s = scenario("objectives-zones")
    img, px = _edge_pixel(new_game(s, seed=1), "pump-west")
    assert colour_near_point(img, px, FREE, slack=2)
    moved = replace(s, models=tuple(replace(m, at=(4.0, 6.5)) if m.id == "north-mutant-1"
                                    else m for m in s.models))
    img, px = _edge_pixel(new_game(moved, seed=1), "pump-west")
    assert colour_near_point(img, px, theme.side_colour(0, False), slack=2)
    assert not colour_near_point(img, px, FREE, slack=2)


def test_the_running_score_is_in_the_scene() -> None:
    """The scene carries the one score (sim.engine.turns.score) side by side; a scenario
    without objectives carries none (its frames are drawn as before)."""
    state = new_game(scenario("objectives-cargo"), seed=1)
    assert scene_from_state(state.scenario, state).scores == (("north", 0), ("south", 0))
    plain = new_game(scenario("skirmish"), seed=1)
    assert scene_from_state(plain.scenario, plain).scores == ()
    assert scene_from_state(plain.scenario, plain).objectives == ()


def test_each_sides_cargo_exit_is_a_band_along_its_edge() -> None:
    """Salvage Run: North carries cargo off the north edge, South off the south one
    (R-OBJ-4, the scenario's ``exits``): the pixels just inside each edge, half way
    along it, are that side's colour; the zones scenario, with no cargo, has no band."""
    state = new_game(scenario("objectives-cargo"), seed=1)
    scene = scene_from_state(state.scenario, state)
    img = render_surface(scene, ViewState(), WIDTH)
    lay = compute_layout(img.get_size(), scene.scenario.board, status=False, buttons=False)
    t = board_transform(lay, scene)
    w, h = scene.scenario.board
    north, south = t.to_screen(w / 2, 0.0), t.to_screen(w / 2, h)
    assert colour_near_point(img, (north[0], north[1] + 2), theme.side_colour(0, False), slack=2)
    assert colour_near_point(img, (south[0], south[1] - 3), theme.side_colour(1, False), slack=2)
    plain = new_game(scenario("objectives-zones"), seed=1)
    pscene = scene_from_state(plain.scenario, plain)
    pimg = render_surface(pscene, ViewState(), WIDTH)
    pt = board_transform(compute_layout(pimg.get_size(), pscene.scenario.board, status=False,
                                        buttons=False), pscene)
    top = pt.to_screen(pscene.scenario.board[0] / 2, 0.0)
    assert not colour_near_point(pimg, (top[0], top[1] + 2), theme.side_colour(0, False),
                                 slack=2)


def test_the_legend_explains_objectives_only_where_there_are_some(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The terrain legend lists zone, marker, cargo and cargo exit for a scenario with
    objectives (docs/window.md's legend table lists them too), none for skirmish."""
    seen: list[str] = []
    real = theme.text

    def spy(s: str, *a: Any, **k: Any) -> Any:
        seen.append(s)
        return real(s, *a, **k)

    monkeypatch.setattr(theme, "text", spy)

    def legend_words(name: str) -> list[str]:
        seen.clear()
        state = new_game(scenario(name), seed=1)
        scene = scene_from_state(state.scenario, state)
        lay = compute_layout((WIDTH, 800), scene.scenario.board)
        draw_steady(pygame.Surface((WIDTH, 800)), lay, scene, ViewState(), [])
        return list(seen)

    with_objectives = legend_words("objectives-cargo")
    for label in ("zone (points)", "marker (points)", "cargo (points)", "cargo exit"):
        assert label in with_objectives
    assert "cargo exit" not in legend_words("skirmish")
