"""Heights and significant edges (R-ELEV-2): edges.py (surfaces, who is elevated,
whether a piece blocks at two heights, a board's significant edges), walls.py (the
edges one sight query meets), wall_classes.py (many positions sorted by the walls they
meet, for maps), cover.py (edges and objects as cover at height).
"""
