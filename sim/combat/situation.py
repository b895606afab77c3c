"""Who is where, as the attack rules need it (R-SHOOT-1): a :class:`Situation` is the
board of one moment (positions of the models in play, their sides, climbing and health)
and the memo its analyses are kept in; :class:`BoardKey` is its positions as a key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING

from sim.engine.memo import Memo
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position, initial_positions

if TYPE_CHECKING:
    from sim.engine.state import GameState


class BoardKey:
    """Positions by model id as a dict key whose hash is worked out once (an analysis
    is looked up dozens of times per board)."""

    __slots__ = ("_hash", "items")

    def __init__(self, positions: Mapping[str, Position]) -> None:
        self.items = tuple(sorted(positions.items()))
        self._hash = hash(self.items)

    @classmethod
    def of_items(cls, items: tuple[tuple[str, Position], ...]) -> BoardKey:
        """The key of positions whose sorted items are ``items``."""
        key = cls.__new__(cls)
        key.items, key._hash = items, hash(items)
        return key

    def __eq__(self, other: object) -> bool:
        return isinstance(other, BoardKey) and (
            self is other or (self._hash == other._hash and self.items == other.items))

    def __hash__(self) -> int:
        return self._hash


@dataclass(frozen=True)
class Situation:
    """The board as the attack rules need it: positions of models in play and their flags."""

    scenario: Scenario
    positions: Mapping[str, Position]
    sides: Mapping[str, str]
    climbing: frozenset[str] = frozenset()
    health: Mapping[str, int] | None = None
    #: Where analyses are kept: the game state's memo, or the situation's own.
    memo: Memo = field(default_factory=Memo, compare=False, repr=False)

    @cached_property
    def board(self) -> BoardKey:
        """The positions as a key of what is kept for this board (hashed once)."""
        return BoardKey(self.positions)

    def moved(self, model: str, at: Position) -> Situation:
        """This board with ``model``, in play, at ``at`` and not climbing, its memo its
        own; its :attr:`board` key made from this one's (the same key, not sorted anew)."""
        sit = Situation(self.scenario, {**self.positions, model: at}, self.sides,
                        self.climbing - {model}, self.health, Memo())
        items = self.board.items
        i = next(k for k, (mid, _) in enumerate(items) if mid == model)
        sit.__dict__["board"] = BoardKey.of_items((*items[:i], (model, at), *items[i + 1:]))
        return sit

    @classmethod
    def of_state(cls, state: GameState) -> Situation:
        pos = state.positions()
        return cls(
            state.scenario, pos, {i: state.model(i).side for i in pos},
            frozenset(i for i in pos if state.model(i).climbing),
            {i: state.model(i).health for i in pos}, state.memo,
        )

    @classmethod
    def of_scenario(cls, scenario: Scenario) -> Situation:
        """The situation as the scenario sets it up (the CLI's view)."""
        pos = dict(initial_positions(scenario))
        return cls(scenario, pos, {m.id: m.side for m in scenario.models},
                   health={m.id: scenario.units[m.unit].health for m in scenario.models})
