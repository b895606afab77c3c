"""Typed action parameters (issue 15): every kind builds its actions from values.

The window and the AI fill an action's declared parameters (target, weapon,
band, a path of steps) and never read action text; the text form stays for
saves and the CLI. The oracle here is that text form: an action built from
an action's values equals the action, and its words are the text's.
"""

from __future__ import annotations

import math

import pytest

from sim.combat.plan import CloseCombat, Shoot
from sim.engine.actions import ModelAction
from sim.engine.rng import SeededRng
from sim.errors import IllegalActionError
from sim.game.kinds import GAME_KINDS, new_game, parse_action
from sim.movement.kinds import Charge, Leave, Move
from sim.movement.plan import Step
from sim.scenario.format.loader import load_scenario
from tests.conftest import SCENARIOS


def listed_model_actions(name: str, seed: int, steps: int = 120) -> list[ModelAction]:
    """Model actions listed along a seeded random playout of scenario ``name``."""
    state = new_game(load_scenario(SCENARIOS / name), seed)
    policy = SeededRng(seed)
    seen: list[ModelAction] = []
    for _ in range(steps):
        if state.is_over:
            break
        actions = list(state.legal_actions())
        seen += [a for a in actions if isinstance(a, ModelAction)]
        state.apply(policy.choice(actions))
    return seen


@pytest.mark.parametrize(("name", "kinds"), [
    ("combat-arena.toml", {"move", "shoot"}),
    ("move-climb.toml", {"move", "charge", "shoot", "close-combat"}),
    ("skirmish.toml", {"move", "shoot"}),
])
def test_every_listed_action_is_rebuilt_from_its_values_and_described_as_its_text(
        name: str, kinds: set[str]) -> None:
    actions = listed_model_actions(name, seed=7)
    assert {a.keyword for a in actions} >= kinds
    for a in actions:
        kind = GAME_KINDS.kind_of(a)
        assert kind is not None
        assert kind.build(a.model, a.values()) == a
        assert kind.describe(a) == " ".join(str(a).split()[2:])


def test_the_kinds_declare_their_parameters_in_text_order() -> None:
    """Each declared parameter is a field, the text lists them in that order (R-SHOOT-1,
    R-RANGE-1: the band; R-MOV-1, R-CLIMB-1: the steps with their heights)."""
    kinds = GAME_KINDS
    assert [p.kind for p in kinds["move"].params] == ["steps"]
    assert [p.kind for p in kinds["charge"].params] == ["target", "steps"]
    assert [p.kind for p in kinds["leave"].params] == ["points"]
    assert [p.kind for p in kinds["shoot"].params] == ["target", "weapon", "band"]
    assert [p.kind for p in kinds["close-combat"].params] == ["target", "weapon"]
    assert kinds["shoot"].param("band") is not None
    assert set(kinds["shoot"].params[2].choices) == {"short", "long"}
    assert kinds["move"].params[0].vertical and not kinds["leave"].params[0].vertical
    for kind in kinds.values():
        assert kind.action_type.undeclared() == ()


def test_a_partial_action_builds_to_none_until_its_last_value_is_given() -> None:
    shoot = GAME_KINDS["shoot"]
    assert shoot.build("settler-1", {"target": "mutant-a", "weapon": "rifle"}) is None
    assert shoot.build("settler-1", {"target": "mutant-a", "weapon": "rifle",
                                     "band": "long"}) == Shoot("settler-1", "mutant-a",
                                                               "rifle", "long")
    charge = GAME_KINDS["charge"]
    assert charge.build("m", {"steps": [Step("walk", 1.0, 2.0)]}) is None
    built = charge.build("m", {"target": "t", "steps": [Step("walk", 1.0, 2.0),
                                                        Step("climb", z=3.0)]})
    assert built == parse_action("charge m t 1.0 2.0 climb 3.0")


def test_values_build_the_same_action_as_its_text() -> None:
    kinds = GAME_KINDS
    assert kinds["leave"].build("m", {"points": [(1, 2), (3.5, 4)]}) == parse_action(
        "leave m 1.0 2.0 3.5 4.0")
    assert kinds["close-combat"].build("m", {"target": "t", "weapon": "club"}) == CloseCombat(
        "m", "t", "club")
    move = kinds["move"].build("m", {"steps": (Step("jump", z=0.0), Step("walk", 2.0, 1.0))})
    assert isinstance(move, Move) and str(move) == "move m jump 0.0 2.0 1.0"
    assert isinstance(kinds["charge"].build("m", {"target": "t", "steps": [Step("walk")]}),
                      Charge)
    assert isinstance(kinds["leave"].build("m", {"points": [(0.0, 0.0)]}), Leave)


@pytest.mark.parametrize(("keyword", "values", "message"), [
    ("shoot", {"target": "t", "weapon": "w", "band": "far"}, "band must be one of"),
    ("shoot", {"target": "t u", "weapon": "w", "band": "short"}, "target must be one word"),
    ("shoot", {"target": 3, "weapon": "w", "band": "short"}, "target must be one word"),
    ("move", {"steps": []}, "steps must be a non-empty sequence"),
    ("move", {"steps": [(1.0, 2.0)]}, "steps must hold Step values"),
    ("move", {"steps": [Step("walk", math.inf, 0.0)]}, "not finite"),
    ("leave", {"points": [(1.0, math.nan)]}, "(x, y) pairs of finite numbers"),
    ("leave", {"points": [Step("walk", 1.0, 2.0)]}, "(x, y) pairs"),
])
def test_a_value_of_the_wrong_type_is_refused_naming_the_action_and_what_was_expected(
        keyword: str, values: dict[str, object], message: str) -> None:
    with pytest.raises(IllegalActionError, match=f"illegal action '{keyword} m'") as exc:
        GAME_KINDS[keyword].build("m", values)
    assert message in exc.value.reason
