"""Data derived once from one scenario, held by the scenario (in the manner of
shapely's ``prepare``): the one owner of the per-board caches.

Each layer declares a :class:`Part` (what it derives and how) and asks the
scenario's :attr:`~sim.scenario.objects.Scenario.prepared` for it; the part is
built on first use and kept while the scenario lives. Nothing is ever
invalidated: a scenario never changes (``dataclasses.replace`` makes a new one,
with an empty :class:`Prepared`), and nothing is keyed by ``id()``.

Examples
--------
>>> from pathlib import Path
>>> from sim.scenario.format.loader import load_scenario
>>> s = load_scenario(Path(__file__).parents[2] / "scenarios" / "seed-activation.toml")
>>> MODELS = Part("model count", lambda sc: len(sc.models))
>>> s.prepared.get(MODELS) == len(s.models), s.prepared.get(MODELS) is s.prepared.get(MODELS)
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

if TYPE_CHECKING:
    from sim.scenario.objects import Scenario

T = TypeVar("T")


@dataclass(frozen=True, eq=False)  # hashed by identity: each Part is one module constant
class Part(Generic[T]):
    """One kind of data derived from a scenario, built by ``build`` on first use."""

    name: str
    build: Callable[[Scenario], T]


class Prepared:
    """Every :class:`Part` built so far for one scenario."""

    def __init__(self, scenario: Scenario) -> None:
        self._scenario = scenario
        self._parts: dict[Part[Any], Any] = {}

    def get(self, part: Part[T]) -> T:
        """The part for this scenario, built now if it is not yet."""
        if part not in self._parts:
            self._parts[part] = part.build(self._scenario)
        return cast(T, self._parts[part])

    def __repr__(self) -> str:
        return f"<Prepared {sorted(p.name for p in self._parts)}>"
