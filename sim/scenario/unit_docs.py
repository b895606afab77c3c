"""docs/units.md, generated from the shipped unit and weapon library.

The page is never edited by hand: ``python -m sim.scenario.unit_docs > docs/units.md``
(or ``make docs``) writes it, and tests/test_unit_docs.py checks that the file
in the repository equals this module's output, so it cannot go stale when the
library changes.

Examples
--------
>>> units, weapons = load_library()
>>> units["knight"].weapons
('laser_rifle', 'power_fist')
>>> units_markdown(units, weapons).splitlines()[0]
'# Shipped units and weapons'
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from sim.errors import Problem, ScenarioError
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import Unit, Weapon
from sim.scenario.rules import RulesData, default_rules

LIBRARY_RESOURCE = "units/wasteland.toml"  # inside the `scenarios` package
LIBRARY_INCLUDE = f"wasteland:{LIBRARY_RESOURCE}"  # how a user's scenario names it
SPECIAL = ("S", "P", "E", "C", "I", "A", "L")
# Keywords with a rule of their own (sim/data/rules.toml); the others only
# describe a unit so terrain overrides can name them (R-TER-2).
KEYWORD_RULES = {
    "unhindered": "moves over difficult terrain as over normal terrain (R-MOV-2)",
    "climb-incapable": "cannot climb or use ladders (R-CLIMB-4)",
    "power-armor": "ignores all fall damage (R-FALL-4)",
}


def load_library(include: str = LIBRARY_INCLUDE,
                 folder: Path | None = None) -> tuple[dict[str, Unit], dict[str, Weapon]]:
    """Units and weapons of a library, read as a scenario's ``include`` reads it.

    A one-off probe scenario holding only ``include = [include]`` is written
    in ``folder`` (a fresh temporary folder when None, which is where a
    user's own scenario would stand) and loaded, so the page shows exactly
    what that include gives a scenario, and a broken library is refused with
    the loader's own messages.

    Raises
    ------
    ScenarioError
        Every problem found, each naming the file and the key path.
    """
    with tempfile.TemporaryDirectory() as tmp:
        where = Path(tmp) if folder is None else folder
        probe = where / f".unit-docs-probe-{os.getpid()}.toml"
        probe.write_text(_PROBE.format(include=json.dumps(include)), encoding="utf-8")
        try:
            scenario = load_scenario(probe)
        except ScenarioError as exc:  # the probe is gone: name what it stood for
            raise ScenarioError([_unprobed(p, probe, include) for p in exc.problems]) from None
        finally:
            probe.unlink()
    return dict(scenario.units), dict(scenario.weapons)


def _unprobed(problem: Problem, probe: Path, include: str) -> Problem:
    if Path(problem.file).name != probe.name:
        return problem
    return replace(problem, file=f"a scenario including {include!r}")


# A valid scenario with nothing of its own: every unit and weapon is the library's.
_PROBE = """format = 1
name = "unit library"
rules = "rulebook"
board = [12.0, 12.0]
include = [{include}]
models = []

[sides.a]
name = "A"

[sides.b]
name = "B"
"""


def units_markdown(units: Mapping[str, Unit], weapons: Mapping[str, Weapon],
                   rules: RulesData | None = None) -> str:
    """The whole docs/units.md page, units and weapons in library order."""
    rules = rules or default_rules()
    parts = [
        _intro(),
        _unit_table(units, weapons, rules),
        _profile_table(units),
        _weapon_table(weapons, rules),
        _keyword_list(units),
    ]
    return "\n".join(parts)


def _intro() -> str:
    return f"""# Shipped units and weapons

Generated from `scenarios/units/wasteland.toml` by `python -m sim.scenario.unit_docs`
(`make docs`); do not edit by hand, a test checks that this page matches
the library. The values are this project's own approximations for play, not
the publisher's cards. The rules cited are in [rules.md](rules.md).

## Using the library

A scenario of your own, in any folder, includes the shipped library by name:

```toml
include = ["{LIBRARY_INCLUDE}"]

[[models]]
id = "knight-1"
unit = "knight"
side = "brotherhood"
at = [4.0, 6.0]
```

The scenarios shipped in `scenarios/` include it by its relative path,
`units/wasteland.toml`. A scenario may define more `[units.ID]` and
`[weapons.ID]` of its own next to it ([scenario-format.md](scenario-format.md)),
with ids that are not used here.
"""


def _ruler(colour: str | None, rules: RulesData) -> str:
    if colour is None:
        return "-"
    return f"{colour} ({rules.ruler(colour):g} in)"


def _unit_table(units: Mapping[str, Unit], weapons: Mapping[str, Weapon],
                rules: RulesData) -> str:
    lines = [
        "## Units",
        "",
        "Base in mm and its size class (R-BASE-1); Move and Charge rulers"
        " (R-RULER-1); each weapon with the attribute and value its skill"
        " test must roll at most (R-SHOOT-1, R-SHOOT-2).",
        "",
        "| id | name | base | move | charge | health | weapons (skill test) | keywords |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for u in units.values():
        base = f"{u.base:g} mm, {rules.size_class(u.base)}"
        arms = ", ".join(_weapon_use(u, weapons[w]) for w in u.weapons)
        keywords = ", ".join(f"`{k}`" for k in sorted(u.keywords)) or "-"
        lines.append(f"| `{u.id}` | {u.name} | {base} | {_ruler(u.move, rules)} | "
                     f"{_ruler(u.charge, rules)} | {u.health} | {arms or '-'} | {keywords} |")
    return "\n".join(lines) + "\n"


def _weapon_use(unit: Unit, weapon: Weapon) -> str:
    letter = unit.skills.get(weapon.skill)
    if letter is None:  # on the card but without its skill: it cannot be used
        return f"`{weapon.id}` (no {weapon.skill} skill)"
    return f"`{weapon.id}` ({letter} {unit.special[letter]})"


def _profile_table(units: Mapping[str, Unit]) -> str:
    lines = [
        "### Attributes, skills and armor",
        "",
        "S.P.E.C.I.A.L. attributes; each skill with the attribute its test uses;"
        " armor by damage type, physical / energy / radiation (R-ARM-1).",
        "",
        f"| id | {' | '.join(SPECIAL)} | skills | armor |",
        f"| --- |{' --- |' * len(SPECIAL)} --- | --- |",
    ]
    for u in units.values():
        values = " | ".join(str(u.special[a]) for a in SPECIAL)
        skills = ", ".join(f"{s} ({a})" for s, a in sorted(u.skills.items()))
        armor = f"{u.armor.physical} / {u.armor.energy} / {u.armor.radiation}"
        lines.append(f"| `{u.id}` | {values} | {skills} | {armor} |")
    return "\n".join(lines) + "\n"


def _weapon_table(weapons: Mapping[str, Weapon], rules: RulesData) -> str:
    lines = [
        "## Weapons",
        "",
        "Short and long range as rulers, laid end to end for the reach, and the"
        " effect dice rolled in each band (R-RANGE-1, R-DICE-1); base damage and"
        " its type (R-DMG-1, R-ARM-1). A weapon whose skill is `melee` is a"
        " close-combat weapon ([combat.md](combat.md)); the others shoot.",
        "",
        "| id | name | skill | short | short dice | long | long dice | damage | effects |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for w in weapons.values():
        effects = ", ".join(f"{k.replace('_', ' ')} {_ruler(str(v), rules)}"
                            for k, v in w.effects.items()) or "-"
        long_dice = _dice(w.long_dice) if w.long else "-"
        lines.append(f"| `{w.id}` | {w.name} | {w.skill} | {_ruler(w.short, rules)} | "
                     f"{_dice(w.short_dice)} | {_ruler(w.long, rules)} | {long_dice} | "
                     f"{w.damage} {w.damage_type} | {effects} |")
    return "\n".join(lines) + "\n"


def _dice(dice: tuple[str, ...]) -> str:
    return ", ".join(dice) if dice else "none"


def _keyword_list(units: Mapping[str, Unit]) -> str:
    used = sorted({k for u in units.values() for k in u.keywords})
    lines = ["## Keywords", ""]
    for k in used:
        meaning = KEYWORD_RULES.get(k, "describes the unit; terrain overrides can name it"
                                    " (R-TER-2)")
        lines.append(f"- `{k}`: {meaning}.")
    return "\n".join(lines) + "\n"


def main() -> None:
    """Print docs/units.md for the shipped library."""
    print(units_markdown(*load_library()), end="")


if __name__ == "__main__":
    main()
