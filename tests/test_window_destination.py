"""Move by destination (issue 34; sim/movement/route.py, render/input/paths.py).

A click inside the shaded reachable area sends the model the shortest legal
way there, round a wall (R-MOV-3, R-MOV-4), within its ruler (R-MOV-1,
R-RULER-1: a settler moves Yellow, 4 in); a spot out of reach is clamped to
the ruler; corners clicked by hand still make straight legs. Events only,
under the dummy driver; the engine's state after Enter is what is checked.
"""

from __future__ import annotations

import itertools
import math
import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from pathlib import Path

import pygame
import pytest

from render.draw.overlays import PathOverlay
from sim.engine.gamedata import Phase
from sim.movement.kinds import Move
from sim.movement.plan import plan_movement, walk
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import Scenario
from tests.window_driver import Driver

# A wall from y 4 to 14 between the mover (west) and the spot it is sent to (east);
# a climbable ledge 1.2 in high just west of it.
SCENARIO = """format = 1
name = "Destination"
rules = "vts-1.5"
board = [24, 24]
advantage = "settlers"
include = ["wasteland:units/wasteland.toml"]
[sides.settlers]
name = "Settlers"
[sides.beasts]
name = "Beasts"
[[terrain]]
id = "wall"
polygon = [[10, 4], [11, 4], [11, 14], [10, 14]]
movement = "impassable"
blocks_los = true
height = 3
[[terrain]]
id = "ledge"
polygon = [[5, 13], [8, 13], [8, 15.5], [5, 15.5]]
movement = "impassable"
climbable = true
height = 1.2
[[models]]
id = "mover"
unit = "settler"
side = "settlers"
at = [9.2, 13.5]
[[models]]
id = "hound"
unit = "mutant_hound"
side = "beasts"
at = [22, 22]
"""
START = (9.2, 13.5)


def scenario(tmp_path: Path) -> Scenario:
    path = tmp_path / "destination.toml"
    path.write_text(SCENARIO)
    return load_scenario(path)


def start_move(d: Driver) -> None:
    d.click_button("Settlers goes first")
    d.key(pygame.K_LSHIFT)  # dismisses the hand-over banner
    d.click_model("mover")
    if d.state.phase is Phase.CHOOSE_OPTION:
        d.click_button("Activate Ready (option B)")
    if d.state.phase is Phase.ACTIVATE:
        d.click_model("mover")
    d.click_button("Move")


def moved(d: Driver) -> Move:
    last = d.state.history[-1]
    assert isinstance(last, Move)
    return last


def test_a_click_behind_the_wall_goes_round_it(tmp_path: Path) -> None:
    """The straight leg crosses the wall (the engine refuses it); the click inside the
    shaded area takes a path round the wall's end, within 4 in, and ends on the spot."""
    d = Driver(scenario(tmp_path), save_dir=tmp_path)
    try:
        goal = (11.8, 14.0)
        assert not plan_movement(d.state, "mover", walk(goal)).legal  # through the wall
        start_move(d)
        px = d.board_px(*goal)
        d.move_to(px)  # before the click, the pointer shows the route it would take
        (path,) = [o for o in d.controller.view().overlays if isinstance(o, PathOverlay)]
        assert path.pointer_ok and len(path.pointer_via) >= 1
        d.click_px(px)
        d.key(pygame.K_RETURN)
        move = moved(d)
        assert [(s.x, s.y) for s in move.steps] == [*path.pointer_via, path.pointer]
        pts = [START, *((s.x, s.y) for s in move.steps)]
        assert len(move.steps) >= 2  # it bends
        assert max(y for _, y in pts) > 14.0  # round the wall's south end
        length = sum(math.dist(a, b) for a, b in itertools.pairwise(pts))
        assert length <= 4.0 + 1e-9  # R-MOV-1: the settler's Yellow ruler
        pos = d.state.model("mover").position
        assert (pos.x, pos.y) == pytest.approx(d.board_point(px), abs=1e-9)
    finally:
        d.close()


def test_a_spot_out_of_reach_is_clamped_to_the_ruler(tmp_path: Path) -> None:
    """Nothing in the way to the north: a click 9 in away moves the model 4 in towards it."""
    d = Driver(scenario(tmp_path), save_dir=tmp_path)
    try:
        start_move(d)
        d.click_px(d.board_px(9.2, 4.5))
        d.key(pygame.K_RETURN)
        pos = d.state.model("mover").position
        assert math.dist((pos.x, pos.y), START) == pytest.approx(4.0, abs=0.02)
        assert pos.x == pytest.approx(9.2, abs=0.02) and pos.y < START[1]
    finally:
        d.close()


def test_corners_clicked_by_hand_stay_straight_legs(tmp_path: Path) -> None:
    """A first click with a clear straight leg is that leg; later clicks add legs."""
    d = Driver(scenario(tmp_path), save_dir=tmp_path)
    try:
        start_move(d)
        a, b = d.board_px(8.5, 12.0), d.board_px(7.5, 11.0)
        d.click_px(a)
        d.click_px(b)
        d.key(pygame.K_RETURN)
        move = moved(d)
        assert [(s.x, s.y) for s in move.steps] == [d.board_point(a), d.board_point(b)]
    finally:
        d.close()


def test_a_click_at_a_ledge_face_walks_there_and_offers_the_climb(tmp_path: Path) -> None:
    """A click just short of the ledge's face is put against it (the face snap) and the
    model walks there; the climb the rules allow is offered at the path's end
    (R-CLIMB-1)."""
    d = Driver(scenario(tmp_path), save_dir=tmp_path)
    try:
        start_move(d)
        s = d.controller.setup
        assert s is not None
        d.click_px(d.board_px(8.62, 13.6))  # 0.03 in short of touching the east face
        assert s.steps, "no path"
        end = s.steps[-1]
        assert end.x == pytest.approx(8.0 + d.state.radius("mover"), abs=0.02)
        assert plan_movement(d.state, "mover", tuple(s.steps)).legal
        assert any(label.startswith("Climb to 1.2") for label in d.labels())
    finally:
        d.close()
