"""``wasteland los SCENARIO ATTACKER TARGET [--weapon W] [--json]``.

Sight, cover and range from one model to another as the scenario places them
(R-LOS-*, R-COV-*, R-RANGE-1), from :func:`sim.analysis.analyse`: the same
answer the engine and the window use. Human-readable by default; ``--json``
prints one object (keys in :meth:`sim.analysis.ShotAnalysis.to_json`).
Unknown model or weapon ids exit with status 2 and list the known ids.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from sim.analysis import analyse
from sim.loader import load_scenario
from sim.positions import initial_positions


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "los", help="line of sight, cover and range between two models",
        description="Line of sight, cover and range from ATTACKER to TARGET in SCENARIO "
                    "(models where the scenario places them). Exit status 2 for an "
                    "unknown model or weapon id.")
    p.add_argument("scenario", metavar="SCENARIO", help="scenario file (.toml)")
    p.add_argument("attacker", metavar="ATTACKER", help="id of the shooting model")
    p.add_argument("target", metavar="TARGET", help="id of the target model")
    p.add_argument("--weapon", metavar="W", default=None,
                   help="weapon id: also report its range bands (short/long) and reach")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    scenario = load_scenario(args.scenario)
    shot = analyse(scenario, initial_positions(scenario), args.attacker, args.target,
                   args.weapon)
    if args.json:
        print(json.dumps(shot.to_json(), indent=2))
    else:
        print(shot)
    return 0
