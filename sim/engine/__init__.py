"""The turn machine (R-TURN-1..10, R-ALL-1) and the objectives in play (R-OBJ-1..6):
actions.py (actions as frozen values that round-trip through text, ActionKind and the
kind registry), params.py (each kind's parameters as data, which the window builds
actions from), state.py (GameState: legal actions, apply, undo, events), memo.py (what
a position's answers keep until a model moves), turns.py (rounds and turns), gamedata.py
(state values), rng.py (the one seeded generator), objectives.py (zones and markers
held, cargo carried, the objective points).
"""
