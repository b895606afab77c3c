"""Why an attack is refused (R-SHOOT-1, R-RANGE-1): :class:`AttackRefused` and the
reasons :mod:`sim.combat.plan` gives, written only when a caller reads them (the AI
plans about ten thousand shots a game and reads none of their refusals).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sim.errors import IllegalActionError, quoted
from sim.scenario.names import model_name
from sim.scenario.objects import Weapon
from sim.shooting.weapon_range import reach as weapon_reach

if TYPE_CHECKING:
    from sim.combat.plan import Band
    from sim.combat.situation import Situation
    from sim.shooting.analysis import ShotAnalysis


class AttackRefused(IllegalActionError):
    """An attack that may not be made; ``reason`` says why (R-SHOOT-1...).

    The AI plans about ten thousand shots a game and reads only whether they
    are refused: the action text and the reason are written when first read
    (``say`` builds the reason), not when raised.
    """

    def __init__(self, action: object, reason: str | Callable[[], str],
                 model: str | None = None) -> None:
        Exception.__init__(self)  # (the message: __str__, written when read)
        self.action, self.model = action, model
        self._say = reason

    @property
    def reason(self) -> str:
        if callable(self._say):
            self._say = self._say()
        return self._say

    @reason.setter
    def reason(self, text: str) -> None:
        self._say = text

    def __reduce__(self) -> tuple[type[AttackRefused], tuple[str, str, str | None]]:
        # (to another process as text: a worker's refusal reaches its parent whole)
        return AttackRefused, (str(self.action), self.reason, self.model)

    def __str__(self) -> str:
        who = f" (model {quoted(self.model, 40)})" if self.model else ""
        return f"illegal action {quoted(str(self.action))}{who}: {self.reason}"


@dataclass(frozen=True)
class ShotText:
    """A shot's action text, written when read (``str``)."""

    attacker: str
    target: str
    weapon: str
    band: Band | None

    def __str__(self) -> str:
        return f"shoot {self.attacker} {self.target} {self.weapon}" + (
            f" {self.band}" if self.band else "")


def refuse(what: object, attacker: str, reason: str | Callable[[], str]) -> AttackRefused:
    return AttackRefused(what, reason, attacker)


def out_of_reach(sit: Situation, target: str, weapon: Weapon, ana: ShotAnalysis) -> str:
    reach = weapon_reach(sit.scenario.rules_data, weapon)
    rulers = weapon.short + (f" + {weapon.long}" if weapon.long else "")
    return (f"{model_name(sit.scenario, target)} is out of reach: {ana.distance:.2f} in "
            f"away, {weapon.name} reaches {rulers} = {reach:g} in (R-SHOOT-1, R-RANGE-1)")


def not_in_band(target: str, band: Band, bands: tuple[Band, ...]) -> str:
    return (f"{target!r} is not in the {band} band; it lies in {' and '.join(bands)} "
            "(R-RANGE-1)")
