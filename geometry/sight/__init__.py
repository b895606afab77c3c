"""Line of sight between two discs among obstacles, exact (R-LOS-1): index.py is the
API (Obstacle, Sight, SightIndex, line_of_sight); parts.py prepares the obstacles
(merging, erosion, triangles, corners, tolerances); kernel.py is the compiled per-pair
search (numba, cache=True) that every query runs.
"""
