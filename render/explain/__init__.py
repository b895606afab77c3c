"""The engine's answers in overlays and words: answers.py (shots, sight webs, reach,
odds; the answers kept per engine state), moves.py (a path's ruler and verdict, climbs),
details.py (the Details panel), debug.py (the debug view),
show.py (the hand-over banner, dice cards, headlines and "what if" of a window),
headline.py (an attack's headline), what_if.py ("what if I stand here").
"""
