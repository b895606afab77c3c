"""Helpers for the engine tests: the seed-000 scenario, playing action texts,
the engine's plain move, and two test-only model action kinds (``zap``:
damage, ``exit``: leave the board) that exercise the engine's damage and
removal hooks the way the movement and combat kinds do."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, ClassVar

import pytest

import sim.game.kinds
from sim.engine.actions import ActionKind, ModelAction
from sim.engine.gamedata import Status
from sim.engine.kinds import KindRegistry
from sim.engine.state import ActionContext, GameState
from sim.errors import IllegalActionError
from sim.game.kinds import parse_action
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import Scenario
from tests.conftest import SCENARIOS
from tests.plainmove import PlainMoveKind

SEED_FILE = SCENARIOS / "seed-activation.toml"
SETTLERS = ("settler-1", "settler-2", "settler-3", "settler-4")
MUTANTS = ("mutant-a", "mutant-b", "mutant-c")


@cache
def seed_scenario() -> Scenario:
    """Seed 000: settlers 1-4 against super mutants A-C (rulebook)."""
    return load_scenario(SEED_FILE)


def variant(drop: Sequence[str] = (), **changes: Any) -> Scenario:
    """The seed scenario without the ``drop`` models, other fields replaced."""
    base = seed_scenario()
    models = tuple(m for m in base.models if m.id not in drop)
    return replace(base, models=models, **changes)


def new_game(scenario: Scenario | None = None, seed: int = 1, **kw: Any) -> GameState:
    """A game of ``scenario`` (the seed scenario) with the kinds in use (sim.game.kinds)."""
    return sim.game.kinds.new_game(scenario or seed_scenario(), seed, **kw)


def play(state: GameState, *texts: str) -> GameState:
    """Apply each action text in order."""
    for text in texts:
        state.apply(parse_action(text))
    return state


def listed(state: GameState, keyword: str | None = None) -> list[str]:
    """The listed legal actions as texts (optionally only one keyword)."""
    return [str(a) for a in state.legal_actions()
            if keyword is None or a.keyword == keyword]


def readiness(state: GameState) -> dict[str, str]:
    return {i: str(m.readiness) for i, m in state.models.items() if m.in_play}


# --- test-only model action kinds -----------------------------------------------

@dataclass(frozen=True)
class Zap(ModelAction):
    """``zap MODEL TARGET POINTS``: deal damage through the engine's hook."""

    target: str
    points: int
    keyword: ClassVar[str] = "zap"
    usage: ClassVar[str] = "zap MODEL TARGET POINTS"

    def args(self) -> tuple[str, ...]:
        return (self.model, self.target, str(self.points))

    @classmethod
    def from_args(cls, text: str, args: Sequence[str]) -> Zap:
        if len(args) != 3 or not args[2].isdigit():
            raise IllegalActionError(text, f"expected {cls.usage!r}")
        return cls(args[0], args[1], int(args[2]))


class ZapKind(ActionKind[Zap]):
    action_type = Zap

    def check(self, state: GameState, action: Zap) -> str | None:
        if action.target not in state.models or not state.model(action.target).in_play:
            return f"target {action.target!r} is not in play"
        return None

    def apply(self, ctx: ActionContext, action: Zap) -> None:
        ctx.rng.randint(1, 20)  # a die, so undo must restore the generator
        ctx.damage(action.target, action.points, f"zapped by {action.model}")


@dataclass(frozen=True)
class Exit(ModelAction):
    """``exit MODEL``: leave the board by choice (R-EDGE-2)."""

    keyword: ClassVar[str] = "exit"
    usage: ClassVar[str] = "exit MODEL"

    def args(self) -> tuple[str, ...]:
        return (self.model,)

    @classmethod
    def from_args(cls, text: str, args: Sequence[str]) -> Exit:
        if len(args) != 1:
            raise IllegalActionError(text, f"expected {cls.usage!r}")
        return cls(args[0])


class ExitKind(ActionKind[Exit]):
    action_type = Exit

    def check(self, state: GameState, action: Exit) -> str | None:
        return None

    def apply(self, ctx: ActionContext, action: Exit) -> None:
        ctx.remove(action.model, Status.LEFT, "left the board by choice")

    def samples(self, state: GameState, model: str) -> Iterable[Exit]:
        return ()


ENGINE_KINDS = KindRegistry((PlainMoveKind(), ZapKind(), ExitKind()))


@pytest.fixture
def engine_kinds(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Only the engine's own kinds for one test: the plain move, ``zap`` and ``exit``.

    The engine tests check the turn logic, so they do not depend on how the
    movement and combat modules judge a move or a shot.
    """
    monkeypatch.setattr(sim.game.kinds, "GAME_KINDS", ENGINE_KINDS)
    yield
