"""Clicks and keys turned into engine actions: controller.py (the hot-seat flow and its
table of key commands), session.py (the game session: the game, saves, the AI's sides),
ui_state.py (the UI state as one frozen value, the view's key), choices.py (the
buttons), keys.py (what a button hands back, typed), paths.py (drawing a path),
attacks.py (choosing an attack), history.py (undo and save), hotkeys.py (stable keys,
issue 16), shown.py (what is shown: overlays and Details text), words.py (the status
bar's hints and refusals), ai_turns.py and thinking.py (the AI's sides in solo play),
map_toggle.py (F5: the visibility maps, issue 17). The model action being set up is
render/explain/setup.py's value.
"""
