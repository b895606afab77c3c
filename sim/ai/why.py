"""The one-line reasons of AI decisions, in display names (sim.scenario.names).

"Super Mutant (mutant-2) moves to crates-1: cover -2 from Knight, sees Sniper,
41% to hit". Terrain pieces have no display name and keep their ids, as in the
event log (docs/engine.md).
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
    """What a place offers: the cover against the worst enemy, the target it sees."""
    parts: list[str] = []
    if spot.worst is None:
        parts.append("no enemy can attack it there")
    elif spot.worst.band is None:
        parts.append(f"in reach of {model_name(scenario, spot.worst.attacker)}'s charge")
    else:
        parts.append(f"cover {spot.worst.cover:+d} from "
                     f"{model_name(scenario, spot.worst.attacker)}"
                     if spot.worst.cover else
                     f"no cover from {model_name(scenario, spot.worst.attacker)}")
    if spot.best is not None:
        parts.append(f"sees {model_name(scenario, spot.best.target)}, "
                     f"{spot.best.p_hit:.0%} to hit")
    elif spot.gap > 0:
        parts.append(f"{spot.gap:.1f} in from striking range of an enemy")
    return ", ".join(parts)


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
