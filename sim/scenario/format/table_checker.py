"""Reading TOML tables with every problem recorded, each naming the file and the key path:
the one checker that the rules data (:mod:`sim.scenario.rules`) and the scenario loader
(:class:`sim.scenario.format.validate.Checker`) read their tables with.

Examples
--------
>>> c = TableChecker("rules.toml")
>>> c.need({"skill_sides": 0}, "skill_sides", "dice", lambda v: v > 1,
...        "an integer from 2")
>>> c.unknown_keys({"sides": 1, "odd": 2}, ("sides",), "dice")
>>> for p in c.problems:
...     print(p)
rules.toml: dice.skill_sides: expected an integer from 2, got 0
rules.toml: dice.odd: unknown key; expected one of 'sides'
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from sim.errors import Problem
from sim.scenario.format.ids import id_problem, show

BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def key(name: str) -> str:
    """A table key as a key-path part: bare keys as they are, others quoted on one line."""
    return name if BARE_KEY.fullmatch(name) else json.dumps(name)


def join(path: str, name: str) -> str:
    return f"{path}.{key(name)}" if path else key(name)


def known(names: Iterable[Any]) -> str:
    items = sorted(str(n) for n in names)
    return ", ".join(repr(n) for n in items) if items else "(none)"


class TableChecker:
    """Collects problems while tables are read (the file and the key path in each)."""

    def __init__(self, file: str) -> None:
        self.file = file  # the file problems are currently reported against
        self.problems: list[Problem] = []

    def bad(self, path: str, message: str) -> None:
        self.problems.append(Problem(self.file, path, message))

    def need(self, table: Mapping[str, Any], name: str, path: str, ok: Callable[[Any], bool],
             expected: str, required: bool = True, default: Any = None) -> Any:
        """``table[name]`` when ``ok`` accepts it; else ``default`` and a problem at
        ``path.name`` saying ``expected`` (none for a missing key not ``required``)."""
        full = join(path, name)
        if name not in table:
            if required:
                self.bad(full, f"missing key (expected {expected})")
            return default
        value = table[name]
        if not ok(value):
            self.bad(full, f"expected {expected}, got {show(value)}")
            return default
        return value

    def ids(self, values: Iterable[Any], path: str) -> list[str]:
        """The valid ids of a list read at ``path``; each invalid one a problem at
        ``path[i]`` (no lists, numbers, spaces)."""
        out: list[str] = []
        for i, v in enumerate(values):
            why = id_problem(v)
            if why is not None:
                self.bad(f"{path}[{i}]", why)
            else:
                out.append(v)
        return out

    def unknown_keys(self, table: Mapping[str, Any], allowed: tuple[str, ...], path: str) -> None:
        """Every key of ``table`` not in ``allowed`` is a problem (a typo never passes)."""
        for name in table:
            if name not in allowed:
                self.bad(join(path, name), f"unknown key; expected one of {known(allowed)}")
