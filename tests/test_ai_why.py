"""The why lines a player reads (issue 37, sim/ai/why.py): the reason first (the
target a place sees, the cover it gives, R-COV-2), a danger it leaves the model in
last, and no internal scores. Spots are built by hand so each case is one wording."""

from __future__ import annotations

import re

import pytest

from sim.ai import why
from sim.ai.scoring import AttackValue, Spot
from sim.scenario.format.loader import load_scenario
from sim.scenario.names import model_name
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position
from tests.conftest import SCENARIOS


@pytest.fixture(scope="module")
def skirmish() -> Scenario:
    return load_scenario(SCENARIOS / "skirmish.toml")


def shot(attacker: str, target: str, cover: int, p_hit: float = 0.41,
         band: str | None = "short") -> AttackValue:
    return AttackValue(attacker, target, "w", band, p_hit, 1.0, 0.1, cover, 0.3)


def spot(best: AttackValue | None, worst: AttackValue | None, gap: float = 0.0) -> Spot:
    return Spot("mutant-2", Position(10.0, 10.0), best, 0.2, worst, gap, 0.0)


def test_the_target_seen_comes_first_then_the_cover(skirmish: Scenario) -> None:
    words = why.spot_words(skirmish, spot(shot("mutant-2", "knight", 0),
                                          shot("sniper", "mutant-2", -2)))
    knight, sniper = model_name(skirmish, "knight"), model_name(skirmish, "sniper")
    assert words == f"sees {knight}, 41% to hit, cover -2 from {sniper}"


def test_a_danger_comes_after_the_reason(skirmish: Scenario) -> None:
    """The issue's complaint: "no cover from X" led the line instead of the reason."""
    words = why.spot_words(skirmish, spot(shot("mutant-2", "knight", 0),
                                          shot("sniper", "mutant-2", 0)))
    knight, sniper = model_name(skirmish, "knight"), model_name(skirmish, "sniper")
    assert words == f"sees {knight}, 41% to hit; no cover from {sniper}"
    charge = why.spot_words(skirmish, spot(None, shot("knight", "mutant-2", 0, band=None),
                                           gap=3.5))
    assert charge == (f"3.5 in from striking range of an enemy; in reach of {knight}'s "
                      "charge")


def test_a_place_out_of_reach_says_so(skirmish: Scenario) -> None:
    assert why.spot_words(skirmish, spot(None, None, gap=2.0)) == (
        "no enemy can attack it there, 2.0 in from striking range of an enemy")


def test_only_a_danger_is_said_when_the_place_offers_nothing(skirmish: Scenario) -> None:
    words = why.spot_words(skirmish, spot(None, shot("sniper", "mutant-2", 0)))
    assert words == f"no cover from {model_name(skirmish, 'sniper')}"


def test_a_move_line_reads_reason_first_and_carries_no_scores(skirmish: Scenario) -> None:
    line = why.move_line(skirmish, spot(shot("mutant-2", "knight", 0),
                                        shot("sniper", "mutant-2", 0)), 0.5)
    assert line.startswith(f"{model_name(skirmish, 'mutant-2')} moves to ")
    reason = line.split(": ", 1)[1]
    assert reason.startswith("sees ")
    # No internal score: every number is a chance, a distance or a cover modifier.
    assert re.findall(r"[-+]?\d+\.\d+(?! in)", reason) == []
