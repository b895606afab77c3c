"""The AI's bare shot plans (issue 33): ``names=False`` and :func:`plan_shots` give the
plans :func:`plan_shot` gives, and a refusal still names what blocks the sight when its
reason is read (R-SHOOT-1, R-LOS-1, R-RANGE-1)."""

from __future__ import annotations

import pickle

import pytest

from sim.combat.plan import AttackRefused, plan_shot, plan_shots, sighted
from sim.combat.situation import Situation
from tests.combat_util import scenario

PLASMA = "plasma_rifle"


def plasma_situation() -> Situation:
    return Situation.of_scenario(scenario("seed-plasma"))


def test_a_bare_plan_is_the_named_plan() -> None:
    """R-SHOOT-1: a plan is made only with sight, so leaving blockers unnamed changes
    nothing in it (odds, cover, analysis)."""
    bare = plan_shot(plasma_situation(), "survivor", "mutant-a", PLASMA, names=False)
    named = plan_shot(plasma_situation(), "survivor", "mutant-a", PLASMA)
    assert bare == named


def test_a_bare_refusal_still_names_the_blocker_when_read() -> None:
    """R-LOS-1: the bunker hides the mutant; the reason read from a bare plan's refusal
    names it, and a named plan made after it on the same board names it too (the bare
    analysis is not handed to callers that show blockers)."""
    sit = plasma_situation()
    with pytest.raises(AttackRefused) as refused:
        plan_shot(sit, "survivor", "mutant-hidden", PLASMA, names=False)
    assert "no line of sight" in refused.value.reason
    assert "blocked by bunker" in refused.value.reason
    assert "shoot survivor mutant-hidden plasma_rifle" in str(refused.value)
    sent = pickle.loads(pickle.dumps(refused.value))  # (a worker's refusal, in its parent)
    assert (str(sent), sent.reason) == (str(refused.value), refused.value.reason)
    with pytest.raises(AttackRefused, match=r"no line of sight.*blocked by bunker"):
        plan_shot(sit, "survivor", "mutant-hidden", PLASMA)


def test_plan_shots_gives_a_plan_per_band_the_target_lies_in() -> None:
    """R-RANGE-1: a base in both bands gives both plans, short first; a refused shot
    (out of sight, out of reach) gives none."""
    sit = plasma_situation()
    both = plan_shots(sit, "survivor", "mutant-straddle", PLASMA, names=False)
    assert [p.band for p in both] == ["short", "long"]
    assert both == (plan_shot(sit, "survivor", "mutant-straddle", PLASMA, "short"),
                    plan_shot(sit, "survivor", "mutant-straddle", PLASMA, "long"))
    assert plan_shots(sit, "survivor", "mutant-hidden", PLASMA) == ()
    assert plan_shots(sit, "survivor", "mutant-c", PLASMA) == ()


@pytest.mark.parametrize("name", ["seed-plasma", "skirmish", "elev-two-storey"])
def test_sighted_answers_where_plan_shots_plans(name: str) -> None:
    """R-SHOOT-1, R-LOS-1, R-RANGE-1, R-CLIMB-3: the AI's quick question gives an
    analysis exactly where plan_shots makes plans (in reach, in sight, the skill and the
    weapon right, not climbing), and it is the plans' analysis; every pair and weapon,
    friends, melee weapons and a climbing attacker included."""
    sit = Situation.of_scenario(scenario(name))
    ids = list(sit.positions)
    climbing = Situation(sit.scenario, sit.positions, sit.sides, frozenset(ids[:1]),
                         sit.health)
    asked = planned = 0
    for board in (sit, climbing):
        for a in ids:
            for t in ids:
                for w in sit.scenario.unit_of(a).weapons:
                    if a == t:
                        continue
                    plans = plan_shots(board, a, t, w, names=False)
                    ana = sighted(board, a, t, w, names=False)
                    assert (ana is None) == (plans == ()), (name, a, t, w)
                    assert all(p.analysis == ana for p in plans)
                    asked += 1
                    planned += bool(plans)
    assert asked > planned > 0
