"""Typed-in values of the scenario editor's fields, checked and applied to a draft.

The editor's side panel lets a player type a name, an id, a height, the
number of rounds or a piece's per-model overrides (R-TER-2). Each text is
turned into the value the scenario format expects, or refused with a
:class:`~sim.errors.WastelandError` saying what was expected; the draft is
then unchanged.

Examples
--------
>>> from sim.scenario.format.loader import load_scenario
>>> s = load_scenario("scenarios/skirmish.toml")
>>> set_field(s, "wall-1", "height", "4.5").piece("wall-1").props.height
4.5
>>> set_field(s, None, "rounds", "").rounds is None
True
>>> set_field(s, "wall-1", "height", "tall")
Traceback (most recent call last):
...
sim.errors.WastelandError: height: expected a number of inches from 0 to 1000, got 'tall'
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import replace
from typing import Any

from sim.errors import WastelandError
from sim.scenario.edit import rename, set_overrides, set_props, set_side_name
from sim.scenario.format.ids import id_problem
from sim.scenario.format.limits import MAX_HEIGHT_INCHES
from sim.scenario.objects import Scenario

# field -> what the player is asked for (the prompt in the window)
FIELDS = {
    "name": "the scenario's name",
    "rounds": "the last round (empty: no limit)",
    "height": "the height in inches",
    "id": "a new id (one word)",
    "overrides": "per-model overrides, e.g. { hover = { movement = \"normal\" } }",
    "side_name": "the side's name",
}


def current_text(s: Scenario, ident: str | None, field: str) -> str:
    """What the field holds now, as the player would type it."""
    if field == "name":
        return s.name
    if field == "rounds":
        return "" if s.rounds is None else str(s.rounds)
    if field == "side_name" and ident is not None:
        return s.sides[ident].name
    if field == "id" and ident is not None:
        return ident
    if ident is None:
        return ""
    piece = s.piece(ident)
    if field == "height":
        return f"{piece.props.height:g}"
    return inline_overrides(piece.overrides)


def inline_overrides(overrides: Any) -> str:
    """``{ hover = { movement = "normal" } }``: overrides as one TOML inline table."""
    def value(v: Any) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, str):
            return f'"{v}"'
        return f"{v:g}" if isinstance(v, float) else str(v)

    parts = [f"{k} = {{ " + ", ".join(f"{p} = {value(v)}" for p, v in t.items()) + " }"
             for k, t in overrides.items()]
    return "{ " + ", ".join(parts) + " }" if parts else "{}"


def set_field(s: Scenario, ident: str | None, field: str, text: str) -> Scenario:
    """``s`` with ``field`` (of the piece, model or side ``ident``) set from ``text``."""
    text = text.strip()
    if field == "name":
        if not text:
            raise WastelandError("name: expected a name, got an empty text")
        return replace(s, name=text)
    if field == "rounds":
        return replace(s, rounds=_rounds(text))
    if ident is None:
        raise WastelandError(f"{field}: select a piece first")
    if field == "side_name":
        if not text:
            raise WastelandError("side name: expected a name, got an empty text")
        return set_side_name(s, ident, text)
    if field == "id":
        return _renamed(s, ident, text)
    if field == "height":
        return set_props(s, ident, height=_height(text))
    if field == "overrides":
        return set_overrides(s, ident, _overrides(text))
    raise WastelandError(f"unknown field {field!r}; known: {', '.join(sorted(FIELDS))}")


def _rounds(text: str) -> int | None:
    if not text:
        return None
    if not text.isdigit() or int(text) < 1:
        raise WastelandError(f"rounds: expected a positive whole number or nothing, got {text!r}")
    return int(text)


def _height(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 <= value <= MAX_HEIGHT_INCHES:
        raise WastelandError(f"height: expected a number of inches from 0 to "
                             f"{MAX_HEIGHT_INCHES:g}, got {text!r}")
    return value


def _renamed(s: Scenario, old: str, new: str) -> Scenario:
    why = id_problem(new)
    if why is not None:
        raise WastelandError(f"id: {why}")
    if new != old and new in {p.id for p in s.terrain} | set(s.model_ids):
        raise WastelandError(f"id: {new!r} is taken (ids of pieces and models are unique)")
    return rename(s, old, new)


def _overrides(text: str) -> dict[str, dict[str, Any]]:
    """The table typed; its keys and values are checked by the loader with the draft."""
    try:
        table = tomllib.loads(f"overrides = {text or '{}'}")["overrides"]
    except tomllib.TOMLDecodeError as exc:
        raise WastelandError(f"overrides: expected an inline TOML table such as "
                             f"{{ hover = {{ movement = \"normal\" }} }}: {exc}") from None
    if not isinstance(table, dict) or not all(isinstance(v, dict) for v in table.values()):
        raise WastelandError("overrides: expected a table of tables, such as "
                             "{ huge = { movement = \"normal\" } }")
    return table
