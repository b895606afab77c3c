"""Surfaces and heights (R-UNIT-1, R-ELEV-1..5).

The ground is a surface at height 0; the top of each standable terrain piece
is a surface at its height. A base stands at ``z``, which must be the height
of a surface under its centre. This module is the one place that rule lives.
"""

from __future__ import annotations

from collections.abc import Iterable

import shapely
from shapely.geometry.base import BaseGeometry

GROUND = 0.0


def standing_heights(
    x: float, y: float, surfaces: Iterable[tuple[BaseGeometry, float]]
) -> list[float]:
    """Heights a base centred at ``(x, y)`` may stand at, lowest first.

    ``surfaces`` are ``(footprint, height)`` pairs of standable tops; a top
    counts when its footprint covers the point (boundary included).

    Examples
    --------
    >>> roof = shapely.box(0, 0, 4, 4)
    >>> standing_heights(1, 1, [(roof, 6.0)])
    [0.0, 6.0]
    >>> standing_heights(5, 5, [(roof, 6.0)])
    [0.0]
    """
    p = shapely.Point(x, y)
    heights = {GROUND}
    for footprint, height in surfaces:
        if footprint.covers(p):
            heights.add(float(height))
    return sorted(heights)


def default_height(x: float, y: float, surfaces: Iterable[tuple[BaseGeometry, float]]) -> float:
    """The height a model placed at ``(x, y)`` stands at by default: the highest top."""
    return standing_heights(x, y, surfaces)[-1]
