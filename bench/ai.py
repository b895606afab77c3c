"""AI players (issues 18 and 33): CPU time of whole games and of decisions.

All figures are CPU time of this process (``time.process_time``), medians, so
the other processes of a shared machine move them little; each is also given
as a ratio to a baseline measured in the same run, in turn with it:

- greedy against greedy on the default scenario: CPU seconds a game and games
  per CPU-minute (issue 33's bar: at most 0.3 s a game); baseline: a random
  against random game (the engine alone: listing, checking, applying); and the
  CPU its reachable areas take a game (the candidate walks are points of them:
  a game of the same moves builds the same areas);
- search against greedy, games of ``SEARCH_ROUNDS`` rounds: games per
  CPU-minute, and search's activation decisions (the ones it plays out):
  the median CPU seconds one takes and decisions per CPU-second (issue 33's
  bar: at most 0.3 s a decision at the default playout budget); baseline:
  greedy's own activation decisions in those games;
- ``simulate --jobs 2`` against ``--jobs 1``: the one figure in wall time
  (what two processes buy is wall time), greedy against random.

``WASTELAND_BENCH_GAMES`` scales the batches (default 4 games per figure).
"""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path
from typing import Any

from sim.ai.batch import ScenarioSource, player_seed, run_games
from sim.ai.match import play_game
from sim.ai.player import Decision, Player
from sim.ai.registry import make_player
from sim.engine.gamedata import Phase
from sim.engine.state import GameState
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import Scenario

SCENARIO = Path(__file__).resolve().parent.parent / "scenarios" / "skirmish.toml"
GAMES = int(os.environ.get("WASTELAND_BENCH_GAMES", "4"))
#: Rounds of the search games (a whole game of search takes minutes).
SEARCH_ROUNDS = 2
#: Issue 37's bar: search's mean activation decision, CPU seconds.
MEAN_BAR = 1.5
#: Issue 33's bars, CPU seconds.
GAME_BAR = 0.3
DECISION_BAR = 0.3

clock = time.process_time


class Timed:
    """A player whose activation decisions are timed (CPU), one by one."""

    def __init__(self, player: Player) -> None:
        self.player = player
        self.name = player.name
        self.activations: list[float] = []
        self.decisions = 0

    def decide(self, state: GameState) -> Decision:
        start = clock()
        d = self.player.decide(state)
        if state.phase is Phase.ACTIVATION:
            self.activations.append(clock() - start)
        self.decisions += 1
        return d


def game_seconds(scenario: Scenario, a: str, b: str, seed: int,
                 rounds: int | None = None) -> tuple[float, Timed, Timed]:
    """CPU seconds of one whole game, and its two timed players."""
    pa = Timed(make_player(a, player_seed(seed, 0)))
    pb = Timed(make_player(b, player_seed(seed, 1)))
    start = clock()
    play_game(scenario, {"settlers": pa, "mutants": pb}, seed=seed, rounds=rounds)
    return clock() - start, pa, pb


def greedy_games(scenario: Scenario, games: int) -> None:
    greedy: list[float] = []
    random: list[float] = []
    for g in range(games):  # in turn, so a change of load moves both alike
        random.append(game_seconds(scenario, "random", "random", g)[0])
        greedy.append(game_seconds(scenario, "greedy", "greedy", g)[0])
    s, base = statistics.median(greedy), statistics.median(random)
    verdict = "yes" if s <= GAME_BAR else "no"
    print(f"  greedy v greedy: {s:.2f} s CPU a game (median of {games}), "
          f"{60 / s:.0f} games per CPU-minute; {s / base:.1f}x a random v random game "
          f"({base:.3f} s, the baseline); at most {GAME_BAR} s: {verdict}")


def greedy_floor(scenario: Scenario, games: int) -> None:
    """What greedy's reachable areas alone cost a game: its candidate walks are points of
    each activating model's area (the same games need the same areas), so no game of
    the same moves costs less, whatever else gets faster."""
    import sim.ai.candidates as candidates

    spent = [0.0, 0.0]  # CPU seconds in the areas, and in the whole games
    calls = [0]
    names = vars(candidates)  # (the module's own name for it, patched for the count)
    build = names["reachable_area"]

    def timed(*args: Any, **kw: Any) -> Any:
        start = clock()
        try:
            return build(*args, **kw)
        finally:
            spent[0] += clock() - start
            calls[0] += 1

    names["reachable_area"] = timed
    try:
        for g in range(games):
            spent[1] += game_seconds(scenario, "greedy", "greedy", g)[0]
    finally:
        names["reachable_area"] = build
    area, whole = spent[0] / games, spent[1] / games
    print(f"  of which greedy's reachable areas: {area:.2f} s CPU a game ({calls[0] / games:.0f} "
          f"areas, {1000 * spent[0] / max(1, calls[0]):.1f} ms each), {area / whole:.0%} of its "
          f"{whole:.2f} s: the least a game of the same moves costs, areas built as now")


def search_games(scenario: Scenario, games: int) -> None:
    took: list[float] = []
    search: list[float] = []
    greedy: list[float] = []
    for g in range(games):
        s, pa, pb = game_seconds(scenario, "search", "greedy", 100 + g, SEARCH_ROUNDS)
        took.append(s)
        search += pa.activations
        greedy += pb.activations
    s = statistics.median(took)
    d, base = statistics.median(search), statistics.median(greedy)
    verdict = "yes" if d <= DECISION_BAR else "no"
    print(f"  search v greedy, {SEARCH_ROUNDS}-round games: {s:.1f} s CPU a game (median of "
          f"{games}), {60 / s:.1f} games per CPU-minute")
    print(f"  search's activation decisions: {d:.3f} s CPU each (median of {len(search)}), "
          f"{1 / d:.1f} decisions per CPU-second; {d / base:.1f}x greedy's in the same games "
          f"({base * 1000:.0f} ms, the baseline); at most {DECISION_BAR} s: {verdict}")
    m = statistics.mean(search)  # issue 37's bar is on the mean (a plan's second is free)
    print(f"  search's activation decisions: {m:.3f} s CPU each (mean), "
          f"at most {MEAN_BAR} s: {'yes' if m <= MEAN_BAR else 'no'}")


def games_per_minute_wall(games: int, jobs: int) -> float:
    source = ScenarioSource(path=str(SCENARIO))
    start = time.perf_counter()
    run_games(source, {"settlers": "greedy", "mutants": "random"}, 0, games, jobs=jobs)
    return 60 * games / (time.perf_counter() - start)


def run() -> None:
    scenario = load_scenario(SCENARIO)
    load = os.getloadavg()[0]
    print(f"scenario {SCENARIO.name}, CPU time; load average {load:.1f} at the start")
    game_seconds(scenario, "greedy", "greedy", 99, 1)  # warm: the first board set-up
    greedy_games(scenario, GAMES)
    greedy_floor(scenario, max(1, GAMES // 2))
    search_games(scenario, max(1, GAMES // 4))
    one, two = games_per_minute_wall(GAMES, 1), games_per_minute_wall(GAMES, 2)
    print(f"  simulate greedy v random, wall time: {one:.1f} games/min with --jobs 1, "
          f"{two:.1f} with --jobs 2 ({two / one:.2f}x)")


if __name__ == "__main__":
    run()
