"""The game: scenario/ (what a battlefield is, its files), engine/ (the turn machine),
resolution/ (dice and damage), movement/, shooting/ (the rules glue for sight, cover
and range), combat/ (the attack actions), game/ (saves), maps/; cli.py, cli_io.py and
commands/ are the command line.
"""
