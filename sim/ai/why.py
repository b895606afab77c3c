"""The one-line reasons of AI decisions, in display names (sim.scenario.names).

"Super Mutant (mutant-2) moves to crates-1: sees Sniper, 41% to hit, cover -2 from
Knight": the reason first, then a danger the place leaves the model in ("...; no
cover from Knight"), in the words of the rules and no internal scores (issue 37).
Terrain pieces have no display name and keep their ids, as in the event log
(docs/engine.md).
"""

from __future__ import annotations

import numpy as np
import shapely

from sim.ai.scoring import AttackValue, Spot
from sim.scenario.names import model_name
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position
from sim.scenario.prepared import Part

#: A destination this close to a piece is named after it (inches beyond the base).
NEAR_PIECE = 1.0


#: Every piece's footprint, in terrain order, for one vectorised distance.
FOOTPRINTS = Part("terrain footprints", lambda sc: np.array(
    [piece.footprint for piece in sc.terrain], dtype=object))


def place(scenario: Scenario, at: Position, radius: float) -> str:
    """The piece a base at ``at`` stands by ("crates-1"), else its coordinates."""
    here = shapely.Point(at.x, at.y)
    gaps = shapely.distance(scenario.prepared.get(FOOTPRINTS), here).tolist()
    best: tuple[float, str] | None = None
    for piece, gap in zip(scenario.terrain, gaps, strict=True):
        d = gap - radius
        if d <= NEAR_PIECE and (best is None or d < best[0]):
            best = (d, piece.id)
    return best[1] if best is not None else f"({at.x:.1f}, {at.y:.1f})"


def attack_words(scenario: Scenario, v: AttackValue) -> str:
    """"41% to hit, 1.2 damage expected, 20% to eliminate"."""
    return (f"{v.p_hit:.0%} to hit, {v.expected:.1f} damage expected, "
            f"{v.p_kill:.0%} to eliminate")


def spot_words(scenario: Scenario, spot: Spot) -> str:
    """What a place offers, the reason first and the danger last: the target it sees
    and the chance to hit it, the cover it gives from the most dangerous enemy (or that
    no enemy can attack it), how far it is from striking range; then, after a ``;``,
    the danger it stays in ("no cover from Sniper", "in reach of Hound's charge")."""
    gains: list[str] = []
    worst = spot.worst
    if spot.best is not None:
        gains.append(f"sees {model_name(scenario, spot.best.target)}, "
                     f"{spot.best.p_hit:.0%} to hit")
    if worst is None:
        gains.append("no enemy can attack it there")
    elif worst.band is not None and worst.cover:
        gains.append(f"cover {worst.cover:+d} from {model_name(scenario, worst.attacker)}")
    if spot.best is None and spot.gap > 0:
        gains.append(f"{spot.gap:.1f} in from striking range of an enemy")
    danger = _danger(scenario, worst)
    if not gains:
        return danger
    return ", ".join(gains) + (f"; {danger}" if danger else "")


def _danger(scenario: Scenario, worst: AttackValue | None) -> str:
    """The most dangerous enemy's attack there, when the place gives no cover from it."""
    if worst is None or (worst.band is not None and worst.cover):
        return ""
    who = model_name(scenario, worst.attacker)
    return f"in reach of {who}'s charge" if worst.band is None else f"no cover from {who}"


def move_line(scenario: Scenario, spot: Spot, radius: float) -> str:
    return (f"{model_name(scenario, spot.model)} moves to {place(scenario, spot.at, radius)}: "
            f"{spot_words(scenario, spot)}")


def shot_line(scenario: Scenario, v: AttackValue) -> str:
    weapon = scenario.weapons[v.weapon].name
    return (f"{model_name(scenario, v.attacker)} shoots {model_name(scenario, v.target)} "
            f"with {weapon} ({v.band}): {attack_words(scenario, v)}")


def melee_line(scenario: Scenario, v: AttackValue, verb: str) -> str:
    return (f"{model_name(scenario, v.attacker)} {verb} {model_name(scenario, v.target)}: "
            f"{attack_words(scenario, v)}")


def stay_line(scenario: Scenario, spot: Spot) -> str:
    return (f"{model_name(scenario, spot.model)} ends its activation where it stands: "
            f"{spot_words(scenario, spot)}")
