"""A scenario's static terrain prepared once for many pair queries (R-LOS-1, R-LOS-4,
R-TER-2, R-ELEV-5): the :class:`PreparedBoard` that :mod:`sim.shooting.analysis` and
the maps query, one per scenario (``scenario.prepared``, :data:`SHOT_BOARD`).

Examples
--------
>>> from pathlib import Path
>>> from sim.scenario.format.loader import load_scenario
>>> s = load_scenario(Path(__file__).parents[2] / "scenarios" / "seed-cover-1.toml")
>>> board = prepared_board(s)
>>> board is prepared_board(s), sorted(board.piece_ids) == sorted(p.id for p in s.terrain)
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

import numpy as np
from numpy.typing import NDArray

from geometry.cover.filters import boxes_near_lines
from geometry.cover.objects import CoverObject
from geometry.cover.table import CoverTable
from geometry.discs import Disc
from geometry.sight.index import Obstacle, SightIndex
from sim.scenario.objects import Scenario, TerrainPiece, TerrainProps
from sim.scenario.prepared import Part
from sim.shooting.elevation_rules import Elevated, board_elevation
from sim.shooting.sight_batches import Loose, piece_shape

if TYPE_CHECKING:
    from sim.shooting.fan_plan import FanPlan

__all__ = ["SHOT_BOARD", "PreparedBoard", "line_ends", "mask_rows", "prepared_board"]


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
_MISSING: Any = object()
#: Huge bases' obstacles kept at most (one per huge model and place it stood).
HUGE_KEPT = 256
#: Fan plans kept at most (sim.shooting.fan_plan; about 10 KB each on a 23-piece board
#: with 16 models): beyond this many (an AI weighing every pair at many heights) they
#: are dropped and rebuilt on demand.
FANS_KEPT = 512


class Kept(Generic[K, V]):
    """Answers by key, built on first use and only through :meth:`get`; with a
    ``limit``, started afresh when full (the caches that grow with positions)."""

    def __init__(self, limit: int | None = None) -> None:
        self.limit = limit
        self._answers: dict[K, V] = {}

    def get(self, key: K, build: Callable[[], V]) -> V:
        hit = self._answers.get(key, _MISSING)
        if hit is _MISSING:
            if self.limit is not None and len(self._answers) >= self.limit:
                self._answers.clear()
            hit = self._answers[key] = build()
        return cast(V, hit)

    def __len__(self) -> int:
        return len(self._answers)


class PreparedBoard:
    """A scenario's static terrain, prepared once for many pair queries.

    Holds one :class:`~geometry.sight.index.SightIndex` per distinct set of blocking
    pieces (per-model overrides can make the set differ between pairs), the
    cover objects of the pieces, and the footprints' bounding boxes.
    """

    def __init__(self, scenario: Scenario) -> None:
        self.rules = scenario.rules_data
        self._units = {m.id: scenario.units[m.unit] for m in scenario.models}
        self.side = {m.id: m.side for m in scenario.models}
        self.radius = {mid: self.rules.base_radius(u.base) for mid, u in self._units.items()}
        self.size_class = {mid: self.rules.size_class(u.base) for mid, u in self._units.items()}
        self.base = {mid: u.base for mid, u in self._units.items()}
        self.huge = frozenset(mid for mid, c in self.size_class.items() if c == "huge")
        # Per (attacker, target, z_a, z_t): the blocking pieces below both bases and
        # those lifted by R-ELEV-5 (props and heights only, so positions do not matter).
        self.by_heights: Kept[tuple[str, str, float, float],
                              tuple[frozenset[str], tuple[str, ...]]] = Kept()
        # Huge bases as sight obstacles, the same object while the model stands still.
        self.huge_obstacles: Kept[tuple[str, float, float], Obstacle] = Kept(HUGE_KEPT)
        self.elevated_at: Kept[tuple[float, float], Elevated] = Kept()
        # Per (attacker, target): each piece as a cover object of theirs (area terrain
        # when it is for either), None if it is none (sim.shooting.analysis).
        self.cover_kinds: Kept[tuple[str, str], tuple[CoverObject | None, ...]] = Kept()
        # Per (attacker, targets, heights, climbing): what a fan of shots keeps from
        # call to call (sim.shooting.fan_plan).
        self.fans: Kept[tuple[str, tuple[str, ...], tuple[float, ...], frozenset[str]],
                        FanPlan] = Kept(FANS_KEPT)
        self.pieces: tuple[TerrainPiece, ...] = scenario.terrain
        self.piece_ids = frozenset(p.id for p in self.pieces)
        self._index: dict[frozenset[str], SightIndex] = {}
        self._props: dict[str, tuple[TerrainProps, ...]] = {}
        self._blockers: dict[str, frozenset[int]] = {}
        self._cover: dict[tuple[str, bool], CoverObject] = {}
        # Footprints' bounding boxes grown by 0.01 in (pieces_on_many, and the fan's
        # CoverTable.offered_hits): a line that misses a piece's box meets nothing of it.
        # 0.01: a circle's footprint is a polygon inside the exact circle.
        self.near_boxes = np.array([(x0 - 1e-2, y0 - 1e-2, x1 + 1e-2, y1 + 1e-2)
                                    for x0, y0, x1, y1 in (p.footprint.bounds
                                                           for p in self.pieces)],
                                   dtype=np.float64).reshape(-1, 4)
        self.elevation = board_elevation(scenario)
        # Which pieces touch or form seams, and the batch names (sim.shooting.sight_batches).
        self.loose = Loose({p.id: p for p in self.pieces})

    def props_of(self, model_id: str) -> tuple[TerrainProps, ...]:
        """Every piece's properties as this model sees them (R-TER-2), in board order."""
        cached = self._props.get(model_id)
        if cached is None:
            unit = self._units[model_id]
            size = self.rules.size_class(unit.base)
            cached = tuple(p.props_for(unit.id, unit.keywords, size) for p in self.pieces)
            self._props[model_id] = cached
        return cached

    def blockers_of(self, model_id: str) -> frozenset[int]:
        """Indices of the pieces that block sight for this model, heights aside:
        blocking, or dense area terrain (R-LOS-1, R-LOS-4, R-TER-2)."""
        cached = self._blockers.get(model_id)
        if cached is None:
            cached = frozenset(i for i, x in enumerate(self.props_of(model_id))
                               if x.blocks_los or (x.area and x.dense))
            self._blockers[model_id] = cached
        return cached

    def sight_index(self, blocking: frozenset[str]) -> SightIndex:
        """The sight index of these blocking pieces, built on first use."""
        index = self._index.get(blocking)
        if index is None:
            chosen = [p for p in self.pieces if p.id in blocking]
            index = SightIndex(_obstacles(chosen, self.rules.touch_tolerance),
                               merge_gap=self.rules.touch_tolerance)
            self._index[blocking] = index
        return index

    def cover_object(self, piece: TerrainPiece, area: bool) -> CoverObject:
        key = (piece.id, area)
        obj = self._cover.get(key)
        if obj is None:
            obj = CoverObject(piece.id, piece_shape(piece), area)
            self._cover[key] = obj
        return obj

    @cached_property
    def cover_table(self) -> CoverTable:
        """Every piece's exact shape packed for the compiled line-of-cover tests, by piece
        index (whether a piece is area terrain decides how it counts, not its shape)."""
        return CoverTable([self.cover_object(p, False) for p in self.pieces])

    def pieces_on(self, a: Disc, b: Disc) -> list[int]:
        """Indices of the pieces the centre line may meet, in board order: those whose
        bounding box comes within 0.01 in of the line's (a superset; the line of cover
        decides, :mod:`geometry.cover.lines`)."""
        return self.pieces_on_many([(a, b)])[0]

    def pieces_on_many(self, lines: Sequence[tuple[Disc, Disc]],
                       ends: NDArray[np.float64] | None = None) -> list[list[int]]:
        """:meth:`pieces_on` for many centre lines (compiled, one call; ``ends``: their
        :func:`line_ends`, when the caller has them)."""
        if not lines:
            return []
        return mask_rows(boxes_near_lines(line_ends(lines) if ends is None else ends,
                                          self.near_boxes))


def mask_rows(mask: NDArray[np.bool_]) -> list[list[int]]:
    """The columns set in each row of a mask, in order (one pass over the mask)."""
    out: list[list[int]] = [[] for _ in range(len(mask))]
    for i, k in zip(*(ix.tolist() for ix in np.nonzero(mask)), strict=True):
        out[i].append(k)
    return out


def line_ends(lines: Sequence[tuple[Disc, Disc]]) -> NDArray[np.float64]:
    """Centre lines as rows ``ax, ay, bx, by``."""
    return np.array([(a.x, a.y, b.x, b.y) for a, b in lines], dtype=np.float64).reshape(-1, 4)


def _obstacles(pieces: Sequence[TerrainPiece], merge_gap: float) -> list[Obstacle]:
    """Blocking pieces as sight obstacles.

    A circular piece is an exact disc, unless it touches another blocking
    piece: then it joins the merge as its polygon so no crack opens between
    them (R-LOS-1 Decision, docs/sight.md).
    """
    out = []
    for p in pieces:
        shape = piece_shape(p)
        if isinstance(shape, Disc) and any(
            q is not p and q.footprint.distance(p.footprint) <= merge_gap for q in pieces
        ):
            shape = p.footprint
        out.append(Obstacle(p.id, shape))
    return out


SHOT_BOARD: Part[PreparedBoard] = Part("shot board", PreparedBoard)


def prepared_board(scenario: Scenario) -> PreparedBoard:
    """The :class:`PreparedBoard` of a scenario, built once (``scenario.prepared``)."""
    return scenario.prepared.get(SHOT_BOARD)
