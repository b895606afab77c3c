"""One frame: board layer, overlays, models, panels; the same for window and PNG.

:func:`draw_frame` is a pure function of (layout, scene, view state): it
reads them and draws; the window and ``wasteland render`` both call it.
"""

from __future__ import annotations

from typing import Any

import pygame

from render.draw import theme
from render.draw.board import BoardLayers, board_layer, draw_legend
from render.draw.layout import Layout
from render.draw.models import draw_models
from render.draw.panels import (
    draw_box,
    draw_buttons,
    draw_game_over,
    draw_header,
    draw_help,
    draw_lines,
    draw_status,
)
from render.draw.transform import BoardTransform
from render.draw.view import TextLine, ViewState
from render.explain.answers import significant_edge_lines
from render.scene import Scene


def board_transform(layout: Layout, scene: Scene) -> BoardTransform:
    return BoardTransform.fit(layout.board, scene.scenario.board)


def draw_frame(surface: Any, layout: Layout, scene: Scene, view: ViewState,
               layers: BoardLayers | None = None) -> None:
    """Draw a whole frame onto ``surface`` (sized ``layout.window``).

    ``layers`` keeps the drawn terrain between frames (the window's); without
    it the terrain is drawn anew (one picture, as ``wasteland render`` draws).
    """
    surface.fill(theme.BACKGROUND)
    t = board_transform(layout, scene)
    edges = significant_edge_lines(scene.scenario)
    layer = (board_layer if layers is None else layers.layer)(
        scene.scenario, layout.board, t, edges)
    surface.blit(layer, (layout.board.x, layout.board.y))
    # Overlays stop at the board's edge (a range ring may reach past it).
    surface.set_clip(pygame.Rect(layout.board.as_tuple()))
    for overlay in view.overlays:
        overlay.draw(surface, t)
    draw_models(surface, scene, t, view.highlight)
    for overlay in view.overlays:
        top = getattr(overlay, "draw_top", None)
        if top is not None:
            top(surface, t)
    surface.set_clip(None)
    draw_header(surface, layout.header, scene)
    if layout.buttons.h > 20:
        draw_buttons(surface, layout.buttons, view.buttons_title, view.buttons,
                     view.hover_button)
    draw_lines(surface, layout.details, "Details", view.details, scroll=view.details_scroll)
    legend = (theme.OVERLAY_LEGEND, "Legend: overlays") if view.legend == "overlays" else (
        theme.TERRAIN_LEGEND, "Legend: terrain")
    log = [TextLine(s) for s in view.log]
    if not layout.legend_shares_log:
        draw_legend(surface, layout.legend, *legend)
        draw_lines(surface, layout.log, "Event log", log, newest_last=True,
                   scroll=view.log_scroll)
    elif view.show_legend:  # a short window: one box, L switches (render.draw.controls)
        draw_box(surface, layout.log)
        draw_legend(surface, layout.log, legend[0], f"{legend[1]} (L: log)")
    else:
        draw_lines(surface, layout.log, "Event log (L: legend)", log, newest_last=True,
                   scroll=view.log_scroll)
    if layout.status is not None:
        draw_status(surface, layout.status, view.status, view.status_error)
    if view.game_over:
        draw_game_over(surface, layout.board, view.game_over)
    if view.show_help:
        draw_help(surface, layout.window)
