"""``wasteland schema [KIND]``: the JSON Schema of a ``--json`` output.

Every ``--json`` output is one ``wasteland-KIND/1`` object; its schema (JSON Schema,
draft 2020-12) ships with the package in :mod:`sim.data` (``schemas/KIND.json``), so
an installed copy can check what it prints. Without KIND: the kinds, one a line.
"""

from __future__ import annotations

import argparse
import sys
from importlib import resources
from typing import Any

#: The outputs with a schema: the commands' ``--json`` objects and the error object.
KINDS = ("check", "error", "ladder", "los", "map", "scenarios", "shoot", "simulate")


def register(sub: Any) -> None:
    p: argparse.ArgumentParser = sub.add_parser(
        "schema", help="print the JSON Schema of a --json output",
        description="Print the JSON Schema (draft 2020-12) of the wasteland-KIND/1 object a "
                    "command's --json prints (error: the object of any error under --json). "
                    "Without KIND, list the kinds.")
    p.add_argument("kind", nargs="?", choices=KINDS, metavar="KIND",
                   help=f"one of: {', '.join(KINDS)}")
    p.set_defaults(run=run)


def schema_text(kind: str) -> str:
    """The schema of ``wasteland-KIND/1`` as shipped (JSON text)."""
    return (resources.files("sim.data") / "schemas" / f"{kind}.json").read_text(
        encoding="utf-8")


def run(args: argparse.Namespace) -> int:
    if args.kind is None:
        print("\n".join(KINDS))
    else:
        sys.stdout.write(schema_text(args.kind))
    return 0
