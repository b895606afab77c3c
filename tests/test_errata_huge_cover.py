"""Issue 12, R-COV-5 and R-COV-6 (revised): huge models give cover only to smaller
targets (``scenarios/errata-huge-cover.toml``).

Four lanes, shooter west, a model on the line of cover in the middle, target east:
a 60 mm target behind a 60 mm huge enemy and an 80 mm target behind a 60 mm one get
no cover (both had it before the revision); a 30 mm target behind a 40 mm enemy
(a normal model, the control) and a 30 mm target behind a 60 mm huge one (sight
passing beside it) do."""

from __future__ import annotations

import pytest

from render.explain.answers import shot as window_shot
from sim.cli import main
from sim.scenario.names import model_name
from sim.scenario.positions import initial_positions
from sim.shooting.analysis import HUGE_NOT_LARGER, ShotAnalysis, analyse
from sim.shooting.shot_analysis import HUGE_COVER, MODEL_COVER
from tests.combat_util import scenario

NAME = "errata-huge-cover"


def shot(attacker: str, target: str) -> ShotAnalysis:
    s = scenario(NAME)
    return analyse(s, initial_positions(s), attacker, target)


def bases(*ids: str) -> list[float]:
    s = scenario(NAME)
    return [s.unit_of(i).base for i in ids]


def ignored(a: ShotAnalysis) -> list[tuple[str, str]]:
    return [(i.id, i.reason) for i in a.ignored_cover]


@pytest.mark.parametrize("lane, attacker, middle, target, sizes", [
    ("a", "sentry-a", "brute-a", "brute-a2", [60, 60, 60]),
    ("b", "sentry-b", "brute-b", "behemoth-b", [60, 60, 80]),
])
def test_huge_model_gives_no_cover_to_a_target_as_large_or_larger(
        lane: str, attacker: str, middle: str, target: str, sizes: list[float]) -> None:
    """R-COV-6: the target's base is not smaller than the huge model's: no cover; the
    shot sees along the line of cover (R-LOS-3: the huge model is not larger than
    either base), so the line of cover does pass through it."""
    assert bases(attacker, middle, target) == sizes
    a = shot(attacker, target)
    assert a.line_of_sight and a.cover == () and a.skill_modifier == 0
    assert a.armor_bonus == 0
    assert ignored(a) == [(middle, HUGE_NOT_LARGER)]


def test_control_a_normal_enemy_model_still_gives_cover() -> None:
    """R-COV-5: a 40 mm super mutant on the line of cover (a normal model)."""
    assert bases("settler-c", "mutant-c", "raider-c") == [30, 40, 30]
    a = shot("settler-c", "raider-c")
    assert a.line_of_sight and a.cover == ("mutant-c",) and a.skill_modifier == -2
    assert a.cover_reasons == (MODEL_COVER,)


def test_huge_model_gives_cover_to_a_smaller_target() -> None:
    """R-COV-6: a 30 mm target, the 60 mm brute on the line of cover; a sight line
    passes south of the brute (R-LOS-3 blocks only the lines through it)."""
    assert bases("sentry-d", "brute-d", "raider-d") == [60, 60, 30]
    a = shot("sentry-d", "raider-d")
    assert a.line_of_sight and a.cover == ("brute-d",) and a.skill_modifier == -2
    assert a.cover_reasons == (HUGE_COVER,) and "R-COV-6" in HUGE_COVER


def test_los_and_the_window_give_the_same_reason(capsys: pytest.CaptureFixture[str]) -> None:
    s = scenario(NAME)
    assert main(["los", str(s.source), "sentry-a", "brute-a2"]) == 0
    assert f"brute-a: {HUGE_NOT_LARGER}" in capsys.readouterr().out
    assert HUGE_NOT_LARGER == "huge model, not larger than the target: no cover (R-COV-6)"
    _, lines = window_shot(s, initial_positions(s), "sentry-a", "brute-a2", None)
    # the window names the model as players read it (issue 16); the reason is the same
    brute = model_name(s, "brute-a")
    assert f"{brute}: not cover here: {HUGE_NOT_LARGER}" in [ln.text.strip() for ln in lines]
