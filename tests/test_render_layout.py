"""Window layout: board and panels never overlap, at any size (issue 8)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from render.draw.layout import MIN_WINDOW, compute_layout
from render.draw.transform import BoardTransform


def assert_disjoint_inside(size: tuple[int, int], board: tuple[float, float]) -> None:
    lay = compute_layout(size, board)
    areas = lay.areas()
    for (na, a), (nb, b) in itertools.combinations(areas.items(), 2):
        assert not a.overlaps(b), f"{na} {a} overlaps {nb} {b} at {size}"
    w, h = max(size[0], MIN_WINDOW[0]), max(size[1], MIN_WINDOW[1])
    for name, r in areas.items():
        assert r.x >= 0 and r.y >= 0 and r.right <= w and r.bottom <= h, (name, r, size)
    # the board keeps its aspect ratio (each side to a pixel of rounding)
    ratio = board[0] / board[1]
    assert abs(lay.board.w / lay.board.h - ratio) <= (1 + ratio) / (lay.board.h - 1)


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
@pytest.mark.parametrize("board", [(36.0, 36.0), (30.0, 20.0), (48.0, 24.0)])
def test_named_layouts_have_no_overlap(size: tuple[int, int], board: tuple[float, float]) -> None:
    assert_disjoint_inside(size, board)


@settings(max_examples=60, deadline=None)
@given(st.integers(200, 4000), st.integers(200, 3000),
       st.floats(6, 72), st.floats(6, 72))
def test_any_window_size_has_no_overlap(w: int, h: int, bw: float, bh: float) -> None:
    assert_disjoint_inside((w, h), (bw, bh))


def test_bigger_window_gives_bigger_board() -> None:
    small = compute_layout((1280, 800), (36.0, 36.0)).board
    big = compute_layout((1920, 1080), (36.0, 36.0)).board
    assert big.w > small.w and big.h > small.h


def test_transform_round_trips_board_points() -> None:
    lay = compute_layout((1280, 800), (36.0, 36.0))
    t = BoardTransform.fit(lay.board, (36.0, 36.0))
    assert t.to_screen(0, 0) == (lay.board.x, lay.board.y)
    x, y = t.to_screen(36, 36)
    assert abs(x - lay.board.right) <= 1 and abs(y - lay.board.bottom) <= 1
    bx, by = t.to_board(*t.to_screen_f(12.5, 30.25))
    assert abs(bx - 12.5) < 1e-9 and abs(by - 30.25) < 1e-9


@pytest.mark.parametrize("size", [(1280, 800), (1024, 700)])
def test_a_menu_of_long_names_shows_every_choice(size: tuple[int, int]) -> None:
    """Six models to ready whose names carry their ids (the skirmish's Super Mutants side):
    every one gets a button, none silently dropped for want of whole rows (issue 16)."""
    import pygame

    from render.draw import theme
    from render.draw.panels import button_rects, fit_label

    pygame.init()
    try:
        lay = compute_layout(size, (36.0, 36.0))
        labels = [f"{i}. Super Mutant (mutant-{i})" for i in range(1, 4)] + [
            "4. Mutant Hound (hound-1)", "5. Mutant Hound (hound-2)", "6. Behemoth"]
        rects = button_rects(lay.buttons, labels)
        assert len(rects) == len(labels)
        for a, b in itertools.combinations(rects, 2):
            assert not pygame.Rect(a.as_tuple()).colliderect(pygame.Rect(b.as_tuple()))
        # A cut label keeps the id that tells the models apart.
        cut = fit_label("1. Super Mutant (mutant-1)", 15, 120)
        assert cut.endswith("(mutant-1)") and theme.font(15).size(cut)[0] <= 120
    finally:
        pygame.quit()
