"""The reachable area as drawn (issue 16): a huge model's area among terrain drew
slivers and spikes; render.draw.areas cleans it at display resolution only."""

from __future__ import annotations

import shapely

from render.draw.areas import CLEAN_PX, CRUMB_PX, display_area

SCALE = 20.0  # pixels per inch


def test_a_spike_thinner_than_a_few_pixels_is_not_drawn() -> None:
    square = shapely.box(0, 0, 10, 10)
    spike = shapely.box(4.99, 10, 5.01, 13)  # 0.4 px wide, 60 px long
    drawn = display_area(square.union(spike), SCALE)
    assert drawn.bounds[3] < 10.2  # the spike is gone
    assert abs(drawn.area - square.area) / square.area < 0.01  # the square is kept


def test_a_crack_is_closed_and_a_crumb_dropped() -> None:
    left, right = shapely.box(0, 0, 5, 10), shapely.box(5.02, 0, 10, 10)  # a 0.4 px crack
    crumb = shapely.box(20, 20, 20.1, 20.1)  # 2 px square
    drawn = display_area(shapely.union_all([left, right, crumb]), SCALE)
    assert drawn.geom_type in ("Polygon", "MultiPolygon")
    parts = list(getattr(drawn, "geoms", [drawn]))
    assert len(parts) == 1 and parts[0].bounds[2] < 10.5  # one piece, the crumb gone
    assert all(p.area >= (CRUMB_PX / SCALE) ** 2 for p in parts)


def test_broad_shapes_keep_their_outline_within_the_clean_width() -> None:
    disc = shapely.Point(5, 5).buffer(4)
    drawn = display_area(disc, SCALE)
    assert drawn.symmetric_difference(disc).area < disc.length * 2 * CLEAN_PX / SCALE
