"""``wasteland scenarios [--json]``: the shipped scenarios, by name.

Each name works as a SCENARIO argument of every command (``wasteland play
skirmish``, ``wasteland check seed-cover-1``). ``--json``: one
``wasteland-scenarios/1`` object (its schema: ``wasteland schema scenarios``).
"""

from __future__ import annotations

import argparse
from typing import Any

from sim.cli_io import print_json
from sim.errors import ScenarioError
from sim.scenario.format.shipped import shipped_dir, shipped_names


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "scenarios", help="list the shipped scenarios",
        description="List the scenarios shipped with the game: name (usable wherever a "
                    "SCENARIO is asked), rule set, number of models and title.")
    p.add_argument("--json", action="store_true",
                   help="print one JSON object (its schema: wasteland schema scenarios)")
    p.set_defaults(run=run)


def shipped_table() -> list[dict[str, Any]]:
    """One row per shipped scenario: name, title, rule set, models, sides, file."""
    from sim.scenario.format.loader import load_scenario  # (numpy, shapely: when run)

    rows: list[dict[str, Any]] = []
    for name in shipped_names():
        path = shipped_dir() / f"{name}.toml"
        try:
            s = load_scenario(path)
        except ScenarioError as exc:  # a broken install: say which file, list the rest
            rows.append({"name": name, "title": None, "rules": None, "models": None,
                         "sides": [], "file": str(path), "error": str(exc)})
            continue
        rows.append({"name": name, "title": s.name, "rules": s.rules, "models": len(s.models),
                     "sides": list(s.sides), "file": str(path)})
    return rows


def run(args: argparse.Namespace) -> int:
    rows = shipped_table()
    if args.json:
        print_json("scenarios", {"folder": str(shipped_dir()), "scenarios": rows})
    else:
        width = max((len(r["name"]) for r in rows), default=4)
        print(f"{'NAME':<{width}}  {'RULES':<9}  MODELS  TITLE")
        for r in rows:
            if "error" in r:
                print(f"{r['name']:<{width}}  (does not load: {r['error']})")
                continue
            print(f"{r['name']:<{width}}  {r['rules']:<9}  {r['models']:>6}  {r['title']}")
    return 1 if any("error" in r for r in rows) else 0
