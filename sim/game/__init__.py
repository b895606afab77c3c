"""The game as saved: save.py (save and replay; shipped scenarios by name).
"""
