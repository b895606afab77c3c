"""Seed 000's activation example, played on scenarios/seed-activation.toml.

Settlers 1-4 with settler 1 Ready and settler 3 Used; super mutants A-C with
C Ready and A Used. The settler player must ready settler 2 or 4, then may
activate all Ready models (settler 1 and the one just readied) or none; the
mutant player must ready B and then activate B and C (R-TURN-4).
"""

from __future__ import annotations

import pytest

from sim.engine.actions import OptionA
from sim.errors import IllegalActionError
from tests.engine_util import engine_kinds, listed, new_game, play, readiness

pytestmark = pytest.mark.usefixtures("engine_kinds")
__all__ = ["engine_kinds"]  # the fixture, used through pytestmark

# Round 1 played up to the seed's position; the mutants hold the advantage
# (3 models against 4, R-TURN-2) and choose who goes first.
SETTLERS_TO_ACT = (
    "first settlers",
    "ready settler-3", "option-b", "activate settler-3", "end-activation",
    "ready mutant-a", "option-b", "activate mutant-a", "end-activation",
    "ready settler-1", "option-a",
    "ready mutant-c", "option-a",
)
MUTANTS_TO_ACT = (
    "first mutants",
    "ready mutant-a", "option-b", "activate mutant-a", "end-activation",
    "ready settler-3", "option-b", "activate settler-3", "end-activation",
    "ready mutant-c", "option-a",
    "ready settler-1", "option-a",
)
SEED_MARKERS = {
    "settler-1": "ready", "settler-2": "unready", "settler-3": "used", "settler-4": "unready",
    "mutant-a": "used", "mutant-b": "unready", "mutant-c": "ready",
}


def test_the_seed_position_is_reached_both_ways() -> None:
    for line in (SETTLERS_TO_ACT, MUTANTS_TO_ACT):
        state = play(new_game(), *line)
        assert readiness(state) == SEED_MARKERS
        assert state.round == 1


def test_settler_player_must_ready_settler_2_or_4() -> None:
    """R-TURN-4: only a model without a marker can be readied."""
    state = play(new_game(), *SETTLERS_TO_ACT)
    assert state.acting == "settlers"
    assert sorted(listed(state)) == ["ready settler-2", "ready settler-4"]
    for text in ("ready settler-1", "ready settler-3", "option-a", "activate settler-1"):
        with pytest.raises(IllegalActionError):
            play(state, text)


@pytest.mark.parametrize("readied", ["settler-2", "settler-4"])
def test_settler_player_then_activates_all_ready_or_none(readied: str) -> None:
    """R-TURN-4: option A (none) or B (settler 1 and the one just readied)."""
    state = play(new_game(), *SETTLERS_TO_ACT, f"ready {readied}")
    assert sorted(listed(state)) == ["option-a", "option-b"]
    b = play(state.copy(), "option-b")
    assert sorted(listed(b)) == sorted(["activate settler-1", f"activate {readied}", "end-turn"])
    a = play(state.copy(), "option-a")
    assert a.acting == "mutants"  # the turn ended at once
    assert readiness(a)["settler-1"] == "ready" and readiness(a)[readied] == "ready"


def test_mutant_player_must_ready_b_and_activate_b_and_c() -> None:
    """R-TURN-4: once every mutant has a marker, option B is forced."""
    state = play(new_game(), *MUTANTS_TO_ACT)
    assert state.acting == "mutants"
    assert listed(state) == ["ready mutant-b"]
    play(state, "ready mutant-b")
    assert sorted(listed(state)) == ["activate mutant-b", "activate mutant-c", "end-turn"]
    assert OptionA() not in state.legal_actions()
    forced = [e for e in state.events if e.kind == "option-b"][-1]
    assert forced.data["forced"] is True
    with pytest.raises(IllegalActionError, match="option-a"):
        play(state, "option-a")
