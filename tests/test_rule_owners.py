"""Where a rule lives, from the tree (issue 15): every rule id defined in docs/rules.md
has exactly one owning package, a module directly in that package cites it, and the
package's docstring names it. Other packages may cite it too (they use the rule);
moving a rule's code without this table fails here."""

from __future__ import annotations

import ast

import pytest

from tests.conftest import ROOT
from tests.test_rules_doc import RULES_MD, cited, definitions

OWNER: dict[str, str] = {
    # what a battlefield is: units, rulers, bases, terrain
    "R-UNIT-1": "sim/scenario", "R-RULER-1": "sim/scenario", "R-BASE-1": "sim/scenario",
    "R-TER-1": "sim/scenario", "R-TER-2": "sim/scenario",
    # shape math every rule uses
    "R-UNIT-2": "geometry", "R-DIST-1": "geometry",
    # the turn machine and its one generator
    **{f"R-TURN-{n}": "sim/engine" for n in range(1, 11)}, "R-ALL-1": "sim/engine",
    # the objectives and the score they add to (issue 35)
    **{f"R-OBJ-{n}": "sim/engine" for n in range(1, 7)},
    # movement, climbing, jumping, falls, the board edge
    **{f"R-MOV-{n}": "sim/movement" for n in range(1, 6)},
    **{f"R-CLIMB-{n}": "sim/movement" for n in range(1, 6)}, "R-JUMP-1": "sim/movement",
    **{f"R-FALL-{n}": "sim/movement" for n in range(1, 5)},
    **{f"R-EDGE-{n}": "sim/movement" for n in range(1, 4)},
    # the attack actions
    "R-SHOOT-1": "sim/combat",
    # dice, the skill test, armor and damage
    "R-SHOOT-2": "sim/resolution", "R-DICE-1": "sim/resolution", "R-ARM-1": "sim/resolution",
    "R-ARM-2": "sim/resolution", "R-DMG-1": "sim/resolution",
    # can A shoot B, and how hard: sight, cover, range, height as the rules choose them
    "R-RANGE-1": "sim/shooting", "R-LOS-2": "sim/shooting", "R-LOS-3": "sim/shooting",
    "R-LOS-4": "sim/shooting", **{f"R-COV-{n}": "sim/shooting" for n in range(2, 7)},
    "R-ELEV-1": "sim/shooting", "R-ELEV-3": "sim/shooting", "R-ELEV-4": "sim/shooting",
    "R-ELEV-5": "sim/shooting",
    # exact geometry that is the rule itself
    "R-LOS-1": "geometry/sight", "R-COV-1": "geometry/cover", "R-ELEV-2": "geometry/elevation",
}


def needed(text: str) -> set[str]:
    return {need for _, need in cited(text)}


def test_every_rule_has_exactly_one_owner() -> None:
    ids = definitions(RULES_MD.read_text(encoding="utf-8"))
    assert sorted(OWNER) == sorted(ids)


@pytest.mark.parametrize("rule", sorted(OWNER))
def test_a_module_of_the_owner_cites_the_rule(rule: str) -> None:
    folder = ROOT / OWNER[rule]
    texts = [p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.py"))
             if p.name != "__init__.py"]
    assert any(rule in needed(t) for t in texts), (
        f"no module directly in {OWNER[rule]}/ cites {rule}")


@pytest.mark.parametrize("package", sorted(set(OWNER.values())))
def test_the_package_docstring_names_its_rules(package: str) -> None:
    doc = ast.get_docstring(ast.parse((ROOT / package / "__init__.py").read_text(encoding="utf-8")))
    owned = {r for r, p in OWNER.items() if p == package}
    assert owned <= needed(doc or ""), sorted(owned - needed(doc or ""))
