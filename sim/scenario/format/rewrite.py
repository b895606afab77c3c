"""Scenario -> TOML text for the editor: an opened file changed in place, a new file tidy.

:func:`rewrite_text` changes only what differs between the scenario as it
was opened and as it is now, in the opened document (tomlkit), so the
file keeps its comments, key order and number style; a moved piece changes
its own lines and nothing else. :func:`tidy_text` writes a new file with
:mod:`sim.scenario.format.writer`, minus the unit and weapon cards its
``include`` files already hold. :func:`scenario_text` picks one and checks
that the text loads back to the very scenario it was written from.

Examples
--------
>>> from sim.scenario.edit import move_piece
>>> from sim.scenario.format.loader import load_scenario
>>> path = "scenarios/skirmish.toml"
>>> before = load_scenario(path)
>>> after = move_piece(before, "wall-1", 1.0, 0.0)
>>> text = open(path, encoding="utf-8").read()
>>> new = rewrite_text(text, before, after)
>>> [line for line in new.splitlines() if line not in text.splitlines()]
['polygon = [[16, 10], [22, 10], [22, 10.5], [16, 10.5]]']
>>> loads(new, path) == after
True
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import tomlkit
from tomlkit.items import AoT, Array, InlineTable, Table

from sim.errors import Problem, ScenarioError, WastelandError
from sim.scenario.edit import ground_height
from sim.scenario.format.files import ReadProblem, parse_toml
from sim.scenario.format.loader import Loader
from sim.scenario.format.writer import scenario_to_dict
from sim.scenario.objects import Scenario, Unit, Weapon

TOP_SCALARS = ("name", "rules", "board", "rounds", "seed", "advantage", "kill_points")
FIXED = ("units", "weapons", "rules_data")  # the editor never changes these


class RewriteError(WastelandError):
    """The opened document cannot take the change in place (the caller writes it anew)."""


def loads(text: str, path: str | Path) -> Scenario:
    """The scenario in ``text``, read as if it were the file ``path`` (its includes found
    from there); :class:`ScenarioError` listing every problem."""
    loader = Loader(Path(path))
    try:
        raw = parse_toml(text)
    except ReadProblem as exc:
        raise ScenarioError([Problem(loader.display, "", str(exc))]) from None
    s = loader.build(raw)
    if loader.problems or s is None:
        raise ScenarioError(loader.problems)
    return s


def scenario_text(s: Scenario, path: Path, opened: tuple[str, Scenario] | None = None) -> str:
    """The text to save ``s`` to ``path``: the opened document ``(text, scenario as opened)``
    changed in place when it can be, else a tidy new file; either loads back equal to ``s``.

    Raises :class:`ScenarioError` when ``s`` itself has problems.
    """
    if opened is not None:
        try:
            text = rewrite_text(opened[0], opened[1], s)
            if loads(text, path) == s:
                return text
        except (RewriteError, ScenarioError):
            pass  # written anew below
    text = tidy_text(s, path)
    back = loads(text, path)
    if back != s:  # a guard: the writer round-trips every scenario the loader makes
        raise WastelandError(f"{path}: the scenario does not read back as written")
    return text


# --- a new file ------------------------------------------------------------------------

def included_cards(s: Scenario, path: Path) -> tuple[dict[str, Unit], dict[str, Weapon]]:
    """The unit and weapon cards the ``include`` files of ``s`` hold (read from ``path``)."""
    units: dict[str, Unit] = {}
    weapons: dict[str, Weapon] = {}
    if s.includes:
        loader = Loader(path)
        here = path.absolute()
        loader.includes({"include": list(s.includes)}, here, [here], units, weapons)
    return units, weapons


def tidy_text(s: Scenario, path: Path) -> str:
    """``s`` as a new, readable file: a table a card, a piece or a model, short values on
    one line; cards from includes left to them, a model's default ``z`` left out."""
    raw = scenario_to_dict(s)
    units, weapons = included_cards(s, path)
    raw["units"] = {k: v for k, v in raw["units"].items() if s.units[k] != units.get(k)}
    raw["weapons"] = {k: v for k, v in raw["weapons"].items()
                      if s.weapons[k] != weapons.get(k)}
    raw["models"] = [_without_default_z(s, m) for m in raw["models"]]
    doc = tomlkit.document()
    for key in ("format", *TOP_SCALARS):
        if key in raw:
            doc.add(key, _value(raw[key]))
    if s.includes:
        doc.add("include", list(s.includes))
    if not raw["models"]:
        doc.add("models", [])  # the loader asks for the key; here, before any table
    for key in ("rules_data", "sides", "units", "weapons"):
        if raw.get(key):
            doc.add(tomlkit.nl())
            doc.add(key, _tables(raw[key]))
    for key in ("terrain", "models", "objectives"):
        if raw.get(key):
            aot = tomlkit.aot()
            for table in raw[key]:
                aot.append(_new_table(table, inline=False))
            doc.add(tomlkit.nl())
            doc.add(key, aot)
    return tomlkit.dumps(doc)


def _tables(tables: Mapping[str, Any]) -> Any:
    """``[key.ID]`` tables (sides, cards) whose values sit on one line each."""
    out = tomlkit.table(is_super_table=True)
    for k, v in tables.items():
        out.add(k, _new_table(v, inline=False) if isinstance(v, Mapping) else _value(v))
    return out


def _without_default_z(s: Scenario, m: dict[str, Any]) -> dict[str, Any]:
    if m["z"] == ground_height(s, (m["at"][0], m["at"][1])):
        return {k: v for k, v in m.items() if k != "z"}
    return m


# --- an opened file, changed in place --------------------------------------------------

def rewrite_text(text: str, before: Scenario, after: Scenario) -> str:
    """``text`` (which loaded as ``before``) changed to hold ``after``, changes only.

    Raises :class:`RewriteError` when the document's shape does not allow it
    (the cards or rules data changed, pieces reordered).
    """
    try:
        doc = tomlkit.parse(text)
    except Exception as exc:  # tomlkit's errors share no base class but Exception
        raise RewriteError(f"cannot read the opened document: {exc}") from None
    old, new = scenario_to_dict(before), scenario_to_dict(after)
    if any(old.get(k) != new.get(k) for k in FIXED):
        raise RewriteError("unit, weapon or rules-data cards changed")
    for key in TOP_SCALARS:
        if old.get(key) != new.get(key):
            if key in new:
                doc[key] = _value(new[key])
            elif key in doc:
                del doc[key]
    if old["sides"] != new["sides"]:
        _update_table(_table(doc, "sides"), old["sides"], new["sides"])
    for key in ("terrain", "models", "objectives"):  # objectives: R-OBJ-1
        if old.get(key, []) != new.get(key, []):
            _rewrite_list(doc, key, old.get(key, []), new.get(key, []), after)
    return tomlkit.dumps(doc)


def _table(doc: Any, key: str) -> Any:
    value = doc.get(key)
    if not isinstance(value, Table | InlineTable | dict):
        raise RewriteError(f"{key} is not a table")
    return value


def _update_table(item: Any, old: Mapping[str, Any], new: Mapping[str, Any]) -> None:
    """Set the keys of ``item`` whose value changed from ``old`` to ``new``; drop the gone."""
    for k in [k for k in old if k not in new]:
        if k in item:
            del item[k]
    for k, v in new.items():
        if k not in old or old[k] != v:
            if isinstance(v, dict) and k in item and isinstance(item[k], Table | InlineTable):
                _update_table(item[k], old.get(k) or {}, v)
            else:
                item[k] = _value(v)


def _rewrite_list(doc: Any, key: str, old: list[dict[str, Any]], new: list[dict[str, Any]],
                  after: Scenario) -> None:
    """The ``[[key]]`` tables: changed ones updated, gone ones dropped, new ones added."""
    items = doc.get(key)
    if items is None:
        items = tomlkit.aot()
        doc[key] = items
    if not isinstance(items, AoT | Array) or len(items) != len(old):
        raise RewriteError(f"{key} is not the array of tables it was read from")
    if not new:
        raise RewriteError(f"no {key} left: an empty array of tables cannot be written in place")
    new_ids = [t["id"] for t in new]
    kept = [t["id"] for t in old if t["id"] in new_ids]
    if kept != new_ids[: len(kept)]:
        raise RewriteError(f"{key} reordered")
    for i in reversed(range(len(old))):
        if old[i]["id"] not in new_ids:
            del items[i]
    by_id = {t["id"]: t for t in old}
    for i, table in enumerate(new):
        if i < len(kept):
            if by_id[table["id"]] != table:
                _update_table(items[i], by_id[table["id"]], table)
        else:
            if key == "models":
                table = _without_default_z(after, table)
            fresh = _new_table(table, inline=isinstance(items, Array))
            if isinstance(fresh, Table):
                fresh.trivia.indent = "\n"  # a blank line before its header, as in a file
            items.append(fresh)


def _new_table(table: Mapping[str, Any], inline: bool) -> Any:
    out = tomlkit.inline_table() if inline else tomlkit.table()
    for k, v in table.items():
        out[k] = _value(v)
    return out


def _value(v: Any) -> Any:
    """A TOML value as a file would hold it: inline tables, whole numbers without ``.0``."""
    if isinstance(v, Mapping):
        t = tomlkit.inline_table()
        for k, x in v.items():
            t[k] = _value(x)
        return t
    if isinstance(v, list | tuple):
        return [_value(x) for x in v]
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        return int(v)
    return v
