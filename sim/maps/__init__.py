"""Visibility and threat maps for one model (docs/maps.md): grid.py, sight.py,
kernel.py, threat.py, visibility.py.
"""
