"""Elevation rules glue: heights of a pair of models, edges and cover (R-ELEV-1..5).

:mod:`geometry.elevation.edges` answers the geometric questions; this module
applies them to a scenario: it builds the board's significant edges once
(from the pieces' tops, R-TER-1), takes Orange and the touch tolerance from
rules data, and gives :mod:`sim.shooting.analysis` what one shot needs:

- :meth:`BoardElevation.elevated`: who is elevated (R-ELEV-1), for ``to_json``;
- :meth:`BoardElevation.sight_walls`: the significant edges that join the
  obstacles of this pair's sight query (R-ELEV-2);
- :meth:`BoardElevation.piece_blocks`: whether a LoS-blocking piece blocks at
  these heights, or is cover instead (R-ELEV-5);
- :meth:`BoardElevation.edge_cover`: significant edges giving cover to an
  elevated target (R-ELEV-3);
- :meth:`BoardElevation.far_cover`: the cover objects an elevated shooter
  ignores, more than Orange from the target (R-ELEV-4).

Examples
--------
>>> from pathlib import Path
>>> from sim.scenario.format.loader import load_scenario
>>> s = load_scenario(Path(__file__).parents[2] / "scenarios" / "elev-sniper-edge.toml")
>>> board = board_elevation(s)
>>> [e.id for e in board.edges.edges]
['tower:edge']
>>> board.elevated(6.0, 0.0).to_json()
{'attacker': True, 'target': False}
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import partial

from shapely.geometry.base import BaseGeometry

from geometry.discs import Disc
from geometry.elevation.cover import (
    EdgeCover,
    cover_edges,
    cover_filter_applies,
    within_orange_of_target,
)
from geometry.elevation.edges import (
    EdgeMap,
    Surface,
    blocks_at_heights,
    is_elevated,
    is_surface,
    significant_edges,
)
from geometry.elevation.wall_memo import WallMemo
from geometry.elevation.walls import footprint_stand_ins
from geometry.sight.index import Obstacle
from sim.scenario.objects import Scenario
from sim.scenario.prepared import Part

_NONE: frozenset[str] = frozenset()

# Footprints' bounds kept at most (the board's cover footprints: a few dozen).
BOXES_KEPT = 1024


@dataclass(frozen=True)
class Elevated:
    """Which of the two models of a shot is elevated relative to the other (R-ELEV-1)."""

    attacker: bool
    target: bool

    def to_json(self) -> dict[str, bool]:
        return {"attacker": self.attacker, "target": self.target}


NOT_ELEVATED = Elevated(attacker=False, target=False)


def surfaces_of(scenario: Scenario) -> tuple[Surface, ...]:
    """The standable tops of a board (R-TER-1), from each piece's own properties.

    Per-model overrides (R-TER-2) do not move a piece's top: the edges of a
    board are the same for every model (Decision, docs/elevation.md).
    """
    return tuple(
        Surface(p.id, p.footprint, p.props.height,
                None if p.circle is None else (*p.circle[0], p.circle[1]))
        for p in scenario.terrain
        if is_surface(p.props.height, p.props.area)
    )


class BoardElevation:
    """One board's significant edges and the elevation rules for pairs on it.

    Build it once per scenario with :func:`board_elevation`; every method is
    a pure function of its arguments and the board.
    """

    def __init__(self, scenario: Scenario) -> None:
        rules = scenario.rules_data
        self.orange = rules.orange
        self.touch_tolerance = rules.touch_tolerance
        self.edges: EdgeMap = significant_edges(surfaces_of(scenario), self.orange)
        # The walls built for sight queries, each as one sight obstacle (R-ELEV-2).
        self.walls: WallMemo[Obstacle] = WallMemo(Obstacle)
        # pair_walls(lifted, below, a, z_a, b, z_b, huge): edges_standing_in of the
        # ``lifted`` pieces and sight_walls in one call: the pair's blocking pieces
        # (``below`` and the stand-ins), the stand-ins, and its per-query obstacles:
        # the ``huge`` bases that block it (R-LOS-3) followed by the walls that join its
        # query sparing those pieces (R-ELEV-2), the memo's tuple itself when no huge
        # base joins (a sight index meets it by identity). (A partial, not a method:
        # one call less per elevated pair.)
        self.pair_walls = partial(self.walls.pair, self.edges)
        # Cover footprints' bounds by cover object id (R-ELEV-4), each with its shape.
        self._boxes: dict[str, tuple[BaseGeometry, tuple[float, float, float, float]]] = {}

    def elevated(self, z_attacker: float, z_target: float) -> Elevated:
        """Who is elevated relative to whom (R-ELEV-1)."""
        return Elevated(
            attacker=is_elevated(z_attacker, z_target, self.orange),
            target=is_elevated(z_target, z_attacker, self.orange),
        )

    def has_elevated(self, z_a: float, z_b: float) -> bool:
        """Whether either model of a pair is elevated relative to the other (R-ELEV-1)."""
        return is_elevated(z_a, z_b, self.orange) or is_elevated(z_b, z_a, self.orange)

    def sight_walls(self, a: Disc, z_a: float, b: Disc, z_b: float,
                    blocking: Collection[str] = ()) -> tuple[Obstacle, ...]:
        """Significant edges that join this pair's sight query (R-ELEV-2).

        Each is a zero-thickness wall named ``"<piece>:edge"``; pass them as
        per-query obstacles (``SightIndex.sight(a, b, extra=...)``). Empty
        when neither model is elevated, so ground-level queries pay nothing.
        ``blocking``: ids of the pieces that block this pair's sight; their
        own edges add nothing (a line crossing one enters the piece), so they
        are left out.
        """
        # The same obstacle object for the same wall: the sight index recognises
        # an obstacle it has seen by identity, before hashing its value.
        return self.walls.obstacles(self.edges, a, z_a, b, z_b, blocking)

    def edges_standing_in(self, pieces: Collection[str], a: Disc, z_a: float, b: Disc,
                          z_b: float) -> frozenset[str]:
        """The ``pieces`` whose significant edge blocks this pair exactly as the
        piece itself would (:func:`geometry.elevation.walls.acts_as_footprint`)."""
        if not pieces:
            return _NONE
        return footprint_stand_ins(self.edges, pieces, a, z_a, b, z_b, self.walls)

    @staticmethod
    def piece_blocks(height: float, z_a: float, z_b: float) -> bool:
        """Whether a LoS-blocking piece with this top blocks this pair (R-ELEV-5).

        When it does not, the piece is a cover object for the shot instead.
        """
        return blocks_at_heights(height, z_a, z_b)

    def edge_cover(self, attacker: Disc, z_attacker: float, target: Disc,
                   z_target: float) -> EdgeCover:
        """Significant edges counted as cover for a shot at an elevated model (R-ELEV-3)."""
        return cover_edges(self.edges, attacker, z_attacker, target, z_target,
                           self.touch_tolerance)

    def _box(self, oid: str, shape: BaseGeometry | Disc
             ) -> tuple[float, float, float, float] | None:
        """A cover footprint's bounds, kept while the object has that shape (a base: None)."""
        if isinstance(shape, Disc):
            return None
        got = self._boxes.get(oid)
        if got is None or got[0] is not shape:
            if len(self._boxes) >= BOXES_KEPT:
                self._boxes.clear()
            got = self._boxes[oid] = (shape, tuple(shape.bounds))
        return got[1]

    def far_cover(self, z_attacker: float, z_target: float, target: Disc,
                  objects: Sequence[tuple[str, BaseGeometry | Disc]]) -> tuple[str, ...]:
        """Ids of cover objects an elevated attacker ignores (R-ELEV-4), in order."""
        if not cover_filter_applies(z_attacker, z_target, self.orange):
            return ()
        return tuple(
            oid for oid, shape in objects
            if not within_orange_of_target(shape, target, self.orange, self._box(oid, shape))
        )


FAR_FROM_TARGET = "more than Orange from the target, shot from above (R-ELEV-4)"

ELEVATION: Part[BoardElevation] = Part("elevation", BoardElevation)


def board_elevation(scenario: Scenario) -> BoardElevation:
    """The :class:`BoardElevation` of a scenario, built once (``scenario.prepared``)."""
    return scenario.prepared.get(ELEVATION)
