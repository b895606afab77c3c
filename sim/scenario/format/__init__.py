"""Scenario format v1: loader.py (TOML -> Scenario, every problem reported), files.py
(reading files safely, includes, ``wasteland:`` names), library.py (unit and weapon
cards), terrain.py (pieces), table_checker.py (the one TOML table checker, the rules
data's too), validate.py, ids.py and limits.py (shared checks), writer.py (Scenario ->
TOML), rewrite.py (the editor's saving: an opened file changed in place, a new file
tidy), shipped.py (the shipped scenarios by name).
"""
