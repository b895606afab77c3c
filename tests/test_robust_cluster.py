"""``simulate --backend dask`` (issue 31, defect 5): the scenario travels as text with its
libraries, one deadline covers connecting and the handshake, every client error is one
line, and a batch with no worker says it waits and gives up in time. Only loopback
addresses; the games are those of one process (R-ALL-1: game i from seed S+i)."""

from __future__ import annotations

import json
import pickle
import shutil
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from distributed import LocalCluster

from sim.ai import batch
from sim.ai.batch import ScenarioSource, run_games
from sim.cli import main
from tests.conftest import ROOT, SCENARIOS

PLAYERS = {"settlers": "random", "mutants": "random"}
CHILD = textwrap.dedent("""
    import sys
    import sim.ai.cluster as cluster
    cluster.CONNECT_S, cluster.NO_WORKER_S = float(sys.argv[1]), float(sys.argv[2])
    from sim.cli import main
    sys.exit(main(sys.argv[3:]))
""")


def _simulate_child(scheduler: str, *extra: str, connect_s: float = 3, no_worker_s: float = 3,
                    ) -> subprocess.CompletedProcess[str]:
    """``simulate --backend dask`` in a process of its own, with short deadlines (so the old
    code's endless wait fails the test instead of hanging it)."""
    argv = ["simulate", "skirmish", "--games", "2", "--rounds", "1", "--ai", "settlers=random",
            "--ai", "mutants=random", "--backend", "dask", "--scheduler", scheduler, *extra]
    return subprocess.run([sys.executable, "-c", CHILD, str(connect_s), str(no_worker_s),
                           *argv], cwd=ROOT, capture_output=True, text=True, timeout=120)


# --- the scenario as text ---------------------------------------------------------------------

def _copied(tmp_path: Path) -> Path:
    """A scenario in a folder of its own that includes a library beside it."""
    folder = tmp_path / "mine"
    (folder / "lib").mkdir(parents=True)
    shutil.copy(SCENARIOS / "units" / "wasteland.toml", folder / "lib" / "cards.toml")
    text = (SCENARIOS / "skirmish.toml").read_text(encoding="utf-8")
    assert '"units/wasteland.toml"' in text
    (folder / "game.toml").write_text(text.replace('"units/wasteland.toml"',
                                                   '"lib/cards.toml"'), encoding="utf-8")
    return folder / "game.toml"


def test_the_workers_are_sent_texts_not_paths(tmp_path: Path) -> None:
    """Issue 31: a worker was sent the client's absolute path ("file not found" elsewhere)."""
    scenario = _copied(tmp_path)
    todo = batch.chunks(ScenarioSource(path=str(scenario)).pack(), PLAYERS, 0, 2, 1)
    sent = pickle.dumps(todo)
    assert str(tmp_path).encode() not in sent and b"cards.toml" in sent
    shutil.rmtree(tmp_path / "mine")  # another machine: none of these files
    assert len(batch.play_chunk(todo[0])) == todo[0].count


def test_a_shipped_scenario_travels_with_its_shipped_library() -> None:
    packed = ScenarioSource(path=str(SCENARIOS / "skirmish.toml")).pack()
    assert dict(packed.shipped)["units/wasteland.toml"] == (
        SCENARIOS / "units" / "wasteland.toml").read_text(encoding="utf-8")
    assert str(SCENARIOS).encode() not in pickle.dumps(packed)


def test_on_a_cluster_that_has_none_of_the_files(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    scenario = _copied(tmp_path)
    source = ScenarioSource(path=str(scenario))
    here = run_games(source, PLAYERS, 3, 2, rounds=1)
    pack = ScenarioSource.pack

    def pack_then_move(self: ScenarioSource) -> object:
        packed = pack(self)
        shutil.move(tmp_path / "mine", tmp_path / "gone")  # the workers cannot read them
        return packed

    monkeypatch.setattr(ScenarioSource, "pack", pack_then_move)
    with LocalCluster(processes=False, n_workers=1, threads_per_worker=1,
                      dashboard_address=None) as cluster:
        there = run_games(source, PLAYERS, 3, 2, rounds=1, backend="dask",
                          scheduler=cluster.scheduler_address)
    assert there == here


# --- what answers at the address --------------------------------------------------------------

class _Server:
    """A TCP service on 127.0.0.1 that is not Dask: says ``greeting`` (or nothing) to each
    connection and keeps it open."""

    def __init__(self, greeting: bytes) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen()
        self.greeting = greeting
        self.conns: list[socket.socket] = []
        threading.Thread(target=self.serve, daemon=True).start()

    @property
    def address(self) -> str:
        return f"tcp://127.0.0.1:{self.sock.getsockname()[1]}"

    def serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.conns.append(conn)
            if self.greeting:
                conn.sendall(self.greeting)

    def close(self) -> None:
        self.sock.close()
        for c in self.conns:
            c.close()


@pytest.fixture
def silent() -> Iterator[_Server]:
    server = _Server(b"")
    yield server
    server.close()


@pytest.fixture
def http() -> Iterator[_Server]:
    """What the dashboard's port or a web server answers: HTTP, not Dask's frames."""
    server = _Server(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 4)
    yield server
    server.close()


def test_a_port_that_never_speaks_dask_ends_in_one_line(silent: _Server) -> None:
    """Issue 31: the dashboard's port as --scheduler hung forever."""
    done = _simulate_child(silent.address)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert silent.address in lines[0] and "no Dask scheduler answered within 3 s" in lines[0]


def test_a_service_that_is_not_dask_ends_in_one_line(
        http: _Server, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 31: a 40-line traceback ending 'Unable to allocate 3.07 EiB'."""
    code = main(["simulate", "skirmish", "--games", "1", "--rounds", "1", "--backend", "dask",
                 "--scheduler", http.address])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1 and http.address in err[0]
    assert "not a Dask scheduler" in err[0] or "no Dask scheduler answered" in err[0]
    code = main(["simulate", "skirmish", "--games", "1", "--backend", "dask", "--scheduler",
                 http.address, "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["format"] == "wasteland-error/1" and http.address in data["error"]


def test_nothing_listening_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as s:  # a port just freed: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    done = _simulate_child(f"tcp://127.0.0.1:{port}")
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1 and len(lines) == 1 and f"127.0.0.1:{port}" in lines[0]
    assert "cannot reach a Dask scheduler" in lines[0]


# --- no worker ----------------------------------------------------------------------------------

def _scheduler_only() -> LocalCluster:
    return LocalCluster(n_workers=0, processes=False, protocol="tcp", host="127.0.0.1",
                        dashboard_address=None)


def test_no_worker_is_announced_and_waited_for_in_time() -> None:
    """Issue 31: with no worker the run waited silently, for ever."""
    with _scheduler_only() as cluster:
        done = _simulate_child(cluster.scheduler_address, no_worker_s=2)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 1
    assert lines == [
        f"wasteland simulate: no Dask worker at {cluster.scheduler_address} yet; waiting up "
        "to 2 s for one",
        f"wasteland simulate: --scheduler {cluster.scheduler_address}: no Dask worker joined "
        "within 2 s; no game played"]


def test_every_worker_gone_mid_batch_is_announced_and_ends_in_time() -> None:
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                      host="127.0.0.1", dashboard_address=None) as cluster:
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, "10", "3", "simulate", "skirmish", "--games", "400",
             "--rounds", "3", "--ai", "settlers=random", "--ai", "mutants=random",
             "--backend", "dask", "--scheduler", cluster.scheduler_address],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            for _ in range(600):  # until the batch's tasks reach the scheduler
                if cluster.scheduler.tasks:
                    break
                time.sleep(0.1)
            assert cluster.scheduler.tasks
            cluster.scale(0)
            _, err = child.communicate(timeout=120)
        finally:
            child.kill()
    lines = err.strip().splitlines()
    assert child.returncode == 1
    assert "every Dask worker" in lines[-2] and "waiting up to 3 s" in lines[-2]
    assert "no Dask worker for 3 s" in lines[-1] and "of 400 games finished" in lines[-1]
