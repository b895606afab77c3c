"""Pixels: frame.py (one frame, window and PNG alike), board.py, models.py,
overlays.py, panels.py, controls.py, theme.py, layout.py, transform.py, view.py
(what a frame shows besides the board).
"""
