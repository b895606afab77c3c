"""Labels and drawing on the board (issue 16, bug 8 and the drawing items): pips over
a base in contact, names clear of terrain labels, a label on each storey, overlay
labels off the sight line, only the blocking face in red, storeys shaded by height,
quiet minor buttons and struck disabled ones.
"""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"

from pathlib import Path

import pygame
import pytest
import shapely

from geometry.discs import Disc
from render.draw import theme
from render.draw.board import (
    TERRAIN_FILLS,
    piece_label_boxes,
    place_piece_labels,
    storey_shade,
)
from render.draw.frame import board_transform
from render.draw.labels import Placer
from render.draw.layout import compute_layout
from render.draw.models import label_boxes
from render.draw.overlays import ShotOverlay
from render.draw.panels import button_colours
from render.draw.view import Button, ViewState
from render.png import render_surface
from render.scene import scene_from_scenario
from sim.scenario.format.loader import load_scenario
from sim.scenario.positions import Position

ROOT = Path(__file__).resolve().parent.parent
SKIRMISH = ROOT / "scenarios" / "skirmish.toml"
TWO_STOREY = ROOT / "scenarios" / "elev-two-storey.toml"
PIP = (70, 210, 90)


@pytest.fixture(autouse=True)
def _pygame():
    pygame.display.init()
    yield


def test_health_pips_show_over_a_base_in_contact() -> None:
    """The survivor's pips lie where the mutant's base, in contact below it, is drawn."""
    sc = load_scenario(SKIRMISH)
    r_s, r_m = sc.radius_of("survivor"), sc.radius_of("mutant-1")
    scene = scene_from_scenario(sc, {"survivor": Position(20.0, 20.0, 0.0),
                                     "mutant-1": Position(20.0, 20.0 + r_s + r_m, 0.0)})
    img = render_surface(scene, ViewState(), 1280)
    lay = compute_layout(img.get_size(), sc.board, status=False, buttons=False)
    t = board_transform(lay, scene)
    cx, cy = t.to_screen(20.0, 20.0)
    y = cy + max(3, round(t.length(r_s))) + 5 + 1  # the pips' row (render.draw.models)
    row = [tuple(img.get_at((x, y)))[:3] for x in range(cx - 12, cx + 12)]
    assert PIP in row


@pytest.mark.parametrize("path", [SKIRMISH, TWO_STOREY])
def test_names_never_cover_terrain_labels_or_each_other(path: Path) -> None:
    sc = load_scenario(path)
    scene = scene_from_scenario(sc)
    lay = compute_layout((1280, 800), sc.board)
    t = board_transform(lay, scene)
    bases = [pygame.Rect(0, 0, 2 * round(t.length(m.radius)), 2 * round(t.length(m.radius)))
             for m in scene.models]
    for b, m in zip(bases, scene.models, strict=True):
        b.center = t.to_screen(m.x, m.y)
    terrain = place_piece_labels(piece_label_boxes(sc, t), bases)
    names = label_boxes(scene, t, Placer(box for _, _, box in terrain))
    for _, text, box in terrain:
        assert box.collidelist(bases) < 0, text  # no height label under a base or name
        assert all(not box.colliderect(n) for n in names.values()), text
    boxes = list(names.values())
    for i, a in enumerate(boxes):
        assert a.collidelist(boxes[i + 1:]) < 0


def test_each_storey_has_its_own_label_on_its_own_roof() -> None:
    sc = load_scenario(TWO_STOREY)
    scene = scene_from_scenario(sc)
    t = board_transform(compute_layout((1280, 800), sc.board), scene)
    where = {piece.id: (text, t.to_board(*box.center)) for piece, text, box in
             piece_label_boxes(sc, t)}
    upper, lower = sc.piece("building-1-upper"), sc.piece("building-1")
    assert where[upper.id][0].startswith(f'{upper.props.height:g}"')
    assert where[lower.id][0].startswith(f'{lower.props.height:g}"')
    assert upper.footprint.contains(shapely.Point(where[upper.id][1]))
    assert not upper.footprint.contains(shapely.Point(where[lower.id][1]))
    assert lower.footprint.contains(shapely.Point(where[lower.id][1]))


def test_overlay_labels_stay_off_the_sight_line_and_the_line_of_cover() -> None:
    surface = pygame.Surface((800, 800))
    surface.set_clip(pygame.Rect(0, 0, 800, 800))
    t = board_transform(compute_layout((1280, 800), (36.0, 36.0)), scene_from_scenario(
        load_scenario(SKIRMISH)))
    a, b = Disc(5.0, 18.0, 0.6), Disc(30.0, 18.0, 0.6)
    shot = ShotOverlay(a, b, ((5.6, 18.0), (29.4, 18.0)), (), ((5.0, 18.0), (30.0, 18.0)),
                       (), ((10.0, theme.RANGE_SHORT, "short: red 6\""),
                            (20.0, theme.RANGE_LONG, "long: blue, to 16\"")))
    placer = Placer(clip=surface.get_clip())
    shot.draw_top(surface, t, placer)
    lines = [(t.to_screen_f(5.6, 18.0), t.to_screen_f(29.4, 18.0))]
    assert len(placer.taken) == 2  # the two ring labels
    for box in placer.taken:
        assert not any(box.clipline(p, q) for p, q in lines)


def test_only_the_face_between_the_bases_is_drawn_as_blocking() -> None:
    a, b = Disc(5.0, 18.0, 0.6), Disc(30.0, 18.0, 0.6)
    storey = shapely.box(15.0, 10.0, 20.0, 26.0)  # 5 x 16 in, across the line
    shot = ShotOverlay(a, b, None, (("storey", storey),), ((5.0, 18.0), (30.0, 18.0)), (), ())
    part = shot.blocking_part(storey)
    assert not isinstance(part, Disc)
    assert 0 < part.length < storey.length / 4  # two short stretches, not the outline
    assert part.distance(shapely.Point(15.0, 18.0)) < 1e-9


def test_storeys_at_different_heights_get_different_shades() -> None:
    grey = TERRAIN_FILLS["impassable"]
    shades = [storey_shade(grey, h) for h in (0.0, 3.0, 4.0, 8.0)]
    assert shades[0] == grey and len(set(shades)) == 4


def test_minor_buttons_are_quieter_and_disabled_ones_greyed() -> None:
    move = button_colours(Button("Move", None), False)
    leave = button_colours(Button("Leave", None, minor=True), False)
    commit = button_colours(Button("Commit", None, enabled=False), False)
    assert leave[0] == theme.PANEL != move[0]  # an outline on the panel, not a filled button
    assert leave[2] == theme.TEXT_DIM and move[2] == theme.TEXT
    assert commit[2] != move[2] and commit[0] != move[0]


def test_cover_labels_keep_off_model_names() -> None:
    """A cover mark's label goes above its piece, unless a name sits there: then below."""
    from render.draw.overlays import CoverMark

    surface = pygame.Surface((800, 800))
    surface.set_clip(pygame.Rect(0, 0, 800, 800))
    t = board_transform(compute_layout((1280, 800), (36.0, 36.0)), scene_from_scenario(
        load_scenario(SKIRMISH)))
    crate = shapely.box(17.0, 17.0, 19.0, 19.0)
    a, b = Disc(5.0, 18.0, 0.6), Disc(30.0, 18.0, 0.6)
    shot = ShotOverlay(a, b, None, (), ((5.0, 18.0), (30.0, 18.0)),
                       (CoverMark("crate", crate, True, "passes through it"),), ())
    x, top = t.to_screen(18.0, 17.0)
    name = pygame.Rect(0, 0, 120, 16)
    name.center = (x, top - 12)  # a model's name right where the label would go
    placer = Placer([name], clip=surface.get_clip())
    shot.draw_top(surface, t, placer)
    label = placer.taken[-1]
    assert not label.colliderect(name)
