"""Range bands of a weapon (R-RANGE-1, R-DIST-1).

A weapon has a short ruler and usually a long one; laid end to end they give
its reach. Distances run from the closest point of the attacker's base
(:func:`geometry.discs.gap`), so a target is in a band when any part of its
base lies in it: its nearest point is at :func:`~geometry.discs.gap` and its
farthest at that plus its diameter.

Examples
--------
>>> from geometry.discs import Disc
>>> bands = range_bands(Disc(0, 0, 0.5), Disc(8.0, 0, 0.5), short=6.0, long=6.0)
>>> bands.bands, bands.in_range
(('long',), True)
>>> range_bands(Disc(0, 0, 0.5), Disc(6.5, 0, 0.5), 6.0, 6.0).bands
('short', 'long')
"""

from __future__ import annotations

from dataclasses import dataclass

from geometry.discs import Disc, gap

# Floating-point slack when comparing a measured distance with a ruler length:
# a base placed exactly at the end of a ruler is within it.
_SLACK = 1e-9


@dataclass(frozen=True)
class RangeBands:
    """Which bands of a weapon a target's base lies in.

    ``distance`` is base edge to base edge (R-DIST-1, negative when the bases
    overlap); ``short`` and ``long`` are the ruler lengths (``long`` None for a
    short-only weapon); ``bands`` lists ``"short"`` and/or ``"long"``.
    """

    distance: float
    short: float
    long: float | None
    bands: tuple[str, ...]

    @property
    def reach(self) -> float:
        """Both rulers end to end (R-RANGE-1)."""
        return self.short + (self.long or 0.0)

    @property
    def in_range(self) -> bool:
        return bool(self.bands)

    def __str__(self) -> str:
        rulers = f"short {self.short:g} in" + (
            f", long {self.long:g} in (reach {self.reach:g} in)" if self.long else ""
        )
        where = " and ".join(self.bands) + " range" if self.bands else "out of range"
        return f"target {self.distance:.2f} in away ({rulers}): {where}"


def range_bands(attacker: Disc, target: Disc, short: float, long: float | None) -> RangeBands:
    """The bands the target's base lies in for rulers ``short`` and ``long``.

    In short range when the nearest point of its base is within the short
    ruler; in long range when its nearest point is within the reach and its
    farthest point lies beyond the short ruler (R-RANGE-1: any part of the base
    in the band; a base in both lets the attacker choose).
    """
    d = gap(attacker, target)
    return RangeBands(distance=d, short=short, long=long,
                      bands=bands_at(d, target.r, short, long))


_BANDS = {(True, True): ("short", "long"), (True, False): ("short",),
          (False, True): ("long",), (False, False): ()}


def bands_at(distance: float, target_r: float, short: float, long: float | None
             ) -> tuple[str, ...]:
    """The bands of :func:`range_bands` for a target base of radius ``target_r`` whose
    nearest point is ``distance`` away (one shot of many costs no objects).

    >>> bands_at(1.5, 0.5, 6.0, 6.0), bands_at(13.0, 0.5, 6.0, 6.0)
    (('short',), ())
    """
    short_hit = distance <= short + _SLACK
    long_hit = (long is not None and long > 0 and distance <= short + long + _SLACK
                and distance + 2.0 * target_r > short + _SLACK)
    return _BANDS[(short_hit, long_hit)]
