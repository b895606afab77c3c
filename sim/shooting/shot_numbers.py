"""The numbers of one shot whose sight and cover objects are known (R-COV-3, R-RANGE-1,
R-ELEV-3, R-ELEV-4): how many objects count as cover, the skill and armor terms, range
bands and the reasons, per pair of :func:`sim.shooting.analysis.analyse`."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from geometry.cover.objects import CoverObject
from geometry.ranges import bands_at
from geometry.sight.index import Sight
from sim.scenario.objects import Scenario
from sim.scenario.prepared import Part
from sim.shooting.board import PreparedBoard
from sim.shooting.cover_count import count_cover
from sim.shooting.elevation_rules import FAR_FROM_TARGET, Elevated
from sim.shooting.model_cover import huge_sight_reasons
from sim.shooting.shot_analysis import IgnoredCover, ShotAnalysis, ShotPair, cover_reasons
from sim.shooting.weapon_range import rulers

_new = tuple.__new__


def elevation_cover(board: PreparedBoard, pair: ShotPair, objects: Sequence[CoverObject],
                    cover: tuple[str, ...], ignored: tuple[IgnoredCover, ...],
                    elevated: Elevated | None = None
                    ) -> tuple[tuple[str, ...], tuple[IgnoredCover, ...], tuple[str, ...]]:
    """Cover as elevation changes it (R-ELEV-3, R-ELEV-4), and the counted edges that
    lie over the attacker's base but Orange or more above it (R-COV-2 Decision).

    An elevated attacker counts only cover within Orange of the target; shot
    at an elevated target, significant edges near it count, once each.
    ``elevated``: the pair's :class:`Elevated`, when the caller knows it.
    """
    elev = board.elevation
    if elevated is None:
        elevated = elev.elevated(pair.z_a, pair.z_t)
    # At most one model is elevated (Orange > 0), so one rule applies: R-ELEV-4 filters
    # an elevated attacker's cover, R-ELEV-3 adds edges near an elevated target.
    if elevated.attacker:
        if not cover:
            return cover, ignored, ()
        shapes = {o.id: o.shape for o in objects}
        far = elev.far_cover(pair.z_a, pair.z_t, pair.t, [(c, shapes[c]) for c in cover])
        if not far:
            return cover, ignored, ()
        return (tuple(c for c in cover if c not in far),
                (*ignored, *(IgnoredCover(c, FAR_FROM_TARGET) for c in cover if c in far)), ())
    if elevated.target:
        counted, lost, high = elev.edge_cover(pair.a, pair.z_a, pair.t, pair.z_t)
        if lost:  # (each an (id, reason) pair: the named tuple's fields in order)
            ignored = (*ignored, *[_new(IgnoredCover, e) for e in lost])
        return (cover + counted if counted else cover), ignored, high
    return cover, ignored, ()  # R-ELEV-3 and R-ELEV-4 need an elevated model


@dataclass(frozen=True)
class ShotTerms:
    """What the rule set and the weapon make of every shot of one call: the cover
    numbers (R-COV-3) and the weapon's rulers (R-RANGE-1)."""

    weapon: str | None
    rule_set: str
    cover_modifier: int
    armor_bonus: int  # for a target in cover under the rulebook (R-COV-3)
    armor_boost: int  # for a target in cover under the other rule sets
    short: float
    long: float | None

    @staticmethod
    def of(scenario: Scenario, weapon_id: str | None) -> ShotTerms:
        rules = scenario.rules_data
        rulebook = scenario.rules == "rulebook"
        short, long = (0.0, None) if weapon_id is None else rulers(rules,
                                                                     scenario.weapons[weapon_id])
        return ShotTerms(weapon_id, scenario.rules, rules.cover_modifier,
                         rules.cover_armor_bonus if rulebook else 0,
                         0 if rulebook else rules.cover_armor_boost, short, long)


#: Each weapon's :class:`ShotTerms` (None: no weapon), built once per scenario.
SHOT_TERMS: Part[dict[str | None, ShotTerms]] = Part("shot terms", lambda scenario: {})


def terms_of(scenario: Scenario, weapon_id: str | None) -> ShotTerms:
    known = scenario.prepared.get(SHOT_TERMS)
    terms = known.get(weapon_id)
    if terms is None:
        terms = known[weapon_id] = ShotTerms.of(scenario, weapon_id)
    return terms


def shot(board: PreparedBoard, terms: ShotTerms, pair: ShotPair, sight: Sight,
         elevated: Elevated, objects: Sequence[CoverObject], flags: Sequence[int],
         ruled_out: list[IgnoredCover], huge_on_line: tuple[str, ...]) -> ShotAnalysis:
    """The shot's numbers, and the reasons, for one pair whose sight and how its line
    of cover meets each object (``flags``: bits of ``CoverTable.hits``) are known."""
    cover, ignored = (count_cover(objects, flags, ruled_out) if objects
                      else ((), tuple(ruled_out)))
    high: tuple[str, ...] = ()
    if elevated.attacker or elevated.target:  # R-ELEV-3 and R-ELEV-4 need an elevated model
        cover, ignored, high = elevation_cover(board, pair, objects, cover, ignored,
                                               elevated)
    reasons = cover_reasons(board, objects, cover, high) if cover else ()
    a, t = pair.a, pair.t
    distance = math.hypot(a.x - t.x, a.y - t.y) - a.r - t.r  # geometry.discs.gap, inlined
    bands = (bands_at(distance, pair.t.r, terms.short, terms.long)
             if terms.weapon is not None else None)
    return _new(ShotAnalysis, (
        pair.attacker, pair.target, terms.weapon, terms.rule_set, sight, cover, ignored,
        terms.cover_modifier * len(cover),  # skill_modifier
        terms.armor_bonus if cover else 0, terms.armor_boost if cover else 0,  # R-COV-3
        distance, bands, bool(bands) if bands is not None else None, elevated,
        reasons,
        huge_sight_reasons(board, pair, sight, huge_on_line)
        if huge_on_line or not board.huge.isdisjoint(sight.blocked_by) else (),
    ))
