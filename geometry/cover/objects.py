"""Cover objects and their outlines as plain floats (R-COV-1, R-COV-2, R-COV-4).

A :class:`CoverObject` is a terrain footprint or an exact disc; its polygon
outlines (the shape, and the core shrunk by :data:`EPS`) are what the compiled
tests of :mod:`geometry.cover.kernel` read, through :mod:`geometry.cover.table`.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely
from numpy.typing import NDArray
from shapely.geometry.base import BaseGeometry

from geometry.discs import Disc

# Interior tolerance (inches): the LoC must reach this far into an object to
# enter it, so grazing a corner or running along an edge never counts. The same
# value as the sight module's erosion (docs/sight.md, tolerance policy).
EPS = 1e-7


@dataclass(frozen=True)
class CoverObject:
    """A cover object: a terrain footprint (polygon, possibly with holes, or
    multipolygon) or an exact disc (a model's base, a circular piece).

    ``area`` marks area terrain, which counts when merely entered (R-COV-4).
    """

    id: str
    shape: BaseGeometry | Disc
    area: bool = False

    @cached_property
    def core(self) -> BaseGeometry | None:
        """The polygonal shape shrunk by EPS and prepared (None for a disc)."""
        if isinstance(self.shape, Disc):
            return None
        core = self.shape.buffer(-EPS, join_style="mitre")
        shapely.prepare(core)
        return core

    @cached_property
    def outlines(self) -> tuple[_Outline, _Outline] | None:
        """The shape's and the core's outlines as plain floats (None for a disc)."""
        if isinstance(self.shape, Disc):
            return None
        return _Outline.of(self.shape), _Outline.of(self.core)


_Edge = tuple[float, float, float, float]


@dataclass(frozen=True)
class _Outline:
    """A polygonal shape's rings as plain-float edges, per polygon, and its bounds."""

    polygons: tuple[tuple[_Edge, ...], ...]  # exterior and holes of each polygon
    edges: tuple[_Edge, ...]  # all of them
    box: tuple[float, float, float, float]

    @staticmethod
    def of(geom: BaseGeometry) -> _Outline:
        polys = []
        for part in shapely.get_parts(geom):
            if part.geom_type != "Polygon" or part.is_empty:
                continue
            edges: list[_Edge] = []
            for ring in (part.exterior, *part.interiors):
                cs = shapely.get_coordinates(ring).tolist()
                for (x0, y0), (x1, y1) in itertools.pairwise(cs):
                    if x0 != x1 or y0 != y1:
                        edges.append((x0, y0, x1, y1))
            polys.append(tuple(edges))
        box = (tuple(float(v) for v in geom.bounds) if polys
               else (math.inf, math.inf, -math.inf, -math.inf))
        return _Outline(tuple(polys), tuple(e for p in polys for e in p),
                        (box[0], box[1], box[2], box[3]))

    @cached_property
    def arrays(self) -> tuple[NDArray[np.float64], NDArray[np.int64], NDArray[np.float64]]:
        """The edges as rows ``x0, y0, x1, y1`` grouped by polygon (``at``), and the
        box: what :mod:`geometry.cover.kernel` reads."""
        edges = np.array(self.edges, dtype=np.float64).reshape(-1, 4)
        at = np.cumsum([0, *(len(p) for p in self.polygons)]).astype(np.int64)
        return edges, at, np.array(self.box, dtype=np.float64)
