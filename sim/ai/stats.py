"""The figures of a batch of games: win rates with 95% intervals, draws, rounds,
the first player's advantage, and per-unit survival and damage dealt.

Intervals are Wilson score intervals (good at rates near 0 and 1 and for few
games, where the normal approximation leaves [0, 1]).

>>> lo, hi = wilson(8, 10)
>>> round(lo, 3), round(hi, 3)
(0.49, 0.943)
>>> wilson(0, 0)
(0.0, 1.0)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # records only: the engine is not needed to sum them (quick start-up)
    from sim.ai.match import GameRecord
    from sim.scenario.objects import Scenario

Z95 = 1.959963984540054  # the normal quantile of 0.975


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a rate; ``(0, 1)`` without trials."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    d = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / d
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


def _rate(n: int, of: int) -> dict[str, Any]:
    lo, hi = wilson(n, of)
    return {"wins": n, "games": of, "rate": n / of if of else 0.0, "ci95": [lo, hi]}


def summarise(scenario: Scenario, players: Mapping[str, str], seed: int,
              records: Sequence[GameRecord]) -> dict[str, Any]:
    """The ``wasteland-simulate/1`` figures (``wasteland schema simulate``) after ``format``."""
    n = len(records)
    sides = [s.id for s in scenario.sides.values() if not s.neutral]
    wins = {s: sum(1 for r in records if r.winner == s) for s in sides}
    with_first = [r for r in records if r.first is not None]
    units: dict[str, Any] = {}
    for m in scenario.models:
        if scenario.sides[m.side].neutral:
            continue
        units[m.id] = {
            "side": m.side, "unit": m.unit,
            "survival": sum(r.survived[m.id] for r in records) / n if n else 0.0,
            "damage_dealt": sum(r.damage[m.id] for r in records) / n if n else 0.0,
        }
    return {
        "scenario": scenario.name, "games": n, "seed": seed, "players": dict(players),
        "wins": wins, "draws": n - sum(wins.values()),
        "win_rate": {s: _rate(wins[s], n) for s in sides},
        "mean_rounds": sum(r.rounds for r in records) / n if n else 0.0,
        "first_player": _rate(sum(1 for r in with_first if r.winner == r.first),
                              len(with_first)),
        "first_side": {s: sum(1 for r in with_first if r.first == s) for s in sides},
        "units": units,
        "decisions": sum(r.decisions for r in records),
        # R-OBJ-6: the mean score, and the objective points in it
        "mean_score": {s: _mean([r.scores.get(s, 0) for r in records]) for s in sides},
        "mean_objective_points": {s: _mean([r.objective_points.get(s, 0) for r in records])
                                  for s in sides},
    }


def _mean(values: Sequence[int]) -> float:
    return sum(values) / len(values) if values else 0.0


def _pct(rate: Mapping[str, Any]) -> str:
    lo, hi = rate["ci95"]
    return f"{rate['rate']:.1%} (95% CI {lo:.1%}-{hi:.1%})"


def report_lines(scenario: Scenario, figures: Mapping[str, Any]) -> list[str]:
    """The figures as text, in display names."""
    from sim.scenario.names import display_names  # (the scenario's geometry: when printed)

    names = display_names(scenario)
    n = figures["games"]
    players = figures["players"]
    lines = [f"{scenario.name}: {n} games from seed {figures['seed']}, "
             + ", ".join(f"{names.side(s)} played by {p}" for s, p in players.items())]
    for side, rate in figures["win_rate"].items():
        lines.append(f"  {names.side(side)} ({players[side]}) wins {rate['wins']} of {n}: "
                     f"{_pct(rate)}")
    lines.append(f"  draws: {figures['draws']}; mean rounds: {figures['mean_rounds']:.2f}")
    if scenario.objectives:
        lines.append("  mean score (objective points in it): " + ", ".join(
            f"{names.side(s)} {x:.2f} ({figures['mean_objective_points'][s]:.2f})"
            for s, x in figures["mean_score"].items()))
    first = figures["first_player"]
    lines.append(f"  the side taking the first turn won {first['wins']} of {first['games']}: "
                 f"{_pct(first)}")
    lines.append("  per unit: survival, mean damage dealt to enemies per game")
    width = max((len(names.model(m)) for m in figures["units"]), default=0)
    for m, u in figures["units"].items():
        lines.append(f"    {names.model(m):<{width}}  {names.side(u['side'])}: "
                     f"survived {u['survival']:.0%}, damage {u['damage_dealt']:.2f}")
    return lines
