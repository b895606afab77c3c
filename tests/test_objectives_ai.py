"""The AI plays the objectives (issue 35, docs/ai.md "Objectives"): positions where a
player that ignores them (``greedy-blind``) loses and greedy wins, and a small seeded
sample of greedy against greedy-blind on the two shipped objective scenarios (the
full 40-game measure is in docs/ai.md). R-OBJ-2..4 decide every game here."""

from __future__ import annotations

import pytest

from sim.ai.match import play_game
from sim.ai.registry import make_player
from sim.scenario.format.loader import load_scenario
from tests.conftest import SCENARIOS
from tests.test_objectives_engine import model, scenario

# No weapons anywhere: no dice decide these games, only where the models end up.
ZONE = scenario(
    "",
    model("a1", "a", 4, 10) + model("b1", "b", 17, 3),
    """
[[objectives]]
id = "well"
kind = "zone"
at = [7, 16]
radius = 1.5
points = 2
""")

CARGO = scenario(
    "",
    model("a1", "a", 10, 6.5) + model("b1", "b", 17, 17),
    """
[[objectives]]
id = "crate"
kind = "cargo"
at = [10, 4]
points = 3
exits = { a = "north", b = "south" }
""")


def _play(sc, a: str, b: str):
    return play_game(sc, {"a": make_player(a, 1), "b": make_player(b, 1)}, seed=1)


def test_ignoring_a_zone_loses_it() -> None:
    """R-OBJ-2: a1's centre is 6.71 in from the well's, so its base is 6.71 - 0.63 - 1.5
    = 4.58 in from counting: one 4 in walk a round, it is in by the end of round 2 (of
    2). B's only model is about 16 in from the well: it cannot get there. Greedy walks
    in and scores 2 (a win); greedy-blind walks toward the enemy and scores 0."""
    played = _play(ZONE, "greedy", "greedy")
    assert played.winner == "a" and played.scores["a"] >= 2
    blind = _play(ZONE, "greedy-blind", "greedy")
    assert blind.winner != "a" and blind.scores["a"] == 0


def test_ignoring_cargo_never_carries_it_off() -> None:
    """R-OBJ-4: a1 is 2.5 in from the crate; one walk to the crate's point (10, 4) picks
    it up, and the leave north from there crosses the edge 4 - 0.63 = 3.37 in on, within
    its ruler: 3 points and no point for B. The blind player never carries it off (it
    never leaves the board), so it scores 0."""
    played = _play(CARGO, "greedy", "greedy")
    assert played.winner == "a" and played.scores == {"a": 3, "b": 0}
    blind = _play(CARGO, "greedy-blind", "greedy")
    assert blind.scores["a"] == 0 and blind.winner != "a"


@pytest.mark.parametrize("name", ["objectives-zones", "objectives-cargo"])
def test_greedy_beats_greedy_blind_on_the_shipped_scenarios(name: str) -> None:
    """A seeded sample of the measure (docs/ai.md): 2 games each way; greedy wins at
    least 3 of the 4 (the 40-game measure asks 75%)."""
    sc = load_scenario(SCENARIOS / f"{name}.toml")
    wins = 0
    for seed in (0, 1):
        for me, them in (("north", "south"), ("south", "north")):
            players = {me: make_player("greedy", seed), them: make_player("greedy-blind", seed)}
            wins += play_game(sc, players, seed=seed).winner == me
    assert wins >= 3
