"""Checks shared by every part of the scenario loader: types, ids, key paths.

:class:`Checker` collects problems, each naming the file and the key path;
the loader's parts (:mod:`sim.scenario.format.library`, :mod:`sim.scenario.format.terrain`,
:mod:`sim.scenario.format.loader`) build on it. Messages quote bad values shortened to one
line, so ``wasteland check`` prints one line per problem, whatever the input.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Mapping
from typing import Any

from sim.errors import Problem
from sim.scenario.format.ids import id_problem, show
from sim.scenario.format.limits import MAX_NAME_CHARS
from sim.scenario.rules import RulesData, default_rules

BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def key(name: str) -> str:
    """A table key as a key-path part: bare keys as they are, others quoted on one line."""
    return name if BARE_KEY.fullmatch(name) else json.dumps(name)


def join(path: str, name: str) -> str:
    return f"{path}.{key(name)}" if path else key(name)


def known(names: Iterable[Any]) -> str:
    items = sorted(str(n) for n in names)
    return ", ".join(repr(n) for n in items) if items else "(none)"


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


class Checker:
    """Collects problems while a load reads tables (file and key path in each)."""

    def __init__(self, display: str) -> None:
        self.display = display
        self.file = display  # the file problems are currently reported against
        self.problems: list[Problem] = []
        self.broken: set[str] = set()  # ids declared but invalid: no cascading errors
        self.rules: RulesData = default_rules()  # the scenario's, once [rules_data] is read

    def bad(self, path: str, message: str) -> None:
        self.problems.append(Problem(self.file, path, message))

    def get(self, table: Mapping[str, Any], name: str, path: str, kind: str,
            required: bool = True, default: Any = None) -> Any:
        """``table[name]`` checked against ``kind``; ``default`` (and a problem) when wrong."""
        full = join(path, name)
        if name not in table:
            if required:
                self.bad(full, f"missing key (expected {kind})")
            return default
        value = table[name]
        if not is_kind(value, kind):
            self.bad(full, f"expected {kind}, got {show(value)}")
            return default
        return value

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
        values = self.get(table, name, path, kind, required=False, default=[]) or []
        out: list[str] = []
        for i, v in enumerate(values):
            why = id_problem(v)
            if why is not None:
                self.bad(f"{join(path, name)}[{i}]", why)
            else:
                out.append(v)
        return out

    def unknown_keys(self, table: Mapping[str, Any], allowed: tuple[str, ...], path: str) -> None:
        for name in table:
            if name not in allowed:
                self.bad(join(path, name), f"unknown key; expected one of {known(allowed)}")

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
