"""``wasteland simulate SCENARIO --games N --ai SIDE=PLAYER --ai SIDE=PLAYER [--seed S]
[--jobs J] [--rounds R] [--json] [--backend local|dask --scheduler ADDRESS]``.

Plays N games headless, both sides played by AI players (docs/ai.md), and
prints the win rate of each side with a 95% Wilson interval, draws, mean
rounds, the first player's advantage, and per-unit survival and damage dealt.
Game i is played from seed S+i, so the figures are the same for any --jobs
and either backend. A side without ``--ai`` is played by ``greedy``.
``--json`` prints one ``wasteland-simulate/1`` object
(its schema: ``wasteland schema simulate``). A progress bar goes to stderr when stderr is a
terminal. A local worker that dies is replaced and its games played again
(a note on stderr); games that kill their worker three times end the
command with one line saying what finished. Exit status 0 done, 1 refused
input (a scenario that does not load, an unknown side, an unreachable
scheduler) or a batch that could not finish, 2 usage.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from sim.ai.batch import run_games
from sim.ai.registry import DEFAULT, PLAYERS
from sim.ai.stats import report_lines, summarise
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

if TYPE_CHECKING:
    from sim.scenario.objects import Scenario

MAX_GAMES = 1_000_000


def ai_choice(text: str) -> tuple[str, str]:
    """``--ai SIDE=PLAYER``: a side id and a known player name."""
    side, eq, name = text.partition("=")
    if not eq or not side or not name:
        raise argparse.ArgumentTypeError(f"expected SIDE=PLAYER, got {text!r}")
    if name not in PLAYERS:
        raise argparse.ArgumentTypeError(f"unknown AI player {name!r} in {text!r}; known "
                                         f"players: {', '.join(PLAYERS)}")
    return side, name


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "simulate", help="play many games between AI players and print the figures",
        description="Play N games headless between AI players (random, greedy, "
                    "greedy-blind, search) and print each side's win rate with a 95% "
                    "interval, draws, mean rounds, the first player's advantage and per-unit "
                    "survival and damage. Game i uses seed S+i. Exit 0 done, 1 refused input, "
                    "2 usage.")
    p.add_argument("scenario", metavar="SCENARIO",
                   help="scenario file, shipped scenario name, or - for stdin")
    p.add_argument("--games", type=int_in("--games", 1, MAX_GAMES), default=100, metavar="N",
                   help="how many games (default 100)")
    p.add_argument("--ai", type=ai_choice, action="append", default=[], metavar="SIDE=PLAYER",
                   help=f"the player of one side: {', '.join(PLAYERS)} (default {DEFAULT}); "
                        "once per side")
    add_batch_options(p, "seed of the first game; game i uses S+i (default 0)")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (its schema: wasteland schema simulate)")
    p.set_defaults(run=run, parser=p)


def _check_options(args: argparse.Namespace) -> None:
    check_backend(args)
    sides = [side for side, _ in args.ai]
    twice = sorted({s for s in sides if sides.count(s) > 1})
    if twice:
        args.parser.error(f"--ai given twice for side {twice[0]!r}")


def _players(scenario: Scenario, chosen: list[tuple[str, str]]) -> dict[str, str]:
    sides = [s.id for s in scenario.sides.values() if not s.neutral]
    for side, _ in chosen:
        if side not in sides:
            raise WastelandError(f"--ai {side}=...: the scenario has no side {side!r}; its "
                                 f"sides: {', '.join(sides)}")
    given = dict(chosen)
    return {s: given.get(s, DEFAULT) for s in sides}


def run(args: argparse.Namespace) -> int:
    _check_options(args)
    source, scenario = scenario_source(args.scenario)
    note_endless(scenario, args.rounds, warner("simulate"))
    players = _players(scenario, args.ai)
    progress = progress_bar(args.games)
    records = run_games(source, players, args.seed, args.games, jobs=args.jobs,
                        backend=args.backend, scheduler=args.scheduler, rounds=args.rounds,
                        progress=progress, warn=warner("simulate"))
    figures = summarise(scenario, players, args.seed, records)
    if args.json:
        print_json("simulate", {**figures, "scenario": args.scenario,
                                "title": scenario.name})
    else:
        for line in report_lines(scenario, figures):
            print(line)
    return 0
