"""The ``wasteland`` command line.

Each sub-command is a module in :mod:`sim.commands` with a ``register``
function that adds its parser and sets ``run``; this file only dispatches, so
a new command never touches it. sim/ never imports pygame: the ``play`` and
``render`` commands import :mod:`render` lazily inside ``run``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sim.commands
from sim.errors import WastelandError

if TYPE_CHECKING:
    from sim.scenario import Scenario
    from sim.state import GameState

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


# --- The window layer ---------------------------------------------------------------
# The only place sim/ reaches up into render/ (and so pygame), lazily, for the
# `play` and `render` commands; importing sim never imports pygame.


def open_game_window(scenario: Scenario, state: GameState | None, save_dir: Path,
                     no_display: str) -> int:
    """Run the hot-seat window until it is closed; 1 with ``no_display`` if none opens."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from render.app import NoDisplayError, close_window, open_window
    from render.controller import Controller

    controller = Controller(scenario, save_dir=save_dir, state=state)
    try:
        app = open_window(controller)
    except NoDisplayError as exc:
        print(f"{no_display} ({exc})", file=sys.stderr)
        return 1
    try:
        code: int = app.run()
        return code
    finally:
        close_window()


def export_png(scenario: Scenario, out: Path, **options: Any) -> None:
    """Draw ``scenario`` headless to the PNG file ``out`` (``render.png.export_scenario``)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from render.png import export_scenario

    export_scenario(scenario, out, **options)


if __name__ == "__main__":
    sys.exit(main())
