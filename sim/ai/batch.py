"""Many headless games: in this process, on local processes, or on a Dask cluster.

Game ``i`` of a batch from seed ``S`` is played from seed ``S + i`` by players
made fresh for it (:func:`sim.ai.registry.make_player`, each seeded from the
game's seed and its side), so a game's record depends on nothing but its
seed: the same for any ``--jobs`` and either backend. Games travel in chunks
of consecutive indices; each worker loads the scenario once per chunk from
its :class:`ScenarioSource` (a loaded scenario holds derived, unpicklable
data) and records come back in game order.

The Dask backend is ``dask.distributed`` (the ``[cluster]`` extra): a
``Client`` on the scheduler address given; nothing is distributed by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from sim.ai.registry import make_player
from sim.errors import UsageError
from sim.scenario.objects import Scenario

if TYPE_CHECKING:  # the engine is imported where games are played (quick start-up)
    from sim.ai.match import GameRecord

Backend = Literal["local", "dask"]
BACKENDS: tuple[str, ...] = ("local", "dask")
#: The most games one task carries (smaller chunks keep every worker busy).
CHUNK = 8


@dataclass(frozen=True)
class ScenarioSource:
    """Where a worker gets the scenario: a file path, or the TOML text read from stdin
    (includes then resolve from the working folder, as for the command itself)."""

    path: str | None = None
    text: str | None = None

    def load(self) -> Scenario:
        from sim.cli_io import load_scenario_text
        from sim.scenario.format.loader import load_scenario

        if self.path is not None:
            return load_scenario(self.path)
        assert self.text is not None
        return load_scenario_text(self.text)


@dataclass(frozen=True)
class Chunk:
    """Games ``first .. first + count - 1`` of a batch (plain data for any worker)."""

    source: ScenarioSource
    players: tuple[tuple[str, str], ...]  # (side, player name), in the scenario's order
    seed: int
    first: int
    count: int
    rounds: int | None = None


def player_seed(game_seed: int, side_index: int) -> int:
    """The seed of one side's player in a game (distinct sides, distinct choices)."""
    return game_seed * 2 + side_index


def play_chunk(chunk: Chunk) -> list[GameRecord]:
    """Play one chunk's games in order (runs in a worker)."""
    from sim.ai.match import play_game
    scenario = chunk.source.load()
    out: list[GameRecord] = []
    for i in range(chunk.first, chunk.first + chunk.count):
        game_seed = chunk.seed + i
        players = {side: make_player(name, player_seed(game_seed, k))
                   for k, (side, name) in enumerate(chunk.players)}
        out.append(play_game(scenario, players, game_seed, chunk.rounds))
    return out


def chunks(source: ScenarioSource, players: Mapping[str, str], seed: int, games: int,
           jobs: int, rounds: int | None = None) -> list[Chunk]:
    """The batch cut in chunks: about four per job, at most :data:`CHUNK` games each."""
    size = max(1, min(CHUNK, games // max(1, 4 * jobs)))
    pairs = tuple(players.items())
    return [Chunk(source, pairs, seed, first, min(size, games - first), rounds)
            for first in range(0, games, size)]


def run_games(source: ScenarioSource, players: Mapping[str, str], seed: int, games: int, *,
              jobs: int = 1, backend: str = "local", scheduler: str | None = None,
              rounds: int | None = None,
              progress: Callable[[int], None] | None = None) -> list[GameRecord]:
    """Every game's record, in game order; ``progress(done)`` after each chunk."""
    todo = chunks(source, players, seed, games, jobs, rounds)
    if backend == "dask":
        if scheduler is None:
            raise UsageError("--backend dask needs --scheduler ADDRESS")
        results = _on_dask(todo, scheduler, progress)
    elif backend != "local":
        raise UsageError(f"unknown backend {backend!r}; expected one of: {', '.join(BACKENDS)}")
    elif jobs <= 1:
        results = _here(todo, progress)
    else:
        results = _on_processes(todo, jobs, progress)
    return [r for part in results for r in part]


def _here(todo: Sequence[Chunk], progress: Callable[[int], None] | None
          ) -> list[list[GameRecord]]:
    out: list[list[GameRecord]] = []
    for c in todo:
        out.append(play_chunk(c))
        if progress is not None:
            progress(sum(len(p) for p in out))
    return out


def _on_processes(todo: Sequence[Chunk], jobs: int, progress: Callable[[int], None] | None
                  ) -> list[list[GameRecord]]:
    results: list[list[GameRecord] | None] = [None] * len(todo)
    done = 0
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(play_chunk, c): i for i, c in enumerate(todo)}
        for fut in as_completed(futures):
            part = fut.result()
            results[futures[fut]] = part
            done += len(part)
            if progress is not None:
                progress(done)
    return [r for r in results if r is not None]


def _on_dask(todo: Sequence[Chunk], scheduler: str, progress: Callable[[int], None] | None
             ) -> list[list[GameRecord]]:
    try:
        import distributed
    except ImportError:
        raise UsageError("--backend dask needs dask.distributed: pip install "
                         "'wasteland-sim[cluster]'") from None
    lib: Any = distributed  # untyped
    try:
        client: Any = lib.Client(scheduler, timeout="10s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise UsageError(f"--scheduler {scheduler}: cannot reach a Dask scheduler: "
                         f"{exc}") from None
    try:
        futures = client.map(play_chunk, list(todo), pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        results: list[list[GameRecord] | None] = [None] * len(todo)
        done = 0
        for fut in lib.as_completed(futures):
            part = fut.result()
            results[index[fut.key]] = part
            done += len(part)
            if progress is not None:
                progress(done)
    finally:
        client.close()
    return [r for r in results if r is not None]
