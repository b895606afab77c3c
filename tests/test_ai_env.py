"""The research interface (issue 37, sim/ai/env.py): a PettingZoo AEC environment over
the engine that passes PettingZoo's own API test, whose action indices are the AI
players' legal candidates (never refused by the engine) and whose episodes replay from
their seed (R-ALL-1)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pettingzoo")  # the [rl] extra, installed by `make test`

from pettingzoo.test import api_test

from sim.ai.env import WastelandEnv, vector_size
from sim.scenario.format.loader import load_scenario
from tests.conftest import SCENARIOS


def small_env() -> WastelandEnv:
    """Seven models on a 24 x 18 in board, one round, 3 in cells: a few seconds."""
    return WastelandEnv(load_scenario(SCENARIOS / "seed-activation.toml"), rounds=1)


def test_pettingzoo_api_test_passes() -> None:
    api_test(small_env(), num_cycles=15)


def play(env: WastelandEnv, seed: int, pick: int) -> list[str]:
    """An episode choosing the ``pick``-th marked candidate (modulo the count); the
    actions taken, as text."""
    env.reset(seed=seed)
    taken: list[str] = []
    for agent in env.agent_iter(400):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        assert agent == env.state.acting  # the agent to act is the engine's side to act
        marked = np.flatnonzero(obs["action_mask"])
        assert list(marked) == list(range(len(env.candidates())))
        index = int(marked[pick % len(marked)])
        taken.append(str(env.candidates()[index]))
        env.step(index)  # the engine's full check: a refused candidate raises
    return taken


def test_an_episode_ends_with_a_result_and_replays_from_its_seed() -> None:
    env = small_env()
    first = play(env, seed=4, pick=3)
    assert env.agents == []  # every agent saw its end
    assert play(env, seed=4, pick=3) == first


def test_observations_hold_the_maps_and_the_vector() -> None:
    env = small_env()
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    grids = obs["observation"]
    assert grids.shape == (2, 6, 8) and obs["vector"].shape == (vector_size(env.scenario),)
    seen, threat = grids
    stand = seen >= 0
    assert stand.any() and (threat[stand] <= 1).all()  # threat: a hit chance
    assert ((seen == -1) == (threat == -1)).all()  # -1 where the base cannot stand
    other = next(a for a in env.possible_agents if a != env.agent_selection)
    assert env.observe(other)["action_mask"].sum() == 0  # only the side to act may act


def test_an_unmarked_index_is_refused_naming_it() -> None:
    env = small_env()
    env.reset(seed=0)
    with pytest.raises(ValueError, match="action 63"):
        env.step(63)
