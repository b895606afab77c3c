"""What the window shows (issue 34, part B), driven through window events where a
player meets it: labels never laid on a base while room is near, health pips kept
inside the board, the F5 map's legend in the side panel, the dice card's title
inside its card and its HIT/MISS above the hand-over banner, even letter spacing
at small sizes, the ``sees`` map in its own colour, and a new model's ``sees`` map
naming one of its own enemies.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from pathlib import Path

import pygame
import pytest

from render.draw import theme
from render.draw.dice_card import card_rect, card_title
from render.draw.labels import Placer
from render.map_layer import ALPHA, SAFE, SEES, MapOverlay
from sim.game.kinds import parse_action
from sim.scenario.format.loader import load_scenario
from sim.scenario.names import model_name
from sim.scenario.objects import Scenario
from tests.combat_util import at_activation, scenario
from tests.test_window_dice import shot_driver  # noqa: F401 (the seeded shot, a fixture)
from tests.window_driver import Driver

ROOT = Path(__file__).resolve().parent.parent
SKIRMISH = ROOT / "scenarios" / "skirmish.toml"
PIP = (70, 210, 90)


@pytest.fixture(scope="module")
def skirmish() -> Scenario:
    return load_scenario(SKIRMISH)


def activate(d: Driver, model: str) -> None:
    """Its side goes first; ready and activate the model by clicks."""
    sc = d.controller.scenario
    d.click_button(f"{sc.sides[d.state.model(model).side].name} goes first")
    d.key(pygame.K_LSHIFT)
    ready_and_activate(d, model)


def ready_and_activate(d: Driver, model: str) -> None:
    """Click the model to ready it, option B if asked, click it to activate it."""
    from sim.engine.gamedata import Phase

    d.click_model(model)
    if d.state.phase is Phase.CHOOSE_OPTION:
        d.click_button("Activate Ready (option B)")
    if d.state.phase is Phase.ACTIVATE:
        d.click_model(model)


def test_a_label_goes_round_the_bases_that_fill_its_offered_spots() -> None:
    """Every offered spot lies on a base: the label is set beside them, on no base."""
    bases = [pygame.Rect(x, y, 30, 30) for x in range(100, 220, 30) for y in range(100, 190, 30)]
    placer = Placer(bases, clip=pygame.Rect(0, 0, 800, 800))
    box = placer.place((60, 16), [(130, 115), (160, 145), (190, 175)])
    assert box.collidelist(bases) < 0
    assert abs(box.centerx - 130) + abs(box.centery - 115) < 200  # near, not anywhere


def test_a_full_board_gives_the_spot_that_covers_least() -> None:
    blocker = pygame.Rect(0, 0, 400, 400)
    half = pygame.Rect(0, 0, 400, 200)
    placer = Placer([blocker, half], clip=pygame.Rect(0, 0, 400, 400))
    box = placer.place((40, 16), [(200, 100), (200, 300)])
    assert box.centery > 200  # under one rectangle, not two


def test_the_behemoths_pips_are_whole_inside_the_board(skirmish: Scenario,
                                                       tmp_path: Path) -> None:
    """The behemoth stands at the board's bottom edge: every pip is drawn on the board."""
    d = Driver(skirmish, save_dir=tmp_path)
    try:
        d.key(pygame.K_LSHIFT)  # the hand-over banner goes
        m = next(v for v in d.controller.scene().models if v.id == "behemoth")
        board = d.app.layout.board
        cx, cy = d.board_px(m.x, m.y)
        r = round(m.radius * d.app.layout.board.w / skirmish.board[0])
        pip = 6 if m.max_health <= 8 else 4
        surface = d.app.surface
        green = sum(1 for x in range(cx - m.max_health * (pip + 1), cx + m.max_health * (pip + 1))
                    for y in range(cy - r - 16, min(board.bottom, cy + r + 16))
                    if board.contains(x, y) and tuple(surface.get_at((x, y)))[:3] == PIP)
        assert green == m.health * pip * 4  # every point of health: a whole 4-px pip
    finally:
        d.close()


def blend(colour: tuple[int, int, int], alpha: int) -> tuple[int, int, int]:
    r, g, b = (round(c * alpha / 255 + t * (255 - alpha) / 255)
               for c, t in zip(colour, theme.TABLE, strict=True))
    return (r, g, b)


def near(a: tuple[int, ...], b: tuple[int, ...], tol: int = 3) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=False))


def test_the_f5_legend_is_in_the_side_panel_not_on_the_board(skirmish: Scenario,
                                                             tmp_path: Path) -> None:
    d = Driver(skirmish, save_dir=tmp_path)
    try:
        d.key(pygame.K_LSHIFT)
        p = d.state.model("settler-1").position
        d.move_to(d.board_px(p.x, p.y))
        d.key(pygame.K_F5)
        d.controller.maps.settle()  # made in its thread (render/input/map_thread.py)
        d.step()
        assert any(isinstance(o, MapOverlay) for o in d.controller.view().overlays)
        legend = d.app.layout.legend
        surface = d.app.surface
        swatch = blend(SAFE, ALPHA)  # "seen by no enemy": the map's green over the table
        found = [(x, y) for x in range(legend.x, legend.right) for y in
                 range(legend.y, legend.bottom) if near(tuple(surface.get_at((x, y))), swatch)]
        assert len(found) > 100
        d.key(pygame.K_F5)
        d.key(pygame.K_F5)
        d.key(pygame.K_F5)  # off: the terrain legend again, no map swatch
        assert not any(near(tuple(d.app.surface.get_at(p)), swatch) for p in found)
    finally:
        d.close()


def test_the_sees_map_is_not_the_reachable_areas_blue() -> None:
    """Issue 34, bug 5: far apart in colour (each channel summed), not only in alpha."""
    assert sum(abs(a - b) for a, b in zip(SEES, theme.REACH_EDGE, strict=True)) > 150


def test_a_long_card_title_stays_inside_the_card() -> None:
    pygame.init()
    who = ("Super Mutant Behemoth (behemoth) -> Commonwealth Knight Sergeant (knight-2), "
           "Heavy Incinerator")
    width = card_rect_width()
    size, words = card_title(who, width)
    assert theme.font(size).size(words)[0] <= width
    assert words.startswith("Super Mutant Behemoth")
    assert card_title("A -> B, Rifle", width) == (16, "A -> B, Rifle")


def card_rect_width() -> int:
    from render.draw.layout import Rect

    return card_rect(Rect(0, 0, 700, 700)).w - 20


def test_small_text_is_spaced_as_the_font_says() -> None:
    """A word at 13-17 px is as wide as the same word drawn ten times bigger, scaled
    down: glyph advances are not each rounded up to whole pixels (issue 34, bug 3,
    "Se ttlers")."""
    pygame.init()
    for words in ("Settlers", "Commonwealth Settlers", "Super Mutants"):
        for size in (13, 15, 17):
            exact = theme.font(size * 10).size(words)[0] / 10
            assert abs(theme.font(size).size(words)[0] - exact) <= 1.5, (words, size)


def test_the_hand_over_banner_leaves_the_cards_hit_readable(shot_driver) -> None:  # noqa: F811
    """The last attack of a turn, then the turn passes: the banner and the card are both
    up, and the card's HIT is on the screen in its colour (issue 34, bug 2)."""
    d, now = shot_driver
    d.controller.apply(parse_action("shoot survivor mutant-a plasma_rifle short"))
    d.step()
    d.click_button("End activation")  # the other side's turn: its banner
    shown = d.app.show.shown(now[0], d.controller.scene())
    assert shown.card is not None and shown.banner is not None, d.controller.status
    r = card_rect(d.app.layout.board)
    surface = d.app.surface
    good = sum(1 for x in range(r.x, r.right) for y in range(r.bottom - 48, r.bottom)
               if tuple(surface.get_at((x, y)))[:3] == theme.TEXT_GOOD)
    assert good > 100


def test_bases_in_contact_read_as_contact_not_minus_nought(skirmish: Scenario) -> None:
    """Two bases touching (a hair's overlap, as a charge ends): no "-0.00 in" (R-UNIT-2)."""
    from render.explain.answers import shot
    from sim.scenario.positions import Position, initial_positions

    pos = dict(initial_positions(skirmish))
    a = pos["knight"]
    gap = skirmish.radius_of("knight") + skirmish.radius_of("hound-2") - 0.004
    pos["hound-2"] = Position(a.x + gap, a.y, a.z)
    _, lines = shot(skirmish, pos, "knight", "hound-2", None, frozenset())
    text = "\n".join(line.text for line in lines)
    assert "-0.00" not in text and "bases in contact" in text


@pytest.mark.parametrize("spot", [(18.0, 30.0), (16.0, 22.0), (12.0, 31.0)])
def test_what_if_names_who_could_shoot_not_only_who_sees(skirmish: Scenario, tmp_path: Path,
                                                         spot: tuple[float, float]) -> None:
    """Hounds and the behemoth carry no ranged weapon: they may see the spot, never shoot
    it. A shooter is one the shot planner accepts a shot from (R-SHOOT-1, R-RANGE-1)."""
    from dataclasses import replace

    from sim.combat.plan import AttackRefused, plan_shot, ranged_weapons
    from sim.combat.situation import Situation

    d = Driver(skirmish, save_dir=tmp_path, state=at_activation(skirmish, "knight"))
    try:
        d.app.show.dismiss()
        d.move_to(d.board_px(*spot))
        answer = d.app.show.what_if.answer
        assert answer is not None and answer.seen_by
        here = {**d.state.positions(), "knight": answer.spot}
        sit = replace(Situation.of_state(d.state), positions=here)
        text = "\n".join(line.text for line in d.app.show.what_if.text)
        for w in answer.seen_by:
            legal = []
            for weapon in ranged_weapons(skirmish, w.model):
                for band in ("short", "long"):
                    try:
                        plan_shot(sit, w.model, "knight", weapon, band)
                        legal.append(weapon)
                    except AttackRefused:
                        pass
            name = d.controller.scene().scenario.units[skirmish.unit_of(w.model).id].name
            assert (w.weapon is not None) == bool(legal), (w.model, legal)
            assert (f"{name}" in text and "could shoot" in text) or w.weapon is None
            if w.model.startswith("hound") or w.model == "behemoth":
                assert w.weapon is None
    finally:
        d.close()


def test_f6_shows_the_shot_from_the_side_with_the_blocking_edge_in_red(tmp_path: Path) -> None:
    """The sniper 6 in up at the back of the tower: the tower's own edge blocks it from the
    mutant below (R-ELEV-2), the tower under it does not (R-ELEV-5). F6 draws the pair by
    height: the edge red, the tower "shot over"; the verdicts are analyse()'s."""
    from render.draw.side_view import BLOCKS, OVER, box_rect
    from sim.shooting.analysis import analyse

    sc = scenario("elev-sniper-edge")
    d = Driver(sc, save_dir=tmp_path)
    try:
        d.key(pygame.K_LSHIFT)
        d.key(pygame.K_F2)
        d.click_model("sniper-back")
        d.click_model("mutant")
        assert d.app.show.side is None  # off until F6
        d.key(pygame.K_F6)
        side = d.app.show.side
        assert side is not None and (side.attacker.id, side.target.id) == ("sniper-back", "mutant")
        a = analyse(sc, d.state.positions(), "sniper-back", "mutant")
        assert side.visible is a.line_of_sight is False
        blocking = {s.id for s in (*side.pieces, *side.edges) if s.verdict == BLOCKS}
        assert blocking == set(a.sight.blocked_by) == {"tower:edge"}
        assert [s.verdict for s in side.pieces if s.id == "tower"] == [OVER]
        assert side.depends_on_height
        assert [m.id for m in side.models] == ["Settler Rifleman (sniper-edge)"]  # on the line
        t_a, t_b = (d.board_px(p.x, p.y)[1] for p in
                    (d.state.model(i).position for i in ("sniper-back", "mutant")))
        box = box_rect(d.app.layout.board, (t_a, t_b))
        red = sum(1 for x in range(box.x, box.right) for y in range(box.y + 24, box.bottom)
                  if tuple(d.app.surface.get_at((x, y)))[:3] == theme.SIGHT_BLOCKED)
        assert red > 100  # the blocking edge, drawn in red
        d.key(pygame.K_F6)
        assert d.app.show.side is None
    finally:
        d.close()


def test_a_climb_shows_the_agi_test_on_a_card(tmp_path: Path) -> None:
    """R-CLIMB-2: the climb up the cliff rolls an AGI test; its card shows the engine's
    d20 against A and PASS or FAIL, for a moment, in the verdict's colour."""
    from sim.game.kinds import new_game

    sc = load_scenario(ROOT / "scenarios" / "move-climb.toml")
    d = Driver(sc, save_dir=tmp_path, state=new_game(sc, seed=3))
    now = [1000]
    d.app.clock = lambda: now[0]
    try:
        activate(d, "cliffer")
        d.key(pygame.K_m)
        d.click_button("Climb to 2 in")
        d.key(pygame.K_RETURN)
        (agi,) = [e for e in d.state.events if e.data.get("test") == "AGI"]
        shown = d.app.show.shown(now[0], d.controller.scene())
        card = shown.test
        assert card is not None and card.who == model_name(sc, "cliffer")
        assert (card.roll, card.target, card.passed) == (agi.data["roll"], agi.data["target"],
                                                         agi.data["passed"])
        r = card_rect(d.app.layout.board)
        colour = theme.TEXT_GOOD if card.passed else theme.TEXT_BAD
        ink = sum(1 for x in range(r.x, r.right) for y in range(r.y + 100, r.y + 150)
                  if tuple(d.app.surface.get_at((x, y)))[:3] == colour)
        assert ink > 100
        now[0] += 5000
        d.step()
        assert d.app.show.shown(now[0], d.controller.scene()).test is None
    finally:
        d.close()


def test_a_sees_map_of_the_next_model_names_one_of_its_enemies(skirmish: Scenario,
                                                               tmp_path: Path) -> None:
    """Issue 34, bug 4: the knight's sees map targets a mutant; the turn passes and the map
    is of a mutant now: its target is one of the mutant's enemies, never a friend."""
    from tests.test_window_maps import shown_map

    d = Driver(skirmish, save_dir=tmp_path, state=at_activation(skirmish, "knight"))
    try:
        d.app.show.dismiss()
        for _ in range(3):
            d.key(pygame.K_F5)
        m = shown_map(d)
        assert m is not None and (m.kind, m.model) == ("sees", "knight")
        assert m.target is not None and d.state.model(m.target).side != "settlers"
        other = next(i for i in ("mutant-1", "mutant-2") if i != m.target)  # not the target
        d.click_button("End activation")
        d.key(pygame.K_LSHIFT)
        ready_and_activate(d, other)
        assert d.state.activation is not None and d.state.activation.model == other
        m = shown_map(d)
        assert m is not None and (m.kind, m.model) == ("sees", other)
        assert m.target is not None
        assert d.state.model(m.target).side != d.state.model(other).side
    finally:
        d.close()


def test_a_model_that_cannot_climb_says_why_and_its_card_lists_keywords(tmp_path: Path
                                                                       ) -> None:
    """R-CLIMB-4: the hound at the cliff is offered no Climb; Details says why, and its
    card lists its keywords (issue 34, bug 6)."""

    sc = load_scenario(ROOT / "scenarios" / "move-climb.toml")
    d = Driver(sc, save_dir=tmp_path)
    try:
        activate(d, "hound")
        card = "\n".join(line.text for line in d.controller.view().details)
        assert "keywords: " in card and "climb-incapable" in card
        d.key(pygame.K_m)
        assert not any(label.startswith("Climb to") for label in d.labels())
        text = "\n".join(line.text for line in d.controller.view().details)
        assert "no Climb offered" in text and "R-CLIMB-4" in text
    finally:
        d.close()


def test_a_refusal_stops_being_red_when_another_model_is_hovered(skirmish: Scenario,
                                                                 tmp_path: Path) -> None:
    d = Driver(skirmish, save_dir=tmp_path, state=at_activation(skirmish, "knight"))
    try:
        d.app.show.dismiss()
        d.key(pygame.K_m)
        d.key(pygame.K_RETURN)  # nothing to commit yet: refused, in red
        assert d.controller.status_error
        words = d.controller.status
        p = d.state.model("paladin").position
        d.move_to(d.board_px(p.x, p.y))
        assert not d.controller.status_error and d.controller.status == words
    finally:
        d.close()


def test_a_jump_to_the_table_reads_as_one() -> None:
    """Issue 34, bug 6: no "Jump to 0 in" (R-JUMP-1: a jump is down)."""
    from render.input.choices import step_label
    from sim.movement.plan import Step

    assert step_label(Step("jump", z=0.0)) == "Jump down to the table"
    assert step_label(Step("jump", z=1.5)) == "Jump down to 1.5 in"
    assert step_label(Step("climb", z=2.0)) == "Climb to 2 in"
