"""Elevation scenarios (issue 4): every stated answer through ``wasteland los --json``
and through :func:`sim.shooting.analysis.analyse` (R-ELEV-1..5).

The expected answers are the ones written at the top of each
``scenarios/elev-*.toml``, worked out from the rules and the drawn positions.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any
from unittest.mock import patch

import pytest
import shapely
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from geometry.discs import Disc
from geometry.elevation.edges import EdgeMap, Surface, significant_edges
from geometry.elevation.walls import sight_walls
from geometry.sight.index import Obstacle, SightIndex
from sim.cli import main
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import Scenario, TerrainPiece, TerrainProps
from sim.scenario.positions import Position, initial_positions
from sim.shooting import analysis
from sim.shooting.analysis import analyse
from sim.shooting.elevation_rules import BoardElevation

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"


@cache
def scenario(name: str) -> Scenario:
    return load_scenario(SCENARIOS / f"{name}.toml")


def los_json(capsys: pytest.CaptureFixture[str], name: str, a: str, b: str) -> dict[str, Any]:
    code = main(["los", str(SCENARIOS / f"{name}.toml"), a, b, "--json"])
    out = capsys.readouterr().out
    assert code == 0
    data: dict[str, Any] = json.loads(out)
    return data


# (scenario, attacker, target, sight, blocked_by, cover, skill, armor, elevated (a, t))
CASES = [
    # R-ELEV-2: more than Orange back from the edge, no sight to the foot of the building.
    ("elev-sniper-edge", "sniper-back", "mutant", False, {"tower:edge"}, set(), 0, 0,
     (True, False)),
    # (sniper-edge stands on the line of cover: an enemy model is cover, R-COV-5)
    ("elev-sniper-edge", "mutant", "sniper-back", False, {"tower:edge"}, {"sniper-edge"}, -2, 1,
     (False, True)),
    # Within Orange of the edge: sight; the return shot has the edge as cover (R-ELEV-3).
    ("elev-sniper-edge", "sniper-edge", "mutant", True, set(), set(), 0, 0, (True, False)),
    ("elev-sniper-edge", "mutant", "sniper-edge", True, set(), {"tower:edge"}, -2, 1,
     (False, True)),
    # R-ELEV-4: cover far from the target is ignored by an elevated shooter, near is not.
    ("elev-crate-reach", "sniper", "mutant-far", True, set(), set(), 0, 0, (True, False)),
    ("elev-crate-reach", "sniper", "mutant-near", True, set(), {"crate-near"}, -2, 1,
     (True, False)),
    ("elev-crate-reach", "mutant-far", "sniper", True, set(), {"crate-far", "roof:edge"}, -4, 1,
     (False, True)),
    # R-ELEV-5: the low wall blocks on the ground and is cover to and from the roof.
    ("elev-low-wall", "rifleman", "mutant", False, {"low-wall"}, {"low-wall"}, -2, 1,
     (False, False)),
    ("elev-low-wall", "sniper", "mutant", True, set(), {"low-wall"}, -2, 1, (True, False)),
    ("elev-low-wall", "mutant", "sniper", True, set(), {"low-wall", "roof:edge"}, -4, 1,
     (False, True)),
    # R-ELEV-1: exactly Orange higher is elevated, 1.99 in is not.
    ("elev-exact-orange", "high", "mutant-a", True, set(), set(), 0, 0, (True, False)),
    ("elev-exact-orange", "low", "mutant-b", True, set(), {"crate-b"}, -2, 1, (False, False)),
    ("elev-exact-orange", "mutant-a", "high", True, set(), {"crate-a", "ledge-2:edge"}, -4, 1,
     (False, True)),
    ("elev-exact-orange", "mutant-b", "low", True, set(), {"crate-b"}, -2, 1, (False, False)),
    # Stacked pieces: the upper storey's edge hides the open strip of the lower roof.
    ("elev-two-storey", "lookout-1", "roof-raider", False, {"building-1-upper:edge"}, set(), 0, 0,
     (True, False)),
    ("elev-two-storey", "lookout-2", "roof-raider", True, set(), set(), 0, 0, (True, False)),
    ("elev-two-storey", "roof-raider", "lookout-2", True, set(), {"building-1-upper:edge"}, -2, 1,
     (False, True)),
]
IDS = [f"{c[0]}:{c[1]}->{c[2]}" for c in CASES]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_stated_answers_in_json(capsys: pytest.CaptureFixture[str], case: tuple[Any, ...]) -> None:
    name, a, b, sight, blocked, cover, skill, armor, (ea, et) = case
    d = los_json(capsys, name, a, b)
    assert d["line_of_sight"] is sight
    assert (d["sight_line"] is not None) is sight
    assert set(d["blocked_by"]) == blocked
    assert set(d["cover"]) == cover and len(d["cover"]) == len(cover)
    assert d["skill_modifier"] == skill
    assert d["armor_bonus"] == armor and d["armor_boost"] == 0
    assert d["elevated"] == {"attacker": ea, "target": et}


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_stated_answers_from_analyse(case: tuple[Any, ...]) -> None:
    name, a, b, sight, blocked, cover, skill, armor, (ea, et) = case
    s = scenario(name)
    shot = analyse(s, initial_positions(s), a, b)
    assert shot.line_of_sight is sight
    assert set(shot.sight.blocked_by) == blocked
    assert set(shot.cover) == cover
    assert shot.skill_modifier == skill and shot.armor_bonus == armor
    assert (shot.elevated.attacker, shot.elevated.target) == (ea, et)


def test_ignored_cover_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    """R-ELEV-4 and R-ELEV-3 reasons name the rule."""
    d = los_json(capsys, "elev-crate-reach", "sniper", "mutant-far")
    reasons = {i["id"]: i["reason"] for i in d["ignored_cover"]}
    assert "R-ELEV-4" in reasons["crate-far"]
    d = los_json(capsys, "elev-two-storey", "roof-raider", "lookout-1")
    reasons = {i["id"]: i["reason"] for i in d["ignored_cover"]}
    assert "R-ELEV-3" in reasons["building-1-upper:edge"]


def test_human_output_names_the_edge_and_the_elevated_model(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["los", str(SCENARIOS / "elev-sniper-edge.toml"), "sniper-back", "mutant"]) == 0
    out = capsys.readouterr().out
    assert "blocked by tower:edge" in out
    assert "sniper-back is elevated" in out


# --- stepping up to the edge ----------------------------------------------------


def at_gap_from_east_wall(gap: float) -> dict[str, Position]:
    """elev-sniper-edge with sniper-back moved so its base is ``gap`` from the edge."""
    s = scenario("elev-sniper-edge")
    pos = dict(initial_positions(s))
    r = s.radius_of("sniper-back")
    pos["sniper-back"] = Position(20.0 - r - gap, 12.0, 6.0)
    del pos["sniper-edge"]
    return pos


def test_exactly_orange_from_the_edge_sees_down() -> None:
    """R-ELEV-2 blocks only *more* than Orange away."""
    s = scenario("elev-sniper-edge")
    orange = s.rules_data.orange
    assert analyse(s, at_gap_from_east_wall(orange), "sniper-back", "mutant").line_of_sight
    assert not analyse(s, at_gap_from_east_wall(orange + 0.01), "sniper-back",
                       "mutant").line_of_sight


def test_a_longer_orange_from_rules_data_moves_the_line() -> None:
    """Orange comes from rules data: with a 3 in Orange, 2.5 in back still sees down."""
    s = scenario("elev-sniper-edge")
    longer = replace(s, rules_data=replace(
        s.rules_data, rulers=(("orange", 3.0), *s.rules_data.rulers[1:])))
    pos = at_gap_from_east_wall(2.5)
    assert not analyse(s, pos, "sniper-back", "mutant").line_of_sight
    assert analyse(longer, pos, "sniper-back", "mutant").line_of_sight


def test_elevated_shooter_counts_an_enemy_model_only_near_the_target() -> None:
    """R-ELEV-4 for models as cover (R-COV-5): an enemy base on the line of cover
    counts from a roof only within Orange of the target."""
    s = scenario("elev-crate-reach")
    pos = dict(initial_positions(s))
    far_target = pos["mutant-far"]  # at (20, 13); the line of cover runs along y = 13
    pos["mutant-near"] = Position(15.0, 13.0, 0.0)  # its base 3.4 in from mutant-far's
    shot = analyse(s, pos, "sniper", "mutant-far")
    assert shot.cover == ()
    assert {i.id: i.reason for i in shot.ignored_cover}["mutant-near"].endswith("(R-ELEV-4)")
    pos["mutant-near"] = Position(far_target.x - 2.5, 13.0, 0.0)  # 0.93 in from it
    assert analyse(s, pos, "sniper", "mutant-far").cover == ("mutant-near",)
    # From the ground the far one counts as well (no R-ELEV-4).
    pos["mutant-near"] = Position(15.0, 13.0, 0.0)
    pos["sniper"] = Position(9.0, 13.0, 0.0)
    assert set(analyse(s, pos, "sniper", "mutant-far").cover) == {"crate-far", "mutant-near"}


def test_models_on_the_same_roof_see_each_other() -> None:
    """R-ELEV-5: both stand at the tower's top, so it does not block them; the
    line of cover never leaves it, so it is no cover either (R-COV-2)."""
    s = scenario("elev-sniper-edge")
    shot = analyse(s, initial_positions(s), "sniper-back", "sniper-edge")
    assert shot.line_of_sight and shot.cover == ()
    assert (shot.elevated.attacker, shot.elevated.target) == (False, False)


def test_low_wall_stops_blocking_for_a_model_at_its_top() -> None:
    """R-ELEV-5: "at or above" its top means not below it."""
    s = scenario("elev-low-wall")
    pos = dict(initial_positions(s))
    pos["rifleman"] = replace(pos["rifleman"], z=1.5)
    shot = analyse(s, pos, "rifleman", "mutant")
    assert shot.line_of_sight and shot.cover == ("low-wall",)
    pos["rifleman"] = replace(pos["rifleman"], z=1.49)
    assert not analyse(s, pos, "rifleman", "mutant").line_of_sight


def test_a_sight_line_through_a_roof_corner_does_not_slip_between_sides() -> None:
    """R-ELEV-2 with the exact sight module: every line from the sniper crosses the roof.

    The target stands off the corner, so critical lines run through the corner
    vertex itself; a wall handed over as separate segments would let them pass.
    """
    edges = significant_edges([Surface("roof", shapely.box(0, 0, 10, 10), 6.0)], 2.0)
    sniper, target = Disc(5.0, 5.0, 0.6), Disc(12.0, 12.0, 0.6)
    walls = [Obstacle(i, w) for i, w in sight_walls(edges, sniper, 6.0, target, 0.0)]
    seen = SightIndex([]).sight(sniper, target, walls)
    assert not seen.visible and seen.blocked_by == ("roof:edge",)
    # Within Orange of the west side only: the other three join as one chain of
    # walls, and lines through its corner (10, 10) reach the target's base.
    west = Disc(1.2, 5.0, 0.6)
    off_corner = Disc(12.0, 11.2, 0.6)
    walls = [Obstacle(i, w) for i, w in sight_walls(edges, west, 6.0, off_corner, 0.0)]
    assert [type(w.shape).__name__ for w in walls] == ["LineString"]
    seen = SightIndex([]).sight(west, off_corner, walls)
    assert not seen.visible and seen.blocked_by == ("roof:edge",)
    # Within Orange of the east side, the sniper sees out through it: the other
    # three sides still take part, but the open ends of their chain carry no stub.
    near_east = Disc(9.0, 5.0, 0.6)
    past_corner = Disc(11.5, 13.0, 0.6)  # some sight lines run close by the corner
    walls = [Obstacle(i, w) for i, w in sight_walls(edges, near_east, 6.0, past_corner, 0.0)]
    assert [w.id for w in walls] == ["roof:edge"]
    chain = walls[0].shape
    assert not isinstance(chain, Disc)
    assert chain.coords[0] == (10.0, 10.0) and chain.coords[-1] == (10.0, 0.0)
    assert SightIndex([]).sight(near_east, past_corner, walls).visible


ROUND = Surface("tower", shapely.Point(10, 10).buffer(2.0, quad_segs=64), 8.0, (10.0, 10.0, 2.0))
ROUND_EDGES = significant_edges([ROUND], 2.0)


@settings(max_examples=40, deadline=None)
@given(st.floats(0, 20), st.floats(0, 20), st.floats(0, 20), st.floats(0, 20))
def test_round_edge_as_exact_circle_matches_the_tower_outline(
        ax: float, ay: float, bx: float, by: float) -> None:
    """R-ELEV-2 on a round top: when both bases stand outside it and the elevated
    one is far from all of it, the edge joins as its exact circle. Oracle: the
    tower's outline as a blocking polygon (a line between two outside bases
    crosses the ring exactly when it enters the footprint); the polygon lies
    inside the circle, so where they differ (within 1e-3 in) only the circle
    may block."""
    a, b = Disc(ax, ay, 0.6), Disc(bx, by, 0.6)
    outside = [d for d in (a, b) if math.hypot(d.x - 10, d.y - 10) >= 2.0 + d.r + 1e-2]
    assume(len(outside) == 2 and math.hypot(ax - 10, ay - 10) - 2.0 - 0.6 > 2.0)
    walls = sight_walls(ROUND_EDGES, a, 6.0, b, 0.0)
    assert [type(w) for _, w in walls] in ([], [Disc])
    exact = SightIndex([]).sight(a, b, [Obstacle(i, w) for i, w in walls])
    oracle = SightIndex([Obstacle("tower", ROUND.footprint)]).sight(a, b)
    if exact.visible:
        assert oracle.visible
    elif oracle.visible and oracle.witness is not None:
        # Seen past the polygon only: the witness must pass within 1e-3 of the circle.
        line = shapely.LineString(oracle.witness)
        assert line.distance(shapely.Point(10, 10)) > 2.0 - 1e-3


# --- raising the whole board ------------------------------------------------------


def raised(s: Scenario, lift: float) -> Scenario:
    """Every piece with a height ``lift`` higher, all on a plateau ``lift`` high."""
    w, h = s.board
    plateau = TerrainPiece("plateau", TerrainProps(height=lift),
                           polygon=((-1.0, -1.0), (w + 1, -1.0), (w + 1, h + 1), (-1.0, h + 1)))
    pieces = tuple(
        replace(p, props=replace(p.props, height=p.props.height + lift))
        if p.props.height > 0 else p
        for p in s.terrain
    )
    return replace(s, terrain=(plateau, *pieces))


NAMES = ["elev-sniper-edge", "elev-crate-reach", "elev-low-wall", "elev-exact-orange",
         "elev-two-storey"]


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(NAMES), st.data(), st.sampled_from([2.0, 3.5, 10.0]))
def test_raising_every_piece_and_model_changes_no_answer(name: str, data: st.DataObject,
                                                         lift: float) -> None:
    """Issue 4 property: all heights and every z up by the same amount, same answers.

    The ground rises with them (a plateau under the whole board), so every
    drop stays as it was. Models may also be moved anywhere, at any height of
    a surface on the board.
    """
    s = scenario(name)
    ids = s.model_ids
    a = data.draw(st.sampled_from(ids))
    b = data.draw(st.sampled_from([i for i in ids if i != a]))
    pos = dict(initial_positions(s))
    levels = sorted({0.0, *(p.props.height for p in s.terrain)})
    for mid in (a, b):
        if data.draw(st.booleans()):
            w, h = s.board
            pos[mid] = Position(data.draw(st.floats(1, w - 1)), data.draw(st.floats(1, h - 1)),
                                data.draw(st.sampled_from(levels)))
    pa, pb = pos[a], pos[b]
    # Bases never overlap on a table (the loader refuses it).
    assume(math.hypot(pa.x - pb.x, pa.y - pb.y) >= s.radius_of(a) + s.radius_of(b))
    up = {k: replace(p, z=p.z + lift) for k, p in pos.items()}
    low = analyse(s, pos, a, b).to_json()
    high = analyse(raised(s, lift), up, a, b).to_json()
    assert high == low


# --- edges in the exact sight query, against an independent predicate ------------


def far_sides(edges: EdgeMap, high: Disc, z_low: float) -> list[int]:
    """R-ELEV-2 restated: sides above the lower base, more than Orange from the high one."""
    out = []
    for k, side in enumerate(edges.sides):
        near = side.line.distance(shapely.Point(high.x, high.y)) - high.r
        if side.top > z_low + 1e-9 and near > edges.orange + 1e-9:
            out.append(k)
    return out


def side_of(p: tuple[float, float], q: tuple[float, float], v: tuple[float, ...]) -> float:
    """Signed distance of ``v`` from the line ``p -> q``."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    return ((v[0] - p[0]) * dy - (v[1] - p[1]) * dx) / math.hypot(dx, dy)


def crosses_edges(p: tuple[float, float], q: tuple[float, float], edges: EdgeMap,
                  chosen: list[int], tol: float) -> bool:
    """Whether the segment ``p -> q`` crosses the chosen sides: through a side's
    inside, or through a corner shared by two chosen sides with their far ends
    on opposite sides of it. ``tol`` is how clear of a line counts as a side."""
    picked = set(chosen)
    seg = shapely.LineString([p, q])
    for k in chosen:
        (x0, y0), (x1, y1) = edges.sides[k].line.coords
        s0, s1 = side_of(p, q, (x0, y0)), side_of(p, q, (x1, y1))
        t0 = side_of((x0, y0), (x1, y1), p)
        t1 = side_of((x0, y0), (x1, y1), q)
        if s0 * s1 < 0 and abs(s0) > tol and abs(s1) > tol and t0 * t1 < 0 and min(
                abs(t0), abs(t1)) > tol:
            return True
        nxt = edges.successors[k]
        if nxt in picked and seg.distance(shapely.Point(x1, y1)) < tol:
            far = edges.sides[nxt].line.coords[-1]
            a, b = side_of(p, q, (x0, y0)), side_of(p, q, far)
            if a * b < 0 and min(abs(a), abs(b)) > tol:
                return True
    return False


boards = st.lists(
    st.tuples(st.integers(0, 14), st.integers(0, 14), st.integers(2, 6), st.integers(2, 6),
              st.sampled_from([1.0, 2.0, 3.0, 4.0, 6.0, 8.0])),
    min_size=1, max_size=3,
)
spots = st.tuples(st.floats(0, 20), st.floats(0, 20), st.sampled_from([0.0, 2.0, 4.0, 6.0, 8.0]))


@settings(max_examples=40, deadline=None)
@given(boards, spots, spots)
# Sight past the corner (0, 3) at 9e-8 in: grazing is not blocking (R-LOS-1).
@example(spec=[(0, 0, 2, 2, 1.0), (0, 0, 2, 2, 1.0), (0, 0, 2, 3, 2.0)], pa=(0.0, 0.0, 2.0),
         pb=(1.192092896e-07, 4.0, 0.0))
def test_sight_with_edges_agrees_with_sampled_segments(
        spec: list[tuple[int, int, int, int, float]], pa: tuple[float, float, float],
        pb: tuple[float, float, float]) -> None:
    """R-ELEV-2 in the exact query (issue 3's property, with edges): a sampled free
    segment means sight, and a reported witness crosses no chosen edge."""
    edges = significant_edges([Surface(f"p{k}", shapely.box(x, y, x + w, y + h), z)
                               for k, (x, y, w, h, z) in enumerate(spec)], 2.0)
    a, b = Disc(pa[0], pa[1], 0.6), Disc(pb[0], pb[1], 0.6)
    assume(math.hypot(a.x - b.x, a.y - b.y) > 1.3)
    walls = [Obstacle(i, w) for i, w in sight_walls(edges, a, pa[2], b, pb[2])]
    seen = SightIndex([]).sight(a, b, walls)
    if abs(pa[2] - pb[2]) < 2.0:
        assert walls == [] and seen.visible
        return
    high, z_low = (a, pb[2]) if pa[2] > pb[2] else (b, pa[2])
    chosen = far_sides(edges, high, z_low)
    if seen.visible:
        assert seen.witness is not None
        p, q = seen.witness
        assert math.hypot(p[0] - a.x, p[1] - a.y) <= a.r + 1e-7
        assert math.hypot(q[0] - b.x, q[1] - b.y) <= b.r + 1e-7
        # The witness may graze a corner to within the sight tolerance (sight_parts.EPS).
        assert not crosses_edges(p, q, edges, chosen, 1e-6)
    else:
        rim = [(math.cos(t * math.pi / 8), math.sin(t * math.pi / 8)) for t in range(16)]
        for ux, uy in rim:
            for vx, vy in rim:
                p = (a.x + a.r * ux, a.y + a.r * uy)
                q = (b.x + b.r * vx, b.y + b.r * vy)
                assert crosses_edges(p, q, edges, chosen, 1e-6), (p, q)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_a_piece_standing_in_for_its_edge_gives_the_same_sight(data: st.DataObject) -> None:
    """R-ELEV-2/5: keeping a piece among the blockers when its whole edge would block
    exactly as it does (``edges_standing_in``) changes no answer: compared with
    handing its ring of walls to the query instead, on the two-storey board."""
    s = scenario("elev-two-storey")
    ids = s.model_ids
    a = data.draw(st.sampled_from(ids))
    b = data.draw(st.sampled_from([i for i in ids if i != a]))
    pos = dict(initial_positions(s))
    w, h = s.board
    mover = data.draw(st.sampled_from([a, b]))
    pos[mover] = Position(data.draw(st.floats(1, w - 1)), data.draw(st.floats(1, h - 1)),
                          data.draw(st.sampled_from([0.0, 3.0, 4.0, 8.0, 12.0])))
    pa, pb = pos[a], pos[b]
    assume(math.hypot(pa.x - pb.x, pa.y - pb.y) >= s.radius_of(a) + s.radius_of(b))
    folded = analyse(s, pos, a, b)
    with patch.object(BoardElevation, "edges_standing_in", lambda *_: frozenset()):
        walls = analyse(s, pos, a, b)
    assert folded.line_of_sight == walls.line_of_sight
    if not folded.line_of_sight:
        # The same blockers, named alike; a piece merged with a touching one
        # (R-LOS-1: they act as one) is named with it.
        tol = s.rules_data.touch_tolerance
        merged = {p.id for p in s.terrain for q in s.terrain
                  if p is not q and p.footprint.distance(q.footprint) <= tol}
        merged |= {f"{m}:edge" for m in merged}
        assert set(folded.sight.blocked_by) <= set(walls.sight.blocked_by) | merged


@settings(max_examples=15, deadline=None)
@given(st.data())
def test_batched_analysis_across_heights_matches_single_queries(data: st.DataObject) -> None:
    """``analyse_many`` batches pairs on different heights (R-ELEV-5 blocking sets)
    over one sight index; each answer must be what ``analyse`` gives alone."""
    s = scenario("elev-two-storey")
    pos = dict(initial_positions(s))
    w, h = s.board
    for mid in data.draw(st.lists(st.sampled_from(s.model_ids), max_size=3, unique=True)):
        pos[mid] = Position(data.draw(st.floats(1, w - 1)), data.draw(st.floats(1, h - 1)),
                            data.draw(st.sampled_from([0.0, 3.0, 4.0, 8.0])))
    attacker = data.draw(st.sampled_from(s.model_ids))
    many = analysis.analyse_many(s, pos, attacker)
    for target, shot in many.items():
        alone = analyse(s, pos, attacker, target)
        assert shot.line_of_sight == alone.line_of_sight, target
        assert shot.sight.blocked_by == alone.sight.blocked_by, target
        assert shot.cover == alone.cover, target
