"""The scenario editor (``wasteland edit``, docs/editor.md): the game's window with an editor
controller. state.py (the draft, the selection, the tool, undo and redo), tools.py (what a
click or a drag does with each tool), panel.py (the side panel's buttons and Details),
overlays.py (selection, problems, a shape being drawn), controller.py (the editor's flow),
app.py (the window: the game's App with the editor's keys and layout).

Every change to the scenario goes through :mod:`sim.scenario.edit` and
:mod:`sim.scenario.fields`; every check is the loader's (:mod:`sim.scenario.draft`)."""
