"""The line of cover between two bases (R-COV-1, R-COV-2, R-COV-4).

The line of cover (LoC) runs from the centre of the attacker's base to the
centre of the target's base (R-COV-1). For each cover object this module
says, exactly and with no knowledge of sides or rule sets:

- whether the LoC *enters* the object (meets its interior; merely grazing a
  corner or running along an edge does not count),
- whether it *passes completely through* it (some stretch of the LoC inside
  the object both enters and exits it, so neither centre lies in that
  stretch) (R-COV-2),
- whether the object touches the attacker's base (gap at most the touch
  tolerance, R-UNIT-2), which makes it ignored (R-COV-2, R-COV-4).

Whether an object so met gives cover is the rules' business, decided in one
place (:func:`sim.shooting.cover_count.gives_cover`). The game asks
:class:`geometry.cover.table.CoverTable` directly (a table per board, kept by the
shot glue); this module answers one call's lines with a table of their own.

Examples
--------
>>> import shapely
>>> crate = CoverObject("crate", shapely.box(4, -1, 5, 1))
>>> loc = line_of_cover(Disc(0, 0, 0.6), Disc(10, 0, 0.6), [crate], touch_tolerance=0.01)
>>> hit = loc.hit("crate")
>>> hit.enters, hit.passes_through, hit.touches_attacker
(True, True, False)
"""


from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from geometry.cover.objects import EPS, CoverObject
from geometry.cover.table import CoverTable, Flags
from geometry.discs import Disc

__all__ = ["EPS", "CoverHit", "CoverObject", "LineOfCover", "line_of_cover", "lines_of_cover"]


@dataclass(frozen=True)
class CoverHit:
    """How the line of cover meets one object."""

    id: str
    area: bool
    enters: bool
    passes_through: bool
    touches_attacker: bool

    def __str__(self) -> str:
        if self.passes_through:
            met = "the line of cover passes through it"
        elif self.enters:
            met = "the line of cover enters it but does not pass through"
        else:
            met = "the line of cover does not enter it"
        return f"{self.id}: {met}" + (", touching the attacker's base"
                                      if self.touches_attacker else "")


@dataclass(frozen=True)
class LineOfCover:
    """The LoC from centre to centre and how it meets each object offered."""

    start: tuple[float, float]
    end: tuple[float, float]
    hits: tuple[CoverHit, ...]

    def hit(self, object_id: str) -> CoverHit:
        for h in self.hits:
            if h.id == object_id:
                return h
        raise KeyError(object_id)

    def __str__(self) -> str:
        met = [h for h in self.hits if h.enters]
        if not met:
            return "the line of cover meets no cover object"
        return "line of cover: " + "; ".join(str(h) for h in met)


def line_of_cover(
    attacker: Disc,
    target: Disc,
    objects: Iterable[CoverObject],
    touch_tolerance: float,
) -> LineOfCover:
    """How the centre-to-centre line meets each object (R-COV-1, R-COV-2, R-COV-4).

    ``touch_tolerance`` is the rules' touching distance (R-UNIT-2): an object
    at most that far from the attacker's base touches it.
    """
    return lines_of_cover([(attacker, target)], [list(objects)], touch_tolerance)[0]


def lines_of_cover(lines: Sequence[tuple[Disc, Disc]],
                   objects: Sequence[Sequence[CoverObject]],
                   touch_tolerance: float) -> list[LineOfCover]:
    """:func:`line_of_cover` for many (attacker, target) lines at once, ``objects[i]``
    offered to line ``i``.

    Polygons are tested in plain floats against their outlines, in one compiled
    call; the rare near-degenerate combinations go to Shapely's predicates
    (:class:`geometry.cover.table.CoverTable`, built here for this call; a caller
    with the same objects call after call keeps its own table).
    """
    table = CoverTable([obj for objs in objects for obj in objs])
    offered, k = [], 0
    for objs in objects:
        offered.append(range(k, k + len(objs)))
        k += len(objs)
    return [hits_of(a, b, objs, flags) for (a, b), objs, flags in
            zip(lines, objects, table.flags(lines, offered, touch_tolerance), strict=True)]


def hits_of(attacker: Disc, target: Disc, objects: Sequence[CoverObject],
            flags: Sequence[Flags]) -> LineOfCover:
    """The :class:`LineOfCover` of one line, from the flags of each object offered."""
    return LineOfCover((attacker.x, attacker.y), (target.x, target.y),
                       tuple(CoverHit(o.id, o.area, *f)
                             for o, f in zip(objects, flags, strict=True)))
