"""``wasteland render SCENARIO -o FILE.png [--los A T] [--reach M] [--width PX]``.

The window's drawing code, headless, to a PNG: the board as set up, with
the shot overlay of ``--los`` (sight line, line of cover, counted and
ignored cover, range rings) and the reachable area of ``--reach``. Imports
:mod:`render` lazily so ``sim`` never imports pygame.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from sim.errors import UsageError
from sim.loader import load_scenario
from sim.scenario import Scenario

MIN_WIDTH, MAX_WIDTH = 800, 8000


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "render", help="draw a scenario (and overlays) to a PNG",
        description="Draw a scenario with the game window's drawing code to a PNG file.")
    p.add_argument("scenario", metavar="SCENARIO", help="scenario file")
    p.add_argument("-o", "--output", required=True, metavar="FILE.png", help="PNG to write")
    p.add_argument("--los", nargs=2, metavar=("A", "T"),
                   help="show sight, cover and range from model A to model T")
    p.add_argument("--weapon", metavar="W", help="weapon of A for --los (default: its first)")
    p.add_argument("--reach", metavar="M", help="shade where model M can move")
    p.add_argument("--width", type=int, default=1280, metavar="PX",
                   help=f"image width in pixels ({MIN_WIDTH}..{MAX_WIDTH}, default 1280)")
    p.set_defaults(run=run)


def check_model(scenario: Scenario, model_id: str, option: str) -> str:
    if model_id not in scenario.model_ids:
        raise UsageError(f"{option}: unknown model {model_id!r}; known: "
                         f"{', '.join(scenario.model_ids)}")
    return model_id


def run(args: argparse.Namespace) -> int:
    scenario = load_scenario(args.scenario)
    if not MIN_WIDTH <= args.width <= MAX_WIDTH:
        raise UsageError(f"--width: expected {MIN_WIDTH} to {MAX_WIDTH} pixels, got {args.width!r}")
    out = Path(args.output)
    if out.suffix.lower() != ".png":
        raise UsageError(f"-o: expected a .png file name, got {args.output!r}")
    los = None
    if args.los:
        los = (check_model(scenario, args.los[0], "--los"),
               check_model(scenario, args.los[1], "--los"))
    reach = check_model(scenario, args.reach, "--reach") if args.reach else None
    if args.weapon is not None and (los is None or args.weapon not in
                                    scenario.unit_of(los[0]).weapons):
        carried = ", ".join(scenario.unit_of(los[0]).weapons) if los else "-"
        raise UsageError(f"--weapon: {args.weapon!r} is not a weapon of the --los attacker; "
                         f"it carries: {carried}")
    from sim import cli

    cli.export_png(scenario, out, width=args.width, los=los, weapon=args.weapon, reach=reach)
    print(f"wrote {out}")
    return 0
