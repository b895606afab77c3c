"""Sight and cover with elevation: the two-storey board against the ground-only one (issue 4).

The sight benchmark (:mod:`bench.sight`) rerun on the default board with a
two-storey building and models on it (``scenarios/elev-two-storey.toml``),
against the default board itself (``scenarios/skirmish.toml``, every model
put on the ground: its rock-shelf sniper too) in the same run. Every
ordered pair of models; printed per board:

- per-pair time (CPU, the median of a few rounds, each one run timed as
  :func:`bench.sight.best_time` times it) of the
  exact sight query as the rules set it up (blocking pieces with R-ELEV-5,
  per-query obstacles with the significant edges of R-ELEV-2, then the
  query), of the same for all pairs at once, batched as the rules glue
  batches them (the sight benchmark's "exact batched"), of sight plus cover
  (:func:`sim.shooting.analysis.analyse`, with R-ELEV-3/4), and of the bulk form
  (:func:`sim.shooting.analysis.analyse_many`, every model against all others);
- how many pairs have an elevated model, how many edge walls joined, how
  many pieces stood in for their edge, how many sets of blocking pieces.

The figure that matters is the ratio of the elevated board's per-pair time
to the ground board's (target <= 1.5x). The one-off derivation of a board's
significant edges is timed on its own.

Run with ``make bench`` or ``python -m bench elevation``.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from bench.sight import best_time  # the same timing rule as the sight benchmark
from geometry.elevation.edges import significant_edges
from sim.scenario.format.loader import load_scenario
from sim.scenario.objects import Scenario
from sim.scenario.positions import Position, initial_positions
from sim.shooting import analysis
from sim.shooting.elevation_rules import board_elevation, surfaces_of
from sim.shooting.shot_analysis import ShotPair

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
GROUND = SCENARIOS / "skirmish.toml"
ELEVATED = SCENARIOS / "elev-two-storey.toml"


def _positions(scenario: Scenario, ground: bool) -> dict[str, Position]:
    """Where the models stand; with ``ground``, all on the table (z = 0)."""
    return {k: replace(p, z=0.0) if ground else p
            for k, p in initial_positions(scenario).items()}


def _pairs(scenario: Scenario, positions: Mapping[str, Position]) -> list[ShotPair]:
    out = []
    for a, pa in positions.items():
        for t, pt in positions.items():
            if a != t:
                out.append(ShotPair(
                    a, t, analysis.disc_of(scenario, a, pa), analysis.disc_of(scenario, t, pt),
                    pa.z, pt.z, scenario.model(a).side))
    return out


REPEAT = 7  # rounds; each figure is the median round (one run each, bench.sight.best_time)


@dataclass
class _Board:
    """One board's workload: what to time, and counts to print."""

    name: str
    counts: str
    timed: dict[str, Callable[[], object]]
    pairs: int
    times: dict[str, list[float]] = field(default_factory=dict)

    @property
    def medians(self) -> dict[str, float]:
        """Each figure's median round."""
        return {k: statistics.median(v) for k, v in self.times.items()}


def _board(name: str, scenario: Scenario, ground: bool = False) -> _Board:
    positions = _positions(scenario, ground)
    board = analysis.prepared_board(scenario)
    elevation = board_elevation(scenario)
    pairs = _pairs(scenario, positions)
    keys = [analysis.blocking_pieces(board, p) for p in pairs]

    def sight_all() -> list[bool]:
        return [
            board.sight_index(analysis.blocking_pieces(board, p)).sight(
                p.a, p.t, analysis.sight_extras(scenario, positions, p)).visible
            for p in pairs
        ]

    def sight_batched() -> None:  # every pair in one go, batched as the rules glue does
        analysis.pair_sights(board, scenario, positions, pairs)

    def analyse_all() -> None:
        for p in pairs:
            analysis.analyse(scenario, positions, p.attacker, p.target)

    def bulk() -> None:  # the sight benchmark's bulk figure: one against all, batched
        for a in positions:
            analysis.analyse_many(scenario, positions, a)

    seen = sum(sight_all())  # also builds each sight index once, outside the timing
    lifted = sum(elevation.has_elevated(p.z_a, p.z_t) for p in pairs)
    walls = sum(o.id.endswith(":edge") for p, k in zip(pairs, keys, strict=True)
                for o in analysis.sight_extras(scenario, positions, p, k))
    stand_ins = sum(len(analysis.edge_stand_ins(board, p)) for p in pairs)
    counts = (f"{len(positions)} models, {len(pairs)} ordered pairs ({lifted} with an "
              f"elevated model), {seen} with sight; {len(elevation.edges.edges)} significant "
              f"edges ({len(elevation.edges.sides)} sides); over all queries {walls} edge walls "
              f"and {stand_ins} pieces standing in for their edge; "
              f"{len(set(keys))} distinct sets of blocking pieces")
    timed: dict[str, Callable[[], object]] = {
        "sight": sight_all, "batched": sight_batched, "analyse": analyse_all, "bulk": bulk}
    return _Board(name, counts, timed, len(pairs))


def run() -> None:
    ground = load_scenario(GROUND)
    elevated = load_scenario(ELEVATED)
    boards = [
        _board(f"{GROUND.name} as shipped (the sight benchmark's board)", ground),
        _board(f"{GROUND.name}, every model on the ground (z = 0)", ground, ground=True),
        _board(ELEVATED.name, elevated),
    ]
    # Rounds interleave the boards, so drifting load on a shared machine
    # weighs on all of them alike.
    for _ in range(REPEAT):
        for b in boards:
            for key, fn in b.timed.items():
                b.times.setdefault(key, []).append(best_time(fn, 1) / b.pairs)
    orange = elevated.rules_data.orange
    t_edges = best_time(lambda: significant_edges(surfaces_of(elevated), orange))
    for b in boards:
        print(f"board {b.name}: {b.counts}")
        print(f"  sight (rules + exact query): {b.medians['sight'] * 1e6:8.1f} us/pair")
        print(f"  sight, all pairs batched:    {b.medians['batched'] * 1e6:8.1f} us/pair")
        print(f"  sight + cover (analyse):     {b.medians['analyse'] * 1e6:8.1f} us/pair")
        print(f"  bulk (analyse_many):         {b.medians['bulk'] * 1e6:8.1f} us/pair")
    e = boards[2].medians
    for g, base in ((boards[0].medians, "as shipped"), (boards[1].medians, "all on the ground")):
        print(f"ratio two storeys / {base}:")
        for label, key in (("sight", "sight"), ("sight batched", "batched"),
                           ("sight + cover", "analyse"), ("bulk", "bulk")):
            print(f"  {label + ':':14} {e[key] / g[key]:6.2f}x (target <= 1.5)")
    print(f"significant edges of the two-storey board, derived once: {t_edges * 1e3:.2f} ms")
