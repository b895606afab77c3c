"""Nothing lost (issue 31, defects 1 and 3): every file written whole or not at all.

A save killed at any moment leaves a save that loads; a full disk leaves the old file as
it was and exits 1 naming the path and the OS's reason, never "wrote"; two windows saving
in one folder never overwrite each other's saves (R-ALL-1: a save replays the game).
"""

from __future__ import annotations

import errno
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from sim.atomic import WriteError, write_file, write_new
from sim.cli import main
from sim.engine.rng import SeededRng
from sim.game.kinds import new_game
from sim.game.save import load_game, save_game
from sim.scenario.format.loader import load_scenario
from tests.conftest import ROOT, SCENARIOS

SEED = SCENARIOS / "seed-activation.toml"
ENOSPC = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def _played(scenario: Path, steps: int, seed: int = 5):
    """A game of ``scenario`` after ``steps`` random legal actions (fewer if it ends)."""
    state = new_game(load_scenario(scenario), seed=seed)
    policy = SeededRng(seed)
    for _ in range(steps):
        if state.is_over:
            break
        state.apply(policy.choice(list(state.legal_actions())))
    return state


def _no_temporary_files(folder: Path) -> None:
    assert [p.name for p in folder.iterdir() if ".tmp" in p.name] == []


# --- SIGKILL during a save loop ------------------------------------------------------------

SAVE_LOOP = textwrap.dedent("""
    import sys
    from pathlib import Path
    from sim.engine.rng import SeededRng
    from sim.game.kinds import new_game
    from sim.game.save import save_game
    from sim.scenario.format.loader import load_scenario
    state = new_game(load_scenario(sys.argv[1]), seed=5)
    policy = SeededRng(5)
    for _ in range(60):
        if state.is_over:
            break
        state.apply(policy.choice(list(state.legal_actions())))
    actions = list(state.history)
    save = Path(sys.argv[2])
    save_game(state, save)
    print("ready", flush=True)
    while True:  # over one file, again and again, the game shrinking and growing
        for _ in range(len(actions) // 2):
            state.undo()
            save_game(state, save)
        for action in actions[len(state.history):]:
            state.apply(action)
            save_game(state, save)
""")


def test_sigkill_at_any_moment_of_a_save_loop_leaves_a_save_that_loads(tmp_path: Path) -> None:
    """30 of 30 (issue 31: the old in-place write left a 0-byte file in 19 of 60)."""
    shutil.copy(SEED, tmp_path / SEED.name)
    save = tmp_path / "loop.save.json"
    pick = random.Random(31)
    for attempt in range(30):
        child = subprocess.Popen([sys.executable, "-c", SAVE_LOOP, str(tmp_path / SEED.name),
                                  str(save)], stdout=subprocess.PIPE, cwd=ROOT, text=True)
        try:
            assert child.stdout is not None and child.stdout.readline().strip() == "ready"
            time.sleep(pick.uniform(0.0, 0.4))
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait(timeout=60)
        assert child.returncode == -signal.SIGKILL
        try:
            load_game(save)
        except Exception as exc:  # any failure to load is the defect
            pytest.fail(f"attempt {attempt}: the save does not load: {exc}")


# --- a full disk -----------------------------------------------------------------------------

def _full_disk_after(monkeypatch: pytest.MonkeyPatch, allowed: int) -> None:
    """``os.write`` writes ``allowed`` bytes in all, then fails as a full disk does."""
    real = os.write
    left = [allowed]

    def write(fd: int, data: bytes | memoryview) -> int:
        if left[0] <= 0:
            raise ENOSPC
        n = real(fd, bytes(data[:left[0]]))
        left[0] -= n
        return n

    monkeypatch.setattr(os, "write", write)


def test_a_full_disk_leaves_the_old_save_whole(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copy(SEED, tmp_path / SEED.name)
    save = tmp_path / "game.save.json"
    short = _played(tmp_path / SEED.name, 2)
    save_game(short, save)
    before = save.read_bytes()
    _full_disk_after(monkeypatch, 100)
    with pytest.raises(WriteError) as info:
        save_game(_played(tmp_path / SEED.name, 10), save)
    assert str(save) in str(info.value) and "No space left on device" in str(info.value)
    monkeypatch.undo()
    assert save.read_bytes() == before
    assert load_game(save).to_dict() == short.to_dict()
    _no_temporary_files(tmp_path)


def test_a_failed_fsync_leaves_the_old_file_whole(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "a.txt"
    target.write_text("old")

    def fsync(fd: int) -> None:
        raise ENOSPC

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(WriteError, match="No space left on device"):
        write_file(target, "new")
    assert target.read_text() == "old"
    _no_temporary_files(tmp_path)


@pytest.mark.parametrize("command", [
    ["render", "wasteland:seed-cover-1.toml"],
    ["map", "wasteland:seed-cover-1.toml", "knight", "--cell", "2"],
], ids=["render", "map"])
def test_png_on_a_full_disk_exits_1_naming_the_file_and_never_says_wrote(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        command: list[str]) -> None:
    """Issue 31, defect 3: a truncated PNG, "wrote", exit 0."""
    out = tmp_path / "board.png"
    out.write_bytes(b"the old picture")
    _full_disk_after(monkeypatch, 1000)
    code = main([*command, "-o", str(out)])
    monkeypatch.undo()
    captured = capsys.readouterr()
    assert code == 1
    assert "wrote" not in captured.out
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and str(out) in lines[0] and "No space left on device" in lines[0]
    assert out.read_bytes() == b"the old picture"
    _no_temporary_files(tmp_path)


def test_a_png_is_written_whole(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "board.png"
    assert main(["render", "wasteland:seed-cover-1.toml", "-o", str(out)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert f"wrote {out}" in capsys.readouterr().out
    _no_temporary_files(tmp_path)


def test_the_editors_save_on_a_full_disk_keeps_the_old_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from render.editor.core import EditorCore

    target = tmp_path / SEED.name
    shutil.copy(SEED, target)
    before = target.read_bytes()
    core = EditorCore(load_scenario(target), target, before.decode())
    _full_disk_after(monkeypatch, 10)
    assert core.save() is None
    monkeypatch.undo()
    assert target.read_bytes() == before
    assert str(target) in core.status and "No space left on device" in core.status
    _no_temporary_files(tmp_path)


# --- a file replaced keeps what it was -----------------------------------------------------

def test_a_replaced_file_keeps_its_permissions_and_a_link_is_written_through(
        tmp_path: Path) -> None:
    target = tmp_path / "real.toml"
    target.write_text("old")
    target.chmod(0o640)
    link = tmp_path / "link.toml"
    link.symlink_to(target)
    write_file(link, "new")
    assert link.is_symlink() and target.read_text() == "new"
    assert target.stat().st_mode & 0o777 == 0o640


# --- new names claimed atomically ------------------------------------------------------------

def test_a_new_name_is_never_written_over(tmp_path: Path) -> None:
    path = tmp_path / "a.save.json"
    assert write_new(path, "first")
    assert not write_new(path, "second")
    assert path.read_text() == "first"
    _no_temporary_files(tmp_path)


def test_a_file_system_without_hard_links_still_claims_names(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def link(src: str, dst: str) -> None:
        raise OSError(errno.EPERM, os.strerror(errno.EPERM))

    monkeypatch.setattr(os, "link", link)
    path = tmp_path / "a.save.json"
    assert write_new(path, "first")
    assert not write_new(path, "second")
    assert path.read_text() == "first"
    _no_temporary_files(tmp_path)


TWO_WINDOWS = textwrap.dedent("""
    import json, sys
    from pathlib import Path
    from render.input.controller import Controller
    from sim.game.kinds import new_game
    from sim.scenario.format.loader import load_scenario
    scenario = load_scenario(sys.argv[1])
    c = Controller(scenario, save_dir=Path(sys.argv[2]),
                   state=new_game(scenario, seed=int(sys.argv[3])))
    print("ready", flush=True)
    sys.stdin.readline()  # both start together
    saved = [str(c.save()) for _ in range(int(sys.argv[4]))]
    print(json.dumps(saved))
""")


def test_two_windows_saving_in_one_folder_keep_every_save(tmp_path: Path) -> None:
    """Issue 31, defect 1: without O_EXCL two writers overwrote 128 of 600 saves."""
    shutil.copy(SEED, tmp_path / SEED.name)
    count = 200
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    children = [subprocess.Popen([sys.executable, "-c", TWO_WINDOWS, str(tmp_path / SEED.name),
                                  str(tmp_path), str(seed), str(count)], cwd=ROOT, env=env,
                                 stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
                for seed in (1, 2)]
    for child in children:
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    for child in children:
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
    written = {}
    for seed, child in zip((1, 2), children, strict=True):
        out, _ = child.communicate(timeout=300)
        assert child.returncode == 0
        written[seed] = json.loads(out.strip().splitlines()[-1])
    assert "None" not in written[1] + written[2]
    assert not set(written[1]) & set(written[2])
    assert len(list(tmp_path.glob("*.save.json"))) == 2 * count
    for seed, paths in written.items():  # each file holds the game of the window that saved it
        assert {json.loads(Path(p).read_text())["seed"] for p in paths} == {seed}
