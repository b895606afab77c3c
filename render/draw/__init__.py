"""Pixels: frame.py (one frame, window and PNG alike), board.py, models.py,
overlays.py, panels.py, controls.py, theme.py, layout.py, transform.py, view.py
(what a frame shows besides the board), labels.py (the label placer), areas.py
(areas as drawn), banner.py (hand-over banner, per-side strip), dice_card.py,
pinned.py (Details' pinned headline; the banner, card and "what if" as values).
"""
