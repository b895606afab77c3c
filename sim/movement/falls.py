"""Falls, jumps and pushes against the board edge (R-FALL-1..4, R-JUMP-1, R-EDGE-3).

:func:`fall_table_colour` reads the fall table (rules data); :func:`resolve_fall`
applies a fall or jump to a model through the engine's
:class:`~sim.engine.state.ActionContext` (black die and armor roll from
:mod:`sim.resolution.damage`, damage and removal through the one engine path);
:func:`fall_model` drops a model to the level below and resolves the fall
(every fall: a failed climb, a push over the edge of a top);
:func:`landing` is where any fall comes to rest (the one place);
:func:`push_model` is the push back the combat rules call (R-EDGE-3).

Examples
--------
>>> from sim.scenario.rules import default_rules
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

import shapely

from geometry.elevation.edges import is_surface
from geometry.movement.paths import Level
from geometry.movement.push import PushResult, push_back
from geometry.movement.spots import nearest_free_spot
from sim.engine.gamedata import Status
from sim.movement.levels import Z_EPS, level_for, terrain_view
from sim.resolution.damage import roll_fall_damage
from sim.scenario.names import display_names, model_name
from sim.scenario.positions import Position
from sim.scenario.rules import RulesData

if TYPE_CHECKING:
    from sim.engine.state import ActionContext, GameState


# Why a fall in vts-1.5 hurts no one (the event text and docs/movement.md).
NO_FALL_DAMAGE_VTS = "no fall damage in vts-1.5 (R-CLIMB-5)"


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
    ignored: bool = False  # power armor (R-FALL-4), or any fall in vts-1.5 (R-CLIMB-5)


def resolve_fall(
    ctx: ActionContext, model: str, distance: float, *, jump: bool, cause: str
) -> FallOutcome:
    """Apply fall damage for ``distance`` inches to ``model`` (R-FALL-1..4, R-JUMP-1).

    In ``vts-1.5`` no fall deals damage or removes a model, whatever the
    height (R-CLIMB-5: the seed drops "the possibility of taking fall
    damage"); nothing is rolled. Power armor ignores every fall (R-FALL-4).
    A fall of up to Orange deals nothing and rolls nothing. Otherwise the
    black die and the armor roll decide the damage (R-FALL-2,
    :func:`sim.resolution.damage.roll_fall_damage`), taken through the engine
    (elimination at 0 health). A fall (not a jump) above Black removes the
    model from play.
    """
    unit = ctx.scenario.unit_of(model)
    what = "jump" if jump else "fall"
    name = model_name(ctx.scenario, model)
    if ctx.scenario.rules == "vts-1.5":
        ctx.log("fell", (model,), f"{name}: {what} of {distance:.2f} in, unhurt: "
                f"{NO_FALL_DAMAGE_VTS}", distance=distance, dealt=0, ignored=True)
        return FallOutcome(distance, None, 0, ignored=True)
    if "power-armor" in unit.keywords:
        ctx.log("fell", (model,), f"{name}: {what} of {distance:.2f} in, "
                "power armor ignores fall damage", distance=distance, dealt=0, ignored=True)
        return FallOutcome(distance, None, 0, ignored=True)
    colour = fall_table_colour(ctx.rules, distance, jump=jump)
    if colour is None:
        ctx.log("fell", (model,), f"{name}: fall of {distance:.2f} in, above "
                f"{ctx.rules.colours[-1]}", distance=distance, dealt=0, removed=True)
        ctx.remove(model, Status.ELIMINATED, f"fell {distance:.2f} in")
        return FallOutcome(distance, None, 0, removed=True)
    base = ctx.rules.fall_damage[colour]
    if base <= 0:
        ctx.log("fell", (model,), f"{name}: {what} of {distance:.2f} in ({colour}), no damage",
                distance=distance, colour=colour, dealt=0)
        return FallOutcome(distance, colour, 0)
    result = roll_fall_damage(ctx.rng, ctx.rules, base, unit.armor.physical)
    dealt = result.damage.dealt
    ctx.log("fell", (model,), f"{name}: {what} of {distance:.2f} in ({colour}, +{base}); "
            f"{result}", distance=distance, colour=colour, base=base,
            black_die=list(result.black_die), armor_roll=result.damage.armor_roll, dealt=dealt)
    if dealt > 0:
        ctx.damage(model, dealt, what)
    return FallOutcome(distance, colour, dealt)


def landing(
    state: GameState, model: str, xy: tuple[float, float], z_from: float, *,
    off_top: bool = False,
) -> Position:
    """Where ``model`` comes to rest falling from height ``z_from`` at ``xy`` (R-FALL-1).

    The level is the highest standable top under the base centre at or
    below ``z_from`` (strictly below with ``off_top``: the model went over
    that top's edge), else the ground. There the model lands at the free
    spot nearest ``xy`` (:func:`geometry.movement.spots.nearest_free_spot`: on the
    board, clear of impassable terrain and every other base, its centre on
    the top); a top with no free spot is passed for the level below. Every
    fall lands through here; a jump's landing is checked with the same
    standing test (docs/movement.md, Decisions).
    """
    view = terrain_view(state.scenario, model)
    centre = shapely.Point(xy)
    limit = z_from - Z_EPS if off_top else z_from + Z_EPS
    tops = sorted({props.height for p, props in view.pieces
                   if is_surface(props.height, props.area) and props.height <= limit
                   and p.footprint.covers(centre)}, reverse=True)
    r = state.radius(model)
    for z in (*tops, 0.0):
        spot = nearest_free_spot(level_at(state, model, z), r, xy)
        if spot is not None:
            return Position(spot[0], spot[1], z)
    return Position(xy[0], xy[1], 0.0)  # a board with no room left anywhere


def fall_model(
    ctx: ActionContext, model: str, xy: tuple[float, float], z_from: float, *,
    off_top: bool = False, why: str,
) -> FallOutcome:
    """Drop ``model`` from ``z_from`` at ``xy`` to where it lands and resolve the fall.

    The model leaves any climbing state, is placed by :func:`landing`, and
    takes fall damage for the height lost (R-FALL-1..4: power armor immune,
    above Black removed; none at all in vts-1.5, R-CLIMB-5). ``why`` says
    what made it fall, for the log.
    """
    where = landing(ctx.state, model, xy, z_from, off_top=off_top)
    ctx.set_position(model, where)
    ctx.set_climbing(model, False)
    drop = max(0.0, z_from - where.z)
    moved = ((where.x - xy[0]) ** 2 + (where.y - xy[1]) ** 2) ** 0.5
    aside = f", {moved:.2f} in aside (the nearest free spot)" if moved > 1e-6 else ""
    how = f"falls {drop:.2f} in to" if drop > Z_EPS else "stays at"
    ctx.log("landed", (model,), f"{model_name(ctx.scenario, model)} {why} and {how} "
            f"({where.x:.2f}, {where.y:.2f}, {where.z:.2f}){aside}",
            frm=[xy[0], xy[1], z_from], to=[where.x, where.y, where.z], distance=drop,
            aside=moved)
    if drop <= Z_EPS:
        return FallOutcome(0.0, None, 0)
    return resolve_fall(ctx, model, drop, jump=False, cause="fall")


def level_at(state: GameState, model: str, z: float) -> Level:
    """What ``model`` meets at height ``z`` now (every other model in play at ``z``)."""
    positions = state.positions()
    sides = {i: state.model(i).side for i in positions}
    radii = {i: state.radius(i) for i in positions}
    return level_for(state.scenario, model, z, positions, sides, radii,
                     state.rules.touch_tolerance,
                     climbing=frozenset(i for i in positions if state.model(i).climbing))


def push_model(
    ctx: ActionContext, model: str, source: tuple[float, float], colour: str, *, by: str
) -> PushResult:
    """Push ``model`` directly away from ``source`` by the ruler ``colour`` (R-EDGE-3).

    The base stops at impassable terrain and at any other base (at its
    height); the board edge is a hard edge: the model stays on the table
    and takes 1 damage, with no armor roll, for each push into it. ``by``
    names the pushing model for the log. The combat rules call this.

    Above the ground, a push that carries the base centre over the edge of
    the top it stands on ends there: the model falls to the level below
    (:func:`fall_model`; a climbing model is knocked off its face at once).
    """
    state = ctx.state
    res = push_geometry(state, model, source, ctx.rules.ruler(colour))
    pos = state.model(model).position
    ctx.set_position(model, Position(res.end[0], res.end[1], pos.z))
    name = display_names(ctx.scenario).model  # (a piece that stops it keeps its id)
    stop = f", stopped by {', '.join(map(name, res.stopped_by))}" if res.stopped_by else ""
    over = ", over the edge" if res.fell else ""
    ctx.log("pushed", (model, by), f"{name(model)} is pushed back {res.travelled:.2f} in by "
            f"{name(by)}{stop}{over}", to=list(res.end), travelled=res.travelled,
            stopped_by=list(res.stopped_by), into_edge=res.into_edge, fell=res.fell)
    if res.into_edge:
        ctx.damage(model, 1, "pushed against the board edge")
    if res.fell:
        fall_model(ctx, model, res.end, pos.z, off_top=True, why=f"is pushed off by {name(by)}")
    return res


def push_geometry(
    state: GameState, model: str, source: tuple[float, float], length: float
) -> PushResult:
    """Where a push of ``length`` would leave ``model`` (read only)."""
    ms = state.model(model)
    level = level_at(state, model, ms.position.z)
    # Every other base stops a push, friend or foe (R-EDGE-3).
    stoppers = type(level.blocking)(tuple(level.blocking) + tuple(level.occupied))
    floor = level.floor if ms.position.z > Z_EPS else None
    return push_back(state.scenario.board, stoppers, state.radius(model), ms.position.xy,
                     source, length, state.rules.touch_tolerance, floor=floor)
