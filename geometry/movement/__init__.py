"""A base moving among obstacles: obstacles.py (exact clearance), paths.py (a base
swept along legs, legality), reach.py (the reachable area, the nearest free landing
spot), push.py (a base pushed straight away).
"""
