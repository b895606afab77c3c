"""What a fan of shots (one attacker, some targets) keeps from call to call: everything
the models' properties and heights decide, and their positions do not (R-LOS-1,
R-LOS-3, R-LOS-4, R-TER-2, R-ELEV-1, R-ELEV-5, R-COV-2, R-COV-4).

The window asks the same fan every frame while one model is dragged, and the AI
asks it for every move it weighs; the blocking pieces of each pair, how the
pairs batch on the sight indices, who is elevated, which huge models could
block and which pieces are cover objects stay the same until a model climbs
or lands. :func:`fan_plan` keeps them per board (``PreparedBoard.fans``), so a
call only pays for the geometry of where the models stand.

Examples
--------
>>> from pathlib import Path
>>> from sim.scenario.format.loader import load_scenario
>>> from sim.shooting.analysis import prepared_board
>>> s = load_scenario(Path(__file__).parents[2] / "scenarios" / "seed-cover-1.toml")
>>> board = prepared_board(s)
>>> plan = fan_plan(board, "knight", ("mutant",), (0.0, 0.0), frozenset())
>>> plan is fan_plan(board, "knight", ("mutant",), (0.0, 0.0), frozenset())
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numpy.typing import NDArray

from geometry.cover.objects import CoverObject
from geometry.elevation.edges import blocks_at_heights
from geometry.sight.index import Obstacle
from sim.shooting.elevation_rules import Elevated
from sim.shooting.model_cover import blocks_sight
from sim.shooting.sight_batches import batches, piece_obstacles

if TYPE_CHECKING:
    from sim.shooting.board import PreparedBoard

__all__ = ["Batched", "FanPlan", "batch", "batched", "by_heights", "cover_kinds", "elevated_at",
           "fan_plan"]


class FanPlan(NamedTuple):
    """The position-free part of a fan of shots, one entry per pair in order."""

    # The pieces that block sight below both bases, and those R-ELEV-5 lifts (whose
    # significant edges may stand in for them, R-ELEV-2: that depends on where the
    # bases stand, so ``moving`` lists the pairs that have any).
    below: tuple[frozenset[str], ...]
    lifted: tuple[tuple[str, ...], ...]
    moving: tuple[int, ...]
    elevated: tuple[Elevated, ...]  # who is elevated (R-ELEV-1)
    raised: tuple[int, ...]  # the pairs with an elevated model
    # The huge models that block the pair when on the table, by base sizes (R-LOS-3):
    # each pair's set as an index into the distinct sets (pairs alike share a list).
    huge_sets: tuple[frozenset[str], ...]
    huge_of: tuple[int, ...]
    kinds: tuple[tuple[CoverObject | None, ...], ...]  # cover_kinds
    offer: NDArray[np.bool_]  # pairs by pieces: which are cover objects (kinds not None)
    # Per tuple of the pairs' blocking pieces: the pairs (by index) batched on one
    # sight index each (sim.shooting.sight_batches), and each pair's blocking pieces
    # outside its batch's index, as obstacles.
    batched: dict[tuple[frozenset[str], ...], Batched]


class Batched(NamedTuple):
    """How a fan's pairs share sight indices, for one set of blocking pieces."""

    groups: list[tuple[frozenset[str], list[int]]]
    rest: list[tuple[Obstacle, ...]]


def fan_plan(board: PreparedBoard, attacker: str, targets: Sequence[str],
             heights: tuple[float, ...], off_table: frozenset[str]) -> FanPlan:
    """The plan of ``attacker``'s shots at ``targets``; ``heights``: the attacker's
    height, then each target's. Built once per board and kept."""
    key = (attacker, tuple(targets), heights, off_table)
    return board.fans.get(key, lambda: _plan(board, attacker, targets, heights, off_table))


def _plan(board: PreparedBoard, attacker: str, targets: Sequence[str],
          heights: tuple[float, ...], off_table: frozenset[str]) -> FanPlan:
    z_a = heights[0]
    bases = board.base
    huge: dict[frozenset[str], int] = {}
    # Each target and height once (a model weighing its places is the target of every
    # pair of an enemy's fan, at one or two heights).
    alike: dict[tuple[str, float], _Target] = {}
    for t, z_t in zip(targets, heights[1:], strict=True):
        if (t, z_t) not in alike:
            kinds = cover_kinds(board, attacker, t)
            blocked, lifted = by_heights(board, attacker, t, z_a, z_t)
            alike[(t, z_t)] = _Target(
                blocked, lifted, elevated_at(board, z_a, z_t),
                huge.setdefault(frozenset(
                    h for h in board.huge if h != attacker and h != t and h not in off_table
                    and blocks_sight(bases[h], bases[attacker], bases[t])), len(huge)),
                kinds, [k is not None for k in kinds])
    each = [alike[tz] for tz in zip(targets, heights[1:], strict=True)]
    elevated = tuple(e.elevated for e in each)
    offer = np.array([e.offer for e in each], dtype=np.bool_)
    return FanPlan(tuple(e.blocked for e in each), tuple(e.lifted for e in each),
                   tuple(i for i, e in enumerate(each) if e.lifted),
                   elevated, tuple(i for i, e in enumerate(elevated) if e.attacker or e.target),
                   tuple(huge), tuple(e.huge for e in each), tuple(e.kinds for e in each),
                   offer.reshape(len(each), len(board.pieces)), {})


class _Target(NamedTuple):
    """What a fan plan holds for one target at one height."""

    blocked: frozenset[str]
    lifted: tuple[str, ...]
    elevated: Elevated
    huge: int
    kinds: tuple[CoverObject | None, ...]
    offer: list[bool]  # (a piece offers cover: its kind is known)


def batched(board: PreparedBoard, plan: FanPlan, keys: tuple[frozenset[str], ...]) -> Batched:
    """How the plan's pairs batch when their blocking pieces are ``keys`` (kept)."""
    got = plan.batched.get(keys)
    if got is None:
        if len(plan.batched) >= 16:  # (the stand-ins of moving pairs vary)
            plan.batched.clear()
        got = plan.batched[keys] = batch(board, keys)
    return got


def batch(board: PreparedBoard, keys: Sequence[frozenset[str]]) -> Batched:
    """How pairs whose blocking pieces are ``keys`` batch on sight indices."""
    groups = batches(board, keys)
    rest: list[tuple[Obstacle, ...]] = [()] * len(keys)
    for key, idx in groups:
        # Pairs with equal pieces share one tuple (the sight index meets it by identity).
        done: dict[frozenset[str], tuple[Obstacle, ...]] = {key: ()}
        for i in idx:
            mine = keys[i]
            if mine is not key:
                got = done.get(mine)
                if got is None:
                    got = done[mine] = tuple(piece_obstacles(board, mine - key))
                rest[i] = got
    return Batched(groups, rest)


def by_heights(board: PreparedBoard, attacker: str, target: str, z_a: float, z_t: float
               ) -> tuple[frozenset[str], tuple[str, ...]]:
    """The pieces that block sight for both models (R-LOS-1, R-LOS-4, R-TER-2), split
    into those below both bases and those R-ELEV-5 lifts; kept per board (props and
    heights decide, not positions)."""
    return board.by_heights.get((attacker, target, z_a, z_t),
                                lambda: _by_heights(board, attacker, target, z_a, z_t))


def _by_heights(board: PreparedBoard, attacker: str, target: str, z_a: float, z_t: float
                ) -> tuple[frozenset[str], tuple[str, ...]]:
    """The pieces that block both models, split into those below both bases and those
    R-ELEV-5 lifts."""
    pa, pt = board.props_of(attacker), board.props_of(target)
    below, lifted = [], []
    for i in sorted(board.blockers_of(attacker) & board.blockers_of(target)):
        x, y = pa[i], pt[i]
        if not ((x.blocks_los and y.blocks_los) or (x.area and x.dense and y.area and y.dense)):
            continue
        # R-ELEV-5: both bases below its top (as each model sees the piece)?
        if blocks_at_heights(x.height, z_a, z_t) and blocks_at_heights(y.height, z_a, z_t):
            below.append(board.pieces[i].id)
        else:
            lifted.append(board.pieces[i].id)
    return frozenset(below), tuple(lifted)


def elevated_at(board: PreparedBoard, z_a: float, z_t: float) -> Elevated:
    """Who is elevated (R-ELEV-1), one value per pair of heights."""
    return board.elevated_at.get((z_a, z_t), lambda: board.elevation.elevated(z_a, z_t))


def cover_kinds(board: PreparedBoard, attacker: str, target: str
                ) -> tuple[CoverObject | None, ...]:
    """Each piece as a cover object of this pair, by index: a piece that is cover,
    blocks sight or is area terrain for either model (R-COV-2), as area terrain when
    it is for either (R-COV-4); else None. Kept per board."""
    def build() -> tuple[CoverObject | None, ...]:
        pa, pt = board.props_of(attacker), board.props_of(target)
        return tuple(
            None if not (x.cover or y.cover or x.blocks_los or y.blocks_los or x.area or y.area)
            else board.cover_object(piece, x.area or y.area)
            for piece, x, y in zip(board.pieces, pa, pt, strict=True))

    return board.cover_kinds.get((attacker, target), build)
