"""Headless PNG export: the window's drawing code onto an off-screen surface.

Needs no display: pygame's surfaces work without ``set_mode``.
"""

from __future__ import annotations

from pathlib import Path

import pygame

from render.frame import draw_frame
from render.layout import compute_layout
from render.scene import Scene
from render.view import ViewState


def render_surface(
    scene: Scene, view: ViewState, width: int, height: int | None = None
) -> pygame.Surface:
    """A frame of ``width`` pixels (height from the board's aspect unless given)."""
    if not pygame.font.get_init():
        pygame.font.init()
    if height is None:
        height = _height_for(width, scene.scenario.board)
    layout = compute_layout((width, height), scene.scenario.board, status=bool(view.status))
    surface = pygame.Surface((layout.window.w, layout.window.h))
    draw_frame(surface, layout, scene, view)
    return surface


def _height_for(width: int, board: tuple[float, float]) -> int:
    """A height that gives the board most of the width at its aspect ratio."""
    probe = compute_layout((width, 800), board)
    board_w = probe.board_area.w
    return max(560, int(board_w * board[1] / board[0]) + 20 + 28)


def save_png(scene: Scene, view: ViewState, path: Path, width: int = 1280) -> Path:
    """Render and write ``path``; returns it."""
    surface = render_surface(scene, view, width)
    path.parent.mkdir(parents=True, exist_ok=True)
    pygame.image.save(surface, str(path))
    return path
