"""Helpers for the movement tests: load a movement scenario in either rule set,
start a model's activation, and try or apply movement actions."""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any

from sim.engine.gamedata import Phase
from sim.engine.state import GameState
from sim.game.kinds import new_game, parse_action
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import Scenario
from tests.conftest import SCENARIOS

RULE_SETS = ("rulebook", "vts-1.5")


@cache
def _load(name: str) -> Scenario:
    return load_scenario(SCENARIOS / f"{name}.toml")


def scenario(name: str, rules: str = "rulebook") -> Scenario:
    """A shipped scenario by file stem, with its rule set switched to ``rules``."""
    base = _load(name)
    return base if base.rules == rules else replace(base, rules=rules)  # type: ignore[arg-type]


def activated(name: str | Scenario, model: str, rules: str = "rulebook", **kw: Any) -> GameState:
    """A new game of scenario ``name`` (or a Scenario) with ``model``'s activation in progress."""
    sc = scenario(name, rules) if isinstance(name, str) else name
    state = new_game(sc, seed=1, **kw)
    side = state.model(model).side
    state.apply(parse_action(f"first {side}"))
    state.apply(parse_action(f"ready {model}"))
    if state.phase is Phase.CHOOSE_OPTION:
        state.apply(parse_action("option-b"))
    if state.phase is Phase.ACTIVATE:
        state.apply(parse_action(f"activate {model}"))
    assert state.activation is not None and state.activation.model == model
    return state


def why(state: GameState, text: str) -> str | None:
    """Why the action ``text`` is illegal now, or None."""
    found = state.why_illegal(parse_action(text))
    return None if found is None else found.reason


def do(state: GameState, text: str) -> GameState:
    state.apply(parse_action(text))
    return state


# A base against a face at x = 10: its centre one radius short (R-UNIT-1, 30 / 40 mm bases).
AGAINST_30MM = 10 - 15 / 25.4
AGAINST_40MM = 10 - 20 / 25.4
