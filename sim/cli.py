"""The ``wasteland`` command line.

Each sub-command is a module in :mod:`sim.commands` with a ``register``
function that adds its parser and sets ``run``; this file only dispatches, so
a new command never touches it (modules whose name starts with ``_`` are
helpers, not commands). sim/ never imports pygame: the ``play``, ``render`` and
``map`` commands reach the window through :mod:`sim.cli_render`, lazily.

Exit status, the same for every sub-command (docs/cli.md):

- 0: done (``los`` answered, whatever the answer; ``check`` found every file valid);
- 1: refused input: a file that is missing or invalid, an unknown model or
  weapon id, an illegal shot, an output that cannot be written, no display;
- 2: usage: the command line itself is wrong (unknown option, missing
  argument, options that contradict each other), as argparse reports it.

Under ``--json`` every error is one JSON object on stdout (format
``wasteland-error/1``, ``wasteland schema error``) instead of text on stderr.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence
from importlib import metadata
from typing import TYPE_CHECKING, NoReturn

import sim.commands
from sim.cli_io import print_json_error
from sim.errors import WastelandError

if TYPE_CHECKING:
    pass

EXIT_OK, EXIT_REFUSED, EXIT_USAGE = 0, 1, 2
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE: what a shell reports for any tool whose reader left
EXIT_INTERRUPTED = 130  # 128 + SIGINT, likewise
DISTRIBUTION = "wasteland-sim"


class CommandLineError(Exception):
    """argparse found the command line wrong (raised instead of exiting, so ``main`` decides
    between the usual usage text and a JSON error)."""

    def __init__(self, parser: argparse.ArgumentParser, message: str) -> None:
        super().__init__(message)
        self.parser = parser
        self.message = message


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors reach :func:`main` as :class:`CommandLineError`."""

    def error(self, message: str) -> NoReturn:
        raise CommandLineError(self, message)


def version() -> str:
    """The installed package version (from its metadata), or 'unknown' in a bare checkout."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"


def build_parser(prog: str = "wasteland") -> argparse.ArgumentParser:
    parser = Parser(
        prog=prog,
        description="Battlefield simulator for a skirmish miniatures wargame. "
                    "Exit status: 0 ok, 1 refused input or an illegal shot, 2 usage.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(sim.commands.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"sim.commands.{info.name}")
        module.register(sub)
    for command in sub.choices.values():  # its own usage for a wrong flag of a command
        command.set_defaults(parser=command)
    return parser


def _wants_json(argv: Sequence[str]) -> bool:
    return "--json" in argv[: argv.index("--")] if "--" in argv else "--json" in argv


def main(argv: Sequence[str] | None = None, prog: str = "wasteland") -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        code = _dispatch(argv, prog)
        sys.stdout.flush()  # here, so a closed pipe is seen now and not at exit
    except BrokenPipeError:  # `wasteland scenarios | head`: the reader has what it wanted
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second error when Python flushes at exit
        return EXIT_BROKEN_PIPE
    except KeyboardInterrupt:  # Ctrl+C while reading stdin or checking many files
        print(f"{prog}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    return code


def _usage_error(exc: CommandLineError, as_json: bool) -> int:
    if as_json:
        print_json_error(exc.message, EXIT_USAGE)
    else:
        exc.parser.print_usage(sys.stderr)
        print(f"{exc.parser.prog}: error: {exc.message}", file=sys.stderr)
    return EXIT_USAGE


# Commands that ask for sight: the compiled kernels are made ready before they start.
_NEEDS_SIGHT = frozenset({"los", "shoot", "render", "play", "replay", "map", "edit",
                          "simulate", "ladder"})


def _compile_kernels(prog: str) -> None:
    """Compile the sight kernels on this machine's first use, saying so on stderr (a
    first query would otherwise stall without a word)."""
    from geometry.compiled import ensure_compiled  # imports numba: only when needed

    ensure_compiled(lambda line: print(f"{prog}: {line}", file=sys.stderr, flush=True))


def _dispatch(argv: list[str], prog: str) -> int:
    parser = build_parser(prog)
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:  # a command's wrong flag: that command's usage, not the top level's
            raise CommandLineError(args.parser, f"unrecognized arguments: {' '.join(extra)}")
    except CommandLineError as exc:
        return _usage_error(exc, _wants_json(argv))
    as_json = bool(getattr(args, "json", False))
    if args.command in _NEEDS_SIGHT:
        _compile_kernels(prog)
    try:
        code: int = args.run(args)
    except CommandLineError as exc:  # options that contradict each other, found in ``run``
        return _usage_error(exc, as_json)
    except WastelandError as exc:
        if as_json:
            print_json_error(exc, EXIT_REFUSED)
        else:
            print(f"{prog} {args.command}: {exc}", file=sys.stderr)
        return EXIT_REFUSED
    return code


if __name__ == "__main__":
    sys.exit(main())
