"""Every hostile scenario file is refused cleanly (issue 13): one line a problem, no traceback.

The cases a data file cannot hold (bytes that are not UTF-8, FIFOs, deep
nesting, long include chains, huge files) are built here; the others are
``tests/data/bad/*.toml`` with their ``# expect:`` lines
(tests/test_scenario_loader.py).
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

import sim.scenario.format.loader
from sim.cli import main
from sim.errors import ScenarioError
from sim.scenario.format import files as load_files
from sim.scenario.format.limits import (
    CIRCLE_POINTS,
    MAX_FILE_BYTES,
    MAX_INCLUDE_DEPTH,
    MAX_MODELS,
    MAX_NESTING,
    MAX_PIECES,
    MAX_TERRAIN_VERTICES,
    MAX_VERTICES,
)
from sim.scenario.format.loader import load_scenario
from tests.conftest import DATA, SCENARIOS

GOOD = DATA / "good" / "crate-and-wall.toml"
BAD = sorted((DATA / "bad").glob("*.toml"))


def good_text() -> str:
    return GOOD.read_text(encoding="utf-8")


def refused(path: Path) -> list[str]:
    """``wasteland check`` on ``path``: exit 1, and its output lines (each checked)."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["check", str(path)]) == 1
    lines = out.getvalue().splitlines()
    assert lines, "refused without a word"
    for line in lines:
        assert re.match(r"\S.*?: ", line), f"no file named in {line!r}"
    return lines


def message(path: Path) -> str:
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    return str(info.value)


# --- one line per problem, naming the file ------------------------------------------

@pytest.mark.parametrize("path", BAD, ids=[p.stem for p in BAD])
def test_check_prints_one_line_per_problem_naming_the_file(path: Path) -> None:
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    lines = refused(path)
    assert len(lines) == len(info.value.problems)
    assert all(p.file for p in info.value.problems)
    assert any(line.startswith(str(path)) or "lib" in line for line in lines)


# --- bytes, sizes, kinds of file ----------------------------------------------------------

def test_a_scenario_that_is_not_utf8_is_named_with_its_line(tmp_path: Path) -> None:
    bad = tmp_path / "latin1.toml"
    bad.write_bytes(good_text().replace("Crate and wall", "Caisse é mur").encode("latin-1"))
    [line] = refused(bad)
    line_no = 1 + good_text().split("Crate and wall")[0].count("\n")
    assert line == f"{bad}: not UTF-8 text: byte 0xe9 on line {line_no} (save the file as UTF-8)"


def test_an_included_file_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    (tmp_path / "lib.toml").write_bytes(b"format = 1\n# \xff\xfe\n")
    scenario = tmp_path / "s.toml"
    scenario.write_text(good_text().replace("board = [30, 20]",
                                            'board = [30, 20]\ninclude = ["lib.toml"]'))
    [line] = refused(scenario)
    assert "included file 'lib.toml': not UTF-8 text: byte 0xff on line 2" in line


def test_binary_bytes_are_refused(tmp_path: Path) -> None:
    bad = tmp_path / "noise.toml"
    bad.write_bytes(bytes(range(256)) * 4)
    [line] = refused(bad)
    assert "not UTF-8 text" in line or "invalid TOML" in line


def test_dev_zero_is_refused_without_reading_it() -> None:
    [line] = refused(Path("/dev/zero"))
    assert line == "/dev/zero: is a device, not a file"


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    [line] = refused(fifo)
    assert line == f"{fifo}: is a FIFO (named pipe), not a file"


def test_a_directory_is_refused(tmp_path: Path) -> None:
    [line] = refused(tmp_path)
    assert line.startswith(f"{tmp_path}: is a ")  # a folder: the CLI or the loader says so


def test_a_file_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.toml"
    big.write_text(good_text() + "#" * MAX_FILE_BYTES + "\n")
    [line] = refused(big)
    assert f"the limit is {MAX_FILE_BYTES}" in line


def test_an_included_fifo_is_refused_at_its_key(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "lib.toml")
    scenario = tmp_path / "s.toml"
    scenario.write_text(good_text().replace("board = [30, 20]",
                                            'board = [30, 20]\ninclude = ["lib.toml"]'))
    [line] = refused(scenario)
    assert line == f"{scenario}: include[0]: included file 'lib.toml': is a FIFO (named pipe), " \
                   "not a file"


# --- nesting and include chains -------------------------------------------------------------

@pytest.mark.parametrize("depth", [MAX_NESTING + 1, 5000])
@pytest.mark.parametrize("shape", ["array", "table"])
def test_deep_nesting_is_refused_with_a_message(tmp_path: Path, depth: int, shape: str) -> None:
    bad = tmp_path / "deep.toml"
    value = ("[" * depth + "]" * depth if shape == "array"
             else "{ a = " * depth + "1" + " }" * depth)
    bad.write_text(good_text() + f"\n[rules_data]\nkeywords = {value}\n")
    [line] = refused(bad)
    assert line == f"{bad}: values nested too deeply (the limit is {MAX_NESTING} levels)"


def _chain(tmp_path: Path, n: int) -> Path:
    for i in range(n):
        nxt = f'include = ["lib{i + 1}.toml"]\n' if i + 1 < n else ""
        (tmp_path / f"lib{i}.toml").write_text(f"format = 1\n{nxt}")
    scenario = tmp_path / "s.toml"
    scenario.write_text(good_text().replace("board = [30, 20]",
                                            'board = [30, 20]\ninclude = ["lib0.toml"]'))
    return scenario


def test_an_include_chain_1200_files_deep_is_refused(tmp_path: Path) -> None:
    [line] = refused(_chain(tmp_path, 1200))
    assert f"includes nest deeper than {MAX_INCLUDE_DEPTH} files" in line


def test_an_include_chain_within_the_limit_loads(tmp_path: Path) -> None:
    assert load_scenario(_chain(tmp_path, MAX_INCLUDE_DEPTH - 1)).name == "Crate and wall"


def test_include_fan_out_reads_each_file_once(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """18 libraries each including every later one: 18 reads, not 2**18."""
    n = 18
    for i in range(n):
        later = ", ".join(f'"lib{j}.toml"' for j in range(i + 1, n))
        (tmp_path / f"lib{i}.toml").write_text(f"format = 1\ninclude = [{later}]\n")
    scenario = tmp_path / "s.toml"
    every = ", ".join(f'"lib{i}.toml"' for i in range(n))
    scenario.write_text(good_text().replace("board = [30, 20]",
                                            f"board = [30, 20]\ninclude = [{every}]"))
    reads: list[Path] = []
    real = load_files.read_text

    def counting(path: Path) -> str:
        reads.append(path)
        return real(path)

    monkeypatch.setattr(sim.scenario.format.loader, "read_text", counting)
    load_scenario(scenario)
    assert sorted(p.name for p in reads) == sorted(["s.toml", *(f"lib{i}.toml" for i in range(n))])


def test_a_diamond_of_includes_is_fine(tmp_path: Path) -> None:
    """A includes C, B includes C: C's cards are read once, not reported as duplicates."""
    text = good_text()
    weapon = text[text.index("[weapons.laser_rifle]"):text.index("[[terrain]]")]
    (tmp_path / "c.toml").write_text("format = 1\n" + weapon)
    (tmp_path / "a.toml").write_text('format = 1\ninclude = ["c.toml"]\n')
    (tmp_path / "b.toml").write_text('format = 1\ninclude = ["c.toml"]\n')
    scenario = tmp_path / "s.toml"
    scenario.write_text(text.replace(weapon, "").replace(
        "board = [30, 20]", 'board = [30, 20]\ninclude = ["a.toml", "b.toml"]'))
    s = load_scenario(scenario)
    assert s.weapons["laser_rifle"].long == "blue"
    assert s.includes == ("a.toml", "b.toml")


# --- the shipped library, by name (issue 14) ----------------------------------------------

def test_a_users_scenario_includes_the_shipped_library_by_name(tmp_path: Path) -> None:
    text = (SCENARIOS / "skirmish.toml").read_text()
    assert '"units/wasteland.toml"' in text
    mine = tmp_path / "mine.toml"
    mine.write_text(text.replace('"units/wasteland.toml"', '"wasteland:units/wasteland.toml"'))
    s = load_scenario(mine)
    assert s == load_scenario(SCENARIOS / "skirmish.toml")


def test_a_shipped_name_cannot_leave_the_shipped_folder(tmp_path: Path) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text(good_text().replace(
        "board = [30, 20]", 'board = [30, 20]\ninclude = ["wasteland:../../etc/passwd"]'))
    [line] = refused(mine)
    assert "include[0]: include 'wasteland:../../etc/passwd' is outside" in line


# --- sizes beyond the documented limits ------------------------------------------------------

def _many_models(n: int) -> str:
    return "".join(f'\n[[models]]\nid = "x{i}"\nunit = "knight"\nside = "bos"\nat = [1, 1]\n'
                   for i in range(n))


def test_ten_thousand_models_are_refused_at_the_limit(tmp_path: Path) -> None:
    bad = tmp_path / "crowd.toml"
    bad.write_text(good_text() + _many_models(10_000))
    [line] = refused(bad)
    total = len(load_scenario(GOOD).models) + 10_000
    assert line == f"{bad}: models: {total} models; the limit is {MAX_MODELS}"


def test_five_thousand_pieces_are_refused_at_the_limit(tmp_path: Path) -> None:
    bad = tmp_path / "rubble.toml"
    bad.write_text(good_text() + "".join(
        f'\n[[terrain]]\nid = "r{i}"\ncircle = {{ center = [15, 15], radius = 0.1 }}\n'
        for i in range(5000)))
    [line] = refused(bad)
    total = len(load_scenario(GOOD).terrain) + 5000
    assert line == f"{bad}: terrain: {total} terrain pieces; the limit is {MAX_PIECES}"


def _ring(n: int, cx: float = 15.0, cy: float = 5.0, r: float = 2.0) -> str:
    import math

    return ", ".join(f"[{cx + r * math.cos(2 * math.pi * i / n):.6f}, "
                     f"{cy + r * math.sin(2 * math.pi * i / n):.6f}]" for i in range(n))


def test_a_hundred_thousand_vertex_polygon_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "coast.toml"
    points = ", ".join(["[1, 1]"] * 100_000)  # short enough to stay under the size limit
    bad.write_text(good_text() + f'\n[[terrain]]\nid = "coast"\npolygon = [{points}]\n')
    lines = refused(bad)
    assert f"polygon: 100000 points; the limit is {MAX_VERTICES} a ring" in lines[0]


def test_all_terrain_together_has_a_vertex_limit(tmp_path: Path) -> None:
    per = MAX_TERRAIN_VERTICES // 2 + 1
    assert per <= MAX_VERTICES  # each polygon alone is fine
    bad = tmp_path / "busy.toml"
    bad.write_text(good_text()
                   + f'\n[[terrain]]\nid = "p1"\npolygon = [{_ring(per, 15, 4)}]\n'
                   + f'\n[[terrain]]\nid = "p2"\npolygon = [{_ring(per, 25, 16)}]\n')
    [line] = refused(bad)
    total = 2 * per + sum(len(p.polygon or ()) for p in load_scenario(GOOD).terrain)
    assert line == (f"{bad}: terrain: {total} points in all terrain outlines together "
                    f"(a circle counts {CIRCLE_POINTS}); the limit is {MAX_TERRAIN_VERTICES}")


def test_every_shipped_scenario_is_within_the_limits() -> None:
    for path in SCENARIOS.glob("*.toml"):
        load_scenario(path)


def test_a_copied_library_folder_still_loads(tmp_path: Path) -> None:
    """Relative includes keep working after the checks above (the common case)."""
    shutil.copytree(SCENARIOS / "units", tmp_path / "units")
    shutil.copy(SCENARIOS / "skirmish.toml", tmp_path)
    assert len(load_scenario(tmp_path / "skirmish.toml").models) == 12


# --- every command refuses what check refuses, in one line ---------------------------------

def _hostile_files(tmp_path: Path) -> list[Path]:
    latin = tmp_path / "latin1.toml"
    latin.write_bytes(good_text().replace("Crate and wall", "Caisse é").encode("latin-1"))
    deep = tmp_path / "deep.toml"
    deep.write_text(good_text() + "\n[rules_data]\nkeywords = " + "[" * 5000 + "]" * 5000 + "\n")
    spaced = DATA / "bad" / "model-id-nbsp.toml"
    three = DATA / "bad" / "three-sides.toml"
    return [latin, deep, spaced, three, Path("/dev/zero")]


@pytest.mark.parametrize("command", ["los", "render", "play"])
def test_every_command_refuses_a_hostile_file_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    """No traceback and no window: `play` refuses before it opens one (exit 1)."""
    for path in _hostile_files(tmp_path):
        argv = {"los": ["los", str(path), "a", "b"],
                "render": ["render", str(path), "-o", str(tmp_path / "out.png")],
                "play": ["play", str(path)]}[command]
        assert main(argv) == 1, path
        err = capsys.readouterr().err
        assert str(path) in err and "Traceback" not in err
        assert len(err.strip().splitlines()) == 1, err  # each file has one problem
        assert not (tmp_path / "out.png").exists()
