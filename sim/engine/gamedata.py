"""Values of a game state: board data, turn context, events, result.

Frozen values only; :class:`sim.engine.state.GameState` holds them and
:mod:`sim.engine.turns` replaces them as the game goes on. Board data (one
:class:`ModelState` per model) is kept apart from the turn context
(:class:`TurnContext`), as in boardgame.io.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from sim.scenario.positions import Position


class Readiness(StrEnum):
    """Readiness marker of a model (R-TURN-1)."""

    UNREADY = "unready"
    READY = "ready"
    USED = "used"


class Status(StrEnum):
    """Whether a model is in play, and how it left play (R-TURN-10, R-EDGE-2)."""

    IN_PLAY = "in-play"
    ELIMINATED = "eliminated"
    LEFT = "left"  # left the board by choice: eliminated for scoring only


class Phase(StrEnum):
    """What the side to act must do next (R-TURN-3..6)."""

    CHOOSE_FIRST = "choose-first"  # advantage holder picks who goes first
    READY = "ready"  # ready one Unready model
    CHOOSE_OPTION = "choose-option"  # option A or B (rulebook)
    ACTIVATE = "activate"  # option B: activate a Ready model or end the turn
    ACTIVATION = "activation"  # a model's activation is in progress
    OVER = "over"  # the game has ended


@dataclass(frozen=True)
class ModelState:
    """One model's board data. ``climbing`` is the R-CLIMB-3 marker (off the table)."""

    id: str
    side: str
    position: Position
    health: int
    readiness: Readiness = Readiness.UNREADY
    status: Status = Status.IN_PLAY
    climbing: bool = False

    @property
    def in_play(self) -> bool:
        return self.status is Status.IN_PLAY


@dataclass(frozen=True)
class Activation:
    """The activation in progress: the model and its actions left (R-TURN-7)."""

    model: str
    actions_left: int


@dataclass(frozen=True)
class TurnContext:
    """Whose turn it is and what comes next, apart from the board data."""

    round: int
    phase: Phase
    advantage: str | None = None
    acting: str | None = None
    first: str | None = None
    activation: Activation | None = None


@dataclass(frozen=True)
class Event:
    """Something that happened, for the log: a kind, the models, data and a sentence."""

    round: int
    kind: str
    models: tuple[str, ...]
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"[round {self.round}] {self.text}"


@dataclass(frozen=True)
class GameResult:
    """How the game ended (R-TURN-10): scores are eliminated enemy models (R-EDGE-2)."""

    reason: str
    scores: Mapping[str, int]
    winner: str | None
    # Display names of the sides (sim.scenario.names), for the text; ids stay in the data.
    side_names: Mapping[str, str] = field(default_factory=dict, compare=False)

    def __str__(self) -> str:
        name = self.side_names.get
        score = ", ".join(f"{name(s, s)} {n}" for s, n in self.scores.items())
        who = f"{name(self.winner, self.winner)} wins" if self.winner else "draw"
        return f"{who} ({score}): {self.reason}"


@dataclass(frozen=True)
class Illegal:
    """Why an action is illegal now, and the model concerned."""

    reason: str
    model: str | None = None
