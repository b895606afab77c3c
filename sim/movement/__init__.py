"""Moving models (R-MOV-1..5, R-CLIMB-1..5, R-JUMP-1, R-FALL-1..4, R-EDGE-1..3):
plan.py (steps and plan_movement, read only), kinds.py (Move, Charge, Leave, and the
reachable areas for the window), levels.py (the terrain a model meets at one height),
falls.py (falls, jump landings, pushes), contact.py (base contact).
"""
