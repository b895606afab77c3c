"""Scenario objects -> TOML (scenario format v1), the inverse of :mod:`sim.scenario.format.loader`.

The file written is self-contained: units and weapons from includes are
written inline, so ``load_scenario(write(s))`` equals ``s``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

import tomli_w

from sim.scenario.format.loader import FORMAT
from sim.scenario.objectives import Objective
from sim.scenario.objects import Scenario, TerrainPiece, TerrainProps, Unit, Weapon


def scenario_to_dict(s: Scenario) -> dict[str, Any]:
    """The TOML table of a scenario (plain dicts and lists)."""
    out: dict[str, Any] = {"format": FORMAT, "name": s.name, "rules": s.rules,
                           "board": list(s.board)}
    for key in ("rounds", "seed", "advantage"):
        value = getattr(s, key)
        if value is not None:
            out[key] = value
    if s.rules_overrides:
        out["rules_data"] = _plain(s.rules_overrides)
    out["sides"] = {sid: ({"name": side.name, "neutral": True} if side.neutral
                          else {"name": side.name}) for sid, side in s.sides.items()}
    out["units"] = {uid: _unit(u) for uid, u in s.units.items()}
    out["weapons"] = {wid: _weapon(w) for wid, w in s.weapons.items()}
    out["terrain"] = [_piece(p) for p in s.terrain]
    out["models"] = [{"id": m.id, "unit": m.unit, "side": m.side, "at": list(m.at), "z": m.z}
                     for m in s.models]
    if s.kill_points != 1:
        out["kill_points"] = s.kill_points
    if s.objectives:
        out["objectives"] = [objective_table(o) for o in s.objectives]
    return out


def objective_table(o: Objective) -> dict[str, Any]:
    """One ``[[objectives]]`` table (R-OBJ-1), only the keys its kind uses."""
    out: dict[str, Any] = {"id": o.id, "kind": o.kind, "at": list(o.at), "points": o.points}
    if o.kind == "zone":
        out["radius"] = o.radius
    else:
        out["within"] = o.within
    if o.kind == "cargo":
        out["exits"] = dict(o.exits)
    return out


def scenario_to_toml(s: Scenario) -> str:
    """The scenario as TOML text that loads back to an equal scenario."""
    return tomli_w.dumps(scenario_to_dict(s))


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def _unit(u: Unit) -> dict[str, Any]:
    return {"name": u.name, "base": u.base, "move": u.move, "charge": u.charge,
            "special": dict(u.special), "skills": dict(u.skills), "health": u.health,
            "armor": asdict(u.armor), "keywords": sorted(u.keywords),
            "weapons": list(u.weapons)}


def _weapon(w: Weapon) -> dict[str, Any]:
    out: dict[str, Any] = {"name": w.name, "skill": w.skill, "short": w.short,
                           "short_dice": list(w.short_dice), "long_dice": list(w.long_dice),
                           "damage": w.damage, "damage_type": w.damage_type}
    if w.long is not None:
        out["long"] = w.long
    if w.effects:
        out["effects"] = dict(w.effects)
    return out


def _piece(p: TerrainPiece) -> dict[str, Any]:
    out: dict[str, Any] = {"id": p.id}
    if p.circle is not None:
        out["circle"] = {"center": list(p.circle[0]), "radius": p.circle[1]}
    else:
        assert p.polygon is not None
        out["polygon"] = [list(pt) for pt in p.polygon]
        if p.holes:
            out["holes"] = [[list(pt) for pt in ring] for ring in p.holes]
    default = TerrainProps()
    for key, value in asdict(p.props).items():
        if value != getattr(default, key):
            out[key] = value
    if p.overrides:
        out["overrides"] = _plain(p.overrides)
    return out
