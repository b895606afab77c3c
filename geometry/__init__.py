"""Exact shape math: pure functions on immutable values, no sides, units or rule sets
(callers pass discs and obstacles the rules chose). discs.py: a base as an exact disc,
the gap between bases and touching (R-UNIT-2, R-DIST-1); ranges.py: the range bands a
base lies in. sight/, cover/, elevation/ and movement/ answer one question each.
"""
