"""Heights and significant edges (R-ELEV-2): edges.py (surfaces, who is elevated,
whether a piece blocks at two heights, a board's significant edges), walls.py (the
edges one sight query meets), cover.py (edges and objects as cover at height).
"""
