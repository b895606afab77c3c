"""The speed work of issue 33 gives the same answers by a cheaper road (docs/ai.md).

Each cheaper road is checked against the road it replaces, which stays in the
code as the one answer for everyone else: a reachable area's witness paths
asked point by point (PointReach) against the area built whole (R-MOV-1..4),
many paths swept in one check against one by one (R-MOV-3, R-MOV-4, R-EDGE-1),
the AI's walks planned in a batch against plan_movement, a place's worth after
the model's own move against a fresh scorer's. The expected values are the
replaced road's answers, never the new road's own.
"""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from geometry.movement.obstacles import MoveObstacle, ObstacleSet
from geometry.movement.paths import Level, check_legs, check_legs_many
from geometry.movement.reach import _dijkstra, reachable_area
from geometry.movement.reach_points import PointReach
from sim.ai.candidates import moves
from sim.ai.greedy import GreedyPlayer
from sim.ai.scoring import Scorer
from sim.engine.gamedata import Phase
from sim.engine.state import GameState
from sim.game.kinds import new_game
from sim.movement.kinds import walk
from sim.movement.plan import plan_movement, plan_walks
from sim.scenario.format.loader import load_scenario
from tests.conftest import SCENARIOS

TOL = 0.01
R = 15 / 25.4  # a 30 mm base (R-UNIT-1)


def _board(seed: int) -> Level:
    """Walls, posts, mud and other bases at random on a 24 in board."""
    rng = np.random.default_rng(seed)
    walls: list[MoveObstacle] = []
    mud: list[MoveObstacle] = []
    bases: list[MoveObstacle] = []
    for i in range(8):
        x, y = rng.uniform(2, 22, 2)
        w, h = rng.uniform(0.3, 4, 2)
        kind = i % 4
        if kind == 0:
            walls.append(MoveObstacle.circle(f"post-{i}", (x, y), float(rng.uniform(0.3, 1.2))))
        elif kind == 1:
            walls.append(MoveObstacle.polygon(f"wall-{i}", shapely.box(x, y, x + w, y + h)))
        elif kind == 2:
            mud.append(MoveObstacle.polygon(f"mud-{i}", shapely.box(x, y, x + w, y + h)))
        else:
            bases.append(MoveObstacle.circle(f"base-{i}", (x, y), R))
    return Level((24.0, 24.0), ObstacleSet(tuple(walls)), ObstacleSet(tuple(mud)),
                 ObstacleSet(tuple(bases)), tolerance=TOL)


def _start(level: Level, seed: int) -> tuple[float, float]:
    rng = np.random.default_rng(seed)
    while True:
        s = (float(rng.uniform(2, 22)), float(rng.uniform(2, 22)))
        if check_legs(level, R, [s]).legal:
            return s


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("avoid", [True, False])
def test_point_reach_gives_the_witness_path_of_the_whole_area(seed: int, avoid: bool) -> None:
    """R-MOV-1..4: asked point by point, the reachable area answers as the area built
    whole does: the same points inside (with the same witness path), the same outside."""
    level = _board(seed)
    start = _start(level, 100 + seed)
    whole = reachable_area(level, R, start, 8.0, avoid_difficult=avoid)
    lazy = PointReach(level, R, start, 8.0, avoid_difficult=avoid)
    assert lazy.surely_reaches == (not whole.area.is_empty)  # (this board's start is free)
    rng = np.random.default_rng(seed)
    inside = 0
    for x, y in rng.uniform(0, 24, (300, 2)).tolist():
        expected = whole.path_to((x, y))
        assert lazy.path_to((x, y)) == expected, (x, y)
        inside += expected is not None
    assert inside > 20  # the comparison saw the inside, not only the outside


@pytest.mark.parametrize("seed", range(4))
def test_witness_paths_asked_together_are_those_asked_one_by_one(seed: int) -> None:
    """R-MOV-1..4: the AI's walks ask the area for many points' witness paths at once;
    each is the path asked alone gives (None outside), through the same first node."""
    level = _board(seed)
    whole = reachable_area(level, R, _start(level, 100 + seed), 8.0, avoid_difficult=True)
    pts = [(float(x), float(y)) for x, y in np.random.default_rng(seed).uniform(0, 24, (200, 2))]
    alone = [whole.path_to(p) for p in pts]
    assert whole.paths_to(pts) == alone
    assert sum(p is not None for p in alone) > 20  # the inside was compared too
    assert whole.paths_to([]) == []


@pytest.mark.parametrize("seed", range(6))
def test_shortest_paths_skip_only_pairs_no_path_can_use(seed: int) -> None:
    """R-MOV-1..4: the reachable area's tree leaves out node pairs too far from the
    start to be on a path within the ruler; its distances and parents are those of
    the tree over every pair."""
    level = _board(seed)
    bent = 0
    for k in range(4):
        whole = reachable_area(level, R, _start(level, 100 + 10 * seed + k), 8.0)
        nodes = list(whole.nodes)
        dist, parent = _dijkstra(level.blocking, nodes, R - TOL, 8.0, prune=False)
        assert list(whole.dist) == dist
        assert list(whole.parent) == parent
        bent += sum(p > 0 for p in parent)
    assert bent > 0  # paths bending at nodes were compared, not only straight ones


def test_point_reach_from_difficult_ground_reaches_nowhere() -> None:
    """R-MOV-1: a start on difficult ground keeps no full-ruler area; PointReach says so
    (the caller then builds the shorter ruler's area, as for the whole area)."""
    mud = MoveObstacle.polygon("mud", shapely.box(8, 8, 14, 14))
    level = Level((24.0, 24.0), difficult=ObstacleSet((mud,)), tolerance=TOL)
    lazy = PointReach(level, R, (11.0, 11.0), 8.0, avoid_difficult=True)
    assert not lazy.surely_reaches
    assert lazy.path_to((11.0, 16.0)) is None


@pytest.mark.parametrize("seed", range(4))
def test_paths_swept_together_get_the_reports_of_paths_swept_alone(seed: int) -> None:
    """R-MOV-3, R-MOV-4, R-EDGE-1: the batched sweep refuses and names exactly as the
    path-by-path check, edge crossings, walls, mud crossed and bases ended on included."""
    level = _board(seed)
    rng = np.random.default_rng(seed)
    paths = [[(float(x), float(y)) for x, y in rng.uniform(-1, 25, (int(rng.integers(1, 4)), 2))]
             for _ in range(60)]
    for rest in (True, False):
        alone = [check_legs(level, R, p, rest=rest) for p in paths]
        assert check_legs_many(level, R, paths, rest=rest) == alone
        assert {a.legal for a in alone} == {True, False}  # both answers were compared


def _activation(seed: int) -> GameState:
    state = new_game(load_scenario(SCENARIOS / "skirmish.toml"), seed=seed)
    greedy = GreedyPlayer(1)
    while state.phase is not Phase.ACTIVATION:
        state.apply(greedy.decide(state).action)
    return state


def test_walks_planned_in_a_batch_are_the_plans_of_plan_movement() -> None:
    """R-MOV-1..5: the AI's walks planned together (one sweep) are the plans the move
    check makes of each alone: the same verdicts, lengths and ends."""
    batched = _activation(3)
    act = batched.activation
    assert act is not None
    me = batched.model(act.model).position
    walks = [walk((me.x + dx, me.y + dy)) for dx in (-9.0, -3.0, 0.5, 4.0, 12.0)
             for dy in (-7.0, 0.0, 2.5, 30.0)]
    plan_walks(batched, act.model, walks)
    alone = _activation(3)
    plans = [plan_movement(batched, act.model, w) for w in walks]
    assert plans == [plan_movement(alone, act.model, w) for w in walks]
    assert {p.reason is None for p in plans} == {True, False}


def test_a_place_is_worth_the_same_after_the_model_moved_away_from_it() -> None:
    """A scorer keeps a place's worth by the board the model meets there: after the
    model's own move, the places it weighed are worth what a fresh scorer says."""
    state = _activation(5)
    act = state.activation
    assert act is not None
    model = act.model
    here = state.model(model).position
    kept = Scorer()
    before = kept.spot(state, model, here, 1)
    state.apply(moves(state, model)[0])  # (the AI's own walks: legal ones)
    assert state.model(model).position != here
    again = kept.spot(state, model, here, 0)
    fresh = Scorer().spot(state, model, here, 0)
    assert again == fresh
    assert (again.best, again.threat, again.gap) == (before.best, before.threat, before.gap)


def test_the_charges_left_unswept_are_all_illegal() -> None:
    """The kinds offer a straight charge at every enemy; the AI drops, unswept, those
    longer than the Charge ruler as the crow flies (R-MOV-1, R-MOV-5): the engine
    refuses every one of them, and the candidates are the legal charges of the rest."""
    from sim.ai.candidates import Reaches, _beyond_ruler, activation_actions
    from sim.movement.kinds import Charge

    dropped = kept = 0
    state = _activation(2)
    greedy = GreedyPlayer(1)
    for _ in range(120):  # a game's activations, as the armies close in
        if state.is_over:
            break
        act = state.activation
        if act is not None:
            offered = [a for k in state.kinds.values() for a in k.samples(state, act.model)
                       if isinstance(a, Charge)]
            for charge in offered:
                if _beyond_ruler(state, charge):
                    dropped += 1
                    assert not state.is_legal(charge), charge
                else:
                    kept += 1
            listed = {a for a in activation_actions(state, Reaches(), quick=True)
                      if isinstance(a, Charge)}
            assert {a for a in offered if state.is_legal(a)} <= listed
        state.apply(greedy.decide(state).action)
    assert dropped and kept
