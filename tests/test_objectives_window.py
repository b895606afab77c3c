"""The window draws the objectives and the running score (issue 35, R-OBJ-1..6): a zone
takes the colour of the side that holds it now, a free one the free colour, and the
score names both sides' points; the same frame the window and PNGs draw."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from dataclasses import replace

import pygame

from render.draw import theme
from render.draw.frame import board_transform
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
