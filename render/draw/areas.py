"""Shaded areas (the reachable area of a move) as drawn: cleaned at display
resolution and kept as small translucent surfaces (issue 16).

The movement rules' reachable area of a huge model among terrain carries
slivers and spikes far thinner than a pixel, which drew as needles and
stray triangles. :func:`display_area` closes cracks and opens away spikes
narrower than :data:`CLEAN_PX` pixels and drops crumbs smaller than
:data:`CRUMB_PX` squared, then simplifies to half a pixel: the picture of
the area, never the area the rules use. The window's
:class:`render.draw.board.BoardLayers` keeps each drawn area as a surface the
size of its bounding box, by value, so a frame during a drag only blits it.
"""

from __future__ import annotations

import shapely
from shapely.geometry.base import BaseGeometry

CLEAN_PX = 2.5  # pixels: cracks and spikes narrower than twice this go
CRUMB_PX = 8.0  # pixels: parts smaller than this squared go


def display_area(geom: BaseGeometry, scale: float) -> BaseGeometry:
    """``geom`` as it can be seen at ``scale`` pixels per inch (see the module docstring)."""
    if geom.is_empty:
        return geom
    e = CLEAN_PX / scale
    g = geom.buffer(e, quad_segs=2).buffer(-2 * e, quad_segs=2).buffer(e, quad_segs=2)
    crumb = (CRUMB_PX / scale) ** 2
    parts = [p for p in getattr(g, "geoms", [g]) if not p.is_empty and p.area >= crumb]
    return shapely.MultiPolygon([p for p in parts if p.geom_type == "Polygon"]).simplify(
        0.5 / scale) if parts else shapely.Polygon()
