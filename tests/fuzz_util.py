"""Shared by the fuzz suites: hypothesis settings, hostile values, a short playout.

``make test`` runs each fuzz test with :data:`EXAMPLES` examples, drawn the
same way every run (derandomised), so a failure always reproduces;
``make fuzz`` raises the count with ``WASTELAND_FUZZ_EXAMPLES``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from sim.engine.rng import SeededRng
from sim.engine.state import GameState
from sim.game.save import load_game, save_game

EXAMPLES = int(os.environ.get("WASTELAND_FUZZ_EXAMPLES", "0") or 0) or 40
PLAYOUT_STEPS = 8

FUZZ = settings(
    max_examples=EXAMPLES,
    derandomize=not os.environ.get("WASTELAND_FUZZ_RANDOM"),
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.function_scoped_fixture],
)

# Values that broke or could break a loader: empty and spaced ids, a no-break
# space, control characters, huge and tiny numbers, wrong types, nesting.
HOSTILE_TEXT = ["", " ", "a b", "laser rifle", "\u00a0", "x\ny", "\0", "\u200b", "é",
                "wasteland:units/wasteland.toml", "../x.toml", "x" * 300, "red", "orange",
                "rulebook", "normal", "impassable", "damage", "P", "knight", "bos",
                "W" * 20_000]  # issue 31: a long name, cut in the panel
# Issue 31 added: a denormal and tolerances lost in float noise (touch_tolerance divided by
# zero). An integer of more digits than Python reads is a textual mutation (test_fuzz_scenarios).
HOSTILE_NUMBERS = [0, -1, 1, 2, 3, 7, 40, 10**18, -(10**18), 0.0, -0.5, 0.5, 1e-300, 1e308,
                   -1e308, 3.5, 25.4, 1000.0, 5e-324, 1e-7, 1e-6]


def hostile_values() -> st.SearchStrategy[Any]:
    scalars = st.one_of(
        st.sampled_from(HOSTILE_TEXT), st.sampled_from(HOSTILE_NUMBERS), st.booleans(),
        st.text(max_size=8), st.integers(), st.floats(allow_nan=False),
    )
    return st.recursive(scalars, lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.sampled_from([*HOSTILE_TEXT[:12], "id", "name", "at"]), inner,
                        max_size=3)), max_leaves=6)


def playout_save_reload(state: GameState, folder: Path, policy_seed: int) -> None:
    """A few random legal steps, then save and reload: the same game (R-ALL-1)."""
    policy = SeededRng(policy_seed)
    for _ in range(PLAYOUT_STEPS):
        if state.is_over:
            break
        actions = list(state.legal_actions())
        assert actions, f"no legal action in phase {state.phase}"
        state.apply(policy.choice(actions))
    save = folder / "fuzz.save.json"
    save_game(state, save)
    assert load_game(save).to_dict() == state.to_dict()
