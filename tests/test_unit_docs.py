"""docs/units.md lists the shipped units and weapons and cannot go stale."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from sim.errors import ScenarioError
from sim.scenario.unit_docs import LIBRARY_INCLUDE, load_library, units_markdown
from tests.conftest import ROOT, SCENARIOS

UNITS_MD = ROOT / "docs" / "units.md"
LIBRARY = SCENARIOS / "units" / "wasteland.toml"


def page() -> str:
    return UNITS_MD.read_text(encoding="utf-8")


def row(first_cell: str) -> str:
    """The one table row of docs/units.md's first table that starts with ``first_cell``."""
    rows = [line for line in page().splitlines() if line.startswith(f"| `{first_cell}` |")]
    assert rows, f"no row for {first_cell!r}"
    return rows[0]


def test_units_md_is_the_generated_page() -> None:
    expected = units_markdown(*load_library())
    assert page() == expected, "docs/units.md is stale: run `make docs`"


def test_a_scenario_elsewhere_gets_the_library_by_its_include_name() -> None:
    # load_library() includes LIBRARY_INCLUDE from a scenario in a temporary
    # folder, outside the repository, as a user's own scenario would.
    units, weapons = load_library()
    raw = tomllib.loads(LIBRARY.read_text(encoding="utf-8"))
    assert list(units) == list(raw["units"])
    assert list(weapons) == list(raw["weapons"])
    assert units["knight"].weapons == tuple(raw["units"]["knight"]["weapons"])


def test_every_unit_and_weapon_of_the_library_file_has_a_row() -> None:
    raw = tomllib.loads(LIBRARY.read_text(encoding="utf-8"))
    assert raw["units"] and raw["weapons"]
    for uid, table in raw["units"].items():
        assert table["name"] in row(uid)
    for wid, table in raw["weapons"].items():
        assert table["name"] in row(wid)


def test_the_page_names_the_include_users_write() -> None:
    assert LIBRARY_INCLUDE == "wasteland:units/wasteland.toml"
    assert f'include = ["{LIBRARY_INCLUDE}"]' in page()


def test_seed_values_read_as_players_know_them() -> None:
    # Seed 004: the Sole Survivor fires the plasma rifle on a 7 or less.
    assert "`plasma_rifle` (P 7)" in row("sole_survivor")
    # R-BASE-1: >= 60 mm is huge; the 80 mm behemoth is the library's huge model.
    assert "80 mm, huge" in row("behemoth")
    # Seed 004: the plasma rifle rolls accuracy and armor reduction short, damage long.
    assert "| accuracy, armor-reduction | green (8 in) | damage |" in row("plasma_rifle")


def test_keywords_with_a_rule_cite_it() -> None:
    assert "- `power-armor`: ignores all fall damage (R-FALL-4)." in page()
    assert "- `unhindered`:" in page() and "(R-MOV-2)" in page()


def test_a_broken_library_is_refused_naming_file_and_key(tmp_path: Path) -> None:
    lib = tmp_path / "mine.toml"
    text = LIBRARY.read_text(encoding="utf-8")
    text = text.replace('weapons = ["bite"]', 'weapons = ["biet"]')
    text = text.replace('short = "yellow"', 'short = "purple"')
    lib.write_text(text, encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        load_library("mine.toml", folder=tmp_path)
    message = str(err.value)
    assert re.search(r"mine\.toml: weapons\.pipe_pistol\.short: .*'purple'", message)
    assert "units.mutant_hound.weapons[0]: unknown weapon 'biet'" in message
    assert "probe" not in message  # never the name of a file the user did not write
    assert [p.name for p in tmp_path.iterdir()] == ["mine.toml"]  # the probe is gone


def test_a_missing_library_is_refused_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match=re.escape("'nothing.toml'")):
        load_library("nothing.toml", folder=tmp_path)
    assert list(tmp_path.iterdir()) == []
