"""docs/cli.md matches ``--help`` (issue 30): every command has its row in the table, and
the row names every option that command's ``--help`` lists, so a new flag cannot ship
undocumented."""

from __future__ import annotations

import argparse
import re

import pytest

from sim.cli import build_parser
from tests.conftest import ROOT

DOC = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")


def commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(sub.choices)


def row(command: str) -> str:
    found = [line for line in DOC.splitlines() if line.startswith(f"| `wasteland {command} ")
             or line.startswith(f"| `wasteland {command}`")]
    assert found, f"docs/cli.md has no row for `wasteland {command}`"
    return found[0]


def named(option: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", text) is not None


@pytest.mark.parametrize("command", sorted(commands()))
def test_every_option_of_a_command_is_in_its_row(command: str) -> None:
    documented = row(command)
    missing = [max(a.option_strings, key=len) for a in commands()[command]._actions
               if a.option_strings and a.dest != "help"
               and not any(named(o, documented) for o in a.option_strings)]
    assert missing == [], f"docs/cli.md's `wasteland {command}` row lacks {missing}"


def test_every_json_format_is_in_the_table() -> None:
    for schema in (ROOT / "sim" / "data" / "schemas").glob("*.json"):
        assert f"`wasteland-{schema.stem}/1`" in DOC, schema.stem
