"""``wasteland map SCENARIO MODEL [--kind seen|threat|sees] [--target T] [--cell 0.25]
[--json] [-o map.png] [--width PX]``: a visibility or threat map for one model.

Over a grid of cells, where the model's base could stand and at the height
it would stand there (the other models where the scenario places them):
``seen`` counts the enemies with line of sight to it, ``threat`` gives the best
enemy hit chance (the shot preview's exact odds), ``sees`` whether it would see
``--target`` (docs/maps.md, :mod:`sim.maps.visibility`). Prints a summary; ``--json``
prints one ``wasteland-map/1`` object (its schema: ``wasteland schema map``); ``-o FILE.png``
draws the board with the map on it (``-o -``: the PNG on stdout). Exit status
0 answered, 1 refused input (a scenario that does not load, an unknown id, a
grid too fine), 2 usage (``--target`` without ``--kind sees`` and the like).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.cli_io import check_model, json_format, load_scenario_arg
from sim.commands.render import output_path, width
from sim.errors import WastelandError
from sim.maps.options import DEFAULT_CELL, KINDS, MIN_CELL

if TYPE_CHECKING:
    from sim.scenario.objects import Scenario

if TYPE_CHECKING:  # the maps' engine is imported when the command runs (quick start-up)
    from sim.maps.visibility import Map


def cell_size(text: str) -> float:
    """``--cell``: a number of inches, at least :data:`~sim.maps.options.MIN_CELL`."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of inches, got {text!r}") from None
    if not math.isfinite(value) or value < MIN_CELL:
        raise argparse.ArgumentTypeError(f"expected at least {MIN_CELL} in, got {text!r}")
    return value


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "map", help="where a model would be seen, threatened, or see a target",
        description="A map over the board for MODEL: at each cell where its base could "
                    "stand, the enemies that would see it (seen), the best enemy hit chance "
                    "(threat) or whether it would see TARGET (sees). Exit 0 answered, 1 "
                    "refused input, 2 usage.")
    p.add_argument("scenario", metavar="SCENARIO",
                   help="scenario file, shipped scenario name, or - for stdin")
    p.add_argument("model", metavar="MODEL", help="id of the model the map is for")
    p.add_argument("--kind", choices=KINDS, default="seen",
                   help="seen (default), threat, or sees (with --target)")
    p.add_argument("--target", metavar="T", help="the model a 'sees' map looks for")
    p.add_argument("--cell", type=cell_size, default=DEFAULT_CELL, metavar="IN",
                   help=f"cell size in inches (default {DEFAULT_CELL}, at least {MIN_CELL})")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (its schema: wasteland schema map)")
    p.add_argument("-o", "--output", metavar="FILE.png",
                   help="also draw the board with the map to a PNG (- for stdout)")
    p.add_argument("--width", type=width, default=1280, metavar="PX",
                   help="image width in pixels for -o (default 1280)")
    p.set_defaults(run=run, parser=p)


def _check_options(args: argparse.Namespace) -> None:
    if args.kind == "sees" and args.target is None:
        args.parser.error("--kind sees needs --target T")
    if args.target is not None and args.kind != "sees":
        args.parser.error("--target is only for --kind sees")
    if args.output == "-" and args.json:
        args.parser.error("-o - and --json both write to stdout; choose one")


def _write_png(scenario: Scenario, shown: Map, out: Path | None, px: int) -> None:
    from sim import cli_render

    if out is not None:
        cli_render.export_map_png(scenario, out, shown, px)
        return
    if sys.stdout.isatty():
        raise WastelandError("-o -: refusing to write a PNG to a terminal; redirect stdout")
    with tempfile.TemporaryDirectory(prefix="wasteland-map-") as tmp:
        png = Path(tmp) / "map.png"
        cli_render.export_map_png(scenario, png, shown, px)
        sys.stdout.flush()
        sys.stdout.buffer.write(png.read_bytes())
        sys.stdout.buffer.flush()


def map_json(scenario: str, shown: Map) -> str:
    """The ``wasteland-map/1`` object as text: indented like every JSON output, but one
    line per row of values (a 144 x 144 map is 146 lines, not 21,000)."""
    data = shown.to_json()
    rows = data.pop("values")
    head = json.dumps({"format": json_format("map"), "scenario": scenario, **data}, indent=2)
    body = ",\n    ".join(json.dumps(row, separators=(", ", ": ")) for row in rows)
    return f'{head[:-2]},\n  "values": [\n    {body}\n  ]\n}}'


def run(args: argparse.Namespace) -> int:
    from sim.maps.visibility import make_map, summary
    from sim.scenario.positions import initial_positions

    _check_options(args)
    out = output_path(args.output) if args.output is not None else None
    scenario = load_scenario_arg(args.scenario)
    check_model(scenario, args.model, "model")
    if args.target is not None:
        check_model(scenario, args.target, "target")
    shown = make_map(scenario, initial_positions(scenario), args.model, args.kind,
                     args.target, args.cell)
    if args.output is not None:
        _write_png(scenario, shown, out, args.width)
    if args.json:
        print(map_json(args.scenario, shown))
    elif args.output != "-":
        for line in summary(shown):
            print(line)
        if out is not None:
            print(f"wrote {out}")
    return 0
