"""numba's cached kernel code is dropped when any file of its folder changes
(geometry/numba_cache.py): the sight kernel's compiled functions call each other
across kernel.py, corridor.py and packing.py, and numba checks only a function's
own file, so without this an edit of corridor.py would keep running the old code."""

from __future__ import annotations

import os
from pathlib import Path

from geometry.numba_cache import drop_stale


def _folder(tmp_path: Path, cache_age: float) -> Path:
    """A package folder with two modules and cached code ``cache_age`` seconds older
    (negative: newer) than its newest module."""
    (tmp_path / "kernel.py").write_text("x = 1\n")
    (tmp_path / "corridor.py").write_text("y = 2\n")
    cache = tmp_path / "__pycache__"
    cache.mkdir()
    for name in ("kernel._one-10.py311.nbi", "kernel._one-10.py311.1.nbc",
                 "corridor.near-5.py311.nbi", "corridor.near-5.py311.1.nbc",
                 "kernel.cpython-311.pyc"):
        (cache / name).write_bytes(b"")
    source = (tmp_path / "corridor.py").stat().st_mtime
    for entry in cache.iterdir():
        os.utime(entry, (source - cache_age, source - cache_age))
    return tmp_path


def test_code_older_than_any_module_is_dropped(tmp_path: Path) -> None:
    folder = _folder(tmp_path, cache_age=60)
    assert drop_stale(folder) == 2
    assert sorted(p.name for p in (folder / "__pycache__").iterdir()) == [
        "kernel.cpython-311.pyc"]  # Python's own cache is not numba's business


def test_code_newer_than_every_module_is_kept(tmp_path: Path) -> None:
    folder = _folder(tmp_path, cache_age=-60)
    assert drop_stale(folder) == 0
    assert len(list((folder / "__pycache__").iterdir())) == 5


def test_an_edit_of_one_module_drops_the_code_of_all(tmp_path: Path) -> None:
    folder = _folder(tmp_path, cache_age=-60)
    later = (folder / "__pycache__" / "kernel._one-10.py311.nbi").stat().st_mtime + 60
    os.utime(folder / "corridor.py", (later, later))
    assert drop_stale(folder) == 2


def test_the_sight_folder_is_guarded() -> None:
    """geometry/sight/ runs the guard when imported, before any kernel is called."""
    init = Path(__file__).resolve().parent.parent / "geometry" / "sight" / "__init__.py"
    assert "drop_stale(Path(__file__).parent)" in init.read_text(encoding="utf-8")
