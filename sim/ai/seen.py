"""What the search player worked out for a position, kept across its playouts.

The playouts of one decision meet the same positions again and again: every
seed plays a candidate out from the same place, and the replies before the
first dice are the same (on the skirmish, 512 decisions of the quick policy in
one search decision are 148 positions). What the search asks of a position (the
quick greedy policy's action, an attack's exact worth, each side's firepower)
depends on the models' states, the turn context and the game's last round
alone: no dice, no history. So it is kept by that value, shared by every
candidate's playouts and by later decisions, and the answers are the ones a
fresh computation gives.

The engine's own memo (sim.engine.memo: movement plans, shot analyses) is per
state object and dropped when a model moves, and a copy starts without it; yet a
playout that meets a position again applies the action worked out there, whose
legality and plan the first visit's memo holds. So the memo of each position is
lent to every state met in that position (its answers depend on the models'
states alone): the action found once is checked once.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, TypeVar, cast

from sim.engine.gamedata import ModelState
from sim.engine.memo import Memo
from sim.engine.state import GameState
from sim.scenario.objects import Scenario

T = TypeVar("T")

#: Positions' answers kept at most (the least recently used go first).
LIMIT = 50_000
#: Positions whose engine memo is kept (one holds a few hundred answers).
MEMO_LIMIT = 1_000


class Seen:
    """Answers by (question, position), for the games of one scenario; bounded."""

    def __init__(self, limit: int = LIMIT) -> None:
        self.limit = limit
        self._scenario: Scenario | None = None
        self._answers: OrderedDict[Hashable, Any] = OrderedDict()
        self._memos: OrderedDict[Hashable, Memo] = OrderedDict()

    def get(self, state: GameState, question: Hashable, build: Callable[[], T]) -> T:
        """The answer to ``question`` in ``state``'s position, built by ``build`` if
        this position has not been asked yet."""
        if state.scenario is not self._scenario:  # another game's board: start afresh
            self._scenario = state.scenario
            self._answers, self._memos = OrderedDict(), OrderedDict()
        models = _Models(tuple(state.models.values()))
        self._lend(state, models)
        key = (question, models, state.turn, state.rounds)
        answers = self._answers
        found = answers.get(key, _NONE)
        if found is not _NONE:
            answers.move_to_end(key)
            return cast(T, found)
        value = answers[key] = build()
        if len(answers) > self.limit:
            answers.popitem(last=False)
        return value

    def _lend(self, state: GameState, models: Hashable) -> None:
        """Give ``state`` the memo of its models' position, with what it holds itself."""
        memo = self._memos.get(models)
        if memo is None:
            self._memos[models] = state.memo
            if len(self._memos) > MEMO_LIMIT:
                self._memos.popitem(last=False)
        elif memo is not state.memo:
            memo.update(state.memo)
            state.memo = memo
            self._memos.move_to_end(models)

    def __len__(self) -> int:
        return len(self._answers)


_NONE = object()


class _Models:
    """The models' states of a position, hashed once (a key is looked up several times
    a question, and hashing every model's state each time cost more than the rest)."""

    __slots__ = ("_hash", "states")

    def __init__(self, states: tuple[ModelState, ...]) -> None:
        self.states = states
        self._hash = hash(states)

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, _Models) and self._hash == other._hash
                and self.states == other.states)
