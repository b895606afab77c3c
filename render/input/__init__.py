"""Clicks and keys turned into engine actions: controller.py (the hot-seat flow),
setup.py (a model action being set up), choices.py (the buttons), keys.py (what a
button hands back, typed), paths.py (drawing a path), attacks.py (choosing an attack),
history.py (undo and save), hotkeys.py (stable keys, issue 16), shown.py (what is
shown: overlays and Details text), words.py (the status bar's hints and refusals),
map_toggle.py (F5: the visibility maps, issue 17).
"""
