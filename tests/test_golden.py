"""Golden transcripts: seeded games written as text and compared to checked-in files.

Each transcript is the state summary and the listed legal actions at every
step, the chosen action and the events it caused, for a game on
scenarios/seed-activation.toml played by a seeded random policy with the
engine's own action kinds (so a change in movement or combat does not
change it; a change in the turn logic or the event log does).

To regenerate after an intended change, run
``WASTELAND_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/test_golden.py``
and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sim.rng import SeededRng
from sim.scenario import Scenario
from sim.state import GameState
from tests.conftest import DATA
from tests.engine_util import SEED_FILE, engine_kinds, seed_scenario, variant

pytestmark = pytest.mark.usefixtures("engine_kinds")
__all__ = ["engine_kinds"]  # the fixture, used through pytestmark

GOLDEN = DATA / "golden"
REGEN = os.environ.get("WASTELAND_REGEN_GOLDEN") == "1"


def transcript(scenario: Scenario, label: str, seed: int, policy_seed: int,
               rounds: int) -> str:
    """The whole game as deterministic text."""
    state = GameState(scenario, seed, rounds=rounds)
    policy = SeededRng(policy_seed)
    out = [f"# Golden transcript: {SEED_FILE.name} ({label}), rules {scenario.rules}, "
           f"seed {seed}, rounds {rounds}, policy seed {policy_seed}",
           "# Regenerate: WASTELAND_REGEN_GOLDEN=1 .venv/bin/python -m pytest "
           "tests/test_golden.py",
           ""]
    out.extend(str(e) for e in state.events)
    step = 0
    while not state.is_over:
        step += 1
        actions = list(state.legal_actions())
        out.append(f"\n== step {step}")
        out.append(state.summary())
        out.append(f"legal ({len(actions)}): " + " | ".join(str(a) for a in actions))
        action = policy.choice(actions)
        n = len(state.events)
        state.apply(action)
        out.append(f"> {action}")
        out.extend(f"  {e}" for e in state.events[n:])
    out.append("\n== end")
    out.append(state.summary())
    return "\n".join(out) + "\n"


GAMES = {
    "seed-activation-rulebook.txt": (lambda: seed_scenario(), "4 settlers v 3 mutants", 11, 5),
    "seed-activation-vts.txt": (lambda: variant(("settler-4",), rules="vts-1.5"),
                                "3 v 3, settler-4 left out", 12, 6),
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_transcript(name: str) -> None:
    make, label, seed, policy_seed = GAMES[name]
    text = transcript(make(), label, seed, policy_seed, rounds=2)
    path: Path = GOLDEN / name
    if REGEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"missing {path}; generate it with WASTELAND_REGEN_GOLDEN=1"
    expected = path.read_text(encoding="utf-8")
    if text != expected:
        a, b = expected.splitlines(), text.splitlines()
        first = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                     min(len(a), len(b)))
        pytest.fail(f"{name} differs from line {first + 1}:\n"
                    f"  expected: {a[first] if first < len(a) else '<end>'}\n"
                    f"  got:      {b[first] if first < len(b) else '<end>'}")


def test_transcripts_are_deterministic() -> None:
    """The same seeds give the same text twice in one process (R-ALL-1)."""
    make, label, seed, policy_seed = GAMES["seed-activation-vts.txt"]
    assert transcript(make(), label, seed, policy_seed, 1) == transcript(
        make(), label, seed, policy_seed, 1)
