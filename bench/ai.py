"""AI players (issue 18): decisions per second for each player, games per minute for
``wasteland simulate`` on the default scenario.

- decisions/s: a player's ``decide`` timed over whole games (random against
  random, greedy against greedy, search against greedy), every decision of
  the game (turn choices are cheap, an activation's actions are what cost);
- games/min: :func:`sim.ai.batch.run_games` (what ``simulate`` runs), greedy
  against random, in this process (--jobs 1) and on two processes (--jobs 2).

``WASTELAND_BENCH_GAMES`` scales the batches (default 4 games per figure).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from sim.ai.batch import ScenarioSource, run_games
from sim.ai.match import play_game
from sim.ai.player import Decision, Player
from sim.ai.registry import make_player
from sim.engine.state import GameState
from sim.scenario.format.loader import load_scenario

SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "skirmish.toml"
GAMES = int(os.environ.get("WASTELAND_BENCH_GAMES", "4"))


class Timed:
    """A player whose decisions are counted and timed."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name
        self.decisions = 0
        self.seconds = 0.0

    def decide(self, state: GameState) -> Decision:
        start = time.perf_counter()
        d = self.player.decide(state)
        self.seconds += time.perf_counter() - start
        self.decisions += 1
        return d


def decisions_per_second(a: str, b: str, games: int, rounds: int | None) -> None:
    scenario = load_scenario(SCENARIO)
    timed: dict[str, list[Timed]] = {a: [], b: []}
    for g in range(games):
        pa, pb = Timed(make_player(a, 2 * g)), Timed(make_player(b, 2 * g + 1))
        timed[a].append(pa)
        timed[b].append(pb)
        play_game(scenario, {"settlers": pa, "mutants": pb}, seed=g, rounds=rounds)
    for name in dict.fromkeys((a, b)):
        n = sum(t.decisions for t in timed[name])
        s = sum(t.seconds for t in timed[name])
        print(f"  {name:>7} ({a} v {b}, {games} games): {n / s:8.1f} decisions/s "
              f"({n} decisions, {1000 * s / n:.1f} ms each)")


def games_per_minute(games: int, jobs: int) -> None:
    source = ScenarioSource(path=str(SCENARIO))
    start = time.perf_counter()
    run_games(source, {"settlers": "greedy", "mutants": "random"}, 0, games, jobs=jobs)
    took = time.perf_counter() - start
    print(f"  simulate greedy v random, --jobs {jobs}: {60 * games / took:6.1f} games/min "
          f"({games} games in {took:.1f} s)")


def run() -> None:
    print(f"scenario {SCENARIO.name}, whole games (6 rounds) unless said")
    decisions_per_second("random", "random", GAMES, None)
    decisions_per_second("greedy", "greedy", max(1, GAMES // 2), None)
    decisions_per_second("search", "greedy", 1, 2)
    games_per_minute(GAMES, 1)
    games_per_minute(GAMES, 2)


if __name__ == "__main__":
    run()
