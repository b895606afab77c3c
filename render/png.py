"""Headless PNG export: the window's drawing code onto an off-screen surface.

Needs no display: pygame's surfaces work without ``set_mode``.
"""

from __future__ import annotations

import io
from pathlib import Path

import pygame

from render.draw import theme
from render.draw.frame import draw_frame
from render.draw.layout import compute_layout
from render.draw.overlays import AreaOverlay
from render.draw.view import Overlay, TextLine, ViewState
from render.explain import answers
from render.scene import Scene, scene_from_scenario
from sim.atomic import write_file
from sim.game.kinds import new_game
from sim.scenario.objects import Scenario


def render_surface(
    scene: Scene, view: ViewState, width: int, height: int | None = None
) -> pygame.Surface:
    """A frame of ``width`` pixels (height from the board's aspect unless given)."""
    if not pygame.font.get_init():
        pygame.font.init()
        theme.reset_fonts()
    if height is None:
        height = _height_for(width, scene.scenario.board)
    layout = compute_layout((width, height), scene.scenario.board, status=bool(view.status),
                            buttons=bool(view.buttons))
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
    write_png(surface, path)
    return path


def write_png(surface: pygame.Surface, path: Path) -> None:
    """``surface`` as a PNG file, written whole or not at all (:func:`sim.atomic.write_file`):
    encoded in memory first, since pygame's own file writing does not report a full disk.

    Raises :class:`sim.atomic.WriteError` naming ``path`` and the OS's reason."""
    data = io.BytesIO()
    pygame.image.save(surface, data, "board.png")  # the name hint picks the format
    write_file(path, data.getvalue())


def export_scenario(scenario: Scenario, path: Path, width: int = 1280,
                    los: tuple[str, str] | None = None, weapon: str | None = None,
                    reach: str | None = None) -> Path:
    """``wasteland render``: the scenario as set up, with the asked overlays."""
    scene = scene_from_scenario(scenario)
    positions = scene.positions()
    overlays: list[Overlay] = []
    details: list[TextLine] = [TextLine(f"{scenario.name} ({scenario.rules} rules)")]
    highlight: set[str] = set()
    if reach is not None:
        area = answers.reach_area(new_game(scenario), reach)
        if area is not None:
            overlays.append(AreaOverlay(area))
        details += answers.reach_lines(scenario, reach, area)
        highlight.add(reach)
    if los is not None:
        if weapon is None:
            carried = scenario.unit_of(los[0]).weapons
            weapon = carried[0] if carried else None
        shot, lines = answers.shot(scenario, positions, los[0], los[1], weapon, frozenset())
        overlays.append(shot)
        details += lines
        highlight.update(los)
    view = ViewState(
        details=tuple(details),
        overlays=tuple(overlays),
        highlight=frozenset(highlight),
        buttons_title="Overlays" if overlays else "Board",
        legend="overlays" if overlays else "terrain",
    )
    return save_png(scene, view, path, width)
