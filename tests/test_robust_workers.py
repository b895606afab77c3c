"""``simulate --jobs J`` loses nothing and leaves nothing behind (issue 31, defect 4).

A worker that dies is replaced and its games played again: the records stay those of one
process (game i from seed S+i, R-ALL-1's one seeded generator per game). Games that kill
every worker end the command with one line saying what finished. No worker outlives its
parent; Ctrl+C stops the batch and its workers.
"""

from __future__ import annotations

import contextlib
import json
import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sim.ai import batch
from sim.ai.batch import BatchError, Chunk, ScenarioSource, run_games
from sim.ai.match import GameRecord
from sim.cli import main
from tests.conftest import ROOT, SCENARIOS

WASTELAND = Path(sys.executable).parent / "wasteland"
SOURCE = ScenarioSource(path=str(SCENARIOS / "skirmish.toml"))
PLAYERS = {"settlers": "random", "mutants": "random"}
GAMES = 12  # in chunks of one game on two jobs: many chunks, many deaths possible


def test_a_killed_worker_is_replaced_and_the_records_are_those_of_one_process() -> None:
    here = run_games(SOURCE, PLAYERS, 3, GAMES, rounds=1)
    killed: list[int] = []
    notes: list[str] = []

    def progress(done: int) -> None:  # after the first chunk: kill a worker holding one
        if not killed:
            victim = multiprocessing.active_children()[0]
            assert victim.pid is not None
            os.kill(victim.pid, signal.SIGKILL)
            killed.append(victim.pid)

    there = run_games(SOURCE, PLAYERS, 3, GAMES, jobs=2, rounds=1, progress=progress,
                      warn=notes.append)
    assert killed and notes == ["a worker died (killed by SIGKILL); a new one plays its "
                                "games again"]
    assert there == here
    assert multiprocessing.active_children() == []


PLAY_CHUNK = batch.play_chunk


def _kills_its_worker(chunk: Chunk) -> list[GameRecord]:
    """Game 4 crashes its worker every time (as a crash in compiled code would)."""
    if chunk.first <= 4 < chunk.first + chunk.count:
        os._exit(3)
    return PLAY_CHUNK(chunk)


def test_games_that_kill_every_worker_end_the_batch_in_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(batch, "play_chunk", _kills_its_worker)  # the forked workers see it
    code = main(["simulate", "skirmish", "--games", "8", "--rounds", "1", "--jobs", "2",
                 "--ai", "settlers=random", "--ai", "mutants=random"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1
    assert err[-1].startswith("wasteland simulate: game 4 (seed 4) killed its worker 3 times "
                              "(exit status 3);")
    assert "of 8 games finished" in err[-1] and "Traceback" not in "\n".join(err)
    assert all("a worker died (exit status 3)" in line for line in err[:-1])
    assert multiprocessing.active_children() == []
    with pytest.raises(BatchError):
        run_games(SOURCE, PLAYERS, 0, 8, jobs=2, rounds=1)


# --- the parent gone, Ctrl+C -----------------------------------------------------------------

def _children(pid: int) -> set[int]:
    """The live children of ``pid`` (Linux /proc)."""
    out: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        with contextlib.suppress(OSError):  # a thread that just ended
            out.update(int(c) for c in (task / "children").read_text().split())
    return out


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for a reaper counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _long_batch(new_session: bool = False) -> tuple[subprocess.Popen[str], set[int]]:
    """``simulate --jobs 2`` of many games, once both its workers run: it and them."""
    child = subprocess.Popen(
        [str(WASTELAND), "simulate", "skirmish", "--games", "2000", "--rounds", "3",
         "--jobs", "2", "--ai", "settlers=random", "--ai", "mutants=random"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=new_session)
    workers: set[int] = set()
    for _ in range(600):  # up to a minute on a loaded machine (no timing is asserted)
        workers = _children(child.pid)
        if len(workers) == 2:
            break
        time.sleep(0.1)
    assert len(workers) == 2, "the batch never started two workers"
    return child, workers


def _gone_soon(pids: set[int]) -> set[int]:
    """The pids still alive after a while (every worker polls its parent twice a second)."""
    for _ in range(100):
        if not any(_alive(p) for p in pids):
            return set()
        time.sleep(0.1)
    return {p for p in pids if _alive(p)}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM], ids=["SIGKILL", "SIGTERM"])
def test_no_worker_outlives_its_parent(sig: signal.Signals) -> None:
    """Issue 31: re-parented workers were still running 390 s later."""
    child, workers = _long_batch()
    try:
        child.send_signal(sig)
        child.communicate(timeout=60)
        assert _gone_soon(workers) == set()
    finally:
        child.kill()
        for pid in workers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_stops_the_batch_and_its_workers() -> None:
    """The terminal sends SIGINT to the whole process group: one line, exit 130."""
    child, workers = _long_batch(new_session=True)
    try:
        os.killpg(child.pid, signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
        for pid in workers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
    assert child.returncode == 130
    assert err.strip().splitlines() == ["wasteland: interrupted"]
    assert out == ""
    assert {p for p in workers if _alive(p)} == set()


def test_the_command_line_gives_the_figures_of_one_process(
        capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "skirmish", "--games", "6", "--rounds", "1", "--seed", "2",
            "--ai", "settlers=random", "--ai", "mutants=random", "--json"]
    assert main(argv) == 0
    one = json.loads(capsys.readouterr().out)
    assert main([*argv, "--jobs", "3"]) == 0
    assert json.loads(capsys.readouterr().out) == one


WATCHED = """
import os, sys, time
from sim.ai import workers
parent = os.getpid()
pid = os.fork()
if pid == 0:
    sys.platform = "darwin"  # no prctl: only the watching thread is left
    workers.die_with_parent(parent)
    time.sleep(600)
    os._exit(0)
print(pid, flush=True)
os._exit(0)
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="forks")
def test_without_the_kernels_help_a_worker_still_ends_with_its_parent() -> None:
    """The parent-watch thread (macOS, or prctl missing) ends an orphaned worker."""
    done = subprocess.run([sys.executable, "-c", WATCHED], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    orphan = int(done.stdout.split()[0])
    try:
        assert _gone_soon({orphan}) == set()
    finally:
        if _alive(orphan):
            os.kill(orphan, signal.SIGKILL)
