"""Issue 14 "Done when": from the wheel, installed outside the checkout and run from an
empty folder, ``wasteland --version``, ``scenarios``, ``check skirmish``, ``los skirmish
knight mutant-2 --json`` (valid against the wheel's own schema, ``wasteland schema
los``) and a user's scenario including the shipped unit library
(``wasteland:units/wasteland.toml``) all work.

The wheel is built once (``pip wheel --no-deps``) and installed with ``pip install
--no-deps --target DIR``; the commands run as the installed ``wasteland`` script with
``PYTHONPATH=DIR`` only, so ``sim`` comes from the wheel, and its dependencies from the
project's venv (no network at install). The first ``los`` compiles the sight kernel into
the fresh install (numba, ``cache=True``): most of this module's ~30 s.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.conftest import ROOT
from tests.test_entry_points import BOOT  # the real entry point, told when five frames ran

VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
    "version"]

USER_SCENARIO = """\
format = 1
name = "A user's duel"
rules = "rulebook"
board = [24, 24]
include = ["wasteland:units/wasteland.toml"]

[sides.bos]
name = "Brotherhood"

[sides.mutants]
name = "Mutants"

# a 2-inch-wide wall straight across the line between the two bases: no sight (R-LOS-1)
[[terrain]]
id = "wall"
polygon = [[11, 8], [13, 8], [13, 14], [11, 14]]
movement = "impassable"
blocks_los = true
cover = true
height = 3

[[models]]
id = "knight"
unit = "knight"
side = "bos"
at = [5, 11]

[[models]]
id = "mutant"
unit = "super_mutant"
side = "mutants"
at = [19, 11]
"""


def _pip(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pip", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=300, check=False)


# Built from a clean copy: setuptools' in-tree build/ folder may hold files deleted since.
NOT_SOURCE = shutil.ignore_patterns(".venv", ".git", "build", "dist", "*.egg-info",
                                    "__pycache__", ".*_cache", ".hypothesis", "out")


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheel of this checkout, installed into a folder of its own; that folder."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE, symlinks=True)
    built = _pip("wheel", "--no-deps", "-q", "-w", str(work / "dist"), str(source), cwd=work)
    if built.returncode != 0:  # no network for the isolated build: the venv's setuptools
        built = _pip("wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                     str(work / "dist"), str(source), cwd=work)
    assert built.returncode == 0, built.stderr
    (wheel,) = (work / "dist").glob("wasteland_sim-*.whl")
    target = work / "site"
    got = _pip("install", "--no-deps", "-q", "--target", str(target), str(wheel), cwd=work)
    assert got.returncode == 0, got.stderr
    return target


@pytest.fixture
def empty(tmp_path: Path) -> Path:
    folder = tmp_path / "empty"
    folder.mkdir()
    return folder


def wasteland(installed: Path, cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """The installed ``wasteland`` script, importing only from the installed wheel."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(PYTHONPATH=str(installed), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    return subprocess.run([str(installed / "bin" / "wasteland"), *argv], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def test_the_commands_come_from_the_wheel(installed: Path, empty: Path) -> None:
    got = wasteland(installed, empty, "scenarios", "--json")
    assert got.returncode == 0, got.stderr
    data = json.loads(got.stdout)
    assert Path(data["folder"]).resolve() == (installed / "scenarios").resolve()
    shipped = sorted(p.stem for p in (ROOT / "scenarios").glob("*.toml"))
    assert [s["name"] for s in data["scenarios"]] == shipped  # the wheel carries them all


def test_version(installed: Path, empty: Path) -> None:
    got = wasteland(installed, empty, "--version")
    assert (got.returncode, got.stdout) == (0, f"wasteland {VERSION}\n")


def test_scenarios(installed: Path, empty: Path) -> None:
    got = wasteland(installed, empty, "scenarios")
    assert got.returncode == 0, got.stderr
    rows = {line.split()[0]: line for line in got.stdout.splitlines()[1:]}
    assert "Crossroads Skirmish" in rows["skirmish"] and "seed-cover-1" in rows


def test_check_skirmish(installed: Path, empty: Path) -> None:
    got = wasteland(installed, empty, "check", "skirmish")
    assert (got.returncode, got.stdout, got.stderr) == (0, "skirmish: ok\n", "")


def test_los_json_is_valid_against_its_schema(installed: Path, empty: Path) -> None:
    got = wasteland(installed, empty, "los", "skirmish", "knight", "mutant-2", "--json")
    assert got.returncode == 0, got.stderr
    data: dict[str, Any] = json.loads(got.stdout)
    shipped = wasteland(installed, empty, "schema", "los")  # the wheel carries its schemas
    assert shipped.returncode == 0, shipped.stderr
    schema = json.loads(shipped.stdout)
    assert schema == json.loads((ROOT / "sim" / "data" / "schemas" / "los.json").read_text(
        encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(data)
    assert (data["attacker"], data["target"], data["scenario"]) == (
        "knight", "mutant-2", "skirmish")


def test_a_users_scenario_includes_the_shipped_library(installed: Path, empty: Path) -> None:
    (empty / "duel.toml").write_text(USER_SCENARIO, encoding="utf-8")
    got = wasteland(installed, empty, "check", "duel.toml")
    assert (got.returncode, got.stdout) == (0, "duel.toml: ok\n"), got.stderr
    got = wasteland(installed, empty, "los", "duel.toml", "knight", "mutant", "--json")
    assert got.returncode == 0, got.stderr
    data = json.loads(got.stdout)
    assert data["line_of_sight"] is False and data["blocked_by"] == ["wall"]
    assert sorted(p.name for p in empty.iterdir()) == ["duel.toml"]  # nothing written here


# --- every sub-command once, as installed (issue 30) -------------------------------------



@pytest.mark.parametrize("argv, output", [
    (["shoot", "seed-plasma", "survivor", "mutant-a", "--weapon", "plasma_rifle", "--json"],
     None),
    (["map", "skirmish", "knight", "--cell", "1", "--json"], None),
    (["render", "skirmish", "-o", "board.png"], "board.png"),
    (["map", "skirmish", "knight", "--cell", "1", "-o", "map.png"], "map.png"),
    (["simulate", "skirmish", "--games", "1", "--rounds", "1", "--json"], None),
    (["schema", "simulate"], None),
], ids=lambda v: v[0] if isinstance(v, list) else "")
def test_each_command_runs_from_the_wheel(installed: Path, empty: Path, argv: list[str],
                                          output: str | None) -> None:
    got = wasteland(installed, empty, *argv)
    assert got.returncode == 0, got.stderr
    if output is None:
        json.loads(got.stdout)
    else:
        assert (empty / output).read_bytes().startswith(b"\x89PNG")


def test_replay_runs_from_the_wheel(installed: Path, empty: Path) -> None:
    """A game saved by the installed package (a shipped scenario, by its name) replays."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(installed)
    make = ("from sim.game.kinds import new_game\nfrom sim.game.save import save_game\n"
            "from sim.scenario.format.shipped import resolve_scenario\n"
            "from sim.scenario.format.loader import load_scenario\n"
            "s = new_game(load_scenario(resolve_scenario('skirmish').path), seed=3)\n"
            "s.apply(next(iter(s.legal_actions())))\nsave_game(s, 'game.json')\n")
    made = subprocess.run([sys.executable, "-c", make], cwd=empty, env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    assert made.returncode == 0, made.stderr
    got = wasteland(installed, empty, "replay", "game.json", "--actions")
    assert got.returncode == 0, got.stderr
    assert "\n> " in got.stdout and "Round 1 begins" in got.stdout


@pytest.mark.parametrize("argv", [["play", "skirmish"], ["edit", "--new", "10x10", "-o", "x.toml"],
                                  ["edit", "skirmish"]], ids=lambda v: "-".join(v[:2]))
def test_the_windows_run_from_the_wheel(installed: Path, empty: Path, argv: list[str]) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(PYTHONPATH=str(installed), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
               PYGAME_HIDE_SUPPORT_PROMPT="1")
    child = subprocess.Popen([sys.executable, "-c", BOOT, *argv], cwd=empty, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        assert "ready" in (line.strip() for line in iter(child.stdout.readline, "")), (
            child.communicate(timeout=60)[1])
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == 0 and "Traceback" not in err, err


# --- installed by root, run by a user who can write neither the install nor HOME -------
# (issue 30: numba's cache=True found no folder and every command died at import)

def _read_only(folder: Path) -> None:
    for path in [folder, *folder.rglob("*")]:
        if not path.is_symlink():
            path.chmod(path.stat().st_mode & ~0o222)


def _writable(folder: Path) -> None:
    for path in [folder, *folder.rglob("*")]:
        if not path.is_symlink():
            path.chmod(path.stat().st_mode | 0o200)


@pytest.fixture(scope="module")
def locked(installed: Path, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The wheel installed read-only (no compiled kernels beside it yet), a read-only HOME,
    and a writable temp folder; root is run without the capability to ignore file modes."""
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        pytest.skip("root without setpriv cannot be made to respect file modes")
    work = tmp_path_factory.mktemp("locked")
    site = work / "site"
    shutil.copytree(installed, site, ignore=shutil.ignore_patterns("__pycache__"),
                    symlinks=True)
    home, tmp = work / "home", work / "tmp"
    home.mkdir()
    tmp.mkdir()
    _read_only(site)
    _read_only(home)
    yield site, home, tmp
    _writable(site)
    _writable(home)


def as_user(locked: Any, cwd: Path, *argv: str, tmp: Path | None = None
            ) -> subprocess.CompletedProcess[str]:
    """``wasteland ARGV`` from the locked install, as a user who cannot write it or HOME."""
    site, home, default_tmp = locked
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "XDG_", "NUMBA_"))}
    env.update(PYTHONPATH=str(site), HOME=str(home), TMPDIR=str(tmp or default_tmp),
               SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONDONTWRITEBYTECODE="1")
    command = [str(site / "bin" / "wasteland"), *argv]
    if os.geteuid() == 0:  # root ignores file modes unless it drops these capabilities
        command = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner",
                   *command]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600, check=False)


def test_the_locked_install_really_is_unwritable(locked: Any, empty: Path) -> None:
    """The set-up the tests below rely on: the user cannot write the install or HOME."""
    site, home, _ = locked
    probe = ("import pathlib, sys\nfor d in sys.argv[1:]:\n    try:\n"
             "        (pathlib.Path(d) / 'probe').write_text('x')\n        print('wrote', d)\n"
             "    except OSError:\n        pass\n")
    command = [sys.executable, "-c", probe, str(site / "geometry"), str(home)]
    if os.geteuid() == 0:
        command = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner",
                   *command]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert (done.returncode, done.stdout) == (0, ""), done.stderr


def test_light_commands_run_without_a_writable_home(locked: Any, empty: Path) -> None:
    for argv in (["--version"], ["scenarios"], ["check", "skirmish"]):
        got = as_user(locked, empty, *argv)
        assert (got.returncode, got.stderr) == (0, ""), (argv, got.stderr)


def test_sight_caches_its_kernels_in_a_folder_the_user_can_write(locked: Any,
                                                                  empty: Path) -> None:
    _, _, tmp = locked
    got = as_user(locked, empty, "los", "skirmish", "knight", "mutant-2")
    assert got.returncode == 0, got.stderr
    assert got.stderr.count("the compiled kernels are cached in") == 1, got.stderr
    assert str(tmp) in got.stderr and "line of sight" in got.stdout.lower()
    again = as_user(locked, empty, "los", "skirmish", "knight", "mutant-2")
    assert again.returncode == 0, again.stderr
    assert "compiling" not in again.stderr  # loaded from that cache, not compiled again
    assert again.stdout == got.stdout


def test_the_wheel_carries_its_schemas_and_type_marks(installed: Path) -> None:
    """Every --json help text names ``wasteland schema KIND``; typed packages (PEP 561)."""
    shipped = sorted(p.name for p in (installed / "sim" / "data" / "schemas").glob("*.json"))
    assert shipped == sorted(p.name for p in (ROOT / "sim" / "data" / "schemas").glob("*.json"))
    for package in ("geometry", "sim", "render"):
        assert (installed / package / "py.typed").is_file()
