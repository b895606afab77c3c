"""An action's parameters as data: what a model action needs after its model.

Each :class:`~sim.engine.actions.ModelAction` declares its parameters in text
order (``params``); its kind builds the action from typed values
(:meth:`~sim.engine.actions.ActionKind.build`) and lists them back as words
(:meth:`~sim.engine.actions.ActionKind.describe`). The window, and the AI
that comes later, fill these fields from clicks and never read action text;
the text form stays for saves and the CLI.

Examples
--------
>>> band = Param("band", "band", choices=("short", "long"))
>>> check_value(band, "long")
'long'
>>> check_value(band, "far")
Traceback (most recent call last):
...
ValueError: band must be one of 'short', 'long', got 'far'
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

ParamKind = Literal["target", "weapon", "band", "steps", "points"]


@dataclass(frozen=True)
class Param:
    """One value an action needs after its model, in text order.

    ``name`` is the action dataclass field it fills. ``steps`` and ``points``
    are paths: ``item`` is the type of one step (the movement rules' ``Step``;
    a point is an ``(x, y)`` pair), ``many`` allows more than one, ``vertical``
    says climb/jump steps may be mixed in (their heights are the steps' own).
    """

    name: str
    kind: ParamKind
    choices: tuple[str, ...] = ()
    many: bool = True
    vertical: bool = False
    item: type = tuple


@runtime_checkable
class Tokens(Protocol):
    """A value that prints itself as text tokens (a path step)."""

    def tokens(self) -> tuple[str, ...]: ...


def check_value(p: Param, value: object) -> object:
    """``value`` as the action field ``p`` fills; ValueError saying what was expected."""
    if p.kind in ("target", "weapon", "band"):
        return _word(p, value)
    return _path(p, value)


def _word(p: Param, value: object) -> str:
    if not isinstance(value, str) or not value or value.split() != [value]:
        raise ValueError(f"{p.name} must be one word, got {value!r}")
    if p.choices and value not in p.choices:
        known = ", ".join(repr(c) for c in p.choices)
        raise ValueError(f"{p.name} must be one of {known}, got {value!r}")
    return value


def _path(p: Param, value: object) -> tuple[object, ...]:
    if not isinstance(value, Sequence) or isinstance(value, str) or not value:
        raise ValueError(f"{p.name} must be a non-empty sequence, got {value!r}")
    if not p.many and len(value) != 1:
        raise ValueError(f"{p.name} takes one step, got {len(value)}")
    if p.kind == "points":
        return tuple(_point(p, v) for v in value)
    for step in value:
        if not isinstance(step, p.item):
            raise ValueError(f"{p.name} must hold {p.item.__name__} values, got {step!r}")
        if dataclasses.is_dataclass(step) and not all(
                math.isfinite(v) for f in dataclasses.fields(step)
                if isinstance(v := getattr(step, f.name), float)):
            raise ValueError(f"{p.name}: {step!r} has a number that is not finite")
    return tuple(value)


def _point(p: Param, value: object) -> tuple[float, float]:
    if (isinstance(value, Sequence) and len(value) == 2
            and all(isinstance(c, int | float) and not isinstance(c, bool) for c in value)):
        x, y = float(value[0]), float(value[1])
        if math.isfinite(x) and math.isfinite(y):
            return (x, y)
    raise ValueError(f"{p.name} must hold (x, y) pairs of finite numbers, got {value!r}")


def words(value: object) -> list[str]:
    """A parameter's value as the words of its text form (for labels)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, float | int):
        return [repr(float(value))]
    if isinstance(value, Tokens):
        return list(value.tokens())
    if isinstance(value, Sequence):
        return [w for v in value for w in words(v)]
    return [str(value)]
