"""Issue 16: stable keys and the window's words, driven through window events.

Key rules (render.input.hotkeys): M move, S shoot, C charge, E end
activation, T end turn, Enter commit, Backspace remove a step, Esc cancel;
a key does nothing where its action is not offered; number keys choose only
among a shown menu's entries. Words: display names, not ids, in buttons and
Details (ids only in the debug view); weapons by name; "not cover here", never
"ignored"; Commit dim for a refused path; Leave after Move, without a key;
the ruler never shown on the wrong side of its length (R-MOV-1 compares exact
numbers). Climb offers come from the movement rules (R-CLIMB-1, R-CLIMB-3).
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

import math
from dataclasses import replace
from pathlib import Path

import pygame
import pytest

from render.explain.moves import shown_length
from render.input.choices import way_label
from render.input.keys import AddStep, Apply, StartKind
from sim.combat.plan import Shoot
from sim.engine.actions import EndActivation, ReadyModel
from sim.engine.gamedata import Phase, Readiness
from sim.game.kinds import new_game
from sim.movement.plan import Step, plan_movement, vertical_offers, walk
from sim.scenario.format.loader import load_scenario
from tests.test_window_bugs import activate, details, dismiss
from tests.window_driver import Driver

ROOT = Path(__file__).resolve().parent.parent
SKIRMISH = ROOT / "scenarios" / "skirmish.toml"
ARENA = ROOT / "scenarios" / "combat-arena.toml"
CLIMB = ROOT / "scenarios" / "move-climb.toml"


def test_letters_start_their_kind_and_do_nothing_where_not_offered(tmp_path: Path) -> None:
    scenario = load_scenario(ARENA)
    d = Driver(scenario, save_dir=tmp_path, state=new_game(scenario, seed=1))
    try:
        activate(d, "survivor")
        c = d.controller
        d.key(pygame.K_s)
        assert c.setup is not None and c.setup.form.keyword == "shoot"
        d.key(pygame.K_ESCAPE)
        assert c.setup is None
        d.key(pygame.K_m)
        assert c.setup is not None and c.setup.form.keyword == "move"
        before = len(d.state.history)
        d.key(pygame.K_e)  # End activation is not offered inside a set-up
        d.key(pygame.K_s)  # nor is Shoot
        assert c.setup is not None and c.setup.form.keyword == "move"
        assert len(d.state.history) == before
        d.key(pygame.K_ESCAPE)
        d.key(pygame.K_e)
        assert isinstance(d.state.history[-1], EndActivation)
        d.key(pygame.K_e)  # nothing to end now: no second action
        assert isinstance(d.state.history[-1], EndActivation)
    finally:
        d.close()


def test_buttons_show_their_key_or_their_number(tmp_path: Path) -> None:
    d = Driver(load_scenario(SKIRMISH), save_dir=tmp_path)
    try:
        view = d.controller.view()
        assert [b.number for b in view.buttons] == [1, 2]  # which side goes first: a menu
        activate(d, "knight")
        buttons = d.controller.view().buttons
        keys = {b.label: b.hotkey for b in buttons}
        assert keys["Move"] == "M" and keys["End activation"] == "E"
        assert all(b.number is None for b in buttons)  # no menu in an activation
        captions = d.controller.captions()
        assert "Move [M]" in captions and "End activation [E]" in captions
        d.key(pygame.K_m)
        keys = {b.label: b.hotkey for b in d.controller.view().buttons}
        assert keys["Commit path"] == "Enter" and keys["Remove last step"] == "Backspace"
        assert keys["Cancel"] == "Esc"
    finally:
        d.close()


def test_number_keys_choose_in_the_ready_menu_by_its_numbers(tmp_path: Path) -> None:
    scenario = load_scenario(SKIRMISH)
    d = Driver(scenario, save_dir=tmp_path)
    try:
        side = d.state.model("knight").side
        d.click_button(f"{scenario.sides[side].name} goes first")
        dismiss(d)
        assert d.state.phase is Phase.READY
        buttons = d.controller.view().buttons
        second = buttons[[b.number for b in buttons].index(2)]
        assert isinstance(second.key, Apply) and isinstance(second.key.action, ReadyModel)
        d.key(pygame.K_2)
        assert d.state.model(second.key.action.model).readiness is Readiness.READY
        assert d.state.history[-1] == second.key.action
    finally:
        d.close()


def test_leave_comes_after_move_dim_and_without_a_key(tmp_path: Path) -> None:
    d = Driver(load_scenario(SKIRMISH), save_dir=tmp_path)
    try:
        activate(d, "knight")
        buttons = d.controller.view().buttons
        kinds = [b for b in buttons if isinstance(b.key, StartKind)]
        labels = [b.label for b in kinds]
        assert labels.index("Leave") == len(labels) - 1 > labels.index("Move")
        leave = kinds[-1]
        assert leave.minor and leave.hotkey == "" and leave.number is None
        d.key(pygame.K_l)  # L is the legend's key, never Leave
        assert d.controller.setup is None
    finally:
        d.close()


def test_the_shot_preview_names_models_and_says_not_cover_here(tmp_path: Path) -> None:
    """Arena: the survivor hovers mutant-2 (R-LOS-1, R-COV-2); names, not ids."""
    scenario = load_scenario(ARENA)
    d = Driver(scenario, save_dir=tmp_path, state=new_game(scenario, seed=1))
    try:
        activate(d, "survivor")
        p = d.state.model("mutant-2").position
        d.move_to(d.board_px(p.x, p.y))
        text = details(d)
        assert "Sole Survivor -> " in text and "survivor ->" not in text
        assert "ignored" not in text
        assert d.controller.view().buttons_title == "Sole Survivor: 2 actions left"
    finally:
        d.close()


def test_the_debug_view_keeps_ids(tmp_path: Path) -> None:
    d = Driver(load_scenario(ARENA), save_dir=tmp_path)
    try:
        d.key(pygame.K_F2)
        d.click_model("survivor")
        d.click_model("mutant-2")
        text = details(d)
        assert "DEBUG VIEW" in text and "survivor -> mutant-2" in text  # ids here only
        d.key(pygame.K_F2)
        assert "survivor -> mutant-2" not in details(d)
    finally:
        d.close()


def test_a_way_to_attack_is_named_by_weapon_and_band() -> None:
    scenario = load_scenario(SKIRMISH)
    weapon = next(iter(scenario.weapons))
    label = way_label(scenario, {"weapon": weapon, "band": "long"})
    assert label == f"{scenario.weapons[weapon].name}, long range"
    assert weapon not in label or scenario.weapons[weapon].name == weapon


@pytest.mark.parametrize(("length", "limit", "shown"), [
    (3.9999, 4.0, "4.00"), (4.0001, 4.0, "4.01"), (2.613, 4.0, "2.61"), (4.004, 4.0, "4.01"),
    (5.996, 6.0, "6.00")])
def test_the_ruler_is_rounded_on_its_own_side(length: float, limit: float, shown: str) -> None:
    """Display only: a legal path never reads longer than its ruler, an illegal one
    never reads within it (R-MOV-1 compares the exact numbers)."""
    assert shown_length(length, limit) == shown


def test_climb_offers_are_the_movement_rules_own() -> None:
    """R-CLIMB-1: every offer is a step plan_movement accepts; none at the brick wall;
    R-CLIMB-3: part-way stops on the cliff within the Orange ruler."""
    scenario = load_scenario(CLIMB)
    state = new_game(scenario)
    assert vertical_offers(state, "waller", []) == ()
    assert vertical_offers(state, "hound", []) == ()  # climb-incapable (R-CLIMB-4)
    offers = vertical_offers(state, "cliffer", [])
    assert [s.z for s in offers] == [1.0, 2.0]
    for step in offers:
        assert plan_movement(state, "cliffer", [step]).legal
    assert not plan_movement(state, "cliffer", [Step("climb", z=3.0)]).legal  # 3 > 2 in
    # the unhindered deathclaw keeps Red (6 in): the whole cliff is offered
    assert 3.0 in [s.z for s in vertical_offers(state, "claw", [])]
    # a walk away from the face first: no face there, nothing offered
    me = state.model("cliffer").position
    assert vertical_offers(state, "cliffer", list(walk((me.x - 2.0, me.y)))) == ()


def test_the_kind_offers_what_the_window_shows(tmp_path: Path) -> None:
    scenario = load_scenario(CLIMB)
    state = new_game(scenario)
    kind = state.kinds["move"]
    param = kind.param("steps")
    assert param is not None
    offered = kind.offers(state, "cliffer", param, {"steps": ()})
    d = Driver(scenario, save_dir=tmp_path, state=state)
    try:
        activate(d, "cliffer")
        d.key(pygame.K_m)
        shown = [b.key.step for b in d.controller.view().buttons if isinstance(b.key, AddStep)]
        assert shown == list(offered)
    finally:
        d.close()


def test_both_bands_are_a_numbered_menu_named_in_words(tmp_path: Path) -> None:
    """R-RANGE-1: a target whose base lies in both bands; the attacker chooses. The
    ways read 'Plasma Rifle, short range', never 'plasma_rifle short'."""
    scenario = load_scenario(ARENA)
    w = scenario.unit_of("survivor").weapons[0]
    d_centres = (scenario.radius_of("survivor") + scenario.rules_data.ruler(
        scenario.weapons[w].short) + scenario.radius_of("mutant-2") / 2)
    ang = math.atan2(12 - 4, 10 - 4)  # from the survivor (4, 4) towards mutant-2 (10, 12)
    at = (4 + d_centres * math.cos(ang), 4 + d_centres * math.sin(ang))
    scenario = replace(scenario, models=tuple(replace(m, at=at) if m.id == "mutant-2" else m
                                              for m in scenario.models))
    d = Driver(scenario, save_dir=tmp_path, state=new_game(scenario, seed=1))
    try:
        activate(d, "survivor")
        d.key(pygame.K_s)
        d.click_model("mutant-2")
        ways = [b for b in d.controller.view().buttons if isinstance(b.key, Apply)]
        name = scenario.weapons[w].name
        assert [(b.number, b.label) for b in ways] == [
            (1, f"{name}, short range"), (2, f"{name}, long range")]
        d.key(pygame.K_2)
        last = d.state.history[-1]
        assert isinstance(last, Shoot) and last.band == "long" and last.target == "mutant-2"
    finally:
        d.close()
