"""What a map can be asked for: its kinds and cell sizes (docs/maps.md).

Plain data, imported by the command line to build its parser without loading
the maps' engine and compiled kernels (quick start-up); grid.py and
visibility.py take their defaults and limits from here.
"""

from __future__ import annotations

from typing import Literal, get_args

Kind = Literal["seen", "threat", "sees"]
KINDS: tuple[str, ...] = get_args(Kind)

DEFAULT_CELL = 0.25  # inches
MIN_CELL = 0.05  # inches: the finest grid a map may ask for
