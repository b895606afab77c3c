"""The documented limits on input files (docs/scenario-format.md, "Limits").

Every file the game reads is refused beyond these, with a message naming
the file and the key path, so no input can hang the game, exhaust memory or
stop it with a traceback. The model, piece and vertex limits come from
measurement: at the limits, 40 random steps of a game take about 2 s and no
step more than about 1.5 s on a shared 2-core machine (docs/scenario-format.md,
"Limits", gives the numbers).
"""

from __future__ import annotations

MAX_FILE_BYTES = 1_048_576  # any scenario, library or save file (1 MiB)
MAX_NESTING = 32  # arrays and tables nested in one TOML or JSON value
MAX_INCLUDE_DEPTH = 32  # files in one chain of includes
MAX_INCLUDED_FILES = 64  # distinct files one scenario pulls in
MAX_PATH_BYTES = 1024  # an include or a save's scenario path, UTF-8
MAX_NAME_BYTES = 255  # one component of such a path (the usual file system limit)
MAX_ID_CHARS = 64  # any id: side, unit, weapon, terrain, model, keyword, colour
MAX_NAME_CHARS = 200  # a display name: the scenario's, a side's, a unit's, a weapon's

MAX_MODELS = 200
MAX_PIECES = 100
MAX_OBJECTIVES = 32  # [[objectives]] tables: each is weighed at every AI decision
MAX_VERTICES = 2000  # points of one ring (outline or hole), and of a polygon with its holes
MAX_TERRAIN_VERTICES = 2000  # points of all terrain outlines together
# Holes in all terrain together: each one adds edges every reachable area on its level works
# around (measured: about 0.06 s a hole for a huge base on a roof, 3 s for 120; issue 31).
MAX_HOLES = 10
# Concave corners of the rings a model moves within (a roof's outline, holes): the reachable
# area there grows about with their cube (measured: a star-shaped roof with 12 of them 0.5 s,
# 16: 0.9 s, 30: 4.5 s, 50: 19 s, 100: 137 s; issue 31).
MAX_CONCAVE_CORNERS = 16
CIRCLE_POINTS = 64  # what a terrain circle counts toward MAX_TERRAIN_VERTICES (measured)

MAX_BOARD_INCHES = 240.0  # each side of the board (20 feet)
MAX_HEIGHT_INCHES = 1000.0  # terrain heights and model z
MIN_BASE_MM = 1.0
MAX_BASE_MM = 1000.0
# Inches (R-UNIT-2); the shipped value is 0.01. Below the minimum, touching would be decided
# inside the float noise the geometry allows itself (1e-9 in on gaps and lengths), and the
# reachable area's outlines, drawn to within a quarter of it, would need unbounded points.
MIN_TOUCH_TOLERANCE = 1e-6
MAX_TOUCH_TOLERANCE = 0.1
MAX_RULER_INCHES = 240.0
MAX_SMALL_COUNT = 1000  # dice sides, faces per die, actions per activation
