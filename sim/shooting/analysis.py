"""The rules glue for sight, cover and range between two models (R-LOS-*, R-COV-*,
R-RANGE-1, R-DIST-1).

Everything that asks "can this model shoot that one, and how hard is it?"
(the engine, combat, ``wasteland los``, the window) calls :func:`analyse`.
It chooses, by the rules, what the geometry modules get: which pieces block
sight for this pair (per-model overrides R-TER-2, dense area R-LOS-4, huge
bases R-LOS-3), which objects are cover and which are ignored and why
(R-COV-2..6), and it turns the geometry's answers into the shot's numbers
(skill modifier, armor bonus or boost, distance, range bands). The geometry
itself lives in :mod:`geometry.sight.index`, :mod:`geometry.cover.lines` and
:mod:`geometry.ranges`.

The per-board preparation (merged, triangulated blocking pieces; cover
footprints) is built once per scenario and kept while the scenario lives
(:func:`~sim.shooting.board.prepared_board`, held by ``scenario.prepared``), so
the window's one-against-all queries only pay for the pairs.

Examples
--------
>>> from pathlib import Path
>>> from sim.scenario.format.loader import load_scenario
>>> from sim.scenario.positions import initial_positions
>>> s = load_scenario(Path(__file__).parents[2] / "scenarios" / "seed-cover-1.toml")
>>> shot = analyse(s, initial_positions(s), "knight", "mutant")
>>> shot.cover, shot.skill_modifier, shot.armor_bonus
(('crate',), -2, 1)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from itertools import chain
from typing import cast

import numpy as np
from numpy.typing import NDArray

from geometry.cover.filters import bases_entered, split_at
from geometry.cover.objects import CoverObject
from geometry.cover.table import disc_code
from geometry.discs import Disc
from geometry.sight.index import Obstacle, Sight, pair_rows
from sim.errors import UsageError
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position
from sim.shooting.board import PreparedBoard, prepared_board
from sim.shooting.fan_plan import (
    Batched,
    FanPlan,
    batch,
    batched,
    by_heights,
    cover_kinds,
    elevated_at,
    fan_plan,
)
from sim.shooting.model_cover import (
    huge_blockers,
    huge_on_table,
    model_cover,
)
from sim.shooting.shot_analysis import (
    ENTERS_ONLY,
    FRIENDLY,
    HUGE_IN_MELEE,
    HUGE_NOT_LARGER,
    TOUCHES_ATTACKER,
    IgnoredCover,
    Reason,
    ShotAnalysis,
    ShotPair,
)
from sim.shooting.shot_numbers import shot, terms_of
from sim.shooting.sight_batches import name_blockers

__all__ = ["ENTERS_ONLY", "FRIENDLY", "HUGE_IN_MELEE", "HUGE_NOT_LARGER", "TOUCHES_ATTACKER",
           "IgnoredCover", "PreparedBoard", "Reason", "ShotAnalysis", "analyse", "analyse_many",
           "analyse_moved", "blocking_pieces", "edge_stand_ins", "prepared_board", "sight_extras"]



# --- one pair ---------------------------------------------------------------

_Objects = list[CoverObject]  # (built once: a subscripted type per pair costs time)

# Named tuples built in bulk (bases, pairs, answers), every field in order: quicker
# than their generated __new__.
_new = tuple.__new__


def disc_of(scenario: Scenario, model_id: str, pos: Position) -> Disc:
    return Disc(pos.x, pos.y, scenario.radius_of(model_id))


def _discs(board: PreparedBoard, positions: Mapping[str, Position]) -> dict[str, Disc]:
    """The base of every model on the table."""
    radius = board.radius
    return {mid: _new(Disc, (p.x, p.y, radius[mid])) for mid, p in positions.items()}


def _entered(ids: list[str], discs: Mapping[str, Disc], attacker: str, targets: Sequence[str],
             rows: NDArray[np.float64]) -> list[list[int]]:
    """Per pair of a fan, the columns of ``ids`` (the bases on the table) whose base its
    centre line enters, other than its own two (compiled, one call)."""
    column = {mid: k for k, mid in enumerate(ids)}
    bases = np.fromiter(chain.from_iterable(discs.values()), np.float64,
                        3 * len(discs)).reshape(-1, 3)
    found, stops = bases_entered(rows, bases, column[attacker],
                                 np.array([column[t] for t in targets], np.int64))
    return split_at(found.tolist(), stops)


def blocking_pieces(board: PreparedBoard, pair: ShotPair) -> frozenset[str]:
    """Pieces that block sight for this pair (R-LOS-1, R-LOS-4, R-TER-2).

    A piece blocks only when it blocks for both models: a model that sees
    over a piece (an override for its size, unit or keyword) also is seen
    over it, and the piece is cover instead (docs/sight.md, Decisions).
    Elevation (R-ELEV-5): a piece blocks only while both bases are below its
    top; otherwise it is cover (:mod:`sim.shooting.elevation_rules`). Such a piece
    stays in the set when its significant edge blocks this pair exactly as
    the piece would (R-ELEV-2); results then name it by its edge
    (:func:`edge_stand_ins`), and pairs on different heights share one
    sight index more often.
    """
    return _blocking(board, pair)[0]


def edge_stand_ins(board: PreparedBoard, pair: ShotPair) -> frozenset[str]:
    """Pieces of :func:`blocking_pieces` there only for their significant edge
    (R-ELEV-2, R-ELEV-5)."""
    return _blocking(board, pair)[1]


_NONE: frozenset[str] = frozenset()


def _blocking(board: PreparedBoard, pair: ShotPair) -> tuple[frozenset[str], frozenset[str]]:
    """:func:`blocking_pieces` and :func:`edge_stand_ins` of one pair."""
    below, lifted = by_heights(board, pair.attacker, pair.target, pair.z_a, pair.z_t)
    if not lifted:
        return below, _NONE
    return _with_stand_ins(board, pair, below, lifted)


def _with_stand_ins(board: PreparedBoard, pair: ShotPair, below: frozenset[str],
                    lifted: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str]]:
    """The blocking pieces with the lifted ones whose edge blocks as they would (R-ELEV-2)."""
    stand_ins = board.elevation.edges_standing_in(lifted, pair.a, pair.z_a, pair.t, pair.z_t)
    return (below | stand_ins if stand_ins else below), stand_ins


def sight_extras(scenario: Scenario, positions: Mapping[str, Position], pair: ShotPair,
                 blocking: frozenset[str] | None = None) -> list[Obstacle]:
    """Per-query sight obstacles: huge bases and significant edges (R-ELEV-2).

    ``blocking`` (the pair's :func:`blocking_pieces`, computed when not given)
    spares the edges of pieces that block anyway.
    """
    got = _extras(prepared_board(scenario), positions, pair, blocking)
    return got if isinstance(got, list) else list(got)


def _extras(board: PreparedBoard, positions: Mapping[str, Position], pair: ShotPair,
            blocking: frozenset[str] | None,
            huge_here: Sequence[tuple[str, Obstacle]] | None = None) -> Sequence[Obstacle]:
    """:func:`sight_extras` on a prepared board (``huge_here``: :func:`huge_on_table`);
    an elevated pair's walls come back as the memo's tuple itself when no huge base
    joins them (the sight index meets it by identity)."""
    huge = huge_blockers(board, positions, pair, huge_here) if board.huge else []
    if pair.z_a == pair.z_t:
        return huge  # (one height: neither is elevated, R-ELEV-1)
    elevated = elevated_at(board, pair.z_a, pair.z_t)
    if not (elevated.attacker or elevated.target):
        return huge  # no edge joins a ground-level query (R-ELEV-2)
    # (given blocking pieces, no piece is lifted: they are the key and spare their edges)
    below, lifted = (by_heights(board, pair.attacker, pair.target, pair.z_a, pair.z_t)
                     if blocking is None else (blocking, ()))
    return board.elevation.pair_walls(lifted, below, pair.a, pair.z_a, pair.t, pair.z_t,
                                      huge)[2]


def _fan_huge(board: PreparedBoard, positions: Mapping[str, Position],
              pairs: Sequence[ShotPair], plan: FanPlan) -> list[Sequence[Obstacle]]:
    """The huge bases the plan says block each pair of a fan (R-LOS-3): pairs alike in
    those share one list, and the sight index then looks it up once
    (``SightIndex._stack``)."""
    huge_here = huge_on_table(board, positions) if board.huge else []
    if huge_here:
        lists = [[ob for mid, ob in huge_here if mid in like] for like in plan.huge_sets]
        return [lists[k] for k in plan.huge_of]
    return [[]] * len(pairs)  # (one list: nothing joins these queries)


def terrain_cover(board: PreparedBoard, pair: ShotPair, near: Sequence[int] | None = None
                  ) -> list[CoverObject]:
    """Terrain cover objects this LoC may meet (R-COV-2, R-COV-4).

    A piece is a cover object for the pair when it is cover, blocks sight or
    is area terrain for either model (a blocking piece the shot goes around is
    cover too, R-COV-2). Elevation changes the count in
    :func:`~sim.shooting.shot_numbers.elevation_cover`.
    """
    kinds = cover_kinds(board, pair.attacker, pair.target)
    return [obj for i in (board.pieces_on(pair.a, pair.t) if near is None else near)
            if (obj := kinds[i]) is not None]


def _check_ids(scenario: Scenario, positions: Mapping[str, Position], ids: Sequence[str],
               weapon_id: str | None) -> None:
    known = prepared_board(scenario).side  # every model id, in order (a dict: no scan)
    for mid in ids:
        if mid not in known:
            raise UsageError(f"unknown model {mid!r}; known models: {', '.join(known)}")
        if mid not in positions:
            raise UsageError(f"model {mid!r} is not on the table")
    if weapon_id is not None and weapon_id not in scenario.weapons:
        raise UsageError(
            f"unknown weapon {weapon_id!r}; known weapons: {', '.join(sorted(scenario.weapons))}")


def analyse(scenario: Scenario, positions: Mapping[str, Position], attacker_id: str,
            target_id: str, weapon_id: str | None = None,
            climbing: Collection[str] = (), *, names: bool = True) -> ShotAnalysis:
    """Sight, cover and range from ``attacker_id`` to ``target_id``.

    ``positions`` holds the models on the table (a model absent from it is off
    the table) and the ``climbing`` ones at their marker: those can shoot and
    be shot but neither block nor give cover (R-CLIMB-3). Raises
    :class:`~sim.errors.UsageError` for an unknown model or weapon id, or a
    model that is not on the table. ``names=False``: the same analysis but for a
    blocked sight's blockers, left unnamed (``sight.blocked_by`` empty), for callers
    that read only the verdict and the numbers (the AI).
    """
    _check_ids(scenario, positions, (attacker_id, target_id), weapon_id)
    if attacker_id == target_id:
        raise UsageError(f"a model cannot shoot itself ({attacker_id!r})")
    return _analyse_pairs(scenario, positions, attacker_id, (target_id,), weapon_id,
                          frozenset(climbing), names)[0]


def analyse_many(scenario: Scenario, positions: Mapping[str, Position], attacker_id: str,
                 target_ids: Sequence[str] | None = None, weapon_id: str | None = None,
                 climbing: Collection[str] = (), *, names: bool = True
                 ) -> dict[str, ShotAnalysis]:
    """:func:`analyse` from one model against many (every other model on the table
    by default): the window's per-frame need. The same answers, with the sight
    queries batched (:meth:`geometry.sight.index.SightIndex.sight_many`); ``names``
    as for :func:`analyse`.
    """
    targets = (tuple(target_ids) if target_ids is not None
               else tuple(m for m in positions if m != attacker_id))
    _check_ids(scenario, positions, (attacker_id, *targets), weapon_id)
    if attacker_id in targets:
        raise UsageError(f"a model cannot shoot itself ({attacker_id!r})")
    shots = _analyse_pairs(scenario, positions, attacker_id, targets, weapon_id,
                           frozenset(climbing), names)
    return dict(zip(targets, shots, strict=True))


def analyse_moved(scenario: Scenario, positions: Mapping[str, Position], attacker_id: str,
                  targets: Sequence[str], weapon_id: str | None, climbing: Collection[str],
                  mover: str, spots: Sequence[Position], *, names: bool = True
                  ) -> list[ShotAnalysis]:
    """:func:`analyse` of ``attacker_id`` against each of ``targets`` (ids may repeat)
    with ``mover``, the attacker or that pair's target, standing at that pair's spot
    (``spots[i]``; the other models as ``positions`` has them): the places a model
    weighs, many boards in one call. The mover as the attacker has one height."""
    _check_ids(scenario, positions, (attacker_id, *targets), weapon_id)
    if attacker_id in targets or len(spots) != len(targets) or not all(
            mover in (attacker_id, t) for t in targets) or (mover == attacker_id and len(
                {s.z for s in spots}) > 1):
        raise UsageError(f"moved shots of {attacker_id!r}: one spot of {mover!r} a pair, "
                         "the mover in each pair, the attacker at one height")
    return _analyse_pairs(scenario, positions, attacker_id, targets, weapon_id,
                          frozenset(climbing), names, (mover, spots))


def _make_pair(scenario: Scenario, positions: Mapping[str, Position], attacker_id: str,
               target_id: str, climbing: frozenset[str] = frozenset(),
               board: PreparedBoard | None = None) -> ShotPair:
    board = prepared_board(scenario) if board is None else board
    pa, pt = positions[attacker_id], positions[target_id]
    return ShotPair(attacker_id, target_id, Disc(pa.x, pa.y, board.radius[attacker_id]),
                 Disc(pt.x, pt.y, board.radius[target_id]), pa.z, pt.z,
                 board.side[attacker_id], climbing)


def _fan(board: PreparedBoard, positions: Mapping[str, Position], discs: Mapping[str, Disc],
         attacker_id: str, targets: Sequence[str], climbing: frozenset[str]) -> list[ShotPair]:
    """The pairs from one attacker to many targets, sharing the bases of ``discs``."""
    a, z_a, side = discs[attacker_id], positions[attacker_id].z, board.side[attacker_id]
    return [_new(ShotPair, (attacker_id, t, a, discs[t], z_a, positions[t].z, side, climbing))
            for t in targets]


def _moved(board: PreparedBoard, pairs: list[ShotPair], mover: str,
           spots: Sequence[Position]) -> list[ShotPair]:
    """The pairs with ``mover`` (each pair's attacker or target) at each pair's spot."""
    r = board.radius[mover]  # (every field in order, as _fan builds them)
    return [_new(ShotPair, (p.attacker, p.target, _new(Disc, (s.x, s.y, r)), p.t, s.z, p.z_t,
                            p.side_a, p.off_table)) if p.attacker == mover
            else _new(ShotPair, (p.attacker, p.target, p.a, _new(Disc, (s.x, s.y, r)), p.z_a,
                                 s.z, p.side_a, p.off_table))
            for p, s in zip(pairs, spots, strict=True)]


def pair_sights(board: PreparedBoard, scenario: Scenario, positions: Mapping[str, Position],
                pairs: Sequence[ShotPair], rows: NDArray[np.float64] | None = None
                ) -> list[Sight]:
    """Sight for every pair (of any attackers), batched per set of blocking pieces
    (``rows``: the pairs' :func:`~geometry.sight.index.pair_rows`, when the caller has
    them)."""
    huge_here = huge_on_table(board, positions) if board.huge else []
    walls_of = board.elevation.pair_walls
    keys, stand_ins, extras = [], [], []
    for pair in pairs:
        key, lifted = by_heights(board, pair.attacker, pair.target, pair.z_a, pair.z_t)
        huge: Sequence[Obstacle] = (huge_blockers(board, positions, pair, huge_here)
                                    if huge_here else [])
        standing = _NONE
        if pair.z_a != pair.z_t:  # (one height: neither is elevated, R-ELEV-1)
            key, standing, huge = walls_of(lifted, key, pair.a, pair.z_a, pair.t, pair.z_t,
                                           huge)
        keys.append(key)
        stand_ins.append(standing)
        extras.append(huge)
    return _sights(board, pairs, keys, stand_ins, extras, batch(board, keys), rows)


def _fan_sights(board: PreparedBoard, positions: Mapping[str, Position],
                pairs: Sequence[ShotPair], plan: FanPlan, rows: NDArray[np.float64],
                names: bool = True) -> list[Sight]:
    """:func:`pair_sights` of a fan, with what its plan keeps: only a pair with an
    elevated model has lifted pieces whose edges may stand in (R-ELEV-5, R-ELEV-2)
    and walls of significant edges."""
    keys: tuple[frozenset[str], ...] = plan.below
    stand_ins: list[frozenset[str]] = [_NONE] * len(pairs)
    extras = _fan_huge(board, positions, pairs, plan)
    if plan.raised:
        found = list(keys)
        walls_of = board.elevation.pair_walls
        for i in plan.raised:
            p = pairs[i]
            found[i], stand_ins[i], extras[i] = walls_of(plan.lifted[i], keys[i], p.a, p.z_a,
                                                         p.t, p.z_t, extras[i])
        keys = tuple(found)
    return _sights(board, pairs, keys, stand_ins, extras, batched(board, plan, keys), rows,
                   names)


def _sights(board: PreparedBoard, pairs: Sequence[ShotPair], keys: Sequence[frozenset[str]],
            stand_ins: Sequence[frozenset[str]], extras: Sequence[Sequence[Obstacle]],
            how: Batched, rows: NDArray[np.float64] | None, names: bool = True
            ) -> list[Sight]:
    """The batched sight queries of ``how`` and their answers, blockers named alike
    (``names=False``: no blockers named, :func:`analyse`)."""
    rest = how.rest
    if len(how.groups) == 1:  # (one index for every pair, in order: the usual case)
        key = how.groups[0][0]
        found = board.sight_index(key).sight_many(  # (rest: the pieces outside that index)
            [(p.a, p.t) for p in pairs], extras, rows, names=names,
            shared=rest if any(rest) else None)
        if not names:
            return found
        return [sight if sight.visible else name_blockers(board, sight, keys[i], stand_ins[i])
                for i, sight in enumerate(found)]
    out: list[Sight | None] = [None] * len(pairs)
    for key, idx in how.groups:
        found = board.sight_index(key).sight_many(
            [(pairs[i].a, pairs[i].t) for i in idx], [extras[i] for i in idx],
            None if rows is None else rows[idx], names=names, shared=[rest[i] for i in idx])
        for i, sight in zip(idx, found, strict=True):
            out[i] = (sight if sight.visible or not names
                      else name_blockers(board, sight, keys[i], stand_ins[i]))
    return [s for s in out if s is not None]


def _analyse_pairs(scenario: Scenario, positions: Mapping[str, Position], attacker_id: str,
                   targets: Sequence[str], weapon_id: str | None,
                   climbing: frozenset[str], names: bool = True,
                   moved: tuple[str, Sequence[Position]] | None = None) -> list[ShotAnalysis]:
    board = prepared_board(scenario)
    tolerance = scenario.rules_data.touch_tolerance
    discs = _discs(board, positions)
    pairs = _fan(board, positions, discs, attacker_id, targets, climbing)
    if moved is not None:  # (analyse_moved: the mover at each pair's spot)
        pairs = _moved(board, pairs, *moved)
    rows = pair_rows([(p.a, p.t) for p in pairs])  # one array for every compiled call
    plan = fan_plan(board, attacker_id, targets,
                    (pairs[0].z_a if pairs else positions[attacker_id].z,
                     *[p.z_t for p in pairs]), climbing)
    sights = _fan_sights(board, positions, pairs, plan, rows, names)
    lines = [(p.a, p.t) for p in pairs]
    # The pieces near each line that are cover objects for its pair, and how the line
    # meets each, in one compiled call (geometry.cover.table.CoverTable).
    offered, flags = board.cover_table.offered_hits(lines, rows, plan.offer, board.near_boxes,
                                                    tolerance)
    # The other bases each line enters, in one call (a line's own two never give
    # cover, so most lines have no base left to look at).
    ids = list(discs)
    entered = _entered(ids, discs, attacker_id, targets, rows)
    terms = terms_of(scenario, weapon_id)
    made: dict[str, CoverObject] = {}  # each base as a cover object, shared by the pairs
    out = []
    for pair, sight, elevated, kinds, row, terrain, found in zip(
            pairs, sights, plan.elevated, plan.kinds, entered, offered, flags, strict=True):
        # (offered holds only the pieces that are cover objects for the pair)
        objects = cast(_Objects, [kinds[i] for i in terrain])
        ruled_out: list[IgnoredCover] = []
        huge_on_line: tuple[str, ...] = ()
        if row:
            on_line = {ids[k]: discs[ids[k]] for k in row}
            here = positions if moved is None else {  # (the mover never enters a line)
                **positions, moved[0]: Position(pair.t.x, pair.t.y, pair.z_t)
                if moved[0] == pair.target else Position(pair.a.x, pair.a.y, pair.z_a)}
            models, ruled_out, huge_on_line = model_cover(board, scenario, here, pair,
                                                          on_line, entered=True, made=made)
            objects += models
            found += [disc_code(pair.a, pair.t, m.shape, tolerance)  # type: ignore[arg-type]
                      for m in models]
        out.append(shot(board, terms, pair, sight, elevated, objects, found, ruled_out,
                         huge_on_line))
    return out
