"""``wasteland ladder SCENARIO --players random,greedy,search [--games N] [--seed S]
[--rounds R] [--jobs J] [--backend local|dask --scheduler ADDRESS] [--json]``.

Plays every pairing of the players both ways (each player on each side against each
other one), N games per pairing and side assignment, and prints each player's Elo
rating with a 95% interval and the win matrix (docs/ai.md; the fit and the intervals:
:mod:`sim.ai.ladder`). Every block of N games is played from seeds S .. S+N-1 through
:func:`sim.ai.batch.run_games`, so the output is the same for any --jobs and either
backend. ``--json`` prints one ``wasteland-ladder/1`` object (its schema: ``wasteland
schema ladder``). A progress bar goes to stderr when stderr is a terminal. Exit status 0
done, 1 refused input (a scenario that does not load or has not two sides, an
unreachable scheduler), 2 usage.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from sim.ai.registry import PLAYERS
from sim.cli_io import print_json
from sim.commands._batch import (
    add_batch_options,
    check_backend,
    int_in,
    note_endless,
    progress_bar,
    scenario_source,
    warner,
)
from sim.errors import WastelandError

if TYPE_CHECKING:  # the engine and numpy are imported when games are played
    from sim.ai.ladder import Result
    from sim.scenario.objects import Scenario

MAX_GAMES = 100_000


def player_list(text: str) -> list[str]:
    """``--players a,b,...``: two or more known players, each once."""
    names = [n.strip() for n in text.split(",")]
    unknown = [n for n in names if n not in PLAYERS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown AI player {unknown[0]!r} in {text!r}; "
                                         f"known players: {', '.join(PLAYERS)}")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise argparse.ArgumentTypeError(f"player {twice[0]!r} given twice in {text!r}")
    if len(names) < 2:
        raise argparse.ArgumentTypeError(f"a ladder needs two players or more, got {text!r}")
    return names


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "ladder", help="play every pairing of AI players both ways and rate them (Elo)",
        description="Play every pairing of the AI players both ways (each player on each "
                    "side), N games per pairing and side assignment from seeds S..S+N-1, and "
                    "print each player's Elo rating with a 95% bootstrap interval and the "
                    "win matrix. Exit 0 done, 1 refused input, 2 usage.")
    p.add_argument("scenario", metavar="SCENARIO",
                   help="scenario file, shipped scenario name, or - for stdin")
    p.add_argument("--players", type=player_list, default=["random", "greedy"],
                   metavar="P,P,...",
                   help=f"the players, comma-separated: {', '.join(PLAYERS)} "
                        "(default random,greedy)")
    p.add_argument("--games", type=int_in("--games", 1, MAX_GAMES), default=10, metavar="N",
                   help="games per pairing and side assignment (default 10)")
    add_batch_options(p, "seed of each block's first game, and of the bootstrap (default 0)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (its schema: wasteland schema ladder)")
    p.set_defaults(run=run, parser=p)


def _sides(scenario: Scenario) -> tuple[str, str]:
    sides = [s.id for s in scenario.sides.values() if not s.neutral]
    if len(sides) != 2:
        raise WastelandError(f"a ladder needs a scenario of two sides; {scenario.name!r} "
                             f"has {len(sides)}: {', '.join(sides)}")
    return sides[0], sides[1]


def run(args: argparse.Namespace) -> int:
    check_backend(args)
    from sim.ai.batch import run_games
    from sim.ai.ladder import Result, pairings

    source, scenario = scenario_source(args.scenario)
    note_endless(scenario, args.rounds, warner("ladder"))
    sides = _sides(scenario)
    blocks = pairings(args.players)
    bar = progress_bar(len(blocks) * args.games)
    results: list[Result] = []
    for k, (first, second) in enumerate(blocks):
        done_before = k * args.games  # the bar counts the whole ladder's games
        records = run_games(source, {sides[0]: first, sides[1]: second}, args.seed,
                            args.games, jobs=args.jobs, backend=args.backend,
                            scheduler=args.scheduler, rounds=args.rounds,
                            progress=_offset(bar, done_before), warn=warner("ladder"))
        wins = sum(1 for r in records if r.winner == sides[0])
        losses = sum(1 for r in records if r.winner == sides[1])
        results.append(Result(first, second, wins, len(records) - wins - losses, losses))
    figures = _figures(args, sides, results)
    if args.json:
        print_json("ladder", {"scenario": args.scenario, "title": scenario.name, **figures})
    else:
        print("\n".join(_report(scenario.name, figures)))
    return 0


def _offset(bar: Callable[[int], None] | None, before: int) -> Callable[[int], None] | None:
    """One block's progress on the ladder's bar."""
    if bar is None:
        return None
    return lambda done: bar(before + done)


def _figures(args: argparse.Namespace, sides: tuple[str, str], results: list[Result]
             ) -> dict[str, Any]:
    """The ``wasteland-ladder/1`` figures after ``scenario`` and ``title``."""
    from sim.ai.ladder import (
        BOOTSTRAP,
        PRIOR_DRAWS,
        bootstrap_intervals,
        fit_elo,
        totals,
        win_matrix,
    )

    players: list[str] = args.players
    elo = fit_elo(players, results)
    ci = bootstrap_intervals(players, results, args.seed)
    total = totals(players, results)
    ranked = sorted(players, key=lambda p: -elo[p])  # stable: ties keep --players' order
    matrix = win_matrix(players, results)
    return {
        "players": players, "sides": list(sides), "games_per_block": args.games,
        "games": sum(r.games for r in results), "seed": args.seed, "rounds": args.rounds,
        "method": {"fit": "bradley-terry maximum likelihood, draws as half",
                   "prior_draws": PRIOR_DRAWS, "interval": "percentile bootstrap",
                   "resamples": BOOTSTRAP},
        "ratings": [{"player": p, "elo": round(elo[p], 1),
                     "ci95": [round(ci[p][0], 1), round(ci[p][1], 1)],
                     "wins": total[p].wins, "draws": total[p].draws,
                     "losses": total[p].losses, "games": total[p].games,
                     "score": total[p].score} for p in ranked],
        "matrix": {a: {b: {"wins": c.wins, "draws": c.draws, "losses": c.losses,
                           "games": c.games, "score": c.score} for b, c in row.items()}
                   for a, row in matrix.items()},
        "blocks": [{"players": {sides[0]: r.first, sides[1]: r.second}, "games": r.games,
                    "wins": {sides[0]: r.wins, sides[1]: r.losses}, "draws": r.draws}
                   for r in results],
    }


def _report(title: str, f: dict[str, Any]) -> list[str]:
    """The figures as text: the ratings, then the win matrix."""
    players: list[str] = f["players"]
    n = f["games_per_block"]
    lines = [f"{title}: ladder of {', '.join(players)}; {n} game{'s' * (n != 1)} per "
             f"pairing and side from seed {f['seed']} ({f['games']} games)",
             "  Elo (mean 0), 95% bootstrap interval, points of games (a draw half):"]
    width = max(len(p) for p in players)
    for rank, r in enumerate(f["ratings"], 1):
        lo, hi = r["ci95"]
        points = r["wins"] + r["draws"] / 2
        lines.append(f"  {rank}. {r['player']:<{width}}  {r['elo']:+7.1f}  "
                     f"({lo:+.1f} to {hi:+.1f})  {points:g} of {r['games']}")
    lines.append("  win matrix: the row's wins-draws-losses against the column, both sides:")
    cells = {a: {b: f"{c['wins']}-{c['draws']}-{c['losses']}" for b, c in row.items()}
             for a, row in f["matrix"].items()}
    col = max([width] + [len(t) for row in cells.values() for t in row.values()])
    lines.append("    " + " " * width + "".join(f"  {b:>{col}}" for b in players))
    for a in players:
        lines.append(f"    {a:<{width}}" + "".join(
            f"  {cells[a].get(b, '-'):>{col}}" for b in players))
    return lines
