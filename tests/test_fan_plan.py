"""What a fan of shots keeps from call to call (sim/shooting/fan_plan.py) never makes
an answer stale (R-LOS-1, R-LOS-3, R-ELEV-1..5, R-COV-2..6, R-CLIMB-3).

One scenario object is asked again and again while models move, climb, land and
go climbing, as the window and the AI do; every answer must be the one a freshly
loaded scenario (nothing kept yet) gives for the same positions.
"""

from __future__ import annotations

import random
from dataclasses import replace

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
        rnd.shuffle(targets)
        targets = targets[:rnd.randint(1, len(targets))]
        here = dict(pos)
        if rnd.random() < 0.2:  # a model off the table (removed), not a target
            del here[rnd.choice([m for m in ids if m != attacker and m not in targets]
                                or [attacker])]
        if attacker not in here:
            continue
        fresh = load_scenario(SCENARIOS / f"{name}.toml")
        # The same fan with and without the climbing models, so each plan is asked again.
        for off in (climbing, frozenset(), climbing):
            got = analyse_many(kept, here, attacker, targets, climbing=off)
            expect = analyse_many(fresh, here, attacker, targets, climbing=off)
            assert got == expect, (step, attacker, sorted(off))
    assert prepared_board(kept).fans, "the fans were kept (else this test tests nothing)"


@pytest.mark.parametrize("name", ["errata-huge-sight", "errata-huge-cover"])
def test_a_kept_fan_follows_a_huge_model_that_climbs_and_lands(name: str) -> None:
    """R-CLIMB-3, R-LOS-3: a huge model that goes climbing stops blocking and giving
    cover, and blocks again when it lands, in fans asked before and after."""
    kept = load_scenario(SCENARIOS / f"{name}.toml")
    pos = initial_positions(kept)
    huge = sorted(prepared_board(kept).huge)
    assert huge, "the scenario has a huge model"
    changed = 0
    for attacker in pos:
        for h in huge:
            for off in (frozenset(), frozenset({h}), frozenset()):
                got = analyse_many(kept, pos, attacker, climbing=off)
                fresh = replace(kept)  # the same scenario with nothing prepared yet
                assert got == analyse_many(fresh, pos, attacker, climbing=off), (attacker, h)
            changed += got != analyse_many(replace(kept), pos, attacker, climbing={h})
    assert changed, "some fan depends on the climbing (else this test tests nothing)"
