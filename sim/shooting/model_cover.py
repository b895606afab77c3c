"""Other models in the way of a shot: huge bases that block sight (R-LOS-3) and bases
that give cover (R-LOS-2, R-COV-5, R-COV-6), for :mod:`sim.shooting.analysis`.

Both rules compare base sizes (mm, as the unit cards give them):

- a huge model blocks a sight line when its base is larger than the base of
  at least one of the two models; between two models whose bases are both at
  least its size it does not block (R-LOS-3, revised);
- a huge model, whatever its side (the attacker's own included), gives cover
  only to a target whose base is smaller than its own, unless that target is
  in close combat with it (R-COV-6, revised); other enemy and neutral models
  give cover by their base, the attacker's own side's never (R-COV-5).

Examples
--------
>>> blocks_sight(60.0, 30.0, 60.0), blocks_sight(60.0, 60.0, 60.0)
(True, False)
>>> gives_cover_by_size(60.0, 30.0), gives_cover_by_size(60.0, 60.0)
(True, False)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from geometry.cover.lines import CoverObject
from geometry.discs import Disc
from geometry.sight.index import Obstacle, Sight
from sim.movement.contact import contact_problem
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position
from sim.shooting.shot_analysis import (
    FRIENDLY,
    HUGE_IN_MELEE,
    HUGE_NOT_BLOCKING,
    HUGE_NOT_LARGER,
    IgnoredCover,
    Reason,
    ShotPair,
    huge_blocks_reason,
)

if TYPE_CHECKING:
    from sim.shooting.board import PreparedBoard


def blocks_sight(huge_mm: float, attacker_mm: float, target_mm: float) -> bool:
    """Whether a huge base blocks sight between these two bases (R-LOS-3): it is larger
    than at least one of them."""
    return huge_mm > attacker_mm or huge_mm > target_mm


def gives_cover_by_size(huge_mm: float, target_mm: float) -> bool:
    """Whether a huge base may give cover to this target (R-COV-6): the target's base is
    smaller."""
    return huge_mm > target_mm


def huge_blockers(board: PreparedBoard, positions: Mapping[str, Position], pair: ShotPair,
                  on_table: Sequence[tuple[str, Obstacle]] | None = None) -> list[Obstacle]:
    """Huge bases that block sight for this pair (R-LOS-3), in the order of the table.

    ``on_table`` (:func:`huge_on_table`) spares the look-up when many pairs share
    the positions.
    """
    if not board.huge:
        return []
    bases = board.base
    base_a, base_t = bases[pair.attacker], bases[pair.target]
    return [ob for mid, ob in (huge_on_table(board, positions) if on_table is None else on_table)
            if mid != pair.attacker and mid != pair.target and mid not in pair.off_table
            and blocks_sight(bases[mid], base_a, base_t)]


def huge_on_table(board: PreparedBoard, positions: Mapping[str, Position]
                  ) -> list[tuple[str, Obstacle]]:
    """Every huge model on the table with its base as a sight obstacle, in the order of
    the table (the order the sight query names them in)."""
    return [(mid, _huge_obstacle(board, mid, pos)) for mid, pos in positions.items()
            if mid in board.huge]


def _huge_obstacle(board: PreparedBoard, mid: str, pos: Position) -> Obstacle:
    """A huge base as a sight obstacle: the same object while the model stands still,
    so the sight index recognises it at once."""
    return board.huge_obstacles.get(
        (mid, pos.x, pos.y), lambda: Obstacle(mid, Disc(pos.x, pos.y, board.radius[mid])))


def huge_sight_reasons(board: PreparedBoard, pair: ShotPair, sight: Sight,
                       huge_on_line: tuple[str, ...]) -> tuple[Reason, ...]:
    """Why huge models block this pair's sight, or do not (R-LOS-3).

    Every huge model named as a blocker, and every huge model the line of cover
    passes whose base is not larger than either of the two.
    """
    if not board.huge:
        return ()
    bases = board.base
    base_a, base_t = bases[pair.attacker], bases[pair.target]
    out = [Reason(b, huge_blocks_reason(bases[b] > base_a, bases[b] > base_t))
           for b in sight.blocked_by if b in board.huge]
    out += [Reason(h, HUGE_NOT_BLOCKING) for h in huge_on_line
            if h not in sight.blocked_by and not blocks_sight(bases[h], base_a, base_t)]
    return tuple(out)


def _enters_base(a: Disc, t: Disc, other: Disc) -> bool:
    """Whether the centre-to-centre segment comes within ``other``'s radius of its centre."""
    dx, dy = t.x - a.x, t.y - a.y
    ll = dx * dx + dy * dy
    k = 0.0 if ll == 0 else max(0.0, min(1.0, ((other.x - a.x) * dx + (other.y - a.y) * dy) / ll))
    return math.hypot(a.x + k * dx - other.x, a.y + k * dy - other.y) < other.r


def model_cover(board: PreparedBoard, scenario: Scenario, positions: Mapping[str, Position],
                pair: ShotPair, discs: Mapping[str, Disc], entered: bool = False,
                made: dict[str, CoverObject] | None = None
                ) -> tuple[list[CoverObject], list[IgnoredCover], tuple[str, ...]]:
    """Other models' bases as cover objects (R-COV-5, R-COV-6), those ruled out, and
    the huge models whose base the line of cover enters (for :func:`huge_sight_reasons`).

    Enemy and neutral normal models give cover by their base; the attacker's
    own side's never do (R-COV-5); the target itself never does; a climbing
    model is off the table and gives none (R-CLIMB-3). A huge model, whatever
    its side, the attacker's own included, gives cover to a target whose base
    is smaller than its own (R-COV-6, revised), and none to a model it is in
    close combat with: one not of its side in base contact with it
    (:mod:`sim.movement.contact`); a huge friend of the target still does.
    ``entered``: the caller passes only bases the LoC enters (found by
    :func:`geometry.cover.filters.bases_entered`, the same test compiled).
    ``made`` keeps each base's cover object for the next pair of a fan (the bases
    stand still within one call).
    """
    objects: list[CoverObject] = []
    ruled_out: list[IgnoredCover] = []
    huge_on_line: list[str] = []
    a, t = pair.a, pair.t
    x0, x1, y0, y1 = min(a.x, t.x), max(a.x, t.x), min(a.y, t.y), max(a.y, t.y)
    for mid, disc in discs.items():
        if mid == pair.attacker or mid == pair.target or mid in pair.off_table:
            continue
        if not entered:
            r = disc.r  # outside the centre line's box grown by its radius: not entered
            if disc.x + r < x0 or disc.x - r > x1 or disc.y + r < y0 or disc.y - r > y1:
                continue
            if not _enters_base(a, t, disc):
                continue  # the LoC does not enter this base
        huge = mid in board.huge
        if huge:
            huge_on_line.append(mid)
        why = (_huge_ruled_out(board, scenario, positions, pair, mid) if huge
               else FRIENDLY if board.side[mid] == pair.side_a else None)
        if why is not None:
            ruled_out.append(IgnoredCover(mid, why))
        elif made is None:
            objects.append(CoverObject(mid, disc))
        else:
            obj = made.get(mid)
            if obj is None:
                obj = made[mid] = CoverObject(mid, disc)
            objects.append(obj)
    return objects, ruled_out, tuple(huge_on_line)


def _huge_ruled_out(board: PreparedBoard, scenario: Scenario,
                    positions: Mapping[str, Position], pair: ShotPair, mid: str) -> str | None:
    """Why huge model ``mid`` gives the target no cover, or None when it does (R-COV-6,
    revised): whatever its side, the attacker's own included, it covers a smaller
    target that is not in close combat with it."""
    if not gives_cover_by_size(board.base[mid], board.base[pair.target]):
        return HUGE_NOT_LARGER
    if _in_melee(board, scenario, positions, pair, mid):
        return HUGE_IN_MELEE
    return None


def _in_melee(board: PreparedBoard, scenario: Scenario, positions: Mapping[str, Position],
              pair: ShotPair, mid: str) -> bool:
    """Whether model ``mid`` is in close combat with the target (R-COV-6): not of its
    side, and in base contact with it."""
    if board.side[mid] == board.side[pair.target]:
        return False
    return contact_problem(scenario.rules_data, mid, positions[mid], board.radius[mid],
                           pair.target, positions[pair.target], board.radius[pair.target],
                           pair.target in pair.off_table) is None
