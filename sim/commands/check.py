"""``wasteland check FILE...``: validate scenario files, reporting every problem."""

from __future__ import annotations

import argparse
from typing import Any

from sim.errors import ScenarioError
from sim.loader import load_scenario


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "check", help="check scenario files",
        description="Check scenario files: prints 'FILE: ok' or every problem found. "
                    "Exit status 0 when all are valid, 1 otherwise.")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    status = 0
    for name in args.files:
        try:
            load_scenario(name)
        except ScenarioError as exc:
            status = 1
            for problem in exc.problems:
                print(problem)
        else:
            print(f"{name}: ok")
    return status
