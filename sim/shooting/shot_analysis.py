"""What :func:`sim.shooting.analysis.analyse` answers for one shot, and the words for why
(R-LOS-*, R-COV-*, R-ELEV-*).

:class:`ShotAnalysis` is the immutable answer the engine, ``wasteland los`` and
the window all read; every reason it carries is one of the strings below (or
one built here), with its rule id, so the CLI and the window explain a shot
in the same words. :class:`ShotPair` is the two models of a shot as the rules
glue sees them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from geometry.cover.lines import CoverObject
from geometry.discs import Disc
from geometry.sight.index import Sight
from sim.shooting.elevation_rules import NOT_ELEVATED, Elevated

if TYPE_CHECKING:
    from sim.shooting.board import PreparedBoard

# Reasons an object the line of cover meets gives no cover (``ignored_cover``).
FRIENDLY = "friendly model (R-COV-5)"
TOUCHES_ATTACKER = "touches the attacker's base (R-COV-2)"
HUGE_IN_MELEE = "huge model in base contact with the target (R-COV-6)"
HUGE_NOT_LARGER = "huge model, not larger than the target: no cover (R-COV-6)"
ENTERS_ONLY = "the line of cover enters it but does not pass through (R-COV-2)"

# Reasons a counted object counts (``cover_reasons``).
MODEL_COVER = "an enemy or neutral base the line of cover passes through (R-COV-5)"
HUGE_COVER = "huge model, larger than the target: cover (R-COV-6)"
EDGE_COVER = "a significant edge within Orange of the elevated target (R-ELEV-3)"
HIGH_EDGE = ("; Orange or more above the attacker's base, so it does not touch it "
             "(R-COV-2)")
AREA_COVER = "area terrain the line of cover enters (R-COV-4)"
PASSES_THROUGH = "the line of cover passes through it (R-COV-2)"

# Reasons a huge model blocks sight or does not (``sight_reasons``, R-LOS-3).
HUGE_NOT_BLOCKING = "huge model, not larger than either base: does not block sight (R-LOS-3)"


def huge_blocks_reason(larger_than_attacker: bool, larger_than_target: bool) -> str:
    """Why a huge model blocks sight: its base is larger than one of the two (R-LOS-3)."""
    whose = ("both bases" if larger_than_attacker and larger_than_target
             else "the attacker's base" if larger_than_attacker else "the target's base")
    return f"huge model, larger than {whose}: blocks sight (R-LOS-3)"


def cover_reasons(board: PreparedBoard, objects: Sequence[CoverObject],
                  cover: Sequence[str], high_edges: Collection[str]) -> tuple[str, ...]:
    """Why each counted cover object counts, in the order of ``cover``: an enemy or
    neutral base (R-COV-5), a huge one larger than the target (R-COV-6), a
    significant edge (R-ELEV-3; one over the attacker's base that is too high to
    touch it, R-COV-2), area terrain (R-COV-4), or a piece passed through (R-COV-2)."""
    area = {o.id for o in objects if o.area}
    return tuple(cover_reason(board, c, c in area, high_edges) for c in cover)


def cover_reason(board: PreparedBoard, c: str, area: bool,
                 high_edges: Collection[str] = ()) -> str:
    """Why one counted object ``c`` counts (:func:`cover_reasons`; ``area``: it is area
    terrain for the pair)."""
    if c in board.side:
        return HUGE_COVER if c in board.huge else MODEL_COVER
    if c in high_edges:
        return EDGE_COVER + HIGH_EDGE
    if c not in board.piece_ids:
        return EDGE_COVER
    return AREA_COVER if area else PASSES_THROUGH


class Reason(NamedTuple):
    """An object the shot meets (a piece, an edge, a model) and why it counts or not.

    (A named tuple: a fan of shots builds many, and a frozen dataclass is slower.)
    """

    id: str
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"id": self.id, "reason": self.reason}


IgnoredCover = Reason  # an object the line of cover meets that gives no cover, and why


class ShotPair(NamedTuple):
    """The two models of a shot as the rules see them (a named tuple: maps build one
    per cell)."""

    attacker: str
    target: str
    a: Disc
    t: Disc
    z_a: float
    z_t: float
    side_a: str
    # Climbing models (R-CLIMB-3): off the table, so they neither block nor
    # give cover, though they can shoot and be shot at their marker.
    off_table: frozenset[str] = frozenset()


class ShotAnalysis(NamedTuple):
    """Sight, cover and range from one model to another (immutable).

    A named tuple rather than a frozen dataclass: one model against twenty
    targets builds twenty of these, and a frozen dataclass takes four times as
    long to build (``bench/sight.py``).

    ``bands`` and ``in_range`` are None when no weapon was given.
    ``cover_reasons`` says, for each entry of ``cover`` in order, why it
    counts; ``sight_reasons`` says why each huge model on the way blocks
    sight or does not (R-LOS-3).
    """

    attacker: str
    target: str
    weapon: str | None
    rule_set: str
    sight: Sight
    cover: tuple[str, ...]
    ignored_cover: tuple[IgnoredCover, ...]
    skill_modifier: int
    armor_bonus: int
    armor_boost: int
    distance: float
    bands: tuple[str, ...] | None
    in_range: bool | None
    elevated: Elevated = NOT_ELEVATED  # R-ELEV-1
    cover_reasons: tuple[str, ...] = ()
    sight_reasons: tuple[Reason, ...] = ()

    @property
    def line_of_sight(self) -> bool:
        return self.sight.visible

    @property
    def in_cover(self) -> bool:
        return bool(self.cover)

    @property
    def counted_cover(self) -> tuple[Reason, ...]:
        """Each counted cover object with why it counts."""
        return tuple(Reason(c, r) for c, r in zip(self.cover, self.cover_reasons, strict=False))

    def to_json(self) -> dict[str, Any]:
        """The ``wasteland los --json`` object (issue 3 keys)."""
        w = self.sight.witness
        return {
            "line_of_sight": self.sight.visible,
            "sight_line": [list(w[0]), list(w[1])] if w is not None else None,
            "blocked_by": list(self.sight.blocked_by),
            "cover": list(self.cover),
            "ignored_cover": [i.to_json() for i in self.ignored_cover],
            "skill_modifier": self.skill_modifier,
            "armor_bonus": self.armor_bonus,
            "armor_boost": self.armor_boost,
            "distance": self.distance,
            "bands": list(self.bands) if self.bands is not None else None,
            "in_range": self.in_range,
            "elevated": self.elevated.to_json(),
        }

    def __str__(self) -> str:
        head = f"{self.attacker} -> {self.target}" + (f" with {self.weapon}" if self.weapon else "")
        lines = [head + ":", f"  {self.sight}"]
        lines += [f"  sight: {s.id}: {s.reason}" for s in self.sight_reasons]
        if self.elevated.attacker or self.elevated.target:
            who = self.attacker if self.elevated.attacker else self.target
            lines.append(f"  {who} is elevated (R-ELEV-1)")
        if self.cover:
            lines.append(f"  cover: {', '.join(self.cover)} (skill {self.skill_modifier:+d}, "
                         + (f"armor +{self.armor_bonus}" if self.armor_bonus
                            else f"{self.armor_boost} Armor Boost") + f", {self.rule_set})")
        else:
            lines.append("  no cover")
        lines += [f"  counts: {c.id}: {c.reason}" for c in self.counted_cover]
        for ig in self.ignored_cover:
            lines.append(f"  ignored: {ig.id}: {ig.reason}")
        where = f"  distance {self.distance:.2f} in (base edge to base edge)"
        if self.bands is not None:
            where += ": " + (" and ".join(self.bands) + " range" if self.bands else "out of range")
        lines.append(where)
        return "\n".join(lines)
