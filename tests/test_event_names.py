"""Issue 14: the event log names sides and models by their display names; the action
text (saves, the CLI) keeps the ids (sim.scenario.names; docs/engine.md, Decisions)."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import cast

import pytest

from sim.engine.rng import SeededRng
from sim.game.kinds import new_game, parse_action
from sim.scenario.names import DisplayNames, display_names
from sim.scenario.objects import RuleSet
from tests.combat_util import scenario


def test_sides_by_name_models_by_unit_name_with_the_id_when_shared() -> None:
    """seed-activation: four Settlers and three Super Mutants share their unit's name, so
    each carries its id; in seed-cover-1 every model's unit is its own."""
    names = display_names(scenario("seed-activation"))
    assert names.side("mutants") == "Super Mutants"
    assert names.model("settler-1") == "Settler (settler-1)"
    assert names.model("mutant-c") == "Super Mutant (mutant-c)"
    single = display_names(scenario("seed-cover-1"))
    s = scenario("seed-cover-1")
    assert single.model("knight") == s.unit_of("knight").name
    assert names.model("no-such-model") == "no-such-model"  # (a piece's id stays)


def test_names_are_built_once_per_scenario() -> None:
    s = scenario("seed-activation")
    assert display_names(s) is display_names(s)
    assert display_names(replace(s)) == DisplayNames.of(s)


def test_turn_events_use_names_and_actions_keep_ids() -> None:
    """The issue's example: 'settlers chooses settlers to take the first turn'."""
    state = new_game(scenario("seed-activation"), seed=11)
    n = len(state.events)
    for text in ("first settlers", "ready settler-1"):
        state.apply(parse_action(text))
    texts = [e.text for e in state.events[n:]]
    assert texts[0] == "Super Mutants lets Settlers take the first turn."
    assert "Settlers readies Settler (settler-1)." in texts
    assert [str(a) for a in state.history] == ["first settlers", "ready settler-1"]


def test_a_side_taking_the_first_turn_itself_is_said_plainly() -> None:
    """R-TURN-3: the side with the advantage may take the first turn itself."""
    state = new_game(scenario("seed-activation"), seed=11)
    n = len(state.events)
    state.apply(parse_action("first mutants"))
    assert state.events[n].text == "Super Mutants takes the first turn."


def _bare_ids(scenario_name: str, text: str) -> list[str]:
    """Side and model ids in ``text`` as whole words, outside a name's '(id)' tag."""
    s = scenario(scenario_name)
    untagged = re.sub(r"\([^()]*\)", "", text)
    ids = [m.id for m in s.models] + list(s.sides)
    return [i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", untagged)]


@pytest.mark.parametrize("name, rules, seed", [
    ("combat-arena", "rulebook", 21), ("combat-arena", "vts-1.5", 22),
    ("seed-activation", "rulebook", 11), ("move-push-height", "rulebook", 3),
])
def test_no_event_of_a_whole_game_names_a_side_or_model_by_its_id(
        name: str, rules: str, seed: int) -> None:
    """A seeded random game to its end (moves, charges, shots, close combat, falls):
    every event text names sides and models by display name only."""
    state = new_game(replace(scenario(name), rules=cast(RuleSet, rules)), seed)
    policy = SeededRng(seed)
    steps = 0
    while not state.is_over and steps < 400:
        state.apply(policy.choice(list(state.legal_actions())))
        steps += 1
    assert len(state.events) > 20
    bad = [(e.text, ids) for e in state.events if (ids := _bare_ids(name, e.text))]
    assert bad == []
