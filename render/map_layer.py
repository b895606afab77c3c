"""A visibility or threat map drawn over the board (issue 17), and its PNG export.

The map's values come from :func:`sim.maps.visibility.make_map`; drawing decides nothing.
Each cell is shaded by its value (``seen``: how many enemies see a base there,
``threat``: the best enemy hit chance, ``sees``: whether it sees the target)
from green (none) through yellow to red (the most), ``sees`` in blue; a cell
where the base cannot stand is left unshaded. The legend of the colours is drawn
in the side panel's legend box (render.draw.frame), never over the board (issue 34,
bug 3). The window draws the shading once per map into its kept board layer: a
frame only blits that (bug 7).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pygame

from render.draw.labels import Placer
from render.draw.theme import LegendEntry
from render.draw.transform import BoardTransform
from render.draw.view import TextLine, ViewState
from render.png import save_png
from render.scene import scene_from_scenario
from sim.maps.visibility import Map, summary
from sim.scenario.objects import Scenario

ALPHA = 120  # how strongly a cell is shaded over the board (0..255)
SAFE = (40, 170, 70)  # nobody: green
# The model sees the target: violet, apart from the blue reachable area (issue 34, bug 5).
SEES = (175, 60, 235)
# From one enemy (or the lowest chance) to the most: yellow to red.
LOW, HIGH = (235, 215, 40), (215, 30, 30)
NOT_SEEN = (120, 120, 120)  # ``sees``: no sight to the target, grey and faint


def cell_colours(m: Map) -> np.ndarray[Any, np.dtype[np.uint8]]:
    """RGBA per cell, ``(ny, nx, 4)``: the map's shading (alpha 0 where it cannot stand)."""
    v = m.values
    rgba = np.zeros((*v.shape, 4), dtype=np.uint8)
    stand = ~np.isnan(v)
    if m.kind == "sees":
        on = stand & (v > 0)
        rgba[on] = (*SEES, ALPHA)
        rgba[stand & ~on] = (*NOT_SEEN, ALPHA // 2)
        return rgba
    lo, hi = scale(m)
    some = stand & (v > 0)
    rgba[stand & ~some] = (*SAFE, ALPHA)
    if some.any():
        k = np.clip((v[some] - lo) / max(hi - lo, 1e-9), 0, 1)[:, None]
        rgba[some, :3] = np.round(np.array(LOW) * (1 - k) + np.array(HIGH) * k)
        rgba[some, 3] = ALPHA
    return rgba


def scale(m: Map) -> tuple[float, float]:
    """The values shaded yellow and red: one enemy and every enemy for ``seen``; the
    lowest and the highest chance above 0 on the map for ``threat``."""
    if m.kind == "seen":
        return 1.0, float(max(1, len(m.enemies)))
    v = m.values[~np.isnan(m.values)]
    v = v[v > 0]
    return (float(v.min()), float(v.max())) if len(v) else (0.0, 1.0)


@dataclass(frozen=True)
class MapOverlay:
    """The map's cells shaded over the board (before the models), its legend on top."""

    map: Map
    target_name: str | None = None  # the ``sees`` target as the legend names it (else its id)
    base: tuple[float, float, float] | None = None  # the hovered cell's base (x, y, r), ringed

    def draw(self, surface: Any, t: BoardTransform) -> None:
        g = self.map.grid
        x0, y0 = t.to_screen_f(g.x0 - g.cell / 2, g.y0 - g.cell / 2)
        x1, y1 = t.to_screen_f(g.x0 + (g.nx - 0.5) * g.cell, g.y0 + (g.ny - 0.5) * g.cell)
        size = (max(1, round(x1 - x0)), max(1, round(y1 - y0)))
        surface.blit(map_picture(self.map, size), (round(x0), round(y0)))

    def still_key(self) -> Hashable:
        """What its shading depends on: the map (render.draw.board.BoardLayers.still)."""
        return ("map", id(self.map))

    def draw_top(self, surface: Any, t: BoardTransform, placer: Placer | None = None) -> None:
        """The hovered cell's base, ringed over the models (no label to place)."""
        if self.base is not None:
            x, y, r = self.base
            pygame.draw.circle(surface, (255, 255, 255), t.to_screen(x, y),
                               max(2, round(r * t.scale)), 2)

    def legend(self) -> tuple[str, list[LegendEntry]]:
        """The legend's title and entries, drawn in the side panel (render.draw.frame)."""
        return "Legend: F5 map", [
            LegendEntry("fill", (*colour, 0 if label.startswith("unshaded") else ALPHA), label,
                        label) for colour, label in legend_entries(self.map, self.target_name)]


def map_picture(m: Map, size: tuple[int, int]) -> Any:
    """The map's cells shaded and scaled to ``size`` pixels. The window draws it once per
    map into its kept board layer (render.draw.board.BoardLayers.still), not every
    frame (issue 34, bug 7)."""
    g = m.grid
    rgba = np.ascontiguousarray(cell_colours(m))
    img = pygame.image.frombuffer(rgba.tobytes(), (g.nx, g.ny), "RGBA")
    return pygame.transform.scale(img, size)


def legend_entries(m: Map, target_name: str | None = None
                   ) -> list[tuple[tuple[int, int, int], str]]:
    """The legend: a colour and what it means, for this map."""
    if m.kind == "sees":
        name = target_name or m.target
        return [(SEES, f"sees {name}"), (NOT_SEEN, f"does not see {name}"),
                ((0, 0, 0), "unshaded: cannot stand")]
    if m.kind == "seen":
        n = len(m.enemies)
        out = [(SAFE, "seen by no enemy")]
        if n >= 1:
            out.append((LOW, "seen by 1"))
        if n >= 2:
            out.append((HIGH, f"seen by {n} (all)"))
        return [*out, ((0, 0, 0), "unshaded: cannot stand")]
    lo, hi = scale(m)
    return [(SAFE, "no enemy can shoot"), (LOW, f"hit chance {100 * lo:.1f}%"),
            (HIGH, f"hit chance {100 * hi:.1f}% (highest)"),
            ((0, 0, 0), "unshaded: cannot stand")]


def export_map(scenario: Scenario, m: Map, path: Path, width: int = 1280) -> Path:
    """``wasteland map -o``: the board as set up with the map shaded on it."""
    scene = scene_from_scenario(scenario)
    details = [TextLine(f"{scenario.name} ({scenario.rules} rules)"),
               *(TextLine(line) for line in summary(m))]
    view = ViewState(details=tuple(details), overlays=(MapOverlay(m),),
                     highlight=frozenset({m.model, *([m.target] if m.target else [])}),
                     buttons_title="Map", legend="terrain")
    return save_png(scene, view, path, width)
