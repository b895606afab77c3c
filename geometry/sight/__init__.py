"""Line of sight between two discs among obstacles, exact (R-LOS-1): index.py is the
API (Obstacle, Sight, SightIndex, line_of_sight); parts.py prepares the obstacles
(merging, erosion, triangles, corners, tolerances); packing.py packs them for the
kernel, with pieces.py (the proof's convex pieces, listed once per board);
corridor.py (what one pair works on), cones.py and certify.py (what a verdict-only
query leaves out), kernel.py (the search) and lines.py (testing its lines) are
compiled (numba, cache=True), and their cached code is dropped when any file here
changes.
"""

from pathlib import Path

from geometry.numba_cache import drop_stale

drop_stale(Path(__file__).parent)
