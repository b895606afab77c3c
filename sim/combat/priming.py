"""Shots analysed in bulk ahead of their plans (R-SHOOT-1): many pairs, or many boards
that differ in where one model stands, in one call of :mod:`sim.shooting.analysis`,
kept in each situation's memo where :func:`sim.combat.plan.plan_shot` finds them (the
same answers as one analysis at a time, a fraction of the cost).
"""

from __future__ import annotations

from collections.abc import Sequence

from sim.combat.plan import MELEE_SKILL, analysis_key, common_problem, skill_problem
from sim.combat.situation import Situation
from sim.shooting.analysis import analyse_moved


def prime_shots(sit: Situation, attacker: str, targets: Sequence[str], weapon_id: str,
                *, names: bool = True) -> None:
    """``attacker``'s shots with one weapon at many targets analysed in one call into
    the situation's memo, where :func:`plan_shot` (with the same ``names``) finds them."""
    prime_boards([sit], attacker, attacker, [targets], weapon_id, names=names)


def prime_boards(sits: Sequence[Situation], mover: str, attacker: str,
                 targets: Sequence[Sequence[str]], weapon_id: str, *, names: bool = True
                 ) -> None:
    """:func:`prime_shots` on many boards: ``attacker``'s shots at ``targets[k]`` on
    board ``sits[k]``. The boards differ only in where ``mover`` stands (the attacker,
    or the one target), their climbing models alike; one call per height of the
    attacker (:func:`sim.shooting.analysis.analyse_moved`)."""
    first = sits[0]
    weapon = first.scenario.weapons[weapon_id]
    if weapon.skill == MELEE_SKILL or skill_problem(first.scenario.unit_of(attacker), weapon):
        return
    todo = [(sit, t) for sit, ts in zip(sits, targets, strict=True) for t in ts
            if common_problem(sit, attacker, t, weapon_id) is None
            and not (len(sit.memo)  # (a board's own new memo holds nothing yet)
                     and (sit.memo.has(analysis_key(sit, attacker, t, weapon_id))
                          or sit.memo.has(analysis_key(sit, attacker, t, weapon_id, names))))]
    if len(todo) < 2:  # nothing to batch
        return
    by_height: dict[float, list[tuple[Situation, str]]] = {}
    for sit, t in todo:
        z = sit.positions[attacker].z if mover == attacker else 0.0
        by_height.setdefault(z, []).append((sit, t))
    for group in by_height.values():
        found = analyse_moved(first.scenario, first.positions, attacker, [t for _, t in group],
                              weapon_id, first.climbing, mover,
                              [sit.positions[mover] for sit, _ in group], names=names)
        for (sit, t), ana in zip(group, found, strict=True):
            sit.memo.put(analysis_key(sit, attacker, t, weapon_id, names), ana)
