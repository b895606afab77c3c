"""The AI's bare shot plans (issue 33): ``names=False`` and :func:`plan_shots` give the
plans :func:`plan_shot` gives, and a refusal still names what blocks the sight when its
reason is read (R-SHOOT-1, R-LOS-1, R-RANGE-1)."""

from __future__ import annotations

import pickle

import pytest

from sim.combat.plan import AttackRefused, plan_shot, plan_shots
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
