"""Fuzzing save files (issue 13): a mutated save loads to a game or is refused, never a traceback.

A real save of a few steps is mutated as JSON (a value replaced, a key
removed, an action text edited) or as bytes; loading it either gives a game
that saves and reloads to itself (R-ALL-1) or raises :class:`SaveError`
naming the save. ``WASTELAND_FUZZ_EXAMPLES`` raises the count (``make fuzz``).
"""

from __future__ import annotations

import copy
import json
import shutil
import tempfile
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from sim.engine.rng import SeededRng
from sim.errors import SaveError
from sim.game.kinds import new_game
from sim.game.save import load_game, save_data, save_game
from sim.scenario.format.loader import load_scenario
from tests.conftest import SCENARIOS
from tests.fuzz_util import FUZZ, HOSTILE_TEXT, hostile_values

SCENARIO = SCENARIOS / "seed-hound.toml"
KEYS = ["format", "version", "scenario", "scenario_sha256", "seed", "rounds", "actions"]


@cache
def real_save() -> dict[str, Any]:
    """A save of 12 random steps of the game, as written next to its scenario."""
    state = new_game(load_scenario(SCENARIO), seed=5)
    policy = SeededRng(1)
    for _ in range(12):
        state.apply(policy.choice(list(state.legal_actions())))
    return save_data(state, SCENARIOS)


def _edit_action(draw: st.DrawFn, text: str) -> str:
    tokens = text.split(" ")
    i = draw(st.integers(0, len(tokens) - 1))
    tokens[i] = draw(st.one_of(st.sampled_from([*HOSTILE_TEXT, "nan", "inf", "-0", "1e999"]),
                               st.text(max_size=5)))
    return " ".join(tokens)


@st.composite
def mutated_save(draw: st.DrawFn) -> dict[str, Any] | bytes:
    data = copy.deepcopy(real_save())
    if draw(st.integers(0, 4)) == 0:  # bytes: flipped, cut
        raw = bytearray(json.dumps(data).encode("utf-8"))
        at = draw(st.integers(0, len(raw) - 1))
        if draw(st.booleans()):
            raw[at] = draw(st.integers(0, 255))
        else:
            del raw[at: at + draw(st.integers(1, 30))]
        return bytes(raw)
    for _ in range(draw(st.integers(1, 3))):
        key = draw(st.sampled_from(KEYS))
        op = draw(st.sampled_from(["replace", "delete", "action", "action", "truncate"]))
        actions = data.get("actions")
        if op == "replace":
            data[key] = draw(hostile_values())
        elif op == "delete":
            data.pop(key, None)
        elif isinstance(actions, list) and actions and op == "action":
            i = draw(st.integers(0, len(actions) - 1))
            if isinstance(actions[i], str):
                actions[i] = _edit_action(draw, actions[i])
        elif isinstance(actions, list):
            del actions[draw(st.integers(0, len(actions))):]
    return data


@FUZZ
@given(mutated_save())
def test_mutated_saves_load_or_are_refused(case: dict[str, Any] | bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        shutil.copy(SCENARIO, tmp / SCENARIO.name)
        shutil.copytree(SCENARIOS / "units", tmp / "units")
        path = tmp / "game.save.json"
        if isinstance(case, bytes):
            path.write_bytes(case)
        else:
            path.write_text(json.dumps(case), encoding="utf-8")
        try:
            state = load_game(path)
        except SaveError as exc:
            assert str(path) in str(exc)
            return
        again = tmp / "again.save.json"
        save_game(state, again)
        assert load_game(again).to_dict() == state.to_dict()
