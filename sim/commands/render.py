"""``wasteland render SCENARIO -o FILE.png [--los A T] [--reach M] [--width PX]``.

The window's drawing code, headless, to a PNG: the board as set up, with
the shot overlay of ``--los`` (sight line, line of cover, counted and
ignored cover, range rings) and the reachable area of ``--reach``. Imports
:mod:`render` lazily so ``sim`` never imports pygame. ``-o -`` writes the
PNG to stdout; a folder that does not exist is refused, never created.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.cli_io import STDIN, check_model, load_scenario_arg
from sim.errors import WastelandError

if TYPE_CHECKING:
    from sim.scenario.objects import Scenario

MIN_WIDTH, MAX_WIDTH = 800, 8000


def width(text: str) -> int:
    """``--width``: an integer number of pixels in range (argparse type: usage error else)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if not MIN_WIDTH <= value <= MAX_WIDTH:
        raise argparse.ArgumentTypeError(f"expected {MIN_WIDTH} to {MAX_WIDTH} pixels, "
                                         f"got {value!r}")
    return value


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "render", help="draw a scenario (and overlays) to a PNG",
        description="Draw a scenario with the game window's drawing code to a PNG file.")
    p.add_argument("scenario", metavar="SCENARIO",
                   help="scenario file, shipped scenario name, or - for stdin")
    p.add_argument("-o", "--output", required=True, metavar="FILE.png",
                   help="PNG to write (its folder must exist), or - for stdout")
    p.add_argument("--los", nargs=2, metavar=("A", "T"),
                   help="show sight, cover and range from model A to model T")
    p.add_argument("--weapon", metavar="W", help="weapon of A for --los (default: its first)")
    p.add_argument("--reach", metavar="M", help="shade where model M can move")
    p.add_argument("--width", type=width, default=1280, metavar="PX",
                   help=f"image width in pixels ({MIN_WIDTH}..{MAX_WIDTH}, default 1280)")
    p.set_defaults(run=run, parser=p)


def output_path(name: str) -> Path | None:
    """The PNG file ``-o`` names (None: stdout), refused unless it can be written as asked."""
    if name == STDIN:
        return None
    out, folder = Path(name), Path(name).parent
    try:
        is_dir, folder_exists = out.is_dir(), folder.is_dir()
    except OSError as exc:  # a name too long for the file system...
        raise WastelandError(f"-o: cannot use {_shown(name)!r}: {exc.strerror or exc}") from None
    if is_dir:
        raise WastelandError(f"-o: {_shown(name)!r} is a folder; expected a .png file name")
    if out.suffix.lower() != ".png":
        raise WastelandError(f"-o: expected a .png file name, got {_shown(name)!r}")
    if not folder_exists:
        raise WastelandError(f"-o: folder {_shown(str(folder))!r} does not exist "
                             "(render does not create folders)")
    if not os.access(folder, os.W_OK):
        raise WastelandError(f"-o: folder {str(folder)!r} is not writable")
    return out


def _shown(name: str) -> str:
    return name if len(name) <= 80 else f"{name[:77]}..."


def _overlays(scenario: Scenario, args: argparse.Namespace) -> dict[str, Any]:
    los = None
    if args.los:
        los = (check_model(scenario, args.los[0], "--los model"),
               check_model(scenario, args.los[1], "--los model"))
    reach = check_model(scenario, args.reach, "--reach model") if args.reach else None
    if args.weapon is not None and (los is None or args.weapon not in
                                    scenario.unit_of(los[0]).weapons):
        carried = ", ".join(scenario.unit_of(los[0]).weapons) if los else "-"
        raise WastelandError(f"--weapon: {args.weapon!r} is not a weapon of the --los "
                             f"attacker; it carries: {carried}")
    return {"los": los, "weapon": args.weapon, "reach": reach}


def _to_stdout(scenario: Scenario, options: dict[str, Any]) -> None:
    from sim import cli_render

    if sys.stdout.isatty():
        raise WastelandError("-o -: refusing to write a PNG to a terminal; redirect stdout")
    with tempfile.TemporaryDirectory(prefix="wasteland-render-") as tmp:
        png = Path(tmp) / "board.png"
        cli_render.export_png(scenario, png, **options)
        sys.stdout.flush()
        sys.stdout.buffer.write(png.read_bytes())
        sys.stdout.buffer.flush()


def run(args: argparse.Namespace) -> int:
    out = output_path(args.output)
    scenario = load_scenario_arg(args.scenario)
    options = {"width": args.width, **_overlays(scenario, args)}
    if out is None:
        _to_stdout(scenario, options)
        return 0
    from sim import cli_render

    cli_render.export_png(scenario, out, **options)
    print(f"wrote {out}")
    return 0
