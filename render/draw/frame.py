"""One frame: board layer, overlays, models, panels; the same for window and PNG.

:func:`draw_frame` is a pure function of (layout, scene, view state, what is
shown): it reads them and draws, asking neither the engine nor the rules (the
scene carries the significant edges); the window and ``wasteland render`` both
call it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pygame

from render.draw import theme
from render.draw.banner import draw_banner, draw_strip
from render.draw.board import (
    BoardLayers,
    board_layer,
    draw_legend,
    draw_piece_label,
    piece_label_boxes,
    place_piece_labels,
)
from render.draw.dice_card import card_rect, draw_dice_card, draw_test_card
from render.draw.labels import Placer
from render.draw.layout import Camera, Layout, Rect
from render.draw.models import draw_bases, draw_marks, model_colour
from render.draw.objectives import draw_objectives, draw_score
from render.draw.overlays import AreaOverlay
from render.draw.panels import (
    draw_box,
    draw_buttons,
    draw_game_over,
    draw_header,
    draw_help,
    draw_lines,
    draw_status,
)
from render.draw.pinned import Shown, draw_details, draw_what_if
from render.draw.side_view import SideView, box_rect, draw_side_view
from render.draw.transform import BoardTransform
from render.draw.view import TextLine, ViewState
from render.scene import ModelView, Scene


def board_transform(layout: Layout, scene: Scene) -> BoardTransform:
    """Board inches -> pixels: the board fitted into ``layout.board``, through its camera."""
    return BoardTransform.fit(layout.board, scene.scenario.board, layout.camera)


def in_view(scene: Scene, t: BoardTransform, layout: Layout) -> Scene:
    """``scene`` with only the models whose base shows in the (zoomed) board's rectangle."""
    if layout.camera.zoom == 1.0:
        return scene
    r = layout.board

    def seen(m: ModelView) -> bool:
        (x, y), pad = t.to_screen_f(m.x, m.y), t.length(m.radius)
        return r.x - pad < x < r.right + pad and r.y - pad < y < r.bottom + pad

    return replace(scene, models=tuple(m for m in scene.models if seen(m)))


def draw_frame(surface: Any, layout: Layout, scene: Scene, view: ViewState,
               layers: BoardLayers | None = None, show: Shown | None = None) -> None:
    """Draw a whole frame onto ``surface`` (sized ``layout.window``).

    ``layers`` keeps the drawn terrain between frames (the window's); without
    it the terrain is drawn anew (one picture, as ``wasteland render`` draws).
    ``show`` adds the banner, the dice card, the headlines and "what if"
    (render.explain.show), as of the frame clock.
    """
    surface.fill(theme.BACKGROUND)
    t = board_transform(layout, scene)
    layer = (board_layer if layers is None else layers.layer)(
        scene.scenario, layout.board, t, scene.edges)
    still = still_overlays(view) if layers is not None else []
    if layers is not None and still:
        layer = layers.still(layer, still, lambda img: draw_overlays(
            img, still, t.shifted(layout.board.x, layout.board.y), layers))
    surface.blit(layer, (layout.board.x, layout.board.y))
    # Overlays stop at the board's edge (a range ring may reach past it).
    surface.set_clip(pygame.Rect(layout.board.as_tuple()))
    draw_overlays(surface, view.overlays[len(still):], t, layers)
    # Bases, then terrain labels off the bases, then pips and names clear of those,
    # then the overlays' labels clear of all of it: one placer per frame.
    shown = in_view(scene, t, layout)  # zoomed in: a model out of sight gets no label
    draw_objectives(surface, scene, t)  # under the bases (R-OBJ-1)
    bases = draw_bases(surface, shown, t, view.highlight)
    terrain = place_piece_labels(piece_label_boxes(scene.scenario, t) if layers is None
                                 else layers.label_boxes(scene.scenario, t), bases)
    for piece, text, box in terrain:
        draw_piece_label(surface, piece, text, box, t)
    placer = Placer((box for _, _, box in terrain), clip=pygame.Rect(layout.board.as_tuple()))
    draw_marks(surface, shown, t, placer)
    for box in bases:  # the overlays' labels keep off the bases too
        placer.block(box)
    for overlay in view.overlays:  # labels over the models, each through the one placer
        top = getattr(overlay, "draw_top", None)
        if top is not None:
            top(surface, t, placer)
    if show is not None and show.what_if is not None:
        draw_what_if(surface, t, show.what_if, placer)
    if show is not None and show.side is not None:
        draw_side(surface, layout, scene, t, show.side)
    surface.set_clip(None)
    draw_score(surface, layout.board, scene)
    if layout.buttons.h > 20:
        draw_buttons(surface, layout.buttons, view.buttons_title, view.buttons,
                     view.hover_button)
    pinned = () if show is None else show.pinned
    draw_details(surface, layout.details, pinned, view.details, view.details_scroll)
    log = shown_log(view, show)
    if layers is None:
        draw_steady(surface, layout, scene, view, log)
    else:  # drawn again only when one of them changes: a drag redraws none of them
        key = (replace(layout, camera=Camera()), view.legend, view.show_legend, log,
               view.log_scroll, scene.round, scene.rounds, scene.phase, scene.advantage,
               scene.side_to_act,
               tuple((m.id, m.readiness, m.health, m.on_board) for m in scene.models))
        steady = layers.kept(key, lambda: _steady_surface(layout, scene, view, log))
        for rect in steady_rects(layout):
            surface.blit(steady, (rect.x, rect.y), rect.as_tuple())
    draw_map_legend(surface, layout, view)
    if layout.status is not None:
        draw_status(surface, layout.status, view.status, view.status_error)
    if show is not None and show.card is not None:
        draw_dice_card(surface, layout.board, show.card.roll, show.card.big, show.card.lines[0])
    elif show is not None and show.test is not None:
        draw_test_card(surface, layout.board, show.test.who, show.test.roll, show.test.target,
                       show.test.passed)
    if show is not None and show.banner is not None and not view.game_over:
        card = None if show.card is None and show.test is None else card_rect(layout.board)
        draw_banner(surface, layout.board, show.banner.title, show.banner.hint, show.colour,
                    card)
    if view.game_over:
        draw_game_over(surface, layout.board, view.game_over)
    if view.show_help:
        draw_help(surface, layout.window)


def draw_side(surface: Any, layout: Layout, scene: Scene, t: BoardTransform,
              side: SideView) -> None:
    """The F6 side view, in the half of the board away from the pair, in their colours."""
    views = [scene.model(b.id) for b in (side.attacker, side.target)]
    box = box_rect(layout.board, (t.to_screen(views[0].x, views[0].y)[1],
                                  t.to_screen(views[1].x, views[1].y)[1]))
    draw_side_view(surface, box, side, (model_colour(scene, views[0]),
                                        model_colour(scene, views[1])))


def still_overlays(view: ViewState) -> list[Any]:
    """The first overlays whose picture stays while they do (``still_key``), drawn into
    the kept board layer (render.draw.board.BoardLayers.still), in order."""
    out = []
    for overlay in view.overlays:
        if getattr(overlay, "still_key", None) is None:
            break
        out.append(overlay)
    return out


def draw_overlays(surface: Any, overlays: Sequence[Any], t: BoardTransform,
                  layers: BoardLayers | None) -> None:
    for overlay in overlays:
        if layers is not None and isinstance(overlay, AreaOverlay):  # drawn once, then blitted
            layers.area(surface, overlay.area, overlay.fill, overlay.edge, t)
        else:
            overlay.draw(surface, t)


def draw_map_legend(surface: Any, layout: Layout, view: ViewState) -> None:
    """An overlay's own legend (the F5 map's) in the side panel's legend box, over the
    terrain legend: never on the board, where it hid models (issue 34, bug 3)."""
    for overlay in view.overlays:
        legend = getattr(overlay, "legend", None)
        if legend is not None:
            title, entries = legend()
            draw_box(surface, layout.legend)
            draw_legend(surface, layout.legend, entries, title)
            return


def shown_log(view: ViewState, show: Shown | None) -> Sequence[str]:
    """The event log the frame draws: the window's (the attacks' verdicts, and in solo
    play the AI's reasons) once it has one, else the controller's."""
    return show.log if show is not None and show.log else view.log


def steady_rects(layout: Layout) -> list[Rect]:
    """The areas that change only with the turn, the log or the legend."""
    out = [layout.header, layout.log]
    if not layout.legend_shares_log:
        out.append(layout.legend)
    if layout.strip is not None:
        out.append(layout.strip)
    return out


def _steady_surface(layout: Layout, scene: Scene, view: ViewState, log: Sequence[str]) -> Any:
    img = pygame.Surface((layout.window.w, layout.window.h))
    img.fill(theme.BACKGROUND)
    draw_steady(img, layout, scene, view, log)
    return img


def draw_steady(surface: Any, layout: Layout, scene: Scene, view: ViewState,
                log_text: Sequence[str]) -> None:
    """The strip, the header, the legend and the event log (:func:`steady_rects`)."""
    if layout.strip is not None and scene.round is not None:
        draw_strip(surface, layout.strip, scene)
    draw_header(surface, layout.header, scene)
    terrain = theme.TERRAIN_LEGEND + (theme.OBJECTIVE_LEGEND if scene.scenario.objectives
                                      else ())
    legend = (theme.OVERLAY_LEGEND, "Legend: overlays") if view.legend == "overlays" else (
        terrain, "Legend: terrain")
    log = [TextLine(s) for s in log_text]
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
