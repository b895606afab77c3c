"""Model bases as exact discs (R-BASE-1, R-DIST-1, R-UNIT-2).

A base is a circle given by its centre and exact radius; every distance is
computed from those numbers, never from a polygon approximation. Polygons
(:func:`disc_polygon`) exist for drawing and area sweeps only.

Examples
--------
>>> a, b = Disc(0.0, 0.0, 0.5), Disc(3.0, 4.0, 0.5)
>>> gap(a, b)
4.0
"""

from __future__ import annotations

import math
from typing import NamedTuple

import shapely
from shapely.geometry import Polygon


class Disc(NamedTuple):
    """A base seen from above: centre ``(x, y)`` and radius ``r`` in inches.

    A named tuple, not a frozen dataclass: the sight and cover code builds one per
    base per query, and a named tuple takes a quarter of the time to make.
    """

    x: float
    y: float
    r: float

    @property
    def center(self) -> tuple[float, float]:
        return (self.x, self.y)

    def moved(self, x: float, y: float) -> Disc:
        return Disc(x, y, self.r)


def gap(a: Disc, b: Disc) -> float:
    """Distance between the closest points of two bases (R-DIST-1).

    Negative when the bases overlap (by that much).
    """
    return math.hypot(a.x - b.x, a.y - b.y) - a.r - b.r


def touching(a: Disc, b: Disc, tolerance: float) -> bool:
    """Base contact: the gap is at most ``tolerance`` (R-UNIT-2)."""
    return gap(a, b) <= tolerance


def disc_polygon(d: Disc, quad_segs: int = 32) -> Polygon:
    """A polygon inscribed in the disc, for drawing and area sweeps only."""
    return shapely.Point(d.x, d.y).buffer(d.r, quad_segs=quad_segs)
