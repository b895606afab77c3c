"""What a play-test in the real window found, fixed and kept fixed (issue 8).

Each test drives the window with synthetic pygame events under the dummy
driver and checks what a player relies on: every choice readable, a hint for
what to do next, a climb that can be started by clicking near a face
(R-CLIMB-1), the close-combat preview (base contact, odds), the reason an
enemy can or cannot be shot while a model is active (R-LOS-1, R-RANGE-1),
a readable undo, the debug views that do not freeze, a short window that
still shows the legend and every line of Details.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

import itertools
import math
from pathlib import Path

import pygame
import pytest
import shapely

from render.draw import theme
from render.draw.overlays import AreaOverlay, ShotOverlay, SightWeb, label_box
from render.draw.panels import button_rects
from render.explain import answers
from sim.engine.gamedata import Phase
from sim.engine.state import GameState
from sim.game.kinds import new_game
from sim.movement.kinds import Charge, Move
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import Scenario
from sim.shooting.analysis import analyse
from tests.window_driver import Driver

ROOT = Path(__file__).resolve().parent.parent
SKIRMISH = ROOT / "scenarios" / "skirmish.toml"
ARENA = ROOT / "scenarios" / "combat-arena.toml"
SNIPER = ROOT / "scenarios" / "elev-sniper-edge.toml"


def seeded(path: Path, seed: int = 1) -> tuple[Scenario, GameState]:
    """A new game with fixed dice (seed 1: the attacks below leave their targets in play)."""
    scenario = load_scenario(path)
    return scenario, new_game(scenario, seed=seed)


def details(d: Driver) -> str:
    return "\n".join(line.text for line in d.controller.view().details)


def activate(d: Driver, model: str) -> None:
    side = d.state.model(model).side
    d.click_button(f"{d.controller.scenario.sides[side].name} goes first")
    d.key(pygame.K_LSHIFT)  # a key that does nothing else dismisses the hand-over banner
    d.click_model(model)
    if d.state.phase is Phase.CHOOSE_OPTION:
        d.click_button("Activate Ready (option B)")
    if d.state.phase is Phase.ACTIVATE:
        d.click_model(model)
    act = d.state.activation
    assert act is not None and act.model == model


def test_long_choice_labels_are_shown_whole_and_clickable(tmp_path: Path) -> None:
    """'Commonwealth Settlers goes first' was cut to 'Commonwealth Settlers ...'."""
    d = Driver(load_scenario(SKIRMISH), save_dir=tmp_path, size=(800, 560))
    try:
        labels = d.labels()
        rects = button_rects(d.app.layout.buttons, labels)
        assert len(rects) == len(labels)
        for label, r in zip(labels, rects, strict=True):
            width = theme.font(17).size(f"{labels.index(label) + 1}. {label}")[0]
            assert width <= r.w - 10, label
        for a, b in itertools.combinations(rects, 2):
            assert not a.overlaps(b)
        d.click_button("Commonwealth Settlers goes first")
        assert d.state.phase is Phase.READY and d.state.acting == "settlers"
    finally:
        d.close()


def test_details_say_what_to_do_next(tmp_path: Path) -> None:
    """R-TURN-3..7: each step of a turn is named before the player has to guess."""
    d = Driver(load_scenario(ARENA), save_dir=tmp_path)
    try:
        assert "choose who takes the first turn (R-TURN-3)" in details(d)
        d.click_button("Commonwealth Settlers goes first")
        assert "ready one of your Unready models" in details(d)
        d.click_model("survivor")
        assert "A activates none" in details(d) and "B activates every Ready" in details(d)
        d.click_button("Activate Ready (option B)")
        d.click_model("survivor")
        assert "Sole Survivor: 2 actions left" in details(d)  # display names (issue 16)
        assert d.controller.view().buttons_title == "Sole Survivor: 2 actions left"
    finally:
        d.close()


def test_hovering_an_enemy_while_active_says_why_it_can_or_cannot_be_shot(
        tmp_path: Path) -> None:
    """Shoot lists only targets the engine allows; hovering any enemy shows why (issue 8).

    Arena: the wall blocks every line from the survivor to mutant-1 (R-LOS-1),
    mutant-2 is in sight at long range behind the crate (R-COV-2).
    """
    scenario, state = seeded(ARENA)
    d = Driver(scenario, save_dir=tmp_path, state=state)
    try:
        activate(d, "survivor")
        p = d.state.model("mutant-1").position
        d.move_to(d.board_px(p.x, p.y))
        text = details(d)
        assert "line of sight: NO, every line is blocked by wall" in text
        assert "cannot shoot: no line of sight" in text
        assert any(isinstance(o, ShotOverlay) for o in d.controller.view().overlays)
        p = d.state.model("mutant-2").position
        d.move_to(d.board_px(p.x, p.y))
        text = details(d)
        assert "line of sight: yes" in text and "crate: counts" in text
        assert "shot preview (long range)" in text and "success" in text
        d.move_to(d.board_px(1.0, 15.0))  # nothing hovered: no overlay left behind
        assert not d.controller.view().overlays
        # shoot it: the dice and outcome stay on screen while the pointer rests there
        d.click_button("Shoot")
        d.click_model("mutant-2")
        outcome = d.state.events[-1].text
        assert outcome in details(d) and "line of sight" not in details(d)
        assert d.state.model("mutant-2").in_play  # seed 1
        d.move_to(d.board_px(1.0, 15.0))
        d.move_to(d.board_px(p.x, p.y))  # pointed at again: the preview is back
        assert "line of sight: yes" in details(d)
    finally:
        d.close()


def test_close_combat_preview_is_contact_and_odds(tmp_path: Path) -> None:
    """A close-combat target shows base contact (R-UNIT-2) and the odds, no range rings."""
    scenario, state = seeded(ARENA)
    d = Driver(scenario, save_dir=tmp_path, state=state)
    try:
        d.click_button("Super Mutants goes first")
        d.click_model("hound")
        if d.state.phase is Phase.CHOOSE_OPTION:
            d.click_button("Activate Ready (option B)")
        d.click_model("hound")
        charge = next(a for a in d.state.legal_actions() if isinstance(a, Charge))
        assert d.controller.apply(charge), d.controller.status
        target = charge.target  # the charge leaves the hound one action (R-TURN-7)
        assert d.state.model(target).in_play  # seed 1: the charge's strike missed
        assert "Close combat" in d.labels(), d.labels()
        d.click_button("Close combat")
        p = d.state.model(target).position
        d.move_to(d.board_px(p.x, p.y))
        text = details(d)
        assert "base contact: yes (R-UNIT-2)" in text
        assert "success" in text and "no cover in close combat" in text
        assert not any(isinstance(o, ShotOverlay) for o in d.controller.view().overlays)
    finally:
        d.close()


def test_a_charge_draws_no_path_before_its_target(tmp_path: Path) -> None:
    """Before the target is picked, hovering showed a red 'incomplete' path."""
    d = Driver(load_scenario(ARENA), save_dir=tmp_path)
    try:
        d.click_button("Super Mutants goes first")
        d.click_model("hound")
        if d.state.phase is Phase.CHOOSE_OPTION:
            d.click_button("Activate Ready (option B)")
        d.click_model("hound")
        d.click_button("Charge")
        d.move_to(d.board_px(10.0, 6.0))
        assert "incomplete" not in details(d)
        assert "hover an enemy model to preview" in details(d)
    finally:
        d.close()


def test_a_click_overlapping_a_face_puts_the_base_against_it_to_climb(tmp_path: Path) -> None:
    """R-CLIMB-1: a climb starts in base contact with the face; no click hits 0.01 in.

    elev-sniper-edge: the tower's east face is x = 20; the mutant (radius
    0.79 in) is clicked at x = 20.7, overlapping it by 0.09 in.
    """
    scenario = load_scenario(SNIPER)
    d = Driver(scenario, save_dir=tmp_path)
    try:
        activate(d, "mutant")
        d.click_button("Move")
        d.click_px(d.board_px(20.7, 12.0))
        s = d.controller.setup
        assert s is not None and len(s.points) == 1
        x, y = s.points[0]
        tower = scenario.piece("tower").footprint
        gap = tower.distance(shapely.Point(x, y)) - scenario.radius_of("mutant")
        assert 0 <= gap <= scenario.rules_data.touch_tolerance
        # R-CLIMB-1: climbing makes the mutant's Yellow ruler Orange (2 in): the
        # 6 in tower is not offered whole, only stops part-way (R-CLIMB-3)
        assert "Climb to 6 in" not in d.labels()
        assert "Climb to 1 in" in d.labels()
        d.key(pygame.K_RETURN)  # the walk alone is legal: the base ends against the face
        last = d.state.history[-1]
        assert isinstance(last, Move), d.controller.status
        at = d.state.model("mutant").position
        assert (at.x, at.y) == pytest.approx((x, y))
    finally:
        d.close()


def test_undo_says_what_it_took_back_in_player_words(tmp_path: Path) -> None:
    d = Driver(load_scenario(ARENA), save_dir=tmp_path)
    try:
        activate(d, "survivor")
        d.click_button("Move")
        d.click_px(d.board_px(4.3, 5.1))
        d.key(pygame.K_RETURN)
        assert isinstance(d.state.history[-1], Move)
        d.key(pygame.K_z, pygame.KMOD_CTRL)
        # in player words, not the action's text (issue 16)
        assert d.controller.status == "undone: Move by Sole Survivor"
        assert details(d).count("undone: Move by Sole Survivor") == 1
        assert "survivor moves" not in details(d)  # not the undone move's outcome
    finally:
        d.close()


def test_sight_web_is_the_pairwise_analysis(tmp_path: Path) -> None:
    """F3 asks sim.shooting.analysis.analyse_many per model; each line is what analyse says."""
    scenario = load_scenario(SKIRMISH)
    d = Driver(scenario, save_dir=tmp_path)
    try:
        d.key(pygame.K_F2)
        d.key(pygame.K_F3)
        webs = [o for o in d.controller.view().overlays if isinstance(o, SightWeb)]
        assert len(webs) == 1
        positions = d.state.positions()
        ids = [m.id for m in scenario.models if m.id in positions]
        expected = []
        for i, a in enumerate(ids):
            for t in ids[i + 1:]:
                if scenario.model(a).side == scenario.model(t).side:
                    continue
                sight = analyse(scenario, positions, a, t).sight
                expected.append((sight.witness, True) if sight.visible
                                else ((positions[a].xy, positions[t].xy), False))
        assert list(webs[0].lines) == expected
        assert any(seen for _, seen in expected) and any(not seen for _, seen in expected)
    finally:
        d.close()


def test_f4_areas_arrive_a_few_per_frame(tmp_path: Path) -> None:
    """F4 used to work out every reachable area in one frame (1-2 s frozen)."""
    scenario = load_scenario(ARENA)
    d = Driver(scenario, save_dir=tmp_path)
    try:
        d.controller.reach_budget = 0.0  # one area per frame
        d.key(pygame.K_F2)
        d.key(pygame.K_F4)  # this frame already works out the first area
        n = len(scenario.models)
        counts = []
        for _ in range(n + 1):
            counts.append(sum(isinstance(o, AreaOverlay)
                              for o in d.controller.view().overlays))
            d.step()
        assert counts[0] == 1 and counts[:n] == list(range(1, n + 1)) and counts[n] == n
        assert f"{n}/{n} areas" in details(d)
        area = next(o for o in d.controller.view().overlays if isinstance(o, AreaOverlay))
        first = answers.reach_area(d.state, scenario.models[0].id)
        assert first is not None and area.area.equals(first)
    finally:
        d.close()


def test_short_window_shows_legend_on_l_and_scrolls_details(tmp_path: Path) -> None:
    """At 800 x 560 the legend had no room and long Details were cut off."""
    d = Driver(load_scenario(ARENA), save_dir=tmp_path, size=(800, 560))
    try:
        lay = d.app.layout
        assert lay.legend_shares_log
        box = pygame.Rect(lay.log.as_tuple())
        swatch = theme.TERRAIN_LEGEND[2].colour[:3]  # impassable grey

        def has_swatch() -> bool:
            return any(tuple(d.app.surface.get_at((x, y)))[:3] == swatch
                       for x in range(box.x, box.x + 40) for y in range(box.y, box.bottom))

        assert not has_swatch()
        d.key(pygame.K_l)
        assert d.controller.view().show_legend and has_swatch()
        d.click_px((lay.log.x + 40, lay.log.y + 8))  # its title switches back
        assert not d.controller.view().show_legend
        # a long preview: more rows than the box holds, scrolled with the wheel
        activate(d, "survivor")
        d.click_button("Shoot")
        p = d.state.model("mutant-2").position
        d.move_to(d.board_px(p.x, p.y))
        limit = d.app.details_scroll_limit()  # the text under the pinned headline
        assert limit > 0
        inside = d.board_px(p.x, p.y)  # still on the target: the preview stays
        pygame.key.set_mods(pygame.KMOD_LSHIFT)  # Shift+wheel: the plain wheel zooms there
        try:
            for _ in range(limit):
                d.post(pygame.MOUSEWHEEL, x=0, y=-1, pos=inside, flipped=False,
                       precise_x=0.0, precise_y=-1.0, touch=False, which=0)
                d.step()
        finally:
            pygame.key.set_mods(0)
        assert d.controller.view().details_scroll == limit  # down to the last row
        p = d.state.model("hound").position
        d.move_to(d.board_px(p.x, p.y))  # other text starts at its top again
        assert d.controller.view().details_scroll == 0
    finally:
        d.close()


def test_board_labels_stay_inside_the_board() -> None:
    """A path ruler near the right edge was cut off ('... difficult rubb')."""
    pygame.init()
    board = pygame.Rect(10, 10, 500, 400)
    box = label_box((300, 20), (500, 100), board)
    assert board.contains(box)
    assert label_box((300, 20), (200, 100), board).center == (200, 100)


def test_close_labels_do_not_print_over_each_other(tmp_path: Path) -> None:
    """elev-sniper-edge: 'sniper-edge' and 'mutant' stand 2.2 in apart."""
    from render.draw.frame import board_transform
    from render.draw.models import label_size, label_spots

    d = Driver(load_scenario(SNIPER), save_dir=tmp_path)
    try:
        scene = d.controller.scene()
        t = board_transform(d.app.layout, scene)
        spots = label_spots(scene, t)
        f = theme.font(label_size(t), bold=True)
        boxes = {}
        for m in scene.models:
            w, h = f.size(m.id)
            boxes[m.id] = pygame.Rect(0, 0, w + 8, h)  # with a gap between them
            boxes[m.id].center = spots[m.id]
        ids = list(boxes)
        for i, a in enumerate(ids):
            for b in ids[i + 1:]:
                assert not boxes[a].colliderect(boxes[b]), (a, b)
        e, m = scene.model("sniper-edge"), scene.model("mutant")
        assert math.hypot(e.x - m.x, e.y - m.y) < 2.5
    finally:
        d.close()


@pytest.mark.parametrize("size", [(800, 560), (1280, 800)])
def test_help_fits_uncut(tmp_path: Path, size: tuple[int, int]) -> None:
    """F1 at 800 x 560 cut two descriptions ('... also over the boa...')."""
    from render.draw.controls import CONTROLS
    from render.draw.panels import help_column, help_layout

    d = Driver(load_scenario(ARENA), save_dir=tmp_path, size=size)
    try:
        d.key(pygame.K_F1)
        assert d.controller.view().show_help
        lay = d.app.layout
        font_size, rows, box = help_layout(lay.window)
        assert box.x >= 0 and box.y >= 0 and box.right <= lay.window.w
        step = int(theme.font(font_size).get_linesize()) + 3
        assert box.y + 34 + step * sum(len(r) for r in rows) <= box.bottom + 3
        col = help_column(box)
        f = theme.font(font_size)
        for c, parts in zip(CONTROLS, rows, strict=True):
            assert " ".join(p.strip() for p in parts) == c.action
            assert all(f.size(p)[0] <= box.w - col - 12 for p in parts), parts
            assert f.size(c.input)[0] <= col - 16, c.input
        d.key(pygame.K_ESCAPE)
        assert not d.controller.view().show_help
    finally:
        d.close()


def test_game_over_in_a_small_window_shows_the_whole_result(tmp_path: Path) -> None:
    """R-TURN-10: the result is wrapped to the board; a continued game says so."""
    from render.draw.panels import game_over_rows
    from sim.engine.actions import ChooseFirst, OptionA, ReadyModel
    from sim.engine.gamedata import Readiness

    scenario = load_scenario(ARENA)
    st = new_game(scenario, seed=3, rounds=1)
    st.apply(ChooseFirst(st.acting or ""))
    while st.phase is not Phase.ACTIVATE:  # every turn: ready one, option A
        if st.phase is Phase.READY:
            side = st.acting or ""
            st.apply(ReadyModel(next(m.id for m in st.side_models(side)
                                     if m.readiness is Readiness.UNREADY)))
        else:
            st.apply(OptionA())
    d = Driver(scenario, save_dir=tmp_path, size=(800, 560), state=st)
    try:
        assert d.controller.status.startswith("Saved game continued: round 1")
        for _ in range(6):
            if d.state.is_over:
                break
            d.click_button("End turn" if d.state.phase is Phase.ACTIVATE
                           else d.labels()[0])
        assert d.state.is_over
        result = d.controller.view().game_over
        assert result is not None
        board = d.app.layout.board
        rows = game_over_rows(board, result)
        assert " ".join(r.strip() for r in rows) == result
        assert all(theme.font(26).size(r.strip())[0] <= board.w - 40 for r in rows)
    finally:
        d.close()


def test_two_marks_on_one_piece_get_two_readable_labels(tmp_path: Path) -> None:
    """R-ELEV-3: mutant -> sniper-edge marks the tower (ignored) and tower:edge (cover)
    on one outline; their labels printed over each other."""
    from render.draw.frame import board_transform
    from render.draw.overlays import label_clear_of

    d = Driver(load_scenario(SNIPER), save_dir=tmp_path)
    try:
        activate(d, "mutant")
        p = d.state.model("sniper-edge").position
        d.move_to(d.board_px(p.x, p.y))
        shot = next(o for o in d.controller.view().overlays if isinstance(o, ShotOverlay))
        ids = {m.id for m in shot.cover}
        assert {"tower", "edge of tower"} <= ids  # the edge named in words (issue 16)
        t = board_transform(d.app.layout, d.controller.scene())
        surface = d.app.surface
        surface.set_clip(pygame.Rect(d.app.layout.board.as_tuple()))
        taken: list[pygame.Rect] = []
        for m in shot.cover:
            label_clear_of(surface, m.id, m.shape, t, (255, 255, 255), (), taken)
        surface.set_clip(None)
        assert len(taken) == len(shot.cover)
        for a, b in itertools.combinations(taken, 2):
            assert not a.colliderect(b)
    finally:
        d.close()


def test_a_drag_off_a_model_does_not_keep_showing_its_card(tmp_path: Path) -> None:
    """The drag started on the model; its card stayed in Details after the pointer left."""
    d = Driver(load_scenario(ARENA), save_dir=tmp_path)
    try:
        activate(d, "survivor")
        d.click_button("Move")
        p = d.state.model("survivor").position
        a = d.board_px(p.x, p.y)
        b = d.board_px(p.x + 1.0, p.y + 1.5)
        d.post(pygame.MOUSEMOTION, pos=a, rel=(0, 0), buttons=(0, 0, 0))
        d.post(pygame.MOUSEBUTTONDOWN, pos=a, button=1)
        d.post(pygame.MOUSEMOTION, pos=b, rel=(0, 0), buttons=(1, 0, 0))
        d.step()
        assert d.controller.hovered is None
        assert "Sole Survivor" not in details(d)
        d.post(pygame.MOUSEBUTTONUP, pos=b, button=1)
        d.step()
        s = d.controller.setup
        assert s is not None and s.points
    finally:
        d.close()
