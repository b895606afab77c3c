"""The window's questions to the engine and geometry, turned into overlays and text.

The questions about a path being drawn (its ruler, the engine's reason, a
base against a face, where a climb leaves the model) are in
:mod:`render.explain.moves`; :class:`Answers` keeps their answers too.

Every answer comes from the one module that owns the rule: sight, cover and
range from :func:`sim.shooting.analysis.analyse`, shot odds from :mod:`sim.resolution.odds`
(through the combat module's preview), the reachable area and the path
ruler from the movement module, significant edges from
:mod:`geometry.elevation.edges`. Nothing here decides a rule; it only picks
shapes and words for what those modules return.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

from shapely.geometry.base import BaseGeometry

from geometry.discs import Disc
from render.draw.overlays import CoverMark, Segment, Shape, ShotOverlay
from render.draw.theme import (
    COVER_COUNTED,
    COVER_IGNORED,
    RANGE_LONG,
    RANGE_SHORT,
    TEXT_BAD,
    TEXT_DIM,
    TEXT_GOOD,
    TEXT_WARN,
    Colour,
)
from render.draw.view import TextLine
from render.explain.moves import Point, path_text, reason
from render.scene import Scene
from sim.combat.plan import close_combat_contact, plan_close_combat, plan_shot
from sim.combat.situation import Situation
from sim.engine.actions import Action, ActionKind
from sim.engine.params import Param
from sim.engine.state import GameState
from sim.errors import WastelandError
from sim.movement.kinds import MoveArea, reachable
from sim.resolution.odds import attack_odds
from sim.scenario.names import display_names
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position
from sim.shooting.analysis import analyse, analyse_many
from sim.shooting.elevation_rules import board_elevation
from sim.shooting.weapon_range import rulers


def _shape_of(scenario: Scenario, positions: Mapping[str, Position], ident: str) -> Shape:
    """The drawable shape an analysis id names: a model's base, a piece, a significant edge."""
    if ident in positions:
        p = positions[ident]
        return Disc(p.x, p.y, scenario.radius_of(ident))
    if ident.endswith(":edge"):
        try:
            return board_elevation(scenario).edges.edge(ident[: -len(":edge")]).geometry
        except KeyError:
            pass
    piece = scenario.piece(ident)
    if piece.circle is not None:
        (cx, cy), r = piece.circle
        return Disc(cx, cy, r)
    return piece.footprint


def shown_name(scenario: Scenario, ident: str) -> str:
    """How text names what an analysis id names: a model by its display name, a
    significant edge as the edge of its piece, a piece by its id."""
    return display_names(scenario).thing(ident)


def shot(scenario: Scenario, positions: Mapping[str, Position], attacker: str, target: str,
         weapon: str | None, climbing: frozenset[str] = frozenset(), ids: bool = False
         ) -> tuple[ShotOverlay, list[TextLine]]:
    """The shot overlay and its explanation for ``attacker`` -> ``target``.

    Everything comes from :func:`sim.shooting.analysis.analyse`, asked anew on
    each call; the window asks through its :class:`Answers`, which keeps them.
    """
    overlay, lines = _build_shot(scenario, positions, attacker, target, weapon, climbing, ids)
    return overlay, list(lines)


def _build_shot(scenario: Scenario, positions: Mapping[str, Position], attacker: str,
                target: str, weapon: str | None, climbing: frozenset[str], ids: bool = False
                ) -> tuple[ShotOverlay, tuple[TextLine, ...]]:
    a = analyse(scenario, positions, attacker, target, weapon, climbing)
    pa, pt = positions[attacker], positions[target]
    da = Disc(pa.x, pa.y, scenario.radius_of(attacker))
    dt = Disc(pt.x, pt.y, scenario.radius_of(target))
    # The reasons are the analysis's own words (the same as `wasteland los`);
    # models are named by their display names, pieces by their ids (``ids``: the
    # debug view, ids throughout).
    def name(ident: str) -> str:
        return ident if ids else shown_name(scenario, ident)

    marks = [CoverMark(name(c.id), _shape_of(scenario, positions, c.id), True, c.reason)
             for c in a.counted_cover]
    marks += [CoverMark(name(i.id), _shape_of(scenario, positions, i.id), False, i.reason)
              for i in a.ignored_cover]
    blocked = tuple((name(b), _shape_of(scenario, positions, b)) for b in a.sight.blocked_by)
    rings: list[tuple[float, Colour, str]] = []
    lines: list[TextLine] = [TextLine(f"{name(attacker)} -> {name(target)}"
                                      + (f" with {scenario.weapons[weapon].name}" if weapon
                                         else ""))]
    if a.line_of_sight:
        lines.append(TextLine("line of sight: yes, along the green segment (R-LOS-1)", TEXT_GOOD))
    else:
        why = ", ".join(name(b) for b in a.sight.blocked_by) or "terrain"
        lines.append(TextLine(f"line of sight: NO, every line is blocked by {why}", TEXT_BAD))
    for r in a.sight_reasons:
        lines.append(TextLine(f"  {name(r.id)}: {r.reason}", TEXT_DIM))
    if a.cover:
        effect = (f"armor +{a.armor_bonus}" if a.armor_bonus
                  else f"{a.armor_boost} Armor Boost")
        lines.append(TextLine(f"cover: skill {a.skill_modifier:+d}, {effect} (R-COV-2, R-COV-3)",
                              TEXT_WARN))
    else:
        lines.append(TextLine("cover: none"))
    for m in marks:
        # "not cover here", never "ignored": a piece that blocks sight is not ignored.
        verdict = "counts as cover" if m.counts else "not cover here"
        lines.append(TextLine(f"  {m.id}: {verdict}: {m.reason}",
                              COVER_COUNTED if m.counts else COVER_IGNORED))
    tol = scenario.rules_data.touch_tolerance
    where = (f"bases in contact (within {tol:g} in, R-UNIT-2)" if a.distance <= tol else
             f"distance {a.distance:.2f} in, base edge to base edge (R-DIST-1)")
    if weapon is not None:
        w = scenario.weapons[weapon]
        short, long = rulers(scenario.rules_data, w)
        rings.append((da.r + short, RANGE_SHORT, f"short: {w.short} {short:g}\""))
        if long is not None:
            reach = short + long
            rings.append((da.r + reach, RANGE_LONG, f"long: {w.long}, to {reach:g}\""))
        bands = " and ".join(a.bands or ()) or "out of range"
        where += f": {bands} (R-RANGE-1)"
    lines.append(TextLine(where, TEXT_GOOD if a.in_range is not False else TEXT_BAD))
    if attacker in climbing:
        lines.append(TextLine(f"{name(attacker)} is climbing and cannot attack (R-CLIMB-3)",
                              TEXT_BAD))
    overlay = ShotOverlay(da, dt, a.sight.witness, blocked, (da.center, dt.center),
                          tuple(marks), tuple(rings), pair=(attacker, target))
    return overlay, tuple(lines)


def sight_web(scenario: Scenario, positions: Mapping[str, Position],
              climbing: frozenset[str] = frozenset()) -> tuple[tuple[Segment, bool], ...]:
    """Every model's sight to every enemy: the witness, or centre to centre when blocked.

    Each pair of opposing models is asked once (attacker first in scenario order),
    all of one attacker's targets in one :func:`sim.shooting.analysis.analyse_many` call.
    """
    ids = [m.id for m in scenario.models if m.id in positions]
    out: list[tuple[Segment, bool]] = []
    for i, a in enumerate(ids):
        side = scenario.model(a).side
        targets = [t for t in ids[i + 1:] if scenario.model(t).side != side]
        if not targets:
            continue
        # One batched query per attacker (sim.shooting.analysis.analyse_many): same answers.
        found = analyse_many(scenario, positions, a, targets, climbing=climbing)
        for t in targets:
            sight = found[t].sight
            if sight.visible and sight.witness is not None:
                out.append((sight.witness, True))
            else:
                out.append(((positions[a].xy, positions[t].xy), False))
    return tuple(out)


def state_key(state: GameState) -> object:
    """Changes whenever the engine state does (an action, an undo).

    One window holds one state object for its life, so the state's identity
    is not part of the key (:class:`Answers` checks it apart).
    """
    hist, events = state.history, state.events
    return (len(hist), hist[-1] if hist else None, len(events),
            events[-1].text if events else None)


def reach_area(state: GameState | None, model: str, charge: bool = False
               ) -> BaseGeometry | None:
    """Where ``model`` can end a Move (or Charge) now, from the movement rules."""
    found = move_area(state, model, charge)
    return None if found is None else found.area


def move_area(state: GameState | None, model: str, charge: bool = False) -> MoveArea | None:
    """:func:`sim.movement.kinds.reachable`: the area with its shortest paths."""
    if state is None or not state.model(model).in_play:
        return None
    return reachable(state, model, charge=charge)


def odds_lines(state: GameState, attacker: str, target: str, weapon: str | None,
               band: str | None = None) -> list[TextLine]:
    """The shot preview: the dice to roll and the exact odds (sim.combat.plan,
    sim.resolution.odds)."""
    if weapon is None:
        return [TextLine("no weapon to shoot with", TEXT_BAD)]
    try:
        plan = plan_shot(Situation.of_state(state), attacker, target, weapon,
                         band if band in ("short", "long") else None)  # type: ignore[arg-type]
    except WastelandError as exc:
        reason = getattr(exc, "reason", str(exc))
        return [TextLine(f"cannot shoot: {reason}", TEXT_BAD)]
    odds = attack_odds(plan.profile, state.rules)
    out = [TextLine(f"shot preview ({plan.band} range): {plan.profile.describe()}", TEXT_WARN)]
    out += [TextLine(f"  {line}", TEXT_WARN) for line in odds.lines(plan.target_health)]
    return out


def close_combat_lines(state: GameState, attacker: str, target: str, weapon: str | None
                       ) -> list[TextLine]:
    """The close-combat preview: base contact and the odds (sim.combat.plan, sim.resolution.odds).

    No sight line, cover or range rings: close combat asks for base contact
    (R-UNIT-2) and takes no cover (the engine's close-combat plan).
    """
    name = state.scenario.weapons[weapon].name if weapon else "no weapon"
    out = [TextLine(f"{shown_name(state.scenario, attacker)} -> "
                    f"{shown_name(state.scenario, target)} in close combat with {name}")]
    sit = Situation.of_state(state)
    why = close_combat_contact(sit, attacker, target)
    out.append(TextLine("base contact: yes (R-UNIT-2)", TEXT_GOOD) if why is None
               else TextLine(f"base contact: NO, {why}", TEXT_BAD))
    if weapon is None:
        return [*out, TextLine("no close-combat weapon", TEXT_BAD)]
    try:
        plan = plan_close_combat(sit, attacker, target, weapon)
    except WastelandError as exc:
        reason = getattr(exc, "reason", str(exc))
        return [*out, TextLine(f"cannot attack: {reason}", TEXT_BAD)]
    odds = attack_odds(plan.profile, state.rules)
    out.append(TextLine(f"preview: {plan.profile.describe()}; no cover in close combat",
                        TEXT_WARN))
    out += [TextLine(f"  {line}", TEXT_WARN) for line in odds.lines(plan.target_health)]
    return out


def reach_lines(scenario: Scenario, model: str, area: BaseGeometry | None) -> list[TextLine]:
    """What the shaded reachable area is."""
    unit = scenario.unit_of(model)
    rules = scenario.rules_data
    return [
        TextLine(f"{shown_name(scenario, model)}: where its base centre can end a Move"),
        TextLine(f"  {unit.move} ruler ({rules.ruler(unit.move):g} in), "
                 f"{rules.shorter(unit.move)} through difficult ground (R-MOV-1)", TEXT_DIM),
        TextLine(f"  area {0.0 if area is None else area.area:.1f} sq in", TEXT_DIM),
    ]


ShotAnswer = tuple[ShotOverlay, tuple[TextLine, ...]]
SHOTS_KEPT = 256  # hovered shots kept for one engine state (bounds memory, not correctness)
WEBS_KEPT = 16


class Answers:
    """The window's answers (the scene, the legal actions, shots, the sight web,
    reachable areas) for one game: the one cache of them per engine state.

    Held by the window's controller, one per game. All of them are dropped
    together when the engine state changes (an action, an undo) or another
    state is asked about, so nothing is keyed by ``id()``. Shots and webs are
    also keyed by the positions asked about, so an answer is never stale
    whoever asks; hovering costs one analysis per target and engine state.
    """

    def __init__(self) -> None:
        self._state: GameState | None = None
        self._key: object = None
        self._shots: dict[Hashable, ShotAnswer] = {}
        self._webs: dict[Hashable, tuple[tuple[Segment, bool], ...]] = {}
        self._reach: dict[tuple[str, bool], MoveArea | None] = {}
        self._paths: dict[Hashable, str] = {}  # ruler texts
        self._why: dict[Hashable, str] = {}  # the engine's reasons ("" legal)
        self._offers: dict[Hashable, tuple[object, ...]] = {}
        self._scene: Scene | None = None
        self._legal: list[Action] | None = None

    def follow(self, state: GameState | None) -> None:
        """Drop every answer if ``state`` is not the state they were found for."""
        key = None if state is None else state_key(state)
        if state is not self._state or key != self._key:
            self._state, self._key = state, key
            self.clear()

    def clear(self) -> None:
        self._scene = self._legal = None
        self._shots.clear()
        self._webs.clear()
        self._reach.clear()
        self._paths.clear()
        self._why.clear()
        self._offers.clear()

    def scene(self, state: GameState, make: Callable[[], Scene]) -> Scene:
        """The scene of ``state`` (``make`` builds it), kept while it is unchanged."""
        self.follow(state)
        if self._scene is None:
            self._scene = make()
        return self._scene

    def legal(self, state: GameState) -> list[Action]:
        """The engine's listed legal actions, asked once per engine state (the
        controller's buttons and the window's headlines share them)."""
        self.follow(state)
        if self._legal is None:
            self._legal = list(state.legal_actions())
        return self._legal

    def reason(self, state: GameState | None, action: Action | None) -> str:
        """:func:`reason`, kept while ``state`` is unchanged (the path preview and
        the Commit button ask it of the same path each frame)."""
        self.follow(state)
        if action not in self._why:
            if len(self._why) >= SHOTS_KEPT:
                self._why.clear()
            self._why[action] = reason(state, action)
        return self._why[action]

    def path_verdict(self, state: GameState | None, action: Action | None,
                     points: list[Point], short: bool = False) -> tuple[str, str]:
        """:func:`path_verdict`, kept while ``state`` is unchanged."""
        self.follow(state)
        key = (action, tuple(points), short)
        if key not in self._paths:
            if len(self._paths) >= SHOTS_KEPT:
                self._paths.clear()
            self._paths[key] = path_text(state, action, points, short)
        return self._paths[key], self.reason(state, action)

    def offers(self, state: GameState, kind: ActionKind[Any], model: str, param: Param,
               values: Mapping[str, object]) -> tuple[object, ...]:
        """``kind.offers(...)``, kept while ``state`` is unchanged."""
        self.follow(state)
        key = (kind.keyword, model, param.name, tuple(sorted(values.items())))
        if key not in self._offers:
            if len(self._offers) >= SHOTS_KEPT:
                self._offers.clear()
            self._offers[key] = tuple(kind.offers(state, model, param, values))
        return self._offers[key]

    def shot(self, scenario: Scenario, positions: Mapping[str, Position], attacker: str,
             target: str, weapon: str | None, climbing: frozenset[str] = frozenset(),
             ids: bool = False) -> tuple[ShotOverlay, list[TextLine]]:
        """:func:`shot`, kept per board position."""
        key = (tuple(sorted(positions.items())), climbing, attacker, target, weapon, ids)
        hit = self._shots.get(key)
        if hit is None:
            if len(self._shots) >= SHOTS_KEPT:
                self._shots.clear()
            hit = _build_shot(scenario, positions, attacker, target, weapon, climbing, ids)
            self._shots[key] = hit
        return hit[0], list(hit[1])

    def sight_web(self, scenario: Scenario, positions: Mapping[str, Position],
                  climbing: frozenset[str] = frozenset()) -> tuple[tuple[Segment, bool], ...]:
        """:func:`sight_web`, kept per board position."""
        key = (tuple(sorted(positions.items())), climbing)
        if key not in self._webs:
            if len(self._webs) >= WEBS_KEPT:
                self._webs.clear()
            self._webs[key] = sight_web(scenario, positions, climbing)
        return self._webs[key]

    def reach_area(self, state: GameState | None, model: str, charge: bool = False
                   ) -> BaseGeometry | None:
        """:func:`reach_area`, kept while ``state`` is unchanged."""
        found = self.move_area(state, model, charge)
        return None if found is None else found.area

    def move_area(self, state: GameState | None, model: str, charge: bool = False
                  ) -> MoveArea | None:
        """:func:`move_area`, kept while ``state`` is unchanged (the shaded area and
        the paths a click on it takes)."""
        self.follow(state)
        if (model, charge) not in self._reach:
            self._reach[(model, charge)] = move_area(state, model, charge)
        return self._reach[(model, charge)]

    def reach_known(self, state: GameState | None, model: str, charge: bool = False) -> bool:
        """Whether :meth:`reach_area` has the answer already (it costs nothing then)."""
        if state is None or not state.model(model).in_play:
            return True
        self.follow(state)
        return (model, charge) in self._reach
