"""docs/units.md, generated from the shipped unit and weapon library.

The page is never edited by hand: ``python -m sim.unit_docs > docs/units.md``
(or ``make docs``) writes it, and tests/test_unit_docs.py checks that the file
in the repository equals this module's output, so it cannot go stale when the
library changes.

Examples
--------
>>> units, weapons = load_library(shipped_library_path())
>>> units["knight"].weapons
('laser_rifle', 'power_fist')
>>> units_markdown(units, weapons).splitlines()[0]
'# Shipped units and weapons'
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from pathlib import Path

from sim.errors import ScenarioError
from sim.loader import _Loader
from sim.rules import RulesData, default_rules
from sim.scenario import Unit, Weapon

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


def shipped_library_path() -> Path:
    """The installed ``scenarios/units/wasteland.toml``."""
    return Path(str(resources.files("scenarios").joinpath(LIBRARY_RESOURCE)))


def load_library(path: Path) -> tuple[dict[str, Unit], dict[str, Weapon]]:
    """Units and weapons of one library file (and what it includes), checked.

    Uses the scenario loader's own checks, so a library that a scenario
    could not include is refused here with the same messages.

    Raises
    ------
    ScenarioError
        Every problem found, each naming the file and the key path.
    """
    loader = _Loader(path)
    raw = loader.read_toml(path, loader.display)
    units: dict[str, Unit] = {}
    weapons: dict[str, Weapon] = {}
    if raw is not None:
        here = path.resolve()
        loader.includes(raw, here, [here], units, weapons)
        loader.file = loader.display
        loader.library(raw, "", units, weapons)
        loader.check_unit_refs(units, weapons, default_rules())
    if loader.problems:
        raise ScenarioError(loader.problems)
    return units, weapons


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

Generated from `scenarios/units/wasteland.toml` by `python -m sim.unit_docs`
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
    print(units_markdown(*load_library(shipped_library_path())), end="")


if __name__ == "__main__":
    main()
