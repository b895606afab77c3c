"""What a fan of shots keeps from call to call (sim/shooting/fan_plan.py) never makes
an answer stale (R-LOS-1, R-LOS-3, R-ELEV-1..5, R-COV-2..6, R-CLIMB-3).

One scenario object is asked again and again while models move, climb, land and
go climbing, as the window and the AI do; every answer must be the one a freshly
loaded scenario (nothing kept yet) gives for the same positions.
"""

from __future__ import annotations

import random

import pytest

from sim.scenario.format.loader import load_scenario
from sim.scenario.positions import Position, initial_positions
from sim.shooting.analysis import analyse_many, prepared_board
from tests.conftest import SCENARIOS

HEIGHTS = (0.0, 0.0, 3.0, 4.0, 8.0)  # ground most often; roofs and shelves


@pytest.mark.parametrize("name", ["skirmish", "elev-two-storey", "elev-sniper-edge"])
def test_kept_fans_answer_as_a_fresh_scenario_while_models_move(name: str) -> None:
    kept = load_scenario(SCENARIOS / f"{name}.toml")
    pos = dict(initial_positions(kept))
    w, h = kept.board
    rnd = random.Random(f"fan-plan-{name}")
    ids = list(pos)
    huge = sorted(prepared_board(kept).huge) or ids  # a huge model climbing matters most
    for step in range(25):
        moved = rnd.choice(ids)  # one model moves, maybe to another height
        z = pos[moved].z if rnd.random() < 0.5 else rnd.choice(HEIGHTS)
        pos[moved] = Position(rnd.uniform(1, w - 1), rnd.uniform(1, h - 1), z)
        climbing = (frozenset({rnd.choice(huge if rnd.random() < 0.5 else ids)})
                    if rnd.random() < 0.4 else frozenset())
        attacker = rnd.choice(ids)
        targets = [t for t in ids if t != attacker]
        got = analyse_many(kept, pos, attacker, targets, climbing=climbing)
        fresh = load_scenario(SCENARIOS / f"{name}.toml")
        expect = analyse_many(fresh, pos, attacker, targets, climbing=climbing)
        assert got == expect, (step, attacker)
    assert prepared_board(kept).fans, "the fans were kept (else this test tests nothing)"
