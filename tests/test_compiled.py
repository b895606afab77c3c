"""The compiled kernels: compiled once per machine, and a user is told when that happens.

numba compiles the sight kernels on first use (tens of seconds on a new install);
the command line does it up front for the commands that need sight, with a line on
stderr, so the first query does not stall without a word (geometry/compiled.py).
"""

from __future__ import annotations

import pytest

from geometry import compiled
from sim import cli


def test_the_kernels_here_are_cached() -> None:
    """`make` compiled them after installing (the Makefile's kernel step)."""
    assert compiled.is_cached()


def test_a_cold_cache_is_compiled_with_a_notice(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    calls: list[str] = []

    def compile_all() -> float:
        calls.append("compiled")
        return 0.0

    monkeypatch.setattr(compiled, "is_cached", lambda: False)
    monkeypatch.setattr(compiled, "compile_all", compile_all)
    assert cli.main(["los", "skirmish", "knight", "mutant-2"]) == 0
    out = capsys.readouterr()
    assert calls == ["compiled"]
    assert out.err.count("compiling the sight kernels") == 1
    assert out.out.startswith("knight -> mutant-2:")


def test_a_warm_cache_says_nothing(monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(compiled, "is_cached", lambda: True)
    monkeypatch.setattr(compiled, "compile_all", lambda: pytest.fail("compiled again"))
    assert cli.main(["los", "skirmish", "knight", "mutant-2"]) == 0
    assert capsys.readouterr().err == ""


def test_commands_without_sight_do_not_compile(monkeypatch: pytest.MonkeyPatch,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(compiled, "is_cached", lambda: False)
    monkeypatch.setattr(compiled, "compile_all", lambda: pytest.fail("compiled for check"))
    assert cli.main(["check", "skirmish"]) == 0
    assert "compiling" not in capsys.readouterr().err
