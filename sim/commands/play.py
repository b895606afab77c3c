"""``wasteland play [SCENARIO] [--load SAVE]``: the hot-seat game window.

Imports :mod:`render` (and so pygame) lazily inside :func:`run`, so ``sim``
never imports pygame. Without a display it exits 1 with a one-line message.
"""

from __future__ import annotations

import argparse
import os
import sys
from contextlib import ExitStack
from importlib import resources
from pathlib import Path
from typing import Any

from sim.errors import UsageError
from sim.loader import load_scenario
from sim.save import load_game
from sim.scenario import Scenario

DEFAULT_SCENARIO = "skirmish.toml"
NO_DISPLAY = "wasteland play: no display found (set DISPLAY, or run under Xvfb); nothing opened"


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "play",
        help="play a scenario hot-seat in a window",
        description="Open the game window: two players share one screen. "
        "F1 in the window lists every key and mouse action.",
    )
    p.add_argument(
        "scenario",
        nargs="?",
        metavar="SCENARIO",
        help="scenario file (default: the shipped scenarios/skirmish.toml)",
    )
    p.add_argument("--load", metavar="SAVE", help="continue a saved game")
    p.set_defaults(run=run)


def load_default_or(path: str | None, stack: ExitStack) -> Scenario:
    """The scenario at ``path``, or the shipped default found as package data."""
    if path is not None:
        return load_scenario(path)
    ref = resources.files("scenarios").joinpath(DEFAULT_SCENARIO)
    return load_scenario(stack.enter_context(resources.as_file(ref)))


def display_missing() -> bool:
    """True on a Linux/BSD box with no X11/Wayland display and no SDL driver chosen."""
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return False
    env = os.environ
    return not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY") or env.get("SDL_VIDEODRIVER"))


def _same_file(path: str, scenario: Scenario) -> bool:
    return scenario.source is not None and Path(path).resolve() == scenario.source.resolve()


def run(args: argparse.Namespace) -> int:
    with ExitStack() as stack:
        state = None
        if args.load is not None:
            state = load_game(args.load)
            scenario = state.scenario
            if args.scenario is not None and not _same_file(args.scenario, scenario):
                raise UsageError(f"--load: {args.load!r} is a game of {str(scenario.source)!r}, "
                                 f"not of {args.scenario!r}")
        else:
            scenario = load_default_or(args.scenario, stack)
        if display_missing():
            print(NO_DISPLAY, file=sys.stderr)
            return 1
        from sim import cli

        return cli.open_game_window(scenario, state, Path.cwd(), NO_DISPLAY)
