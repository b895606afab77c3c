"""GameState.memo, the one owner of the answers derived from where the models stand
(issue 15): what a moving model meets is rebuilt after every move and every undo,
so a plan never sees a base where it no longer stands (R-MOV-4)."""

from __future__ import annotations

from sim.engine.state import GameState
from sim.movement.kinds import level_of
from tests.movement_util import activated, do


def seen_at(state: GameState, mover: str, other: str) -> tuple[float, float] | None:
    """Where ``mover``'s movement meets ``other``'s base (None: it does not)."""
    level = level_of(state, mover, state.model(mover).position.z)
    for ob in (*level.blocking.items, *level.occupied.items):
        if ob.id == other:
            return (round(ob.shape.x, 6), round(ob.shape.y, 6))
    return None


def test_a_move_and_its_undo_move_the_base_other_models_meet() -> None:
    state = activated("seed-activation", "settler-1")
    assert seen_at(state, "mutant-a", "settler-1") == (4.0, 3.0)
    do(state, "move settler-1 4 5")
    assert seen_at(state, "mutant-a", "settler-1") == (4.0, 5.0)
    state.undo()
    assert seen_at(state, "mutant-a", "settler-1") == (4.0, 3.0)


def test_a_copy_answers_for_its_own_models() -> None:
    state = activated("seed-activation", "settler-1")
    assert seen_at(state, "mutant-a", "settler-1") == (4.0, 3.0)
    other = state.copy()
    do(other, "move settler-1 4 5")
    assert seen_at(other, "mutant-a", "settler-1") == (4.0, 5.0)
    assert seen_at(state, "mutant-a", "settler-1") == (4.0, 3.0)
