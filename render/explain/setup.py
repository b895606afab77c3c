"""A model action being set up by clicks, from its kind's typed parameters.

How a model action is set up is read from its kind's parameters
(``ActionKind.params``, sim.engine.params): a ``target`` is picked by
clicking a model, ``steps`` or ``points`` by clicking the board (waypoints
when the parameter takes many), a ``weapon`` cycles with Tab. Kinds with
fields no parameter declares are offered as the engine's listed samples.
The action is built from these values by the kind, never from text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sim.engine.actions import Action, ActionKind, ModelAction
from sim.errors import WastelandError
from sim.movement.plan import Step
from sim.scenario.objects import Scenario


@dataclass(frozen=True)
class Form:
    """What a model action kind asks for (see the module docstring)."""

    keyword: str
    target: bool
    weapon: bool
    points: bool
    many_points: bool
    other: bool

    vertical: bool = False  # climb / jump steps may be mixed in
    band: bool = False  # the range band (R-RANGE-1)

    @classmethod
    def of(cls, kind: ActionKind[Any]) -> Form:
        path = kind.param("steps") or kind.param("points")
        return cls(
            keyword=kind.keyword,
            target=kind.param("target") is not None,
            weapon=kind.param("weapon") is not None,
            points=path is not None,
            many_points=path is not None and path.many,
            other=bool(kind.action_type.undeclared()),
            vertical=path is not None and path.vertical,
            band=kind.param("band") is not None,
        )


@dataclass
class Setup:
    """A model action being set up by clicks."""

    kind: ActionKind[Any]
    model: str
    target: str | None = None
    steps: list[Step] = field(default_factory=list)  # walks, climbs and jumps in order
    weapon: int = 0
    form: Form = field(init=False)

    def __post_init__(self) -> None:
        self.form = Form.of(self.kind)

    @property
    def points(self) -> list[tuple[float, float]]:
        """The walked waypoints, in order."""
        return [(s.x, s.y) for s in self.steps if s.kind == "walk"]


def of_kind(legal: list[Action], s: Setup) -> list[ModelAction]:
    """The engine's listed legal actions of the kind being set up."""
    return [a for a in legal if isinstance(a, s.kind.action_type)]


def options(legal: list[Action], s: Setup, target: str | None) -> list[ModelAction]:
    """The engine's listed legal actions of this kind against ``target``."""
    return [a for a in of_kind(legal, s) if a.values().get("target") == target]


def weapons(scenario: Scenario, legal: list[Action], s: Setup) -> tuple[str, ...]:
    """Weapons to cycle: those the engine lists for this kind now, else all carried."""
    carried = scenario.unit_of(s.model).weapons
    listed = {a.values().get("weapon") for a in of_kind(legal, s)}
    return tuple(w for w in carried if w in listed) or carried


def current_weapon(scenario: Scenario, legal: list[Action], s: Setup) -> str | None:
    """The weapon Tab has cycled to (None if the model carries none)."""
    ws = weapons(scenario, legal, s)
    return ws[s.weapon % len(ws)] if ws else None


def weapon_name(scenario: Scenario, legal: list[Action], s: Setup) -> str:
    """The current weapon's name, for its button."""
    w = current_weapon(scenario, legal, s)
    return scenario.weapons[w].name if w is not None else "-"


def build(s: Setup, weapon: str | None, steps: list[Step] | None = None) -> Action | None:
    """The action as set up, built by its kind from typed values (None if incomplete).

    ``steps`` replaces the set-up's own (a preview with the pointer added);
    a one-step path uses the last. A shot's band starts at short range.

    Examples
    --------
    >>> from sim.game.kinds import GAME_KINDS
    >>> s = Setup(GAME_KINDS["move"], "m1", steps=[Step("walk", 1.0, 2.0)])
    >>> str(build(s, None))
    'move m1 1.0 2.0'
    """
    use = s.steps if steps is None else steps
    if not s.form.many_points:
        use = use[-1:]
    values: dict[str, object] = {"target": s.target, "weapon": weapon, "band": "short"}
    path = s.kind.param("steps") or s.kind.param("points")
    if path is not None:
        values[path.name] = ([(t.x, t.y) for t in use if t.kind == "walk"]
                             if path.kind == "points" else use) or None
    try:
        return s.kind.build(s.model, values)
    except WastelandError:
        return None
