"""What the batch commands (``simulate``, ``ladder``) share: whole-number options with a
range, the scenario packed for the workers, the backend options' checks, the progress
bar and the note of a replaced worker (a helper module: its name starts with ``_``, so
it is no command)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from sim.ai.batch import BACKENDS
from sim.cli_io import read_stdin_text
from sim.scenario.format.shipped import resolve_scenario

if TYPE_CHECKING:
    from sim.scenario.format.packed import PackedScenario
    from sim.scenario.objects import Scenario

MAX_JOBS = 256


def int_in(name: str, lo: int, hi: int) -> Callable[[str], int]:
    """An argparse type: a whole number in ``lo..hi``, the error naming the option."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(f"{name} must be {lo}..{hi}, got {value}")
        return value

    parse.__name__ = name
    return parse


def add_batch_options(p: argparse.ArgumentParser, seed_help: str) -> None:
    """``--seed`` (what it seeds: ``seed_help``), ``--rounds``, ``--jobs``, ``--backend`` and
    ``--scheduler``, as every batch command takes them."""
    p.add_argument("--seed", type=int_in("--seed", 0, 2**62), default=0, metavar="S",
                   help=seed_help)
    p.add_argument("--rounds", type=int_in("--rounds", 1, 1000), default=None, metavar="R",
                   help="last round, overriding the scenario's")
    p.add_argument("--jobs", type=int_in("--jobs", 1, MAX_JOBS), default=1, metavar="J",
                   help="local worker processes (default 1: this process)")
    p.add_argument("--backend", choices=BACKENDS, default="local",
                   help="local processes (default) or a Dask cluster (--scheduler)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="the Dask scheduler, e.g. tcp://host:8786 (with --backend dask)")


def check_backend(args: argparse.Namespace) -> None:
    """Usage errors (exit 2) for backend options that contradict each other."""
    if args.backend == "dask" and args.scheduler is None:
        args.parser.error("--backend dask needs --scheduler ADDRESS")
    if args.scheduler is not None and args.backend != "dask":
        args.parser.error("--scheduler is only for --backend dask")
    if args.backend == "dask" and args.jobs != 1:
        args.parser.error("--jobs is for the local backend; a Dask cluster has its workers")


def scenario_source(arg: str) -> tuple[PackedScenario, Scenario]:
    """The scenario packed for the workers (its text and its includes'), and loaded here
    (errors before any game)."""
    from sim.scenario.format.loader import STDIN_NAME  # (numpy, shapely: when run)
    from sim.scenario.format.packed import pack_file, pack_text

    where = resolve_scenario(arg)
    if where.path is None:
        return pack_text(read_stdin_text(), STDIN_NAME)
    return pack_file(where.path)


class Progress:
    """A one-line bar on stderr, redrawn after each chunk of games."""

    def __init__(self, total: int) -> None:
        self.total = total

    def __call__(self, done: int) -> None:
        width = 30
        filled = width * done // self.total
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} games")
        if done >= self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def warner(command: str) -> Callable[[str], None]:
    """A note on stderr while the batch goes on (a worker died and was replaced)."""
    def warn(words: str) -> None:
        print(f"\nwasteland {command}: {words}" if sys.stderr.isatty() else
              f"wasteland {command}: {words}", file=sys.stderr, flush=True)

    return warn


def note_endless(scenario: Scenario, rounds: int | None, warn: Callable[[str], None]) -> None:
    """Before a batch whose games may never end: a scenario without a last round ends
    only when a side is out of play (players who never meet play on to the runaway
    guard, :data:`sim.ai.match.MAX_DECISIONS`)."""
    if rounds is None and scenario.rounds is None:
        warn("the scenario has no last round (no 'rounds' key): a game ends only when a "
             "side is out of play; --rounds R ends every game at round R")


def progress_bar(total: int) -> Callable[[int], None] | None:
    """The bar when stderr is a terminal, else None (no bar in pipes and logs)."""
    return Progress(total) if sys.stderr.isatty() else None
