"""``wasteland play [SCENARIO] [--load SAVE] [--ai SIDE[=PLAYER]]``: the game window,
hot-seat, or solo against an AI player (``--ai``, docs/ai.md).

SCENARIO is a file or a shipped scenario name (default: the shipped
``skirmish``); ``-`` (stdin) is refused, since a saved game must find its
scenario file again. Imports :mod:`render` (and so pygame) lazily inside
:func:`run`, so ``sim`` never imports pygame. Without a display it exits 1
with a one-line message.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.ai.registry import DEFAULT, PLAYERS
from sim.cli_io import STDIN
from sim.errors import UsageError, WastelandError
from sim.scenario.format.shipped import resolve_scenario

if TYPE_CHECKING:
    from sim.scenario.objects import Scenario

DEFAULT_SCENARIO = "skirmish"
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
        help=f"scenario file or shipped scenario name (default: {DEFAULT_SCENARIO})",
    )
    p.add_argument("--load", metavar="SAVE", help="continue a saved game")
    p.add_argument("--ai", action="append", default=[], metavar="SIDE[=PLAYER]",
                   help="the AI plays SIDE (solo play): random, greedy (default) or search; "
                        "once per side")
    p.add_argument("--size", metavar="WxH",
                   help="window size in pixels, e.g. 1366x700 (default: fits the screen)")
    p.set_defaults(run=run, parser=p)


def scenario_file(arg: str | None) -> Path:
    """The file of a SCENARIO argument (a path or a shipped name; the default when None)."""
    if arg == STDIN:
        raise WastelandError("'-' (stdin) is not accepted: a saved game must find its "
                             "scenario file again; give a file or a shipped name")
    path = resolve_scenario(DEFAULT_SCENARIO if arg is None else arg).path
    if path is None:  # only stdin has no path, refused above
        raise WastelandError(f"no scenario file for {arg!r}")
    return path


def display_missing() -> bool:
    """True on a Linux/BSD box with no X11/Wayland display and no SDL driver chosen."""
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return False
    env = os.environ
    return not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY") or env.get("SDL_VIDEODRIVER"))


def _same_file(path: Path, scenario: Scenario) -> bool:
    return scenario.source is not None and path.resolve() == scenario.source.resolve()


def ai_sides(scenario: Scenario, given: list[str]) -> dict[str, str]:
    """``--ai SIDE[=PLAYER]`` values as side id -> player name (docs/ai.md)."""
    sides = [s.id for s in scenario.sides.values() if not s.neutral]
    out: dict[str, str] = {}
    for text in given:
        side, _, name = text.partition("=")
        name = name or DEFAULT
        if side not in sides:
            raise WastelandError(f"--ai {text}: the scenario has no side {side!r}; its sides: "
                                 f"{', '.join(sides)}")
        if name not in PLAYERS:
            raise UsageError(f"--ai {text}: unknown AI player {name!r}; known players: "
                             f"{', '.join(PLAYERS)}")
        if side in out:
            raise UsageError(f"--ai given twice for side {side!r}")
        out[side] = name
    return out


def run(args: argparse.Namespace) -> int:
    from sim.game.save import load_game  # the engine: only when a game is played
    from sim.scenario.format.loader import load_scenario

    state = None
    if args.load is not None:
        state = load_game(args.load)
        scenario = state.scenario
        if args.scenario is not None and not _same_file(scenario_file(args.scenario), scenario):
            args.parser.error(f"--load: {args.load!r} is a game of {str(scenario.source)!r}, "
                              f"not of {args.scenario!r}")
    else:
        scenario = load_scenario(scenario_file(args.scenario))
    from sim import cli_render

    try:
        ai = ai_sides(scenario, args.ai)
        pixels = cli_render.window_size(args.size)
    except UsageError as exc:
        args.parser.error(str(exc))
    if display_missing():
        print(NO_DISPLAY, file=sys.stderr)
        return 1
    return cli_render.open_game_window(scenario, state, Path.cwd(), NO_DISPLAY, pixels, ai=ai)
