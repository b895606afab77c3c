"""The visibility maps in the window (issue 17, F5; docs/maps.md, docs/window.md).

F5 cycles the map shaded over the board: off, ``seen`` (how many enemies would
see the model's base there), ``threat`` (the best enemy hit chance there),
``sees`` (from where it would see the target), off. The map is of the model
the player works with: the model of the action being set up, else the
activated model, else the model hovered or selected when F5 turned the maps
on (in the debug view: the first model picked). A ``sees`` map's target is the model
hovered when F5 reached ``sees``, else the debug view's second pick or the
set-up's target, else the first enemy on the table.

:class:`MapToggle` owns the choice and the map last computed, kept by what it
depends on (the model, the kind, the target and where every model stands), so
the map is computed again only when one of those changes: after any move,
undo or load. A ``seen`` or ``sees`` map takes under 0.3 s (bench/maps.py), so
it is simply computed on the change; a threat map plans a shot per cell (seconds), so its
cells are planned off the frame loop (render.input.map_thread) and drawn as they
fill in, while Details counts the work done. Hovering a cell names the enemies that see it (or could
shoot it, with their chances). The values drawn are
:func:`sim.maps.visibility.make_map`'s, unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Protocol

from render.draw.theme import TEXT_DIM, TEXT_WARN
from render.draw.view import Overlay, TextLine
from render.explain.what_if import Pointing
from render.input.map_thread import MapThread
from render.map_layer import MapOverlay
from render.scene import Scene
from sim.errors import WastelandError
from sim.maps.visibility import KINDS, Map, MapWork, check_request, enemies_of
from sim.scenario.names import model_name
from sim.scenario.objects import Scenario

COMMAND = "map"  # the controller command F5 sends
CYCLE: tuple[str | None, ...] = (None, *KINDS)  # off, seen, threat, sees
WHAT = {"seen": "how many enemies would see it there",
        "threat": "the best hit chance an enemy would have on it there",
        "sees": "from where it would see {target}"}


class MapAsks(Pointing, Protocol):
    """What the map reads of the window's state (the controller has it): what "what
    if" reads, the scenario and the debug picks."""

    @property
    def scenario(self) -> Scenario: ...
    @property
    def debug(self) -> bool: ...
    @property
    def debug_picks(self) -> Sequence[str]: ...


class MapToggle:
    """Which map the window shows, and the last one computed (see the module)."""

    def __init__(self) -> None:
        self.kind: str | None = None
        self.pinned: str | None = None  # the model chosen when F5 was pressed
        self.target: str | None = None  # a ``sees`` map's target
        self.target_for: str | None = None  # the model it was chosen for (issue 34, bug 4)
        # The map's thread (every kind: a seen map too holds a frame for 0.1-0.5 s) or
        # why there is none, by what it depends on.
        self._cache: tuple[object, MapThread | str] | None = None
        self._started = 0  # maps started: part of the view's key

    def key(self, hover_point: tuple[float, float] | None) -> object:
        """What the picture of the map depends on besides the engine state: the choice
        and, while a map shows, the cell under the pointer and the chunks of a threat map
        drawn so far (so each chunk redraws, wherever the pointer is: bug 1)."""
        if self.kind is None:
            return None
        work = None if self._cache is None else self._cache[1]
        m = _drawn(work)
        cell = None
        if hover_point is not None and m is not None:
            g = m.grid
            cell = (round((hover_point[0] - g.x0) / g.cell), round((hover_point[1] - g.y0)
                                                                    / g.cell))
        chunks = (work.shown, work.result is not None) if isinstance(work, MapThread) else None
        # (the maps made so far too: the view's key is taken before its map is started, and
        # a new map's chunks may match the old one's, so its picture would never be drawn)
        return self.kind, self.pinned, self.target, cell, self._started, chunks

    @property
    def busy(self) -> bool:
        """Whether a map is being worked out (the window draws fewer frames)."""
        work = None if self._cache is None else self._cache[1]
        return isinstance(work, MapThread) and not work.wait(0)

    def cycle(self, v: MapAsks, scene: Scene) -> str:
        """F5: the next kind (the model and the target chosen as the module says); the
        status bar's text."""
        before = self.kind
        self.kind = CYCLE[(CYCLE.index(self.kind) + 1) % len(CYCLE)]
        if self.kind is None:
            self._drop()
            return "map off (F5: the seen map)"
        if before is None or self.pinned is None:  # the next kinds keep the model
            self.pinned = _focus(v) or v.selected or v.hovered or self.pinned
        model = self.model(v)
        if self.kind == "sees" and model is not None:
            self.target, self.target_for = _target(v, scene, model), model
        if model is None:
            return f"{self.kind} map: choose a model first (activate, hover or select one)"
        return f"{self.kind} map of {_name(v, model)} (F5: next map)"

    def model(self, v: MapAsks) -> str | None:
        """The model the map is of now."""
        return _focus(v) or self.pinned

    def map_of(self, v: MapAsks, scene: Scene) -> MapThread | str | None:
        """The map to show (started in its thread when what it depends on changed), why
        there is none (a sentence), or None when the maps are off."""
        model = self.model(v)
        if self.kind is None:
            return None
        if model is None:
            return "no model chosen: activate, hover or select one and press F5"
        target = self.target if self.kind == "sees" else None
        positions, climbing = scene.positions(), scene.climbing()
        if self.kind == "sees" and (target is None or target == model or self.target_for != model
                                    or target not in positions):  # (taken out of play)
            # A new model (the turn passed) chooses anew: the old target may be its friend.
            target = self.target = _target(v, scene, model)
            self.target_for = model
        key = (model, self.kind, target, tuple(sorted(positions.items())), climbing)
        if self._cache is None or self._cache[0] != key:
            self._drop()
            try:
                check_request(scene.scenario, positions, model, self.kind, target)
                self._started += 1
                found: MapThread | str = MapThread(partial(
                    MapWork, scene.scenario, positions, model, self.kind, target,
                    climbing=climbing))
            except WastelandError as exc:
                found = f"no {self.kind} map: {exc}"
            self._cache = (key, found)
        return self._cache[1]

    def _drop(self) -> None:
        """Forget the map (a map being made stops)."""
        if self._cache is not None and isinstance(self._cache[1], MapThread):
            self._cache[1].cancel()
        self._cache = None

    def shown(self, v: MapAsks, scene: Scene, overlays: Sequence[Overlay],
              lines: Sequence[TextLine]) -> tuple[list[Overlay], list[TextLine]]:
        """``overlays`` and Details ``lines`` with the map: its shading under the other
        overlays, its title and the hovered cell's answer first in Details."""
        work = self.map_of(v, scene)
        if work is None:
            return list(overlays), list(lines)
        if isinstance(work, str):
            return list(overlays), [TextLine(f"F5 map: {work}", TEXT_WARN), *lines]
        m = work.result
        if m is None:
            line = TextLine(f"F5 {self.kind} map: computing, {100 * work.progress:.0f}% "
                            "(drawn as it fills in)", TEXT_WARN)
            so_far = [] if work.partial is None else [MapOverlay(work.partial)]
            return [*so_far, *overlays], [line, *lines]
        target = _name(v, m.target) if m.target else None
        return [MapOverlay(m, target, _hovered_base(v, m)), *overlays], [*map_lines(v, m),
                                                                        *lines]

    def settle(self) -> None:
        """Wait for a map being made (for a still picture)."""
        work = None if self._cache is None else self._cache[1]
        if self.kind is not None and isinstance(work, MapThread):
            work.wait()


def _drawn(work: MapThread | str | None) -> Map | None:
    """The map drawn now: the whole map, else a threat map's cells so far."""
    if isinstance(work, MapThread):
        return work.result or work.partial
    return None


def map_lines(v: MapAsks, m: Map) -> list[TextLine]:
    """The map's title, and what the hovered cell's value is made of."""
    what = WHAT[m.kind].format(target=_name(v, m.target) if m.target else "")
    out = [TextLine(f"F5 {m.kind} map of {_name(v, m.model)}: {what}", TEXT_WARN)]
    point = v.hover_point
    if point is None:
        return [*out, TextLine("hover a cell: who sees it", TEXT_DIM)]
    value = m.at(*point)
    if value is None:
        return [*out, TextLine("here: the base cannot stand (or off the map)", TEXT_DIM)]
    who = m.who(*point)
    if m.kind == "sees":
        word = "would see" if value else "would not see"
        return [*out, TextLine(f"here: {word} {_name(v, m.target or '')}")]
    if m.kind == "seen":
        names = ", ".join(_name(v, e) for e, _ in who) or "no enemy"
        return [*out, TextLine(f"here: seen by {len(who)}: {names}")]
    if not who:
        return [*out, TextLine("here: no enemy can shoot it")]
    parts = ", ".join(f"{_name(v, e)} {100 * p:.1f}%" for e, p in who)
    return [*out, TextLine(f"here: best hit {100 * float(value):.1f}%: {parts}")]


def _hovered_base(v: MapAsks, m: Map) -> tuple[float, float, float] | None:
    """The model's base on the hovered cell, where it can stand (ringed on the board)."""
    if v.hover_point is None or m.at(*v.hover_point) is None:
        return None
    g = m.grid
    col = round((v.hover_point[0] - g.x0) / g.cell)
    row = round((v.hover_point[1] - g.y0) / g.cell)
    return g.x0 + col * g.cell, g.y0 + row * g.cell, v.scenario.radius_of(m.model)


def _focus(v: MapAsks) -> str | None:
    """The model the player works with now, if any (set-up, activation, debug pick)."""
    if v.debug:
        return v.debug_picks[0] if v.debug_picks else None
    if v.setup is not None:
        return v.setup.model
    if v.state is not None and v.state.activation is not None:
        return v.state.activation.model
    return None


def _target(v: MapAsks, scene: Scene, model: str) -> str | None:
    """A ``sees`` map's target (see the module)."""
    on_table = scene.positions()
    picks = [*([v.hovered] if v.hovered else []), *v.debug_picks[1:2],
             *([v.setup.target] if v.setup is not None and v.setup.target else [])]
    for pick in picks:
        if pick != model and pick in on_table:
            return pick
    others = {m: p for m, p in on_table.items() if m != model}
    enemies = enemies_of(scene.scenario, others, model) if model in v.scenario.model_ids else ()
    return enemies[0] if enemies else None


def _name(v: MapAsks, model: str) -> str:
    """Display names; ids in the debug view (its convention)."""
    return model if v.debug else model_name(v.scenario, model)
