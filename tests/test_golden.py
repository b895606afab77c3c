"""Golden transcripts: seeded games written as text and compared to checked-in files.

Each transcript is the state summary and the listed legal actions at every
step, the chosen action and the events it caused, for a game on
scenarios/seed-activation.toml played by a seeded random policy with the
engine's own action kinds (so a change in movement or combat does not
change it; a change in the turn logic or the event log does).

To regenerate after an intended change, run
``WASTELAND_REGEN_GOLDEN=1 .venv/bin/python -m pytest tests/test_golden.py``
and review the diff.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from sim.engine.actions import Action
from sim.engine.state import GameState
from sim.game.kinds import new_game
from sim.scenario.objects import Scenario
from tests.engine_util import SEED_FILE, engine_kinds, seed_scenario, variant
from tests.golden_util import check_golden, play_to_text

pytestmark = pytest.mark.usefixtures("engine_kinds")
__all__ = ["engine_kinds"]  # the fixture, used through pytestmark

def transcript(scenario: Scenario, label: str, seed: int, policy_seed: int,
               rounds: int) -> str:
    """The whole game as deterministic text: the state and its legal actions at every step."""
    header = [f"# Golden transcript: {SEED_FILE.name} ({label}), rules {scenario.rules}, "
              f"seed {seed}, rounds {rounds}, policy seed {policy_seed}",
              "# Regenerate: WASTELAND_REGEN_GOLDEN=1 .venv/bin/python -m pytest "
              "tests/test_golden.py"]

    def step_lines(state: GameState, step: int, actions: Sequence[Action]) -> list[str]:
        return [f"\n== step {step}", state.summary(),
                f"legal ({len(actions)}): " + " | ".join(str(a) for a in actions)]

    return play_to_text(new_game(scenario, seed, rounds=rounds), policy_seed, header,
                        step_lines)


GAMES = {
    "seed-activation-rulebook.txt": (lambda: seed_scenario(), "4 settlers v 3 mutants", 11, 5),
    "seed-activation-vts.txt": (lambda: variant(("settler-4",), rules="vts-1.5"),
                                "3 v 3, settler-4 left out", 12, 6),
}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_golden_transcript(name: str) -> None:
    make, label, seed, policy_seed = GAMES[name]
    text = transcript(make(), label, seed, policy_seed, rounds=2)
    check_golden(name, text)


def test_transcripts_are_deterministic() -> None:
    """The same seeds give the same text twice in one process (R-ALL-1)."""
    make, label, seed, policy_seed = GAMES["seed-activation-vts.txt"]
    assert transcript(make(), label, seed, policy_seed, 1) == transcript(
        make(), label, seed, policy_seed, 1)
