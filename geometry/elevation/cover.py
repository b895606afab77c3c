"""Significant edges and other objects as cover at height (R-ELEV-3, R-ELEV-4, R-COV-2).

:func:`cover_edges` says which significant edges (:mod:`geometry.elevation.edges`)
give cover to an elevated target and why the others do not;
:func:`within_orange_of_target` and :func:`cover_filter_applies` are the
filter an elevated shooter applies to cover (R-ELEV-4). The rules glue
(:mod:`sim.shooting.elevation_rules`) passes Orange and the touch tolerance from rules
data.

An edge touches the attacker at its own height (R-COV-2, revised Decision):
a significant edge that is Orange or more above the attacker's base does not
touch it, even where it lies over the base's outline seen from above, so a
shooter standing against the foot of a tower keeps the roof edge as cover
against a sniper on the roof.

Examples
--------
>>> from geometry.elevation.edges import Surface, significant_edges
>>> roof = significant_edges([Surface("roof", shapely.box(0, 0, 10, 10), 6.0)], 2.0)
>>> against_the_wall = Disc(10.6, 5.0, 0.6)
>>> cover_edges(roof, against_the_wall, 0.0, Disc(9.0, 5.0, 0.6), 6.0, 0.01).counted
('roof:edge',)
"""

from __future__ import annotations

import math
from typing import NamedTuple

import shapely
from shapely.geometry.base import BaseGeometry

from geometry.cover.filters import sides_crossed
from geometry.discs import Disc
from geometry.elevation.edges import EPS, EdgeMap, distance_to_side, is_elevated

# A footprint's box this much farther than the threshold from a target is surely far
# (inches): far above float noise on a table (GEOS's distance and the box's agree to
# ~1e-14), far below any distance that matters.
BOX_MARGIN = 1e-9

# Why a crossed significant edge gives no cover (``EdgeCover.ignored``).
EDGE_FAR_FROM_TARGET = "more than Orange from the elevated target (R-ELEV-3)"
EDGE_TOUCHES_ATTACKER = "touches the attacker's base (R-COV-2)"


def edge_touches(gap: float, top: float, z_attacker: float, orange: float,
                 touch_tolerance: float) -> bool:
    """Whether an edge with this top, ``gap`` from the attacker's base seen from above,
    touches that base (R-COV-2, R-UNIT-2): within the touch tolerance, and less than
    Orange above the base (an edge touches at its own height, revised Decision).

    >>> edge_touches(0.0, 6.0, 0.0, 2.0, 0.01), edge_touches(0.0, 6.0, 4.5, 2.0, 0.01)
    (False, True)
    """
    return gap <= touch_tolerance and not is_elevated(top, z_attacker, orange)


class EdgeCover(NamedTuple):
    """Significant edges as cover for one shot (R-ELEV-3).

    ``counted`` are edge ids that count (each once); ``ignored`` are
    ``(edge id, reason)`` pairs for edges the line of cover crosses that do
    not count. ``high`` are the counted edges that lie over the attacker's
    base seen from above but Orange or more above it, so do not touch it
    (R-COV-2 Decision), for the explanation. (A named tuple: one is built per
    shot at an elevated target, quicker than a frozen dataclass.)
    """

    counted: tuple[str, ...] = ()
    ignored: tuple[tuple[str, str], ...] = ()
    high: tuple[str, ...] = ()


def cover_edges(
    edges: EdgeMap, attacker: Disc, z_attacker: float, target: Disc, z_target: float,
    touch_tolerance: float,
) -> EdgeCover:
    """Significant edges that give cover to an elevated target (R-ELEV-3).

    Shooting at a model elevated relative to the attacker, a significant edge
    that the line of cover (centre to centre, R-COV-1) crosses counts as cover
    when the target's base is within Orange of it and the attacker stands
    below its top. Like any other cover object it counts once per piece and
    is ignored when it touches the attacker's base (R-COV-2), which an edge
    Orange or more above that base never does (:func:`edge_touches`).

    Examples
    --------
    >>> from geometry.elevation.edges import Surface, significant_edges
    >>> m = significant_edges([Surface("roof", shapely.box(0, 0, 10, 10), 6.0)], 2.0)
    >>> cover_edges(m, Disc(14.0, 5.0, 0.6), 0.0, Disc(9.0, 5.0, 0.6), 6.0, 0.01).counted
    ('roof:edge',)
    >>> cover_edges(m, Disc(14.0, 5.0, 0.6), 0.0, Disc(5.0, 5.0, 0.6), 6.0, 0.01).counted
    ()
    """
    if not edges.sides or not is_elevated(z_target, z_attacker, edges.orange):
        return NO_EDGE_COVER
    px, py, qx, qy = attacker.x, attacker.y, target.x, target.y
    tiny = EPS * max(1.0, math.hypot(qx - px, qy - py))
    crossed = sides_crossed(px, py, qx, qy, tiny, z_attacker + EPS, *edges.arrays)
    if not len(crossed):
        return NO_EDGE_COVER
    far = edges.orange + EPS
    counted: dict[str, None] = {}
    ignored: dict[str, str] = {}
    high: dict[str, None] = {}
    side_ids, xy, side_tops = edges.side_ids, edges.xy, edges.side_tops
    for k in crossed.tolist():
        eid = side_ids[k]
        side = xy[k]
        if distance_to_side(target, side) > far:
            ignored.setdefault(eid, EDGE_FAR_FROM_TARGET)
            continue
        da = distance_to_side(attacker, side)
        if edge_touches(da, side_tops[k], z_attacker, edges.orange, touch_tolerance):
            ignored.setdefault(eid, EDGE_TOUCHES_ATTACKER)
        else:
            counted[eid] = None
            if da <= touch_tolerance:
                high[eid] = None
    return _new(EdgeCover, (
        tuple(counted),
        tuple((e, r) for e, r in ignored.items() if e not in counted) if ignored else (),
        tuple(high) if high else ()))


_new = tuple.__new__  # (a named tuple built field by field, in order: quicker)


NO_EDGE_COVER = EdgeCover()  # (frozen: one value for every shot without any)


# --- cover seen from above (R-ELEV-4) -----------------------------------------


def within_orange_of_target(geometry: BaseGeometry | Disc, target: Disc, orange: float,
                            box: tuple[float, float, float, float] | None = None) -> bool:
    """Whether a cover object lies within Orange of the target's base (R-ELEV-4).

    ``geometry`` is a terrain footprint or another model's base; distances are
    between closest points (R-DIST-1), so an object the target stands in or
    touches is at 0. ``box``: a footprint's bounds, when the caller keeps them: a
    footprint whose box is surely farther than Orange is far without measuring it.

    >>> t = Disc(0.0, 0.0, 0.5)
    >>> within_orange_of_target(shapely.box(2, -1, 3, 1), t, 2.0)
    True
    >>> within_orange_of_target(Disc(3.6, 0.0, 0.5), t, 2.0)
    False
    """
    if isinstance(geometry, Disc):
        gap = math.hypot(geometry.x - target.x, geometry.y - target.y) - geometry.r
    else:
        if box is not None:  # the box is never farther than the footprint (R-DIST-1)
            x0, y0, x1, y1 = box
            dx = max(x0 - target.x, target.x - x1, 0.0)
            dy = max(y0 - target.y, target.y - y1, 0.0)
            if math.hypot(dx, dy) - target.r > orange + EPS + BOX_MARGIN:
                return False
        gap = float(shapely.distance(shapely.Point(target.x, target.y), geometry))
    return gap - target.r <= orange + EPS


def cover_filter_applies(z_attacker: float, z_target: float, orange: float) -> bool:
    """Whether R-ELEV-4 limits the cover of this shot: the attacker is elevated."""
    return is_elevated(z_attacker, z_target, orange)
