"""The measuring tape (issue 34): from any point or base edge to any other.

As at the table, a tape laid from a model measures from the edge of its base
(R-DIST-1: the distance between two bases is between their closest points,
:func:`geometry.discs.gap`); laid from an empty spot, from that spot. The
length is given with the shortest ruler that reaches it (R-RULER-1:
:meth:`sim.scenario.rules.RulesData.ruler_within`), drawn in that ruler's colour.
The tape measures on the table's plane: heights are not added.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from geometry.discs import Disc, gap
from render.draw.models import model_at
from render.draw.tape import TapeOverlay
from render.draw.theme import RULER_RGB, TEXT_DIM
from render.draw.view import TextLine
from render.scene import Scene
from sim.scenario.names import model_name

Xy = tuple[float, float]
BEYOND = (235, 235, 235)  # a length beyond every ruler: no ruler's colour


@dataclass(frozen=True)
class Tape:
    """One measure: where the tape lies, its length and the ruler that reaches it."""

    start: Xy
    end: Xy
    length: float
    ruler: str | None  # None: longer than every ruler
    ends: tuple[str | None, str | None]  # the models measured from and to (None: a spot)

    def text(self, scene: Scene) -> str:
        """``'3.42 in (yellow), Knight to Super Mutant'``."""
        names = [model_name(scene.scenario, m) if m else "a spot" for m in self.ends]
        ruler = self.ruler or "beyond every ruler"
        length = "in contact" if self.length <= 0 and all(self.ends) else f"{self.length:.2f} in"
        return f"tape: {length} ({ruler}), {names[0]} to {names[1]}"


def measure(scene: Scene, a: Xy, b: Xy) -> Tape:
    """The tape from ``a`` to ``b`` (board inches): from a base's edge when the point is
    on a base (its own ends both on one base: the centre to the spot)."""
    ma, mb = model_at(scene, *a), model_at(scene, *b)
    if ma is not None and ma == mb:
        mb = None
    da, db = _disc(scene, ma, a), _disc(scene, mb, b)
    d = math.hypot(db.x - da.x, db.y - da.y)
    ux, uy = ((db.x - da.x) / d, (db.y - da.y) / d) if d > 0 else (0.0, 0.0)
    length = max(0.0, gap(da, db))
    start = (da.x + ux * da.r, da.y + uy * da.r)
    end = (db.x - ux * db.r, db.y - uy * db.r)
    return Tape(start, end, length, scene.scenario.rules_data.ruler_within(length), (ma, mb))


def _disc(scene: Scene, model: str | None, p: Xy) -> Disc:
    if model is None:
        return Disc(p[0], p[1], 0.0)
    m = scene.model(model)
    return Disc(m.x, m.y, m.radius)


def shown(scene: Scene, tape: tuple[Xy, Xy] | None) -> tuple[list[TapeOverlay], list[TextLine]]:
    """The tape's overlay and its Details line (nothing when no tape is laid)."""
    if tape is None:
        return [], []
    t = measure(scene, *tape)
    colour = RULER_RGB.get(t.ruler, BEYOND) if t.ruler else BEYOND
    text = t.text(scene)
    label = text.removeprefix("tape: ").split(",")[0]
    return [TapeOverlay(t.start, t.end, colour, label)], [
        TextLine(text), TextLine("right drag: lay the tape again; right click or Esc: "
                                 "put it away", TEXT_DIM)]
