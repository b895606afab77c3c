"""A PettingZoo AEC environment over the engine, for research on learned players
(issue 37; the optional extra ``[rl]``: ``pip install 'wasteland-sim[rl]'``).

The agents are the scenario's two sides; the agent to act is the engine's side to act
(``state.acting``), so one agent may act several times in a row, as a side does
through an activation's two actions (R-TURN-4).

**Actions** are an index into the candidate list of the position
(:func:`choices`: in an activation the concrete actions the AI players weigh,
:func:`sim.ai.candidates.activation_actions`; otherwise the engine's listed turn
actions), padded to ``max_actions``; the ``action_mask`` observation marks the
indices that are real candidates. Every candidate is legal by the engine's own check.

**Observations** (for the side observing): ``observation``, the focus model's
``seen`` and ``threat`` maps (:mod:`sim.maps`, docs/maps.md) on a grid of ``cell``
inches, -1 where its base cannot stand (the focus model: the active model of this
side's activation, else its first model in play not yet Used, else its first in
play); ``vector``, the round, the phase, the score so far and each model's place,
health and readiness (:func:`vector_size`); and ``action_mask``.

**Rewards**: +1 to the winner and -1 to the loser when the game ends (R-TURN-10),
0 to both for a draw and on every other step. The game is truncated after
``max_steps`` decisions. Dice come from the game's seeded generator (``reset(seed)``),
so an episode replays from its seed and its actions (R-ALL-1).

>>> from sim.scenario.format.loader import load_scenario
>>> env = WastelandEnv(load_scenario("scenarios/seed-activation.toml"), rounds=1)
>>> env.reset(seed=3)
>>> env.agent_selection in env.possible_agents
True
>>> obs = env.observe(env.agent_selection)
>>> obs["observation"].shape, int(obs["action_mask"].sum()) > 0
((2, 6, 8), True)
"""

from __future__ import annotations

from typing import Any, ClassVar

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from sim.ai.candidates import Reaches, activation_actions, listed
from sim.engine.actions import Action
from sim.engine.gamedata import Phase, Readiness
from sim.engine.state import GameState
from sim.errors import UsageError
from sim.game.kinds import new_game
from sim.maps.grid import make_grid
from sim.maps.visibility import make_map
from sim.scenario.objects import Scenario

PHASES = tuple(Phase)
#: Per model in the vector: x, y, z (board fractions), health share, in play, own
#: side, ready, used, focus.
MODEL_FEATURES = 9
#: The vector's global part: round share, the phase one-hot, actions left, the two
#: sides' models removed (shares).
GLOBAL_FEATURES = 1 + len(PHASES) + 3


def choices(state: GameState, reaches: Reaches) -> list[Action]:
    """The candidate list the action index points into (no duplicates, all legal)."""
    found = (activation_actions(state, reaches) if state.phase is Phase.ACTIVATION
             else listed(state))
    return list(dict.fromkeys(found))


def vector_size(scenario: Scenario) -> int:
    """The length of the ``vector`` observation of a scenario."""
    return GLOBAL_FEATURES + MODEL_FEATURES * len(scenario.models)


class WastelandEnv(AECEnv):  # type: ignore[misc]  # pettingzoo is untyped
    """The AEC environment (the module doc); no ``render``: the board is drawn by
    ``wasteland render`` and the window (render/), which sim/ never imports."""

    metadata: ClassVar[dict[str, Any]] = {"name": "wasteland_v0", "is_parallelizable": False,
                                          "render_modes": []}

    def __init__(self, scenario: Scenario, *, rounds: int | None = None, cell: float = 3.0,
                 max_actions: int = 64, max_steps: int = 5000) -> None:
        super().__init__()
        sides = [s.id for s in scenario.sides.values() if not s.neutral]
        if len(sides) != 2:
            raise UsageError(f"the environment needs a scenario of two sides; "
                             f"{scenario.name!r} has {len(sides)}")
        self.scenario, self.rounds, self.cell = scenario, rounds, cell
        self.max_actions, self.max_steps = max_actions, max_steps
        self.possible_agents: list[str] = sides
        grid = make_grid(scenario.board, cell)
        n = len(scenario.models)
        space = gymnasium.spaces.Dict({
            "observation": gymnasium.spaces.Box(-1.0, float(n), (2, grid.ny, grid.nx),
                                                np.float32),
            "vector": gymnasium.spaces.Box(-1.0, 1.0, (vector_size(scenario),), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (max_actions,), np.int8),
        })
        self.observation_spaces = {a: space for a in sides}
        self.action_spaces = {a: gymnasium.spaces.Discrete(max_actions) for a in sides}
        self.reset()

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.state = new_game(self.scenario, seed=0 if seed is None else seed,
                              rounds=self.rounds)
        self.reaches = Reaches()
        self.steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._observed: dict[str, dict[str, np.ndarray]] = {}
        self._choices: list[Action] | None = None
        self.agent_selection = self.state.acting or self.agents[0]

    def candidates(self) -> list[Action]:
        """The actions the indices stand for now (at most ``max_actions``)."""
        if self._choices is None:
            self._choices = (choices(self.state, self.reaches)[: self.max_actions]
                             if not self.state.is_over else [])
        return self._choices

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        options = self.candidates()
        if action is None or not 0 <= int(action) < len(options):
            raise UsageError(f"action {action!r} for {agent!r}: expected an index below "
                             f"{len(options)}, a candidate marked in action_mask")
        self._cumulative_rewards[agent] = 0.0
        self.state.apply(options[int(action)])
        self.steps += 1
        self._observed, self._choices = {}, None
        self.rewards = {a: 0.0 for a in self.agents}
        if self.state.is_over:
            self._finish()
        elif self.steps >= self.max_steps:
            self.truncations = {a: True for a in self.agents}
        acting = self.state.acting
        self.agent_selection = acting if acting in self.agents else agent
        self._accumulate_rewards()

    def _finish(self) -> None:
        result = self.state.result
        assert result is not None  # the game is over
        for a in self.agents:
            won = result.winner
            self.rewards[a] = 0.0 if won is None else (1.0 if won == a else -1.0)
            self.terminations[a] = True

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if agent not in self._observed:
            self._observed[agent] = self._observation(agent)
        return self._observed[agent]

    def _observation(self, agent: str) -> dict[str, np.ndarray]:
        mask = np.zeros(self.max_actions, np.int8)
        if agent == self.agent_selection and not self.state.is_over:
            mask[: len(self.candidates())] = 1
        focus = self._focus(agent)
        grid = make_grid(self.scenario.board, self.cell)
        grids = np.full((2, grid.ny, grid.nx), -1.0, np.float32)
        if focus is not None:
            climbing = [m for m, s in self.state.models.items() if s.climbing]
            for k, kind in enumerate(("seen", "threat")):
                values = make_map(self.scenario, self.state.positions(), focus, kind,
                                  cell=self.cell, climbing=climbing).values
                grids[k] = np.nan_to_num(values, nan=-1.0)
        return {"observation": grids, "vector": self._vector(agent, focus),
                "action_mask": mask}

    def _focus(self, agent: str) -> str | None:
        act = self.state.activation
        if act is not None and self.state.model(act.model).side == agent:
            return act.model
        mine = self.state.side_models(agent)
        fresh = [m for m in mine if m.readiness is not Readiness.USED]
        return (fresh or mine)[0].id if mine else None

    def _vector(self, agent: str, focus: str | None) -> np.ndarray:
        s = self.state
        w, h = self.scenario.board
        act = s.activation
        removed = {side: sum(1 for m in s.models.values() if m.side == side and not m.in_play)
                   / max(1, sum(1 for m in s.models.values() if m.side == side))
                   for side in self.possible_agents}
        enemy = next(a for a in self.possible_agents if a != agent)
        out = [s.round / max(1, s.rounds or s.round)]
        out += [float(s.phase is p) for p in PHASES]
        out += [0.0 if act is None else act.actions_left / 2, removed[enemy], removed[agent]]
        for mid, m in s.models.items():
            full = self.scenario.unit_of(mid).health
            p = m.position
            out += [p.x / w, p.y / h, p.z / max(w, h), m.health / max(1, full),
                    float(m.in_play), float(m.side == agent),
                    float(m.readiness is Readiness.READY), float(m.readiness is Readiness.USED),
                    float(mid == focus)]
        return np.clip(np.asarray(out, np.float32), -1.0, 1.0)
