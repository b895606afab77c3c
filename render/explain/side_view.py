"""The side view of a shot (issue 34): what lies between two bases, by height.

Along the line of cover (centre to centre, R-COV-1) every piece it crosses is
laid out as a span from where the line enters it to where it leaves, at the
height of its top (R-TER-1); every significant edge it crosses (R-ELEV-2) as a
face at its top; the two bases, and any other base the line crosses, at their
heights (R-UNIT-1). Each piece says
what it does to this shot, as :func:`sim.shooting.analysis.analyse` found:
it blocks sight, gives cover, or is shot over (a sight-blocking piece too low
to block at these heights, R-ELEV-5). Nothing is decided here: the verdicts
are the analysis's, the spans plain geometry.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import shapely
from shapely.geometry.base import BaseGeometry

from render.draw.side_view import BLOCKS, COVER, NOTHING, OVER, Base, SideView, Span
from sim.scenario.names import display_names
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position
from sim.shooting.analysis import analyse
from sim.shooting.elevation_rules import board_elevation


def _stretches(geom: BaseGeometry, line: shapely.LineString) -> list[tuple[float, float]]:
    """Where ``geom`` lies along ``line``: (from, to) inches from its start."""
    out = []
    for part in getattr(geom, "geoms", [geom]):
        if part.is_empty:
            continue
        s = [line.project(shapely.Point(c)) for c in part.coords]
        out.append((min(s), max(s)))
    return out


def side_view(scenario: Scenario, positions: Mapping[str, Position], attacker: str,
              target: str, climbing: Collection[str] = ()) -> SideView:
    """The side view of ``attacker`` shooting at ``target`` (see the module docstring)."""
    a = analyse(scenario, positions, attacker, target, None, frozenset(climbing))
    pa, pt = positions[attacker], positions[target]
    line = shapely.LineString([(pa.x, pa.y), (pt.x, pt.y)])
    blocked, cover = set(a.sight.blocked_by), set(a.cover)
    elevation = board_elevation(scenario)

    def verdict(ident: str, blocks_los: bool, top: float) -> str:
        if ident in blocked:
            return BLOCKS
        if ident in cover:
            return COVER
        if blocks_los and not elevation.piece_blocks(top, pa.z, pt.z):
            return OVER
        return NOTHING

    pieces = []
    for piece in scenario.terrain:
        p = piece.props
        if not (p.blocks_los or p.cover or p.height > 0):
            continue
        for s0, s1 in _stretches(piece.footprint.intersection(line), line):
            pieces.append(Span(piece.id, s0, s1, p.height, verdict(piece.id, p.blocks_los,
                                                                   p.height)))
    edges = []
    for edge in elevation.edges.edges:
        for s0, _ in _stretches(edge.geometry.intersection(line), line):
            edges.append(Span(edge.id, s0, s0, edge.top, verdict(edge.id, False, edge.top)))
    names = display_names(scenario)
    models = []
    for other, here in positions.items():
        if other in (attacker, target) or other in climbing:
            continue
        base = shapely.Point(here.x, here.y).buffer(scenario.radius_of(other))
        for s0, s1 in _stretches(base.intersection(line), line):
            models.append(Span(names.model(other), s0, s1, here.z,
                               verdict(other, False, here.z)))
    depends = (a.elevated.attacker or a.elevated.target or pa.z > 0 or pt.z > 0
               or any(s.verdict == OVER for s in pieces)
               or any(e.verdict != NOTHING for e in edges))
    return SideView(
        Base(attacker, names.model(attacker), 0.0, scenario.radius_of(attacker), pa.z),
        Base(target, names.model(target), line.length, scenario.radius_of(target), pt.z),
        tuple(sorted(pieces, key=lambda s: s.s0)), tuple(sorted(edges, key=lambda s: s.s0)),
        a.line_of_sight, depends, tuple(sorted(models, key=lambda s: s.s0)))
