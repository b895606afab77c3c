"""``wasteland check SCENARIO... [--json]``: validate scenario files, reporting every problem.

Each argument is a file, a shipped scenario name or ``-`` (stdin, once).
Exit status 0 when all are valid, 1 otherwise, like every command (docs/cli.md).
"""

from __future__ import annotations

import argparse
from typing import Any

from sim.cli_io import STDIN, load_scenario_arg, print_json
from sim.errors import Problem, ScenarioError


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "check", help="check scenario files",
        description="Check scenario files: prints 'SCENARIO: ok' or every problem found. "
                    "Exit status 0 when all are valid, 1 otherwise.")
    p.add_argument("files", nargs="+", metavar="SCENARIO",
                   help="scenario file, shipped scenario name, or - for stdin")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (its schema: wasteland schema check)")
    p.set_defaults(run=run, parser=p)


def _problems(name: str) -> tuple[Problem, ...]:
    try:
        load_scenario_arg(name)
    except ScenarioError as exc:
        return exc.problems
    return ()


def run(args: argparse.Namespace) -> int:
    if args.files.count(STDIN) > 1:
        args.parser.error("'-' (stdin) can be given once")
    results = [(name, _problems(name)) for name in args.files]
    if args.json:
        print_json("check", {"files": [
            {"scenario": name, "ok": not problems,
             "problems": [{"file": p.file, "key": p.path or None, "message": p.message}
                          for p in problems]}
            for name, problems in results]})
    else:
        for name, problems in results:
            for problem in problems:
                print(problem)
            if not problems:
                print(f"{name}: ok")
    return 1 if any(problems for _, problems in results) else 0
