"""Issue 16, bugs 1-7 of the hot-seat play-test, each driven through window events.

Each test posts real pygame events (dummy driver), then checks the engine
action produced and the state, and what the window says: the move preview
is what Enter commits (bug 1), climbs are offered only where a climbable
face reaches the height (bug 2, R-CLIMB-1) and part-way up a face (bug 3,
R-CLIMB-3), keys keep their meaning (bug 4), the hover preview shows when
an activation starts under the pointer (bug 5), refusals are in player words
and go when a new path is drawn (bug 6), quitting says where it saves (bug 7).
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

import math
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from render.draw.controls import CONTROLS
from render.draw.overlays import PathOverlay, ShotOverlay
from render.input.keys import AddStep, Apply
from sim.engine.actions import Activate, EndTurn
from sim.engine.gamedata import Phase
from sim.game.kinds import new_game
from sim.movement.kinds import Move
from sim.movement.plan import Step
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import Scenario
from tests.window_driver import Driver

ROOT = Path(__file__).resolve().parent.parent
SKIRMISH = ROOT / "scenarios" / "skirmish.toml"
ARENA = ROOT / "scenarios" / "combat-arena.toml"
CLIMB = ROOT / "scenarios" / "move-climb.toml"


def dismiss(d: Driver) -> None:
    """A key that does nothing else: the hand-over banner goes (render.explain.show)."""
    d.key(pygame.K_LSHIFT)


def activate(d: Driver, model: str) -> None:
    """Choose the model's side first, ready and activate it by clicks."""
    side = d.state.model(model).side
    d.click_button(f"{d.controller.scenario.sides[side].name} goes first")
    dismiss(d)
    d.click_model(model)
    if d.state.phase is Phase.CHOOSE_OPTION:
        d.click_button("Activate Ready (option B)")
    if d.state.phase is Phase.ACTIVATE:
        d.click_model(model)
    act = d.state.activation
    assert act is not None and act.model == model, d.controller.status


def path_overlay(d: Driver) -> PathOverlay:
    return next(o for o in d.controller.view().overlays if isinstance(o, PathOverlay))


def details(d: Driver) -> str:
    return "\n".join(line.text for line in d.controller.view().details)


def test_bug1_the_ruler_and_ghost_show_what_enter_commits(tmp_path: Path) -> None:
    """The pointer previews the next waypoint only: Enter commits the clicked path."""
    d = Driver(load_scenario(SKIRMISH), save_dir=tmp_path)
    try:
        activate(d, "knight")
        d.key(pygame.K_m)
        p = d.state.model("knight").position
        clicked = d.board_px(p.x + 1.5, p.y)
        d.click_px(clicked)
        pointer = d.board_px(p.x + 1.5, p.y + 2.0)
        d.move_to(pointer)  # the pointer rests further on
        a, tip = d.board_point(clicked), d.board_point(pointer)
        path = path_overlay(d)
        assert path.points[-1] == pytest.approx(a)  # the solid path ends at the click
        assert path.pointer is not None and path.pointer != pytest.approx(a)
        ruler = next(line.text for line in d.controller.view().details
                     if line.text.startswith("path: "))
        done = math.dist((p.x, p.y), a)
        assert ruler.startswith(f"path: {done:.2f} /")
        assert f"; to pointer {done + math.dist(a, tip):.2f} in" in ruler
        d.key(pygame.K_RETURN)
        last = d.state.history[-1]
        assert isinstance(last, Move) and len(last.steps) == 1
        at = d.state.model("knight").position
        assert (at.x, at.y) == pytest.approx(a)  # not where the pointer was
        assert f"{done:.2f} in" in d.state.events[-1].text
    finally:
        d.close()


def test_bug1_after_a_drag_and_backspace_the_picture_is_the_path_left(tmp_path: Path) -> None:
    d = Driver(load_scenario(SKIRMISH), save_dir=tmp_path)
    try:
        activate(d, "knight")
        d.key(pygame.K_m)
        p = d.state.model("knight").position
        a, b = d.board_px(p.x, p.y), d.board_px(p.x + 3.0, p.y)
        d.post(pygame.MOUSEMOTION, pos=a, rel=(0, 0), buttons=(0, 0, 0))
        d.post(pygame.MOUSEBUTTONDOWN, pos=a, button=1)
        d.post(pygame.MOUSEMOTION, pos=b, rel=(0, 0), buttons=(1, 0, 0))
        d.post(pygame.MOUSEBUTTONUP, pos=b, button=1)
        d.step()
        s = d.controller.setup
        assert s is not None and len(s.steps) >= 2
        d.key(pygame.K_BACKSPACE)
        kept = list(s.steps)
        path = path_overlay(d)
        assert path.points[1:] == tuple((t.x, t.y) for t in kept)  # the solid path shrank
        d.key(pygame.K_RETURN)
        last = d.state.history[-1]
        assert isinstance(last, Move) and list(last.steps) == kept
    finally:
        d.close()


def _climb_scenario(climbable: bool) -> Scenario:
    """move-climb.toml with the cliff (3 in) climbable or not."""
    s = load_scenario(CLIMB)
    terrain = tuple(replace(p, props=replace(p.props, climbable=climbable))
                    if p.id == "cliff" else p for p in s.terrain)
    return replace(s, terrain=terrain)


def climb_labels(d: Driver) -> list[str]:
    return [b.label for b in d.controller.view().buttons if isinstance(b.key, AddStep)]


def test_bug2_no_climb_is_offered_at_a_face_that_cannot_be_climbed(tmp_path: Path) -> None:
    """R-CLIMB-1: the waller touches a brick wall (3 in, not climbable): nothing offered;
    the cliffer at the cliff gets climbs, and none when the cliff is made unclimbable."""
    d = Driver(load_scenario(CLIMB), save_dir=tmp_path)
    try:
        activate(d, "waller")
        d.key(pygame.K_m)
        assert climb_labels(d) == []
    finally:
        d.close()
    for climbable in (True, False):
        d = Driver(_climb_scenario(climbable), save_dir=tmp_path)
        try:
            activate(d, "cliffer")
            d.key(pygame.K_m)
            assert bool(climb_labels(d)) is climbable, climb_labels(d)
        finally:
            d.close()


def test_bug3_a_climb_can_stop_part_way_up_a_face(tmp_path: Path) -> None:
    """R-CLIMB-3 (rulebook): the cliffer climbs with Orange (2 in, R-CLIMB-1), so the
    3 in cliff is not offered whole; 1 in and 2 in are, and Enter climbs to 2 in."""
    scenario = load_scenario(CLIMB)
    d = Driver(scenario, save_dir=tmp_path, state=new_game(scenario, seed=3))
    try:
        activate(d, "cliffer")
        d.key(pygame.K_m)
        labels = climb_labels(d)
        assert labels == ["Climb to 1 in", "Climb to 2 in"]
        number = next(b.number for b in d.controller.view().buttons
                      if b.label == "Climb to 2 in")
        assert number is not None
        d.key(getattr(pygame, f"K_{number}"))
        text = details(d)
        assert "part-way up the face" in text and "click a waypoint on it" not in text
        d.key(pygame.K_RETURN)
        last = d.state.history[-1]
        assert isinstance(last, Move) and last.steps == (Step("climb", z=2.0),)
        me = d.state.model("cliffer")
        if not any(e.kind == "climb-failed" for e in d.state.events):  # R-CLIMB-2 roll
            assert me.climbing and me.position.z == pytest.approx(2.0)
    finally:
        d.close()


def test_bug3_after_climbing_to_the_top_the_window_says_to_click_on_it(tmp_path: Path) -> None:
    d = Driver(load_scenario(CLIMB), save_dir=tmp_path)
    try:
        activate(d, "climber")
        d.key(pygame.K_m)
        d.click_button("Climb to 1.2 in")
        text = details(d)
        assert "to stand on the top, click a waypoint on it" in text
        assert "part-way" not in text
    finally:
        d.close()


def test_bug4_pressing_1_twice_in_a_path_set_up_commits_nothing(tmp_path: Path) -> None:
    d = Driver(load_scenario(SKIRMISH), save_dir=tmp_path)
    try:
        activate(d, "knight")
        before = len(d.state.history)
        d.key(pygame.K_1)  # an activation shows no menu: nothing
        assert d.controller.setup is None and len(d.state.history) == before
        d.key(pygame.K_m)
        p = d.state.model("knight").position
        d.click_px(d.board_px(p.x + 1.0, p.y))
        d.key(pygame.K_1)
        d.key(pygame.K_1)
        assert d.controller.setup is not None and len(d.state.history) == before
    finally:
        d.close()


def test_bug4_a_number_never_ends_the_turn(tmp_path: Path) -> None:
    """After option B (R-TURN-4) the menu is the Ready models; End turn has its own key."""
    scenario = load_scenario(SKIRMISH)
    d = Driver(scenario, save_dir=tmp_path)
    try:
        side = d.state.model("knight").side
        d.click_button(f"{scenario.sides[side].name} goes first")
        dismiss(d)
        d.click_model("knight")
        if d.state.phase is Phase.CHOOSE_OPTION:
            d.key(pygame.K_b)
        assert d.state.phase is Phase.ACTIVATE
        end = next(b for b in d.controller.view().buttons if b.label == "End turn")
        assert end.number is None and end.hotkey == "T"
        for key in (pygame.K_1, pygame.K_2, pygame.K_3):
            d.key(key)
            assert not any(isinstance(a, EndTurn) for a in d.state.history)
        assert isinstance(d.state.history[-1], Activate)  # 1 activated the Ready knight
    finally:
        d.close()


def test_bug5_the_hover_preview_shows_when_the_activation_starts_under_the_pointer(
        tmp_path: Path) -> None:
    """The pointer rests on an enemy while the survivor is activated by key."""
    scenario = load_scenario(ARENA)
    d = Driver(scenario, save_dir=tmp_path, state=new_game(scenario, seed=1))
    try:
        side = d.state.model("survivor").side
        d.click_button(f"{scenario.sides[side].name} goes first")
        dismiss(d)
        d.click_model("survivor")
        if d.state.phase is Phase.CHOOSE_OPTION:
            d.key(pygame.K_b)
        p = d.state.model("mutant-2").position
        d.move_to(d.board_px(p.x, p.y))
        number = next(b.number for b in d.controller.view().buttons
                      if b.key == Apply(Activate("survivor")))
        assert number is not None
        d.key(getattr(pygame, f"K_{number}"))
        assert d.state.activation is not None
        assert any(isinstance(o, ShotOverlay) for o in d.controller.view().overlays)
        assert "line of sight" in details(d)
    finally:
        d.close()


def test_bug6_a_refusal_is_in_player_words_and_goes_with_a_new_path(tmp_path: Path) -> None:
    d = Driver(load_scenario(SKIRMISH), save_dir=tmp_path)
    try:
        activate(d, "knight")
        d.key(pygame.K_m)
        p = d.state.model("knight").position
        d.click_px(d.board_px(p.x, p.y + 1.0))  # a first leg (a first click goes by
        d.click_px(d.board_px(p.x, p.y + 15.0))  # destination); then far beyond any ruler
        commit = next(b for b in d.controller.view().buttons if b.label == "Commit path")
        assert not commit.enabled  # drawn dim: the engine refuses the path
        before = d.state.to_dict()
        d.key(pygame.K_RETURN)
        assert d.state.to_dict() == before
        c = d.controller
        assert c.status_error and c.status.startswith("Move by Knight")  # its display name
        assert "illegal action" not in c.status and "move knight" not in c.status
        s = c.setup
        assert s is not None
        why = d.state.why_illegal(Move("knight", tuple(s.steps)))
        assert why is not None and c.status.endswith(f"not allowed: {why.reason}")
        d.key(pygame.K_BACKSPACE)
        d.click_px(d.board_px(p.x, p.y + 2.0))  # a new, legal path
        assert not c.status_error
        assert next(b for b in c.view().buttons if b.label == "Commit path").enabled
    finally:
        d.close()


def test_bug7_the_window_says_that_and_where_quitting_saves(tmp_path: Path) -> None:
    d = Driver(load_scenario(SKIRMISH), save_dir=tmp_path)
    try:
        assert f"Quitting saves a changed game in {tmp_path}" in d.controller.status
        quit_row = next(c for c in CONTROLS if c.input.startswith("Ctrl+Q"))
        assert "saved" in quit_row.action and "named on screen" in quit_row.action
        d.click_button(d.labels()[0])  # the game changes
        d.key(pygame.K_q, pygame.KMOD_LCTRL)
        assert not d.app.running
        path = d.app.save_on_quit()
        assert path is not None and path.parent == tmp_path
        assert str(path) in d.controller.status  # the last frame names the file
    finally:
        d.close()


def test_bug7_docs_no_longer_say_quitting_does_not_save() -> None:
    text = (ROOT / "docs" / "window.md").read_text()
    assert "Quitting** does not save" not in text and "Quitting saves" in text
