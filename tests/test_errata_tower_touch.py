"""Issue 12, R-COV-2 (revised Decision): an edge touches at its own height
(``scenarios/errata-tower-touch.toml``).

A ground shooter in base contact with the foot of a 6 in tower keeps the roof edge
as cover (R-ELEV-3) against a sniper on the roof within Orange of that edge: the
edge lies over its base's outline seen from above, but 6 in above it. The tower
itself still touches the base standing against it and is ignored (seed example 1).
The control: a shooter 0.5 in from the wall has the edge as cover too."""

from __future__ import annotations

import pytest

from render.explain.answers import shot as window_shot
from sim.cli import main
from sim.scenario.positions import Position, initial_positions
from sim.shooting.analysis import TOUCHES_ATTACKER, ShotAnalysis, analyse
from sim.shooting.shot_analysis import EDGE_COVER, HIGH_EDGE
from tests.combat_util import scenario

NAME = "errata-tower-touch"


def shot(attacker: str, positions: dict[str, Position] | None = None) -> ShotAnalysis:
    s = scenario(NAME)
    return analyse(s, positions or initial_positions(s), attacker, "sniper")


def test_the_wall_shooter_touches_the_tower() -> None:
    """The set-up: mutant-wall's base touches the tower's footprint (R-UNIT-2), on the
    ground; the sniper stands on the roof, elevated (R-ELEV-1)."""
    s = scenario(NAME)
    pos = initial_positions(s)
    gap = pos["mutant-wall"].x - s.radius_of("mutant-wall") - 20.0
    assert abs(gap) <= s.rules_data.touch_tolerance and pos["mutant-wall"].z == 0.0
    assert pos["sniper"].z == 6.0


def test_shooter_against_the_wall_keeps_the_roof_edge_as_cover() -> None:
    """Was: the edge 'touches the attacker's base' and gave no cover (skill 0)."""
    a = shot("mutant-wall")
    assert a.line_of_sight and a.elevated.target
    assert a.cover == ("tower:edge",) and a.skill_modifier == -2 and a.armor_bonus == 1
    assert a.cover_reasons == (EDGE_COVER + HIGH_EDGE,)
    assert "R-COV-2" in a.cover_reasons[0] and "R-ELEV-3" in a.cover_reasons[0]
    # The piece itself touches the base standing against it and is ignored.
    assert [(i.id, i.reason) for i in a.ignored_cover] == [("tower", TOUCHES_ATTACKER)]


def test_control_shooter_half_an_inch_from_the_wall_has_the_edge_as_cover() -> None:
    a = shot("mutant-near")
    assert a.line_of_sight and a.cover == ("tower:edge",) and a.skill_modifier == -2
    assert a.cover_reasons == (EDGE_COVER,)
    assert "tower" in [i.id for i in a.ignored_cover]  # entered, not passed through


def test_an_edge_less_than_orange_above_the_shooter_still_touches_it() -> None:
    """R-COV-2 is unchanged below Orange: the same base against the wall at 4.5 in
    (1.5 in below the roof edge; a ledge the scenario does not have, placed by hand),
    shooting at a sniper lifted to 8 in, loses the edge."""
    s = scenario(NAME)
    pos = dict(initial_positions(s))
    pos["mutant-wall"] = Position(pos["mutant-wall"].x, pos["mutant-wall"].y, 4.5)
    pos["sniper"] = Position(pos["sniper"].x, pos["sniper"].y, 8.0)
    a = analyse(s, pos, "mutant-wall", "sniper")
    assert "tower:edge" not in a.cover
    assert ("tower:edge", TOUCHES_ATTACKER) in [(i.id, i.reason) for i in a.ignored_cover]


def test_los_and_the_window_give_the_same_reason(capsys: pytest.CaptureFixture[str]) -> None:
    """`wasteland los` and the window's shot text say why the edge counts, with the rule."""
    reason = EDGE_COVER + HIGH_EDGE
    s = scenario(NAME)
    assert main(["los", str(s.source), "mutant-wall", "sniper"]) == 0
    assert f"tower:edge: {reason}" in capsys.readouterr().out
    _, lines = window_shot(s, initial_positions(s), "mutant-wall", "sniper", None)
    # the window names the edge in words (issue 16); the reason is the same
    assert f"edge of tower: counts as cover: {reason}" in [ln.text.strip() for ln in lines]
