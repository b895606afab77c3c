"""A scenario being edited and what is wrong with it: the loader's own checks (R-TER-1).

The editor never has its own rules for what a valid battlefield is: each
:class:`Draft` runs the very checks ``wasteland check`` runs
(:class:`~sim.scenario.format.loader.Loader` on the draft's table) and maps
every problem to the piece or model its key path names (``terrain[3]...``
is the fourth piece), so the window can mark it on the board.

Examples
--------
>>> from sim.scenario.edit import move_piece
>>> from sim.scenario.format.loader import load_scenario
>>> d = Draft.of(load_scenario("scenarios/skirmish.toml"))
>>> d.problems
()
>>> off = Draft.of(move_piece(d.scenario, "wall-1", 30.0, 0.0))
>>> [p.message for p in off.on("wall-1")]
["terrain 'wall-1' lies outside the board 36 x 36"]
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from sim.errors import Problem, ScenarioError
from sim.scenario.format.loader import FORMAT, Loader
from sim.scenario.format.writer import scenario_to_dict
from sim.scenario.objects import Scenario

_INDEXED = re.compile(r"(terrain|models)\[(\d+)\]")
_QUOTED = re.compile(r"'([^'\s]+)'")
LIBRARY = "wasteland:units/wasteland.toml"  # the shipped unit library a new scenario includes
NEW_SIDES = {"settlers": {"name": "Commonwealth Settlers"}, "mutants": {"name": "Super Mutants"}}


@dataclass(frozen=True)
class Placed:
    """One problem of a draft and the piece or model it is on (None: the scenario's own)."""

    ident: str | None
    problem: Problem
    named: frozenset[str] = frozenset()  # other pieces and models the message names

    @property
    def message(self) -> str:
        return self.problem.message

    def __str__(self) -> str:
        where = self.problem.path
        return f"{where}: {self.message}" if where else self.message


def check(s: Scenario) -> tuple[Placed, ...]:
    """Every problem ``wasteland check`` would find in ``s`` written out, placed."""
    loader = Loader(s.source or Path("draft.toml"))
    try:
        loader.build(scenario_to_dict(s))
    except RecursionError:  # the loader guards the same way
        return (Placed(None, Problem(loader.display, "", "values nested too deeply")),)
    return tuple(_place(s, p) for p in loader.problems)


def blank(board: tuple[float, float], path: Path, name: str = "New scenario") -> Scenario:
    """An empty board of ``board`` inches to be saved as ``path``: two sides, the shipped
    unit library (``include``), no pieces, no models; :class:`ScenarioError` for a bad size."""
    raw = {"format": FORMAT, "name": name, "rules": "rulebook", "board": list(board),
           "rounds": 6, "include": [LIBRARY], "sides": NEW_SIDES, "models": []}
    loader = Loader(path)
    s = loader.build(raw)
    if loader.problems or s is None:
        raise ScenarioError(loader.problems)
    return s


def _place(s: Scenario, p: Problem) -> Placed:
    """On the piece or model of the key path; also on those the message quotes
    (``... stands on impassable terrain 'wall-1'``)."""
    ids = {t.id for t in s.terrain} | set(s.model_ids)
    named = frozenset(_QUOTED.findall(p.message)) & ids
    m = _INDEXED.match(p.path)
    if m is None:
        return Placed(None, p, named)
    items = s.terrain if m.group(1) == "terrain" else s.models
    i = int(m.group(2))
    ident = items[i].id if i < len(items) else None
    return Placed(ident, p, named - {ident})


@dataclass(frozen=True)
class Draft:
    """An immutable scenario draft with its problems, found once when it is made."""

    scenario: Scenario
    problems: tuple[Placed, ...]

    @classmethod
    def of(cls, scenario: Scenario) -> Draft:
        return cls(scenario, check(scenario))

    @property
    def valid(self) -> bool:
        return not self.problems

    def on(self, ident: str) -> tuple[Placed, ...]:
        """The problems on the piece or model ``ident`` (by key path or by name)."""
        return tuple(p for p in self.problems if p.ident == ident or ident in p.named)

    @property
    def marked(self) -> frozenset[str]:
        """The pieces and models that have a problem."""
        out = {p.ident for p in self.problems if p.ident is not None}
        return frozenset(out.union(*(p.named for p in self.problems)))
