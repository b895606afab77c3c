"""The engine's answers in overlays and words: answers.py (shots, sight webs, reach,
odds, path ruler), details.py (the Details panel), debug.py (the debug view).
"""
