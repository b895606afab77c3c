"""The engine's plain move: a straight line to a point, no terrain rules.

A placeholder model action kind (issue 5) and the worked example of the
extension contract in docs/engine.md. The game's registry (sim.game.kinds)
holds the movement module's move (R-MOV-*) instead; the engine tests and the
playout bench build their own registries with this one.

Legal when the straight distance from the base centre to the target is at
most the unit's Move ruler (R-RULER-1), the base ends wholly on the board
(R-EDGE-1) and overlaps no other base in play by more than the touch
tolerance (R-MOV-4, R-UNIT-2). The height ``z`` is kept.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from sim.engine.actions import ActionKind, ModelAction, fmt_num, parse_num
from sim.engine.state import ActionContext, GameState
from sim.errors import IllegalActionError
from sim.scenario.names import model_name
from sim.scenario.positions import Position

_EPS = 1e-9
_DIAG = math.sqrt(0.5)  # correctly rounded, so sample targets are the same everywhere
_DIRECTIONS = ((1.0, 0.0), (_DIAG, _DIAG), (0.0, 1.0), (-_DIAG, _DIAG),
               (-1.0, 0.0), (-_DIAG, -_DIAG), (0.0, -1.0), (_DIAG, -_DIAG))


@dataclass(frozen=True)
class PlainMove(ModelAction):
    """``move MODEL X Y``: move the base centre straight to ``(x, y)``."""

    x: float
    y: float
    keyword: ClassVar[str] = "move"
    usage: ClassVar[str] = "move MODEL X Y"

    def args(self) -> tuple[str, ...]:
        return (self.model, fmt_num(self.x), fmt_num(self.y))

    @classmethod
    def from_args(cls, text: str, args: Sequence[str]) -> PlainMove:
        if len(args) != 3:
            raise IllegalActionError(text, f"expected {cls.usage!r}")
        return cls(args[0], parse_num(text, args[1], "X"), parse_num(text, args[2], "Y"))


class PlainMoveKind(ActionKind[PlainMove]):
    """Straight-line move within the Move ruler (no terrain)."""

    action_type = PlainMove

    def check(self, state: GameState, action: PlainMove) -> str | None:
        scenario = state.scenario
        me = state.model(action.model)
        if me.climbing:
            return "a climbing model cannot make a plain move"
        limit = state.rules.ruler(scenario.unit_of(action.model).move)
        dist = math.hypot(action.x - me.position.x, action.y - me.position.y)
        if dist > limit + _EPS:
            return f"the target is {dist:.2f} in away; the Move ruler is {limit:g} in"
        r = state.radius(action.model)
        width, height = scenario.board
        if not (r - _EPS <= action.x <= width - r + _EPS
                and r - _EPS <= action.y <= height - r + _EPS):
            return "the base would not end wholly on the board"
        tol = state.rules.touch_tolerance
        for other, pos in state.positions().items():
            if other == action.model:
                continue
            gap = math.hypot(pos.x - action.x, pos.y - action.y) - r - state.radius(other)
            if gap < -tol:
                return f"the base would end overlapping {other!r}"
        return None

    def apply(self, ctx: ActionContext, action: PlainMove) -> None:
        old = ctx.model(action.model).position
        new = Position(action.x, action.y, old.z)
        ctx.set_position(action.model, new)
        dist = math.hypot(new.x - old.x, new.y - old.y)
        ctx.log("moved", (action.model,),
                f"{model_name(ctx.scenario, action.model)} moves {dist:.2f} in to "
                f"({new.x:.2f}, {new.y:.2f})",
                frm=[old.x, old.y], to=[new.x, new.y], distance=dist)

    def samples(self, state: GameState, model: str) -> Iterable[PlainMove]:
        pos = state.model(model).position
        d = state.rules.ruler(state.scenario.unit_of(model).move)
        for dx, dy in _DIRECTIONS:
            yield PlainMove(model, pos.x + dx * d, pos.y + dy * d)
