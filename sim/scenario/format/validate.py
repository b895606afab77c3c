"""Checks shared by every part of the scenario loader: types, ids, key paths.

:class:`Checker` (a :class:`~sim.scenario.format.table_checker.TableChecker`, the
one the rules data is read with too) collects problems, each naming the file and the
key path; the loader's parts (:mod:`sim.scenario.format.library`,
:mod:`sim.scenario.format.terrain`, :mod:`sim.scenario.format.loader`) build on it.
Messages quote bad values shortened to one line, so ``wasteland check`` prints one
line per problem, whatever the input.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from sim.scenario.format.ids import id_problem, show
from sim.scenario.format.limits import MAX_NAME_CHARS
from sim.scenario.format.table_checker import TableChecker, join, key, known
from sim.scenario.rules import RulesData, default_rules


def is_kind(value: Any, kind: str) -> bool:
    """Check a TOML value against the words used in messages."""
    if value is None:
        return False
    if kind.startswith(("a number", "a positive number", "a height")):
        return (isinstance(value, int | float) and not isinstance(value, bool)
                and math.isfinite(value))
    if kind.startswith("a positive integer"):
        return isinstance(value, int) and not isinstance(value, bool) and value > 0
    if kind.startswith("a non-negative integer"):
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0
    if kind.startswith("an integer"):
        return isinstance(value, int) and not isinstance(value, bool)
    if kind.startswith("true or false"):
        return isinstance(value, bool)
    if kind.startswith("a table"):
        return isinstance(value, dict)
    if kind.startswith(("a list", "an array", "[")):
        return isinstance(value, list)
    return isinstance(value, str)  # strings: names, ids, colours, types


def is_point(value: Any) -> bool:
    return (isinstance(value, list) and len(value) == 2
            and all(is_kind(v, "a number") for v in value))


__all__ = ["Checker", "id_problem", "is_kind", "is_point", "join", "key", "known", "show"]


class Checker(TableChecker):
    """Collects problems while a load reads tables (file and key path in each)."""

    def __init__(self, display: str) -> None:
        super().__init__(display)
        self.display = display
        self.broken: set[str] = set()  # ids declared but invalid: no cascading errors
        self.rules: RulesData = default_rules()  # the scenario's, once [rules_data] is read

    def get(self, table: Mapping[str, Any], name: str, path: str, kind: str,
            required: bool = True, default: Any = None) -> Any:
        """``table[name]`` checked against ``kind``; ``default`` (and a problem) when wrong."""
        return self.need(table, name, path, lambda v: is_kind(v, kind), kind, required, default)

    def get_name(self, table: Mapping[str, Any], path: str) -> str | None:
        """``table["name"]``: a display name, at most :data:`MAX_NAME_CHARS` characters (a
        name is drawn in the window and the PNGs; a 900 KB one took minutes to draw)."""
        name = self.get(table, "name", path, "a string")
        if name is not None and len(name) > MAX_NAME_CHARS:
            self.bad(join(path, "name"), f"a name of {len(name)} characters; the limit is "
                     f"{MAX_NAME_CHARS}")
            return None
        return name if name is None else str(name)

    def get_list_of_str(self, table: Mapping[str, Any], name: str, path: str,
                        kind: str) -> list[str]:
        """An optional list of ids: each must be a valid id (no lists, numbers, spaces)."""
        return self.ids(self.get(table, name, path, kind, required=False, default=[]) or [],
                        join(path, name))

    def check_id(self, value: str, path: str) -> bool:
        """Report an invalid id at ``path``; True when it is valid."""
        why = id_problem(value)
        if why is not None:
            self.bad(path, why)
        return why is None

    def colour(self, table: Mapping[str, Any], name: str, path: str,
               required: bool = True) -> str | None:
        """A ruler colour of this scenario's rules data (its [rules_data] included)."""
        colours = self.rules.colours
        value = self.get(table, name, path, "a ruler colour", required=required)
        if value is None:
            return None
        if value not in colours:
            removed = (f" ({self.display}: rules_data.rulers leaves it out)"
                       if value in default_rules().colours else "")
            self.bad(join(path, name), f"unknown ruler colour {show(value)}{removed}; "
                     f"known: {known(colours)}")
            return None
        return str(value)
