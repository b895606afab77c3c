"""The turn machine (R-TURN-1..10, R-ALL-1): actions.py (actions as frozen values that
round-trip through text, ActionKind and the kind registry), state.py (GameState:
legal actions, apply, undo, events), turns.py (rounds and turns), gamedata.py (state
values), rng.py (the one seeded generator).
"""
