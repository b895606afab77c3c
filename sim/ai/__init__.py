"""AI players (issue 18, docs/ai.md): a player turns a GameState into an action and a
one-line reason. No pygame here.

player.py (the Player protocol, Decision), candidates.py (concrete legal actions to
weigh: sampled moves, cover spots, charges, the listed ones), scoring.py (exact
odds and positions as values), charge_reach.py (could a model charge from there),
why.py (the reason lines), random.py, greedy.py, search.py (the players), registry.py
(players by name), match.py (one headless game), batch.py and stats.py (many games:
local processes or Dask, the figures).
"""
