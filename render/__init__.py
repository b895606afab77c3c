"""The pygame-ce window and PNG export: app.py (the window's life: open, loop, every
way out saves), png.py and map_layer.py (headless pictures), scene.py (the board as
plain values); input/ (clicks and keys -> engine actions), explain/ (the engine's
answers in overlays and words), draw/ (pixels); editor/ (the scenario editor in the same
window).
"""
