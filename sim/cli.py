"""The ``wasteland`` command line.

Each sub-command is a module in :mod:`sim.commands` with a ``register``
function that adds its parser and sets ``run``; this file only dispatches, so
a new command never touches it. sim/ never imports pygame: the ``play`` and
``render`` commands import :mod:`render` lazily inside ``run``.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

import sim.commands
from sim.errors import WastelandError

# Exit codes: 0 ok, 1 a checked thing is invalid (``check``), 2 bad usage/input.
EXIT_USAGE = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="wasteland",
        description="Battlefield simulator for a skirmish miniatures wargame.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(sim.commands.__path__), key=lambda i: i.name):
        module = importlib.import_module(f"sim.commands.{info.name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
    except WastelandError as exc:
        print(f"wasteland {args.command}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    return code


if __name__ == "__main__":
    sys.exit(main())
