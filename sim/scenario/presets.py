"""Terrain presets of the scenario editor: each a set of real ``[[terrain]]`` keys (R-TER-1).

A preset is only a starting point: the piece it makes is an ordinary
:class:`~sim.scenario.objects.TerrainPiece` whose properties the editor's
side panel changes afterwards. The values follow the shipped scenarios
(``scenarios/*.toml``): a crate is difficult cover 1.5 in high, a forest
difficult area cover, a dense forest also blocks sight (R-LOS-4 through
``dense``), shallow water difficult ground.

Examples
--------
>>> PRESETS["building"].props.height, PRESETS["building"].props.climbable
(6.0, True)
>>> PRESETS["dense-forest"].props.dense and PRESETS["dense-forest"].props.area
True
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.scenario.objects import TerrainProps


@dataclass(frozen=True)
class Preset:
    """A named kind of piece: its properties and the shape it is usually drawn with."""

    name: str
    label: str
    props: TerrainProps
    shape: str  # "rect", "circle" or "polygon": the tool it starts with


PRESETS: dict[str, Preset] = {p.name: p for p in (
    Preset("wall", "Wall", TerrainProps(movement="impassable", blocks_los=True, cover=True,
                                        height=3.0), "rect"),
    Preset("crate", "Crate", TerrainProps(movement="difficult", cover=True, height=1.5), "rect"),
    Preset("building", "Building", TerrainProps(movement="impassable", climbable=True,
                                                blocks_los=True, cover=True, height=6.0), "rect"),
    Preset("forest", "Forest", TerrainProps(movement="difficult", cover=True, area=True),
           "polygon"),
    Preset("dense-forest", "Dense forest", TerrainProps(movement="difficult", cover=True,
                                                        area=True, dense=True, height=4.0),
           "polygon"),
    Preset("rubble", "Rubble", TerrainProps(movement="difficult"), "polygon"),
    Preset("water", "Water", TerrainProps(movement="difficult"), "polygon"),
    Preset("climbable-face", "Climbable face", TerrainProps(
        movement="impassable", climbable=True, blocks_los=True, cover=True, height=3.0), "rect"),
    Preset("plain", "Plain piece", TerrainProps(), "rect"),
)}
