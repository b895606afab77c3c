"""Batching many pairs' sight queries on one sight index (R-ELEV-5, R-LOS-1), and
naming their blockers alike however they were batched; for :mod:`sim.shooting.analysis`.

Pairs on different heights have different blocking pieces, and each set has
its own sight index; one batched query per set would cost a query's fixed
overhead per height. So pairs share one batch on the index of the pieces
they all have, each pair passing its other pieces as per-query obstacles.
That gives the same answers only while those pieces would not have merged
with another blocking piece in an index (R-LOS-1: touching pieces act as
one), so a piece that touches another without one covering the other keeps
the batches apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from geometry.discs import Disc
from geometry.elevation.edges import edge_id
from geometry.sight.index import Obstacle, Sight
from sim.scenario.objects import TerrainPiece

if TYPE_CHECKING:
    from sim.shooting.board import PreparedBoard


def piece_shape(piece: TerrainPiece) -> Any:
    """A piece's exact shape: a disc for a circle, else its polygon."""
    if piece.circle is not None:
        (cx, cy), r = piece.circle
        return Disc(cx, cy, r)
    return piece.footprint


@dataclass
class Loose:
    """Per board (``PreparedBoard.loose``): pieces by id, their obstacles, and which
    pairs of pieces touch (``True``: within the touch tolerance) or form a seam (touch,
    neither covering the other)."""

    pieces: dict[str, TerrainPiece]
    obstacles: dict[str, Obstacle] = field(default_factory=dict)
    seams: dict[tuple[str, str], tuple[bool, bool]] = field(default_factory=dict)
    # Per (pieces not common to a batch, all its pieces): whether none forms a seam.
    free: dict[tuple[frozenset[str], frozenset[str]], bool] = field(default_factory=dict)
    # Per (blockers found, blocking pieces, edge stand-ins): the names reported.
    names: dict[tuple[tuple[str, ...], frozenset[str], frozenset[str]], tuple[str, ...]] = field(
        default_factory=dict)


def batches(board: PreparedBoard, keys: Sequence[frozenset[str]]
             ) -> list[tuple[frozenset[str], list[int]]]:
    """Pairs (by index) grouped for batched sight queries, with the index key of each group."""
    if not keys:
        return []
    first = keys[0]
    if all(k is first or k == first for k in keys):  # (one model against many, mostly)
        return [(first, list(range(len(keys))))]
    everything = frozenset().union(*keys)
    common = frozenset.intersection(*keys)
    moved = everything - common
    cache = board.loose.free
    free = cache.get((moved, everything))
    if free is None:
        free = cache[(moved, everything)] = all(
            not _seam(board, p, q) for p in moved for q in everything if q != p)
    if free:
        return [(common, list(range(len(keys))))]
    by_key: dict[frozenset[str], list[int]] = {}
    for i, key in enumerate(keys):
        by_key.setdefault(key, []).append(i)
    return list(by_key.items())


def _contact(board: PreparedBoard, p: str, q: str) -> tuple[bool, bool]:
    """Whether two pieces touch, and whether they touch without one covering the other."""
    data = board.loose
    key = (p, q) if p < q else (q, p)
    hit = data.seams.get(key)
    if hit is None:
        fp, fq = data.pieces[p].footprint, data.pieces[q].footprint
        touch = bool(fp.distance(fq) <= board.rules.touch_tolerance)
        hit = (touch, touch and not fp.covers(fq) and not fq.covers(fp))
        data.seams[key] = hit
    return hit


def _seam(board: PreparedBoard, p: str, q: str) -> bool:
    """Whether two pieces touch without one covering the other (a crack they close)."""
    return _contact(board, p, q)[1]


def piece_obstacles(board: PreparedBoard, ids: frozenset[str]) -> list[Obstacle]:
    """Blocking pieces as per-query sight obstacles (the same values query after query)."""
    if not ids:
        return []
    data = board.loose
    out = []
    for pid in sorted(ids):
        ob = data.obstacles.get(pid)
        if ob is None:
            ob = data.obstacles[pid] = Obstacle(pid, piece_shape(data.pieces[pid]))
        out.append(ob)
    return out


def name_blockers(board: PreparedBoard, sight: Sight, blocking: frozenset[str],
                   stand_ins: frozenset[str]) -> Sight:
    """The blockers named alike however the query was batched.

    A blocking piece brings every blocking piece it touches (an index merges
    them into one, R-LOS-1), and pieces that stand in for their significant
    edge are named as the edge.
    """
    if sight.visible:
        return sight
    key = (sight.blocked_by, blocking, stand_ins)
    named = board.loose.names.get(key)
    if named is None:
        named = board.loose.names[key] = _names(board, sight.blocked_by, blocking, stand_ins)
    return sight if named == sight.blocked_by else sight._replace(blocked_by=named)


def _names(board: PreparedBoard, blocked_by: tuple[str, ...], blocking: frozenset[str],
           stand_ins: frozenset[str]) -> tuple[str, ...]:
    """:func:`name_blockers` of one set of blockers."""
    ids = set(blocked_by)
    todo = [b for b in ids if b in blocking]
    while todo:
        p = todo.pop()
        for q in blocking:
            if q not in ids and _contact(board, p, q)[0]:
                ids.add(q)
                todo.append(q)
    return tuple(sorted(edge_id(b) if b in stand_ins else b for b in ids))

