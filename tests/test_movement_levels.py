"""What a moving model meets (sim/movement/levels.py): R-MOV-3, R-MOV-4 and its Decision,
R-TER-2, R-CLIMB-3 (climbing markers block nothing), heights."""

from __future__ import annotations

from geometry.movement.paths import check_legs
from sim.movement.levels import in_the_way, level_for
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import TerrainProps
from sim.scenario.positions import Position, initial_positions
from tests.conftest import SCENARIOS

SKIRMISH = load_scenario(SCENARIOS / "skirmish.toml")


def _level(model: str, z: float = 0.0, climbing: frozenset[str] = frozenset(),
           moved: dict[str, Position] | None = None):
    positions = dict(initial_positions(SKIRMISH))
    positions.update(moved or {})
    sides = {m.id: m.side for m in SKIRMISH.models}
    radii = {m.id: SKIRMISH.radius_of(m.id) for m in SKIRMISH.models}
    return level_for(SKIRMISH, model, z, positions, sides, radii, 0.01, climbing=climbing)


def test_bases_by_side_and_size() -> None:
    """Enemies and huge bases block; friendly non-huge bases are only occupied."""
    lvl = _level("mutant-1")
    blocking = {o.id for o in lvl.blocking}
    occupied = {o.id for o in lvl.occupied}
    assert "behemoth" in blocking  # a friend, but huge (R-MOV-4)
    assert {"settler-1", "knight", "survivor"} <= blocking  # enemies
    assert {"mutant-2", "hound-1"} <= occupied
    assert "mutant-1" not in blocking | occupied
    # The sniper stands on the rock shelf (3 in): not at the ground's height.
    assert "sniper" not in blocking | occupied


def test_crossing_a_huge_friend_is_refused() -> None:
    lvl = _level("mutant-1")
    rep = check_legs(lvl, 20 / 25.4, [(10.0, 33.0), (2.5, 34.0)])
    assert not rep.legal and "behemoth" in rep.blocked_by


def test_climbing_markers_block_nothing() -> None:
    lvl = _level("mutant-1", climbing=frozenset({"settler-1"}))
    assert "settler-1" not in {o.id for o in lvl.blocking}


def test_pieces_in_the_way_by_height() -> None:
    """A piece stands in the way below its top; flat pieces only on the ground."""
    wall = TerrainProps(movement="impassable", height=3.0)
    mud = TerrainProps(movement="difficult", height=0.0)
    assert in_the_way(wall, 0.0) and in_the_way(wall, 2.9) and not in_the_way(wall, 3.0)
    assert in_the_way(mud, 0.0) and not in_the_way(mud, 3.0)
    roof = _level("sniper", 3.0)
    assert "rock-shelf" not in {o.id for o in roof.blocking}
    assert roof.floor is not None and roof.floor.area > 0
    ground = _level("settler-1")
    assert "rock-shelf" in {o.id for o in ground.blocking}
    assert "crater" in {o.id for o in ground.difficult}


def test_terrain_overrides_per_model() -> None:
    """R-TER-2 from a walker's side: deep water blocks a super mutant and shallow
    water slows a hound (the overrides for the hover robot and the deathclaw are
    tested on scenarios/move-deathclaw-water.toml)."""
    assert "deep-water" in {o.id for o in _level("mutant-1").blocking}
    hound = {o.id for o in _level("hound-1").difficult}
    assert "shallow-water" in hound
