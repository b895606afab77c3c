"""geometry/jit.py: a kernel compiles wherever the package runs (issue 30). The case of
an unwritable install and HOME is run for real from the wheel (tests/test_cli_wheel.py);
here the last resort, no folder at all, and the choice of folder."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, cast

import pytest

from geometry import jit as jit_module


def _sourceless(text: str) -> Callable[[float], float]:
    """A function with no source file: numba can cache it nowhere ("no locator")."""
    namespace: dict[str, Any] = {}
    exec(text, namespace)  # a fixed text of this test
    return cast(Callable[[float], float], namespace["f"])


def test_with_no_cache_folder_the_kernel_compiles_uncached_and_says_so_once(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(jit_module, "writable_cache_folder", lambda: None)
    monkeypatch.delenv(jit_module.NO_CACHE, raising=False)
    try:
        add = jit_module.jit(_sourceless("def f(x):\n    return x + 1.5\n"))
        twice = jit_module.jit(_sourceless("def f(x):\n    return 2.0 * x\n"))
    finally:  # this process's later kernels are cached as usual
        os.environ.pop(jit_module.NO_CACHE, None)
    assert (add(1.0), twice(2.0)) == (2.5, 4.0)
    err = capsys.readouterr().err
    assert err.count("each run compiles them again") == 1, err


def test_without_a_writable_home_the_cache_goes_to_a_private_temp_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(tmp_path / "tmp"))
    can_write = jit_module._can_write  # HOME refused, as for a user who cannot write it
    monkeypatch.setattr(jit_module, "_can_write",
                        lambda folder, uid: not folder.is_relative_to(home)
                        and can_write(folder, uid))
    folder = jit_module.writable_cache_folder()
    assert folder == tmp_path / "tmp" / f"wasteland-sim-{os.getuid()}" / "numba"
    assert folder.is_dir() and folder.stat().st_mode & 0o077 == 0


def test_a_folder_of_another_user_in_the_temp_folder_is_not_taken(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    theirs = tmp_path / "wasteland-sim-1" / "numba"
    theirs.mkdir(parents=True)
    assert not jit_module._can_write(theirs, uid=os.getuid() + 1)
