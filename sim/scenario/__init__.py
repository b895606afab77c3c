"""What a battlefield is (R-UNIT-1, R-RULER-1, R-BASE-1, R-TER-1, R-TER-2): objects.py
(the immutable Scenario, units, weapons, terrain, models), prepared.py (what is derived
from a scenario once, held by it: Scenario.prepared), rules.py (rules data from
data/rules.toml), positions.py, names.py (display names), unit_docs.py
(docs/units.md); edit.py, draft.py, fields.py and presets.py (a scenario being edited:
its operations, the loader's problems placed on its pieces, typed values, terrain
presets). format/ reads and writes scenario files.
"""
