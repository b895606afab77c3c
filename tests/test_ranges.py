"""Range bands (R-RANGE-1, R-DIST-1)."""

from __future__ import annotations

import pytest

from geometry.discs import Disc
from geometry.ranges import range_bands

A = Disc(0, 0, 0.5)


def test_short_band_measured_from_base_edges() -> None:
    """R-DIST-1: 6 in between the closest points is within a 6 in short ruler."""
    b = range_bands(A, Disc(7.0, 0, 0.5), short=6.0, long=6.0)
    assert b.distance == pytest.approx(6.0)
    assert "short" in b.bands and b.in_range


def test_base_straddling_the_ruler_end_is_in_both_bands() -> None:
    """R-RANGE-1: any part of the base in a band puts the target in it; both: attacker picks."""
    assert range_bands(A, Disc(6.5, 0, 0.5), 6.0, 6.0).bands == ("short", "long")


def test_long_band_only_and_out_of_reach() -> None:
    """R-RANGE-1: rulers end to end give the reach."""
    assert range_bands(A, Disc(10, 0, 0.5), 6.0, 6.0).bands == ("long",)
    far = range_bands(A, Disc(13.01, 0, 0.5), 6.0, 6.0)
    assert far.bands == () and not far.in_range
    assert "out of range" in str(far)
    assert range_bands(A, Disc(13.0, 0, 0.5), 6.0, 6.0).bands == ("long",)


def test_short_only_weapon() -> None:
    """R-RANGE-1: some weapons have only a short range."""
    assert range_bands(A, Disc(3.1, 0, 0.5), 2.0, None).bands == ()
    assert range_bands(A, Disc(2.9, 0, 0.5), 2.0, None).bands == ("short",)
