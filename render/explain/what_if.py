""""What if I stand here?": who could see a model at the hovered spot, and its cover.

While a model is selected (or active, no action being set up), hovering a free spot of
the board asks :func:`sim.shooting.analysis.analyse` of every enemy in play
against that model with its position replaced by the spot: the same
question a shot asks (R-LOS-1, R-COV-2..6), for a place it does not stand
on yet. Of those that see it, the ones that could SHOOT it there are named with
their best hit chance: a ranged weapon in range, the shot preview's odds
(:func:`sim.maps.threat.best_hit`, R-SHOOT-1, R-RANGE-1; issue 34). The base
stands at the lowest level it can at the spot
(:func:`sim.movement.levels.level_heights`), or at its own height when that
is one of them. :class:`WhatIf` keeps the answers per (engine state, model,
spot rounded to :data:`CELL` inches); the window's :class:`render.explain.show.Show`
owns it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Protocol

from render.draw.theme import TEXT_BAD, TEXT_DIM, TEXT_GOOD, TEXT_WARN
from render.draw.view import TextLine
from render.explain.answers import state_key
from render.explain.setup import Setup
from sim.combat.plan import ranged_weapons
from sim.combat.situation import Situation
from sim.engine.state import GameState
from sim.maps.threat import best_hit
from sim.movement.levels import level_heights, terrain_view
from sim.scenario.names import display_names
from sim.scenario.positions import Position
from sim.shooting.analysis import analyse

CELL = 0.25  # inches: the hover cell a spot is rounded to
KEPT = 512  # answers kept for one engine state (bounds memory)

Segment = tuple[tuple[float, float], tuple[float, float]]


class Pointing(Protocol):
    """What "what if" reads of the window's input state (render.input's controller
    offers it): the game, the set-up, the selection and the pointer."""

    @property
    def state(self) -> GameState | None: ...
    @property
    def setup(self) -> Setup | None: ...
    @property
    def selected(self) -> str | None: ...
    @property
    def hovered(self) -> str | None: ...
    @property
    def hover_point(self) -> tuple[float, float] | None: ...


@dataclass(frozen=True)
class Watcher:
    """An enemy that could see the spot: its sight segment and the cover the model would have."""

    model: str
    witness: Segment | None
    cover: tuple[str, ...]
    skill_modifier: int
    hit: Fraction = Fraction(0)  # its best chance to hit with a shot from where it stands
    weapon: str | None = None  # the weapon giving it (None: it cannot shoot the spot)


@dataclass(frozen=True)
class WhatIfAnswer:
    model: str
    spot: Position
    radius: float
    seen_by: tuple[Watcher, ...]
    hidden_from: tuple[str, ...]


def ask(state: GameState, model: str, x: float, y: float) -> WhatIfAnswer:
    """Who sees ``model`` standing at ``(x, y)``, and its cover against each (analyse())."""
    z = state.model(model).position.z
    levels = level_heights(terrain_view(state.scenario, model), (x, y), state.radius(model),
                           state.rules.touch_tolerance)
    if levels and not any(abs(z - h) < 1e-9 for h in levels):
        z = min(levels)
    spot = Position(x, y, z if levels else 0.0)
    positions = {**state.positions(), model: spot}
    climbing = frozenset(i for i in positions if i != model and state.model(i).climbing)
    sit = replace(Situation.of_state(state), positions=positions, climbing=climbing)
    me = state.model(model).side
    seen: list[Watcher] = []
    hidden: list[str] = []
    for other in positions:
        if other == model or state.model(other).side == me or other in climbing:
            continue
        a = analyse(state.scenario, positions, other, model, None, climbing)
        if a.line_of_sight:
            hit, weapon = best_shot(sit, other, model)
            seen.append(Watcher(other, a.sight.witness, tuple(a.cover), a.skill_modifier,
                                hit, weapon))
        else:
            hidden.append(other)
    return WhatIfAnswer(model, spot, state.radius(model), tuple(seen), tuple(hidden))


def best_shot(sit: Situation, attacker: str, target: str) -> tuple[Fraction, str | None]:
    """The attacker's best hit chance on the target over its ranged weapons, and the
    weapon (0 and None when no shot is legal: no ranged weapon, out of range)."""
    best: tuple[Fraction, str | None] = (Fraction(0), None)
    for w in ranged_weapons(sit.scenario, attacker):
        p = best_hit(sit, attacker, target, w)
        if p > best[0]:
            best = (p, w)
    return best


def lines(state: GameState, answer: WhatIfAnswer) -> list[TextLine]:
    """The answer in words, by display name (pieces by id)."""
    names = display_names(state.scenario)
    who = names.model(answer.model)
    out = [TextLine(f"What if {who} stood here ({answer.spot.x:.1f}, {answer.spot.y:.1f}"
                    + (f', {answer.spot.z:g}" up' if answer.spot.z else "") + "):")]
    if not answer.seen_by:
        out.append(TextLine("  seen by no enemy", TEXT_GOOD))
    shooters = sorted((w for w in answer.seen_by if w.weapon), key=lambda w: -w.hit)
    if answer.seen_by and not shooters:
        out.append(TextLine("  no enemy could shoot it here", TEXT_GOOD))
    for w in shooters:
        weapon = state.scenario.weapons[w.weapon].name if w.weapon else ""
        out.append(TextLine(f"  {names.model(w.model)} could shoot: {100 * float(w.hit):.1f}% "
                            f"to hit ({weapon})", TEXT_BAD))
    for w in answer.seen_by:
        cover = (f"cover {w.skill_modifier:+d} ({', '.join(map(names.model, w.cover))})"
                 if w.cover else "no cover")
        why = "" if w.weapon else ", cannot shoot it here"
        out.append(TextLine(f"  seen by {names.model(w.model)}: {cover}{why}",
                            TEXT_WARN if not w.cover else TEXT_DIM))
    if answer.hidden_from:
        out.append(TextLine(f"  hidden from {', '.join(map(names.model, answer.hidden_from))}",
                            TEXT_DIM))
    return out


def asker(c: Pointing, state: GameState) -> str | None:
    """The model the question is about: the selected one, else the active one.

    Not while an action is set up: a path being drawn shows its own ghost and
    ruler, and a drag must stay fast (bench/frame.py).
    """
    if c.setup is not None:
        return None
    if c.selected is not None and state.model(c.selected).in_play:
        return c.selected
    return state.activation.model if state.activation is not None else None


class WhatIf:
    """The "what if" answers of one window, kept per engine state (see the module docstring)."""

    def __init__(self) -> None:
        self._key: object = None
        self._answers: dict[tuple[str, int, int], WhatIfAnswer] = {}
        self.answer: WhatIfAnswer | None = None
        self.text: tuple[TextLine, ...] = ()

    def update(self, c: Pointing) -> None:
        state, point = c.state, c.hover_point
        model = None if state is None else asker(c, state)
        if state is None or model is None or point is None or c.hovered is not None or (
                not state.model(model).in_play):
            self.answer, self.text = None, ()
            return
        key = state_key(state)
        if key != self._key:
            self._key = key
            self._answers.clear()
        cell = (model, round(point[0] / CELL), round(point[1] / CELL))
        answer = self._answers.get(cell)
        if answer is None:
            if len(self._answers) >= KEPT:
                self._answers.clear()
            answer = ask(state, model, cell[1] * CELL, cell[2] * CELL)
            self._answers[cell] = answer
        if answer is not self.answer:
            self.answer, self.text = answer, tuple(lines(state, answer))
