"""Falls, jumps and pushes against the board edge (R-FALL-1..4, R-JUMP-1, R-EDGE-3).

:func:`fall_table_colour` reads the fall table (rules data); :func:`resolve_fall`
applies a fall or jump to a model through the engine's
:class:`~sim.state.ActionContext` (black die and armor roll from
:mod:`sim.damage`, damage and removal through the one engine path);
:func:`push_model` is the push back the combat rules call (R-EDGE-3).

Examples
--------
>>> from sim.rules import default_rules
>>> rules = default_rules()
>>> fall_table_colour(rules, 5.0, jump=False), fall_table_colour(rules, 5.0, jump=True)
('red', 'yellow')
>>> fall_table_colour(rules, 12.5, jump=False) is None
True
>>> fall_table_colour(rules, 12.5, jump=True)
'black'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from geometry.push import PushResult, push_back
from sim.damage import roll_fall_damage
from sim.gamedata import Status
from sim.levels import level_for
from sim.positions import Position
from sim.rules import RulesData

if TYPE_CHECKING:
    from sim.state import ActionContext, GameState


def fall_table_colour(rules: RulesData, distance: float, *, jump: bool) -> str | None:
    """The fall table row for a fall of ``distance`` inches; None: removed from play.

    R-FALL-1: the shortest ruler the distance is within. R-JUMP-1: a jump
    uses one ruler shorter (Orange stays Orange, so a jump of up to Orange is
    harmless); Decision: a jump from above Black counts as Black.
    """
    colour = rules.ruler_within(distance)
    if colour is None:
        return rules.colours[-1] if jump else None
    return rules.shorter(colour) if jump else colour


@dataclass(frozen=True)
class FallOutcome:
    """What a fall did: the damage dealt (after armor), or removal."""

    distance: float
    colour: str | None
    dealt: int
    removed: bool = False
    ignored: bool = False  # power armor (R-FALL-4)


def resolve_fall(
    ctx: ActionContext, model: str, distance: float, *, jump: bool, cause: str
) -> FallOutcome:
    """Apply fall damage for ``distance`` inches to ``model`` (R-FALL-1..4, R-JUMP-1).

    Power armor ignores every fall (R-FALL-4). A fall of up to Orange deals
    nothing and rolls nothing. Otherwise the black die and the armor roll
    decide the damage (R-FALL-2, :func:`sim.damage.roll_fall_damage`), taken
    through the engine (elimination at 0 health). A fall (not a jump) above
    Black removes the model from play.
    """
    unit = ctx.scenario.unit_of(model)
    what = "jump" if jump else "fall"
    if "power-armor" in unit.keywords:
        ctx.log("fell", (model,), f"{model}: {what} of {distance:.2f} in, "
                "power armor ignores fall damage", distance=distance, dealt=0, ignored=True)
        return FallOutcome(distance, None, 0, ignored=True)
    colour = fall_table_colour(ctx.rules, distance, jump=jump)
    if colour is None:
        ctx.log("fell", (model,), f"{model}: fall of {distance:.2f} in, above "
                f"{ctx.rules.colours[-1]}", distance=distance, dealt=0, removed=True)
        ctx.remove(model, Status.ELIMINATED, f"fell {distance:.2f} in")
        return FallOutcome(distance, None, 0, removed=True)
    base = ctx.rules.fall_damage[colour]
    if base <= 0:
        ctx.log("fell", (model,), f"{model}: {what} of {distance:.2f} in ({colour}), no damage",
                distance=distance, colour=colour, dealt=0)
        return FallOutcome(distance, colour, 0)
    result = roll_fall_damage(ctx.rng, ctx.rules, base, unit.armor.physical)
    dealt = result.damage.dealt
    ctx.log("fell", (model,), f"{model}: {what} of {distance:.2f} in ({colour}, +{base}); "
            f"{result}", distance=distance, colour=colour, base=base,
            black_die=list(result.black_die), armor_roll=result.damage.armor_roll, dealt=dealt)
    if dealt > 0:
        ctx.damage(model, dealt, what)
    return FallOutcome(distance, colour, dealt)


def push_model(
    ctx: ActionContext, model: str, source: tuple[float, float], colour: str, *, by: str
) -> PushResult:
    """Push ``model`` directly away from ``source`` by the ruler ``colour`` (R-EDGE-3).

    The base stops at impassable terrain and at any other base (at its
    height); the board edge is a hard edge: the model stays on the table
    and takes 1 damage, with no armor roll, for each push into it. ``by``
    names the pushing model for the log. The combat rules call this.
    """
    state = ctx.state
    res = push_geometry(state, model, source, ctx.rules.ruler(colour))
    pos = state.model(model).position
    ctx.set_position(model, Position(res.end[0], res.end[1], pos.z))
    stop = f", stopped by {', '.join(res.stopped_by)}" if res.stopped_by else ""
    ctx.log("pushed", (model, by), f"{model} is pushed back {res.travelled:.2f} in by {by}"
            f"{stop}", to=list(res.end), travelled=res.travelled,
            stopped_by=list(res.stopped_by), into_edge=res.into_edge)
    if res.into_edge:
        ctx.damage(model, 1, "pushed against the board edge")
    return res


def push_geometry(
    state: GameState, model: str, source: tuple[float, float], length: float
) -> PushResult:
    """Where a push of ``length`` would leave ``model`` (read only)."""
    ms = state.model(model)
    positions = state.positions()
    sides = {i: state.model(i).side for i in positions}
    radii = {i: state.radius(i) for i in positions}
    level = level_for(state.scenario, model, ms.position.z, positions, sides, radii,
                      state.rules.touch_tolerance,
                      climbing=frozenset(i for i in positions if state.model(i).climbing))
    # Every other base stops a push, friend or foe (R-EDGE-3).
    stoppers = type(level.blocking)(tuple(level.blocking) + tuple(level.occupied))
    return push_back(state.scenario.board, stoppers, state.radius(model), ms.position.xy,
                     source, length, state.rules.touch_tolerance)
