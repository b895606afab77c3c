"""Many headless games: in this process, on local processes, or on a Dask cluster.

Game ``i`` of a batch from seed ``S`` is played from seed ``S + i`` by players
made fresh for it (:func:`sim.ai.registry.make_player`, each seeded from the
game's seed and its side), so a game's record depends on nothing but its
seed: the same for any ``--jobs`` and either backend. Games travel in chunks
of consecutive indices with the scenario packed (its text and every file it
includes: :mod:`sim.scenario.format.packed`, so a worker reads no file of
this machine); each worker loads it once per chunk (a loaded scenario holds
derived, unpicklable data) and records come back in game order. Local
workers are :mod:`sim.ai.workers`, the Dask backend :mod:`sim.ai.cluster`.

The Dask backend is ``dask.distributed`` (the ``[cluster]`` extra): a
``Client`` on the scheduler address given; nothing is distributed by hand.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from sim.ai.cluster import run_on_dask
from sim.ai.registry import make_player
from sim.ai.workers import MAX_TRIES, WorkersGaveUp, run_on_processes
from sim.errors import UsageError, WastelandError

if TYPE_CHECKING:  # the engine and the scenario files are imported where used (quick start-up)
    from sim.ai.match import GameRecord
    from sim.scenario.format.packed import PackedScenario
    from sim.scenario.objects import Scenario

Backend = Literal["local", "dask"]
BACKENDS: tuple[str, ...] = ("local", "dask")
#: The most games one task carries (smaller chunks keep every worker busy).
CHUNK = 8


@dataclass(frozen=True)
class ScenarioSource:
    """The scenario of a batch: a file path, or the TOML text read from stdin (includes then
    resolve from the working folder, as for the command itself)."""

    path: str | None = None
    text: str | None = None

    def pack(self) -> PackedScenario:
        """The scenario and every file it includes, as texts: what the workers are sent, so
        they read none of this machine's files (:mod:`sim.scenario.format.packed`)."""
        from sim.scenario.format.loader import STDIN_NAME
        from sim.scenario.format.packed import pack_file, pack_text

        if self.path is not None:
            return pack_file(self.path)[0]
        if self.text is None:
            raise UsageError("a scenario source needs a path or a text")
        return pack_text(self.text, STDIN_NAME)[0]

    def load(self) -> Scenario:
        return self.pack().load()


@dataclass(frozen=True)
class Chunk:
    """Games ``first .. first + count - 1`` of a batch (plain data for any worker)."""

    source: PackedScenario
    players: tuple[tuple[str, str], ...]  # (side, player name), in the scenario's order
    seed: int
    first: int
    count: int
    rounds: int | None = None


class BatchError(WastelandError):
    """A batch that could not be played to the end (its games kill every worker)."""


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


def chunks(source: PackedScenario, players: Mapping[str, str], seed: int, games: int,
           jobs: int, rounds: int | None = None) -> list[Chunk]:
    """The batch cut in chunks: about four per job, at most :data:`CHUNK` games each."""
    size = max(1, min(CHUNK, games // max(1, 4 * jobs)))
    pairs = tuple(players.items())
    return [Chunk(source, pairs, seed, first, min(size, games - first), rounds)
            for first in range(0, games, size)]


def run_games(source: ScenarioSource | PackedScenario, players: Mapping[str, str], seed: int,
              games: int, *,
              jobs: int = 1, backend: str = "local", scheduler: str | None = None,
              rounds: int | None = None,
              progress: Callable[[int], None] | None = None,
              warn: Callable[[str], None] | None = None) -> list[GameRecord]:
    """Every game's record, in game order; ``progress(done)`` after each chunk, ``warn(words)``
    when a worker died and its games are played again."""
    packed = source.pack() if isinstance(source, ScenarioSource) else source
    todo = chunks(packed, players, seed, games, jobs, rounds)
    if backend == "dask":
        if scheduler is None:
            raise UsageError("--backend dask needs --scheduler ADDRESS")
        results = _on_dask(todo, scheduler, progress, warn)
    elif backend != "local":
        raise UsageError(f"unknown backend {backend!r}; expected one of: {', '.join(BACKENDS)}")
    elif jobs <= 1:
        results = _here(todo, progress)
    else:
        results = _on_processes(todo, jobs, progress, warn)
    return [r for part in results for r in part]


def _here(todo: Sequence[Chunk], progress: Callable[[int], None] | None
          ) -> list[list[GameRecord]]:
    out: list[list[GameRecord]] = []
    for c in todo:
        out.append(play_chunk(c))
        if progress is not None:
            progress(sum(len(p) for p in out))
    return out


def _on_processes(todo: Sequence[Chunk], jobs: int, progress: Callable[[int], None] | None,
                  warn: Callable[[str], None] | None) -> list[list[GameRecord]]:
    """The chunks on ``jobs`` local processes (:mod:`sim.ai.workers`): a worker that dies is
    replaced and its chunk played again, so the records are those of one process."""
    try:
        return run_on_processes(todo, jobs, play_chunk, _counter(progress), _died(warn))
    except WorkersGaveUp as exc:
        raise _gave_up(todo, exc, f"killed {{its}} worker {MAX_TRIES} times ({exc.how})"
                       ) from None


def _on_dask(todo: Sequence[Chunk], scheduler: str, progress: Callable[[int], None] | None,
             warn: Callable[[str], None] | None) -> list[list[GameRecord]]:
    """The chunks on a Dask cluster (:mod:`sim.ai.cluster`)."""
    try:
        return run_on_dask(todo, scheduler, play_chunk, _counter(progress), warn,
                           lambda done: _tally(todo, done))
    except WorkersGaveUp as exc:
        raise _gave_up(todo, exc, "killed every worker that ran {them} (Dask's KilledWorker)"
                       ) from None


def _counter(progress: Callable[[int], None] | None
             ) -> Callable[[int, list[GameRecord]], None]:
    played = [0]

    def done(_: int, part: list[GameRecord]) -> None:
        played[0] += len(part)
        if progress is not None:
            progress(played[0])

    return done


def _died(warn: Callable[[str], None] | None) -> Callable[[str], None]:
    def died(how: str) -> None:
        if warn is not None:
            warn(f"a worker died ({how}); a new one plays its games again")

    return died


def _tally(todo: Sequence[Chunk], done: Sequence[int]) -> str:
    return f"{sum(todo[i].count for i in done)} of {sum(c.count for c in todo)} games"


def _gave_up(todo: Sequence[Chunk], exc: WorkersGaveUp, what: str) -> BatchError:
    """One line: which games could not be played, and how many finished."""
    lost = todo[exc.task]
    last = lost.first + lost.count - 1
    which = (f"game {lost.first} (seed {lost.seed + lost.first})" if lost.count == 1 else
             f"games {lost.first}..{last} (seeds {lost.seed + lost.first}..{lost.seed + last})")
    one = lost.count == 1
    what = what.format(its="its" if one else "their", them="it" if one else "them")
    return BatchError(f"{which} {what}; {_tally(todo, exc.finished)} finished, no figures")
