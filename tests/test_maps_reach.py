"""The threat map's reach (issue 17, issue 32): a cell is threatened exactly where the
enemy's weapon reaches the base standing there, measured base edge to base edge
(R-RANGE-1, R-DIST-1), so by the centre distance less *both* radii. The map plans
only cells within that reach; a reach that forgot the enemy's base radius left the
outer ring of every enemy's reach at 0 (98 cells of the default board), and no
sampled test saw it.

An empty board, a 90 mm shooter (radius 1.77 in, so the ring is wide) with a rifle
of reach 14 in (Red 6 + Green 8), and a 30 mm model the map is for.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.maps.visibility import make_map
from sim.scenario.objects import Armor, ModelPlacement, Scenario, Side, Unit, Weapon
from sim.scenario.positions import initial_positions
from tests.maps_util import threat_reference

SPECIAL = {k: 5 for k in "SPECIAL"}
RIFLE = Weapon("rifle", "Rifle", "rifle", "red", "green", ("accuracy",), ("damage",), 2,
               "physical")
REACH = 6.0 + 8.0  # R-RULER-1: Red 6, Green 8
SHOOTER = (8.0, 15.0)


def unit(uid: str, base: float) -> Unit:
    return Unit(uid, uid, base, "yellow", "red", SPECIAL, {"rifle": "P"}, 3, Armor(1, 1, 1),
                frozenset({"human"}), ("rifle",))


@pytest.fixture(scope="module")
def board() -> Scenario:
    return Scenario(
        name="reach", rules="rulebook", board=(34.0, 30.0),  # type: ignore[arg-type]
        sides={"a": Side("a", "A"), "b": Side("b", "B")},
        units={"trooper": unit("trooper", 30), "giant": unit("giant", 90)},
        weapons={"rifle": RIFLE}, terrain=(),
        models=(ModelPlacement("giant", "giant", "a", SHOOTER),
                ModelPlacement("me", "trooper", "b", (30.0, 15.0))))


def test_threat_reaches_as_far_as_the_weapon_reaches_base_edge_to_base_edge(
        board: Scenario) -> None:
    pos = initial_positions(board)
    m = make_map(board, pos, "me", "threat", cell=0.5)
    gx, gy = m.grid.centres()
    r_me, r_giant = 30 / 25.4 / 2, 90 / 25.4 / 2
    gap = np.hypot(gx - SHOOTER[0], gy - SHOOTER[1]) - r_me - r_giant  # R-DIST-1
    values = np.array([[math.nan if v is None else v for v in row] for row in m.rows()])
    clear = np.abs(gap - REACH) > 1e-6  # (no cell sits on the boundary to rounding)
    stands = ~np.isnan(values)
    within = (gap <= REACH) & clear & stands
    beyond = (gap > REACH) & clear & stands
    assert np.all(values[within] > 0) and np.all(values[beyond] == 0)
    # The ring the enemy's own radius adds: threatened, with the shot preview's odds.
    ring = within & (gap > REACH - r_giant)
    assert ring.sum() > 50
    rows, cols = np.nonzero(ring)
    for i, j in list(zip(rows.tolist(), cols.tolist(), strict=True))[::10]:
        assert values[i, j] == pytest.approx(
            threat_reference(board, pos, "me", m.grid, i, j, 0.0), abs=1e-12)
