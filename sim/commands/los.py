"""``wasteland los SCENARIO ATTACKER TARGET [--weapon W] [--json]``.

Sight, cover and range from one model to another as the scenario places them
(R-LOS-*, R-COV-*, R-RANGE-1), from :func:`sim.shooting.analysis.analyse`: the same
answer the engine and the window use. Human-readable by default; ``--json``
prints one ``wasteland-los/1`` object (its schema: ``wasteland schema los``): the ids it is
about, then the keys of :meth:`sim.shooting.analysis.ShotAnalysis.to_json`.
Exit status 0 whenever it answered, with or without sight (Decision in
docs/cli.md); 1 for a scenario that does not load or an unknown id.
"""

from __future__ import annotations

import argparse
from typing import Any

from sim.cli_io import check_model, load_scenario_arg, print_json


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "los", help="line of sight, cover and range between two models",
        description="Line of sight, cover and range from ATTACKER to TARGET in SCENARIO "
                    "(models where the scenario places them). Exit status 0 when answered "
                    "(with or without sight), 1 for a refused scenario or an unknown id.")
    p.add_argument("scenario", metavar="SCENARIO",
                   help="scenario file, shipped scenario name, or - for stdin")
    p.add_argument("attacker", metavar="ATTACKER", help="id of the shooting model")
    p.add_argument("target", metavar="TARGET", help="id of the target model")
    p.add_argument("--weapon", metavar="W", default=None,
                   help="weapon id: also report its range bands (short/long) and reach")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (its schema: wasteland schema los)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from sim.scenario.positions import initial_positions
    from sim.shooting.analysis import analyse  # the compiled kernels: only when run

    scenario = load_scenario_arg(args.scenario)
    check_model(scenario, args.attacker, "attacker")
    check_model(scenario, args.target, "target")
    shot = analyse(scenario, initial_positions(scenario), args.attacker, args.target,
                   args.weapon)
    if args.json:
        print_json("los", {"scenario": args.scenario, "rules": shot.rule_set,
                           "attacker": shot.attacker, "target": shot.target,
                           "weapon": shot.weapon, **shot.to_json()})
    else:
        print(shot)
    return 0
