"""Golden transcripts: a seeded game played to its end as text, checked against a file.

Set ``WASTELAND_REGEN_GOLDEN=1`` to rewrite the files after an intended
change, then review the diff.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from sim.engine.actions import Action
from sim.engine.rng import SeededRng
from sim.engine.state import GameState
from tests.conftest import DATA

GOLDEN = DATA / "golden"
REGEN = os.environ.get("WASTELAND_REGEN_GOLDEN") == "1"

StepLines = Callable[[GameState, int, Sequence[Action]], list[str]]


def play_to_text(state: GameState, policy_seed: int, header: list[str],
                 step_lines: StepLines) -> str:
    """Play ``state`` to its end with a seeded random policy, as deterministic text.

    Each step writes ``step_lines`` (what the state offers), the chosen action
    and the events it caused; the end writes the final summary.
    """
    policy = SeededRng(policy_seed)
    out = [*header, ""]
    out.extend(str(e) for e in state.events)
    step = 0
    while not state.is_over:
        step += 1
        actions = list(state.legal_actions())
        out.extend(step_lines(state, step, actions))
        action = policy.choice(actions)
        n = len(state.events)
        state.apply(action)
        out.append(f"> {action}")
        out.extend(f"  {e}" for e in state.events[n:])
    out.append("\n== end")
    out.append(state.summary())
    return "\n".join(out) + "\n"


def check_golden(name: str, text: str) -> None:
    """``text`` equals the golden file ``name`` (rewritten first when regenerating)."""
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
