"""Golden transcript of a whole game with every registered action kind.

The engine's transcripts (tests/test_golden.py) hold the turn logic still;
this one plays scenarios/combat-arena.toml with the real Move, Charge, Leave,
Shoot and Close combat kinds, so an unintended change in movement, sight,
cover, dice or damage shows up as a diff here. Regenerate after an intended
change with ``WASTELAND_REGEN_GOLDEN=1 .venv/bin/python -m pytest
tests/test_golden_game.py`` and review the diff.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import cast

import pytest

from sim.loader import load_scenario
from sim.rng import SeededRng
from sim.scenario import RuleSet
from sim.state import GameState
from tests.conftest import DATA, SCENARIOS

GOLDEN = DATA / "golden"
REGEN = os.environ.get("WASTELAND_REGEN_GOLDEN") == "1"
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
    state = GameState(scenario, seed)
    policy = SeededRng(policy_seed)
    out = [f"# Golden game: {SCENARIO.name}, rules {rules}, seed {seed}, "
           f"policy seed {policy_seed}", ""]
    out.extend(str(e) for e in state.events)
    step = 0
    while not state.is_over:
        step += 1
        actions = list(state.legal_actions())
        kinds = sorted({str(a).split()[0] for a in actions})
        out.append(f"\n== step {step}: {len(actions)} legal ({', '.join(kinds)})")
        action = policy.choice(actions)
        n = len(state.events)
        state.apply(action)
        out.append(f"> {action}")
        out.extend(f"  {e}" for e in state.events[n:])
    out.append("\n== end")
    out.append(state.summary())
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_game(name: str) -> None:
    text = play(*GAMES[name])
    path = GOLDEN / name
    if REGEN:
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing {path}; generate it with WASTELAND_REGEN_GOLDEN=1"
    expected = path.read_text(encoding="utf-8").splitlines()
    got = text.splitlines()
    first = next((i for i, (x, y) in enumerate(zip(expected, got, strict=False)) if x != y),
                 min(len(expected), len(got)))
    assert expected == got, (
        f"{name} differs from line {first + 1}:\n"
        f"  expected: {expected[first] if first < len(expected) else '<end>'}\n"
        f"  got:      {got[first] if first < len(got) else '<end>'}")


def test_the_golden_games_use_every_kind_of_attack() -> None:
    """The transcripts are worth keeping only if they exercise the combat rules."""
    text = "".join((GOLDEN / n).read_text(encoding="utf-8") for n in GAMES)
    for kind in ("> move ", "> shoot ", "> charge ", "> close-combat "):
        assert kind in text, kind
    assert "hit" in text and "damage" in text
