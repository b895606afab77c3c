"""One headless game between AI players, and what batch figures need from it.

:func:`play_game` asks the player of the side to act for a decision and
applies it with the engine's full check until the game ends. A refused
action is a bug of the player: it raises :class:`AIRefused` naming the
player, the action and the engine's reason. Damage dealt is read from the
log: the ``damage`` events to enemy models caused by a model's own action are
credited to that model.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from sim.ai.player import Decision, Player
from sim.engine.actions import ModelAction
from sim.engine.state import GameState
from sim.errors import IllegalActionError, WastelandError
from sim.game.kinds import new_game
from sim.scenario.objects import Scenario

#: Far above any game of the shipped scenarios; reaching it means a player loops.
MAX_DECISIONS = 20_000


class AIRefused(WastelandError):
    """The engine refused an AI player's action (a bug of that player)."""


@dataclass(frozen=True)
class GameRecord:
    """What one game gives the batch figures (plain data, sent between processes)."""

    seed: int
    winner: str | None
    rounds: int
    first: str | None  # the side that took round 1's first turn
    scores: Mapping[str, int]
    survived: Mapping[str, bool]  # model id -> still in play at the end
    damage: Mapping[str, int]  # model id -> damage dealt to enemies
    decisions: int
    # side id -> the objective points in its score (R-OBJ-6); none without objectives
    objective_points: Mapping[str, int] = field(default_factory=dict)


def play_game(scenario: Scenario, players: Mapping[str, Player], seed: int,
              rounds: int | None = None,
              watch: Callable[[GameState, Decision], None] | None = None) -> GameRecord:
    """Play a whole game from ``seed`` with ``players[side]`` deciding for each side."""
    state = new_game(scenario, seed=seed, rounds=rounds)
    damage = {m: 0 for m in state.models}
    decisions = 0
    while not state.is_over:
        if decisions >= MAX_DECISIONS:
            raise AIRefused(_runaway(state, seed))
        side = state.acting
        assert side is not None  # a game not over always has a side to act
        decision = players[side].decide(state)
        if watch is not None:
            watch(state, decision)
        before = len(state.events)
        try:
            state.apply(decision.action)
        except IllegalActionError as exc:
            raise AIRefused(f"the {players[side].name} player of {side!r} was refused "
                            f"{decision.action}: {exc}") from exc
        decisions += 1
        _credit(state, decision, before, damage)
    return record(state, damage, decisions)


def _runaway(state: GameState, seed: int) -> str:
    """Why a game went on past :data:`MAX_DECISIONS`, and what ends it: a scenario
    without a last round ends only when a side is out of play, which two players who
    never meet (one standing off, one drifting) do not bring about."""
    words = (f"the game from seed {seed} did not end in {MAX_DECISIONS} decisions "
             f"(round {state.round})")
    if state.rounds is None:
        words += ("; the scenario has no last round (no 'rounds' key), so its games end "
                  "only when a side is out of play (simulate and ladder: --rounds R ends them "
                  "at round R)")
    return words


def _credit(state: GameState, decision: Decision, before: int, damage: dict[str, int]) -> None:
    action = decision.action
    if not isinstance(action, ModelAction):
        return
    side = state.model(action.model).side
    for event in state.events[before:]:
        if event.kind == "damage" and state.model(event.models[0]).side != side:
            damage[action.model] += int(event.data.get("points", 0))


def record(state: GameState, damage: Mapping[str, int], decisions: int) -> GameRecord:
    """The record of a finished game."""
    result = state.result
    assert result is not None
    first = next((str(e.data["side"]) for e in state.events if e.kind == "first-turn"), None)
    return GameRecord(state.seed, result.winner, state.round, first, dict(result.scores),
                      {m: s.in_play for m, s in state.models.items()}, dict(damage),
                      decisions, dict(state.objectives.points))
