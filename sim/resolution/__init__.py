"""Dice and damage (R-SHOOT-2, R-DICE-1, R-ARM-1/2, R-DMG-1): dice.py (faces from rules
data), attack.py (one attack: skill test, effect dice), damage.py (armor and damage),
odds.py (exact odds before rolling).
"""
