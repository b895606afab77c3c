"""Issue 12, R-CLIMB-5 (revised): in ``vts-1.5`` no fall ever deals damage or removes
a model, whatever the height (``scenarios/errata-vts-fall.toml``); a ``rulebook`` fall
from the same push still does (R-FALL-1, R-FALL-2), the control.

A knight on a top hits a super mutant with the power fist (push back Orange); the
push carries the mutant over the edge and it falls (docs/movement.md, Decisions)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from sim.engine.gamedata import Status
from sim.engine.state import GameState
from sim.game.kinds import parse_action
from tests.combat_util import armor, at_activation, face, scenario, skill, variant
from tests.dice_script import ScriptedRoll

R40 = 20 / 25.4  # radius of a 40 mm base
NEAR = 2e-3  # a landed base touches the wall, at most a hair away
# The power fist hits: skill 6 against S 6, blank damage and armor-reduction dice,
# armor roll 1 against physical armor 1: 3 - 1 = 2 damage (docs/combat.md).
HIT: tuple[ScriptedRoll, ...] = (skill(6), face("damage"), face("armor-reduction"), armor(1))


def blow(rules: str, knight: str, target: str, *fall: ScriptedRoll) -> GameState:
    """``knight`` hits ``target``; ``fall`` dice are scripted after the hit and must all
    be used (none are left over, none are missing)."""
    sc = variant(scenario("errata-vts-fall"), rules=rules)
    state = at_activation(sc, knight, [*HIT, *fall])
    state.apply(parse_action(f"close-combat {knight} {target} power_fist"))
    assert state.rng.remaining == 0  # type: ignore[attr-defined]
    return state


def fell(state: GameState) -> Mapping[str, Any]:
    return next(e for e in state.events if e.kind == "fell").data


def test_scenario_is_vts() -> None:
    assert scenario("errata-vts-fall").rules == "vts-1.5"


def test_vts_fall_from_a_roof_lands_unhurt() -> None:
    """A 5 in fall (Red in the rulebook, +4): no dice, no damage; the mutant lands at the
    foot of the wall with only the blow's 2 damage, and the log says why."""
    state = blow("vts-1.5", "knight-a", "mutant-a")
    m = state.model("mutant-a")
    assert m.in_play and m.health == 4 - 2
    assert m.position.z == 0.0 and m.position.x == pytest.approx(10 + R40, abs=NEAR)
    data = fell(state)
    assert data["distance"] == pytest.approx(5.0) and data["dealt"] == 0
    text = next(str(e) for e in state.events if e.kind == "fell")
    assert "no fall damage in vts-1.5 (R-CLIMB-5)" in text and "unhurt" in text


def test_vts_fall_from_above_black_keeps_the_model_in_play() -> None:
    """13 in is above Black (12 in): the rulebook removes the model; vts-1.5 does not."""
    state = blow("vts-1.5", "knight-b", "mutant-b")
    m = state.model("mutant-b")
    assert m.in_play and m.status is not Status.ELIMINATED and m.health == 4 - 2
    assert m.position.z == 0.0 and m.position.x == pytest.approx(22 + R40, abs=NEAR)
    assert fell(state)["distance"] == pytest.approx(13.0)
    assert "removed" not in [e.kind for e in state.events]


def test_control_rulebook_fall_from_the_roof_deals_damage() -> None:
    """The same push in the rulebook: Red (+4), blank black die, armor roll 1 blocks 1:
    3 damage on a mutant left with 2 health: eliminated by the fall."""
    state = blow("rulebook", "knight-a", "mutant-a", face("damage"), armor(1))
    data = fell(state)
    assert data["colour"] == "red" and data["base"] == 4 and data["dealt"] == 3
    assert state.model("mutant-a").status is Status.ELIMINATED


def test_control_rulebook_fall_from_above_black_removes() -> None:
    state = blow("rulebook", "knight-b", "mutant-b")
    assert state.model("mutant-b").status is Status.ELIMINATED
    assert "removed" in [e.kind for e in state.events]
