"""Asking before an action throws something away (issue 34): End turn with Ready models.

Ending a turn turns the side's Ready models Used without their activation
(R-TURN-4, R-TURN-6); at the table nobody does that by a slip of the hand.
The first press of End turn (its button or T) while the side has Ready models
only asks, naming them; the same press again, with nothing done between,
ends the turn. The engine decides what the action does; this only names the
models its rules would turn Used.
"""

from __future__ import annotations

from sim.engine.actions import Action, EndTurn
from sim.engine.gamedata import Readiness
from sim.engine.state import GameState
from sim.scenario.names import model_name


def discarded(state: GameState | None, action: Action) -> tuple[str, ...]:
    """The models ``action`` would turn Used without an activation (End turn's Ready
    models of the side to act), in table order; empty for any other action."""
    if state is None or not isinstance(action, EndTurn) or state.acting is None:
        return ()
    return tuple(m.id for m in state.side_models(state.acting)
                 if m.readiness is Readiness.READY)


def question(state: GameState, models: tuple[str, ...]) -> str:
    """The status bar's question before such an action."""
    names = ", ".join(model_name(state.scenario, m) for m in models)
    many = "s are" if len(models) > 1 else " is"
    return (f"End turn: {len(models)} Ready model{many} not activated and will turn Used "
            f"({names}). Press End turn (T) again to confirm, or do something else.")
