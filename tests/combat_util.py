"""Helpers for the combat tests: seed scenarios, scripted dice, a game at an activation."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import cache

from sim.engine.gamedata import Phase
from sim.engine.state import GameState
from sim.game.kinds import new_game, parse_action
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import ModelPlacement, Scenario
from sim.scenario.rules import default_rules
from tests.conftest import SCENARIOS
from tests.dice_script import ScriptedRng, ScriptedRoll, armor_face, effect_face, skill_face

RULES = default_rules()


@cache
def scenario(name: str) -> Scenario:
    return load_scenario(SCENARIOS / f"{name}.toml")


def variant(base: Scenario, *, at: dict[str, tuple[float, float]] | None = None,
            rules: str | None = None, drop_terrain: bool = False,
            advantage: str | None = None) -> Scenario:
    """``base`` with models moved, another rule set, no terrain or a round-1 advantage."""
    models = tuple(replace(m, at=(at or {}).get(m.id, m.at)) for m in base.models)
    changes: dict[str, object] = {"models": models}
    if rules is not None:
        changes["rules"] = rules
    if drop_terrain:
        changes["terrain"] = ()
    if advantage is not None:
        changes["advantage"] = advantage
    return replace(base, **changes)  # type: ignore[arg-type]


def skill(v: int) -> ScriptedRoll:
    return skill_face(RULES, v)


def face(kind: str, *symbols: str) -> ScriptedRoll:
    return effect_face(RULES, kind, symbols)


def armor(v: int) -> ScriptedRoll:
    return armor_face(RULES, v)


def at_activation(base: Scenario, model: str, dice: Sequence[int | ScriptedRoll] = ()
                  ) -> GameState:
    """A fresh game in which ``model`` is being activated, dice scripted after that.

    The model's side gets the advantage and goes first, so the turn structure
    rolls no dice (R-TURN-2); the script is consumed by the actions only.
    """
    side = next(m.side for m in base.models if m.id == model)
    state = new_game(replace(base, advantage=side), seed=0, rng=ScriptedRng(dice))
    state.apply(parse_action(f"first {side}"))
    state.apply(parse_action(f"ready {model}"))
    if state.phase is Phase.CHOOSE_OPTION:
        state.apply(parse_action("option-b"))
    if state.phase is Phase.ACTIVATE:
        state.apply(parse_action(f"activate {model}"))
    assert state.phase is Phase.ACTIVATION and state.activation is not None
    assert state.activation.model == model
    return state


def placement(base: Scenario, model: str) -> ModelPlacement:
    return base.model(model)
