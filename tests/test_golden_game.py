"""Golden transcript of a whole game with every registered action kind.

The engine's transcripts (tests/test_golden.py) hold the turn logic still;
this one plays scenarios/combat-arena.toml with the real Move, Charge, Leave,
Shoot and Close combat kinds, so an unintended change in movement, sight,
cover, dice or damage shows up as a diff here. Regenerate after an intended
change with ``WASTELAND_REGEN_GOLDEN=1 .venv/bin/python -m pytest
tests/test_golden_game.py`` and review the diff.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import cast

import pytest

from sim.engine.actions import Action
from sim.engine.state import GameState
from sim.game.kinds import new_game
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import RuleSet
from tests.conftest import SCENARIOS
from tests.golden_util import GOLDEN, check_golden, play_to_text

SCENARIO = SCENARIOS / "combat-arena.toml"
GAMES = {"combat-arena-rulebook.txt": ("rulebook", 21, 4),
         "combat-arena-vts.txt": ("vts-1.5", 22, 5)}


def play(rules: str, seed: int, policy_seed: int) -> str:
    """A seeded random game as text: events and the action chosen at every step.

    At each step it also lists the legal actions of the model actions' kinds,
    so a change in what the rules allow shows even when the policy's pick
    does not change.
    """
    scenario = replace(load_scenario(SCENARIO), rules=cast(RuleSet, rules))
    header = [f"# Golden game: {SCENARIO.name}, rules {rules}, seed {seed}, "
              f"policy seed {policy_seed}"]

    def step_lines(state: GameState, step: int, actions: Sequence[Action]) -> list[str]:
        kinds = sorted({str(a).split()[0] for a in actions})
        return [f"\n== step {step}: {len(actions)} legal ({', '.join(kinds)})"]

    return play_to_text(new_game(scenario, seed), policy_seed, header, step_lines)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_game(name: str) -> None:
    text = play(*GAMES[name])
    check_golden(name, text)


def test_the_golden_games_use_every_kind_of_attack() -> None:
    """The transcripts are worth keeping only if they exercise the combat rules."""
    text = "".join((GOLDEN / n).read_text(encoding="utf-8") for n in GAMES)
    for kind in ("> move ", "> shoot ", "> charge ", "> close-combat "):
        assert kind in text, kind
    assert "hit" in text and "damage" in text
