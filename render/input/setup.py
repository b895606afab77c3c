"""A model action being set up by clicks, read from its usage text.

How a model action is set up is read from its usage text
(``ModelAction.usage``, e.g. ``"shoot MODEL TARGET [WEAPON]"``): ``TARGET``
is picked by clicking a model, ``X Y`` by clicking the board (waypoints when
the usage repeats them), ``WEAPON`` cycles with Tab. Kinds whose usage has
other words are offered as the engine's listed samples.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sim.engine.actions import Action, ModelAction, parse_action
from sim.errors import WastelandError
from sim.scenario.objects import Scenario

Step = tuple[str, float, float]  # ("walk", x, y), or ("climb", z, 0.0) / ("jump", z, 0.0)


@dataclass(frozen=True)
class Form:
    """What a model action's usage text asks for (see the module docstring)."""

    keyword: str
    target: bool
    weapon: bool
    points: bool
    many_points: bool
    other: bool

    vertical: bool = False  # "climb Z" / "jump Z" steps may be mixed in
    band: bool = False  # "short|long": the range band (R-RANGE-1)

    @classmethod
    def of(cls, keyword: str, usage: str) -> Form:
        words = [w.strip("[]") for part in usage.split()[1:] for w in part.split("|")]
        known = {"MODEL", "TARGET", "WEAPON", "X", "Y", "...", "climb", "jump", "Z",
                 "short", "long"}
        return cls(
            keyword=keyword,
            target="TARGET" in words,
            weapon="WEAPON" in words,
            points="X" in words,
            many_points="..." in usage,
            other=any(w not in known for w in words),
            vertical="climb" in words or "jump" in words,
            band="short" in words,
        )


@dataclass
class Setup:
    """A model action being set up by clicks."""

    form: Form
    model: str
    target: str | None = None
    # Steps in order: ("walk", x, y), or ("climb", z, 0.0) / ("jump", z, 0.0).
    steps: list[Step] = field(default_factory=list)
    weapon: int = 0

    @property
    def points(self) -> list[tuple[float, float]]:
        """The walked waypoints, in order."""
        return [(a, b) for k, a, b in self.steps if k == "walk"]

    def tokens(self, steps: list[Step] | None = None) -> list[str]:
        out: list[str] = []
        for kind, a, b in self.steps if steps is None else steps:
            out += [repr(a), repr(b)] if kind == "walk" else [kind, repr(a)]
        return out


def of_kind(legal: list[Action], s: Setup) -> list[ModelAction]:
    """The engine's listed legal actions of the kind being set up."""
    return [a for a in legal if isinstance(a, ModelAction) and a.keyword == s.form.keyword]


def options(legal: list[Action], s: Setup, target: str | None) -> list[ModelAction]:
    """The engine's listed legal actions of this kind against ``target``."""
    return [a for a in of_kind(legal, s) if str(a).split()[2:3] == [target]]


def weapons(scenario: Scenario, legal: list[Action], s: Setup) -> tuple[str, ...]:
    """Weapons to cycle: those the engine lists for this kind now, else all carried."""
    carried = scenario.unit_of(s.model).weapons
    listed = {w for a in of_kind(legal, s) for w in str(a).split()[3:] if w in carried}
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
    """The action text the usage asks for, parsed by the engine (None if incomplete).

    Examples
    --------
    >>> s = Setup(Form.of("move", "move MODEL X Y ..."), "m1", steps=[("walk", 1.0, 2.0)])
    >>> str(build(s, None))
    'move m1 1.0 2.0'
    """
    words = [s.form.keyword, s.model]
    if s.form.target:
        if s.target is None:
            return None
        words.append(s.target)
    use = s.steps if steps is None else steps
    if s.form.points:
        if not use:
            return None
        words += s.tokens(use if s.form.many_points else use[-1:])
    if s.form.weapon and weapon is not None:
        words.append(weapon)
    if s.form.band:
        words.append("short")
    try:
        return parse_action(" ".join(words))
    except WastelandError:
        return None
