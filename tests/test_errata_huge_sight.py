"""Issue 12, R-LOS-3 (revised): a huge model blocks a sight line when its base is
larger than the base of at least one of the two models
(``scenarios/errata-huge-sight.toml``).

Four lanes, a 60 mm brute straight between shooter and target: a 30 mm shooter
and a 60 mm target, a 60 mm shooter and a 30 mm target (both saw each other
before the revision), two 30 mm models (the control) have no line of sight; two
60 mm models see past it."""

from __future__ import annotations

import pytest

from render.explain.answers import shot as window_shot
from sim.cli import main
from sim.scenario.names import model_name
from sim.scenario.positions import initial_positions
from sim.shooting.analysis import ShotAnalysis, analyse
from sim.shooting.shot_analysis import HUGE_NOT_BLOCKING, huge_blocks_reason
from tests.combat_util import scenario

NAME = "errata-huge-sight"


def shot(attacker: str, target: str) -> ShotAnalysis:
    s = scenario(NAME)
    return analyse(s, initial_positions(s), attacker, target)


def bases(*ids: str) -> list[float]:
    s = scenario(NAME)
    return [s.unit_of(i).base for i in ids]


@pytest.mark.parametrize("attacker, brute, target, sizes, whose", [
    ("settler-a", "brute-a", "sentry-a2", [30, 60, 60], "the attacker's base"),
    ("sentry-b", "brute-b", "settler-b2", [60, 60, 30], "the target's base"),
    ("settler-c", "brute-c", "settler-c2", [30, 60, 30], "both bases"),  # the control
])
def test_huge_model_larger_than_one_of_the_two_blocks(
        attacker: str, brute: str, target: str, sizes: list[float], whose: str) -> None:
    """Blocked both ways (R-LOS-1 is symmetric), and the reason names whose base."""
    assert bases(attacker, brute, target) == sizes
    for a, t in ((attacker, target), (target, attacker)):
        s = shot(a, t)
        assert not s.line_of_sight and s.sight.blocked_by == (brute,)
    reasons = shot(attacker, target).sight_reasons
    assert [(r.id, r.reason) for r in reasons] == [
        (brute, f"huge model, larger than {whose}: blocks sight (R-LOS-3)")]


def test_huge_model_not_larger_than_either_base_does_not_block() -> None:
    assert bases("sentry-d", "brute-d", "sentry-d2") == [60, 60, 60]
    s = shot("sentry-d", "sentry-d2")
    assert s.line_of_sight and s.sight.blocked_by == ()
    assert [(r.id, r.reason) for r in s.sight_reasons] == [("brute-d", HUGE_NOT_BLOCKING)]


def test_reason_words() -> None:
    assert huge_blocks_reason(True, False) == (
        "huge model, larger than the attacker's base: blocks sight (R-LOS-3)")
    assert HUGE_NOT_BLOCKING == (
        "huge model, not larger than either base: does not block sight (R-LOS-3)")


def test_los_and_the_window_give_the_same_reason(capsys: pytest.CaptureFixture[str]) -> None:
    reason = huge_blocks_reason(True, False)
    s = scenario(NAME)
    main(["los", str(s.source), "settler-a", "sentry-a2"])
    out = capsys.readouterr().out
    assert "no line of sight: blocked by brute-a" in out and f"brute-a: {reason}" in out
    _, lines = window_shot(s, initial_positions(s), "settler-a", "sentry-a2", None)
    # the window names the model as players read it (issue 16); the reason is the same
    assert f"{model_name(s, 'brute-a')}: {reason}" in [ln.text.strip() for ln in lines]
