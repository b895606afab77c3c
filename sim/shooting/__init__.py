"""Can this model shoot that one, and how hard (R-RANGE-1, R-LOS-2..4, R-COV-2..6,
R-ELEV-1, R-ELEV-3..5): analysis.py (analyse, analyse_many: the one answer for the
engine, the CLI and the window), board.py (PreparedBoard, the scenario's prepared
shot board), cover_count.py (which objects the line of cover meets count),
shot_analysis.py (ShotAnalysis and its reasons), weapon_range.py (a weapon's rulers and
reach), model_cover.py, sight_batches.py, elevation_rules.py.
"""
