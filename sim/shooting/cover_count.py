"""Which cover objects the line of cover meets give cover (R-COV-2, R-COV-4): the one
count, for every shot the engine, the CLI, the window, the maps and the AI ask about.

The geometry (:mod:`geometry.cover`) says how the line of cover meets each object:
whether it enters it, passes completely through it, and whether the object
touches the attacker's base, as bits of :meth:`geometry.cover.table.CoverTable.hits`.
This module turns those into the rule: an object gives cover when the LoC passes
through it, or merely enters it when it is area terrain (R-COV-4), and it does not
touch the attacker's base (R-COV-2). Which objects are offered (which models,
R-COV-5 and R-COV-6; which pieces, R-TER-2) and what elevation changes
(R-ELEV-3, R-ELEV-4) are decided around it in :mod:`sim.shooting.analysis`.

Examples
--------
>>> from geometry.cover.kernel import ENTERS, PASSES, TOUCHES
>>> gives_cover(ENTERS | PASSES, area=False), gives_cover(ENTERS, area=False)
(True, False)
>>> gives_cover(ENTERS, area=True), gives_cover(ENTERS | PASSES | TOUCHES, area=False)
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from geometry.cover.kernel import ENTERS, PASSES, TOUCHES
from geometry.cover.objects import CoverObject
from sim.shooting.shot_analysis import ENTERS_ONLY, TOUCHES_ATTACKER, IgnoredCover


def gives_cover(code: int, area: bool) -> bool:
    """Whether an object the line of cover meets as ``code`` (bits ``ENTERS``, ``PASSES``,
    ``TOUCHES``) gives cover: passed through, or entered when it is area terrain
    (R-COV-4), and not touching the attacker's base (R-COV-2)."""
    return not code & TOUCHES and bool(code & PASSES or (area and code & ENTERS))


def count_cover(objects: Sequence[CoverObject], codes: Sequence[int],
                ruled_out: Iterable[IgnoredCover] = ()
                ) -> tuple[tuple[str, ...], tuple[IgnoredCover, ...]]:
    """The ids of the objects that give cover (:func:`gives_cover`), in the order
    offered, and those the LoC enters that do not, with why: after ``ruled_out``
    (models R-COV-5 and R-COV-6 rule out before the geometry is asked), touching
    the attacker (R-COV-2) or entered but not passed through (R-COV-2).

    ``codes[i]`` is how the LoC meets ``objects[i]``; an object it does not enter
    is not listed at all.
    """
    counted: list[str] = []
    ignored = list(ruled_out)
    for obj, code in zip(objects, codes, strict=True):
        if not code & ENTERS:  # (an object the LoC passes through is entered)
            continue
        if gives_cover(code, obj.area):
            counted.append(obj.id)
        else:
            ignored.append(IgnoredCover(obj.id, TOUCHES_ATTACKER if code & TOUCHES
                                        else ENTERS_ONLY))
    return tuple(counted), tuple(ignored)
