"""One CLI convention for every sub-command (issue 14, docs/cli.md): ``--version``,
``python -m sim``, shipped scenarios by name, exit codes 0/1/2, ``-`` for stdin and
stdout, and ``render -o`` refusing what it cannot write as asked."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from sim import cli_render
from sim.cli import main
from sim.game.kinds import new_game
from sim.game.save import save_game
from sim.scenario.format.limits import MAX_FILE_BYTES
from sim.scenario.format.loader import load_scenario
from tests.conftest import ROOT, SCENARIOS

VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
    "version"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty working folder outside the checkout."""
    folder = tmp_path / "empty"
    folder.mkdir()
    monkeypatch.chdir(folder)
    return folder


def stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


# --- version and python -m sim ----------------------------------------------------

def test_version_prints_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"wasteland {VERSION}"


def test_python_m_sim_is_the_same_cli(elsewhere: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    got = subprocess.run([sys.executable, "-m", "sim", "--version"], capture_output=True,
                         text=True, env=env, timeout=60, check=False)
    assert (got.returncode, got.stdout.strip()) == (0, f"python -m sim {VERSION}")
    got = subprocess.run([sys.executable, "-m", "sim", "check", "skirmish"],
                         capture_output=True, text=True, env=env, timeout=60, check=False)
    assert (got.returncode, got.stdout) == (0, "skirmish: ok\n")


# --- shipped scenarios by name ----------------------------------------------------

def test_scenarios_lists_every_shipped_scenario(capsys: pytest.CaptureFixture[str],
                                               elsewhere: Path) -> None:
    code, out, _ = run(capsys, "scenarios")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["NAME", "RULES", "MODELS", "TITLE"]
    assert [line.split()[0] for line in lines[1:]] == sorted(
        p.stem for p in SCENARIOS.glob("*.toml"))
    (skirmish,) = [line for line in lines if line.startswith("skirmish ")]
    assert skirmish.split()[1:3] == ["rulebook", "12"] and "Crossroads Skirmish" in skirmish


@pytest.mark.parametrize("name", ["skirmish", "seed-cover-1", "seed-cover-1.toml",
                                  "wasteland:skirmish.toml", "wasteland:seed-cover-4"])
def test_check_takes_a_shipped_name_from_any_folder(capsys: pytest.CaptureFixture[str],
                                                    elsewhere: Path, name: str) -> None:
    assert run(capsys, "check", name) == (0, f"{name}: ok\n", "")


def test_every_scenario_command_takes_a_shipped_name(capsys: pytest.CaptureFixture[str],
                                                    elsewhere: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    assert run(capsys, "los", "seed-cover-1", "knight", "mutant")[0] == 0
    assert run(capsys, "shoot", "seed-plasma", "survivor", "mutant-a", "--weapon",
               "plasma_rifle")[0] == 0
    assert run(capsys, "render", "seed-cover-1", "-o", "board.png")[0] == 0
    assert (elsewhere / "board.png").stat().st_size > 0
    opened: list[Any] = []

    def window(scenario: Any, *args: Any, **kwargs: Any) -> int:
        opened.append(scenario)
        return 0

    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setattr(cli_render, "open_game_window", window)
    assert run(capsys, "play", "seed-hound")[0] == 0
    assert opened == [load_scenario(SCENARIOS / "seed-hound.toml")]


def test_a_file_in_the_working_folder_wins_over_a_shipped_name(
        capsys: pytest.CaptureFixture[str], elsewhere: Path) -> None:
    """Decision: an existing file is never shadowed; ``wasteland:NAME`` forces the shipped one."""
    shutil.copytree(SCENARIOS / "units", elsewhere / "units")
    (elsewhere / "skirmish").write_text(
        (SCENARIOS / "seed-cover-1.toml").read_text(encoding="utf-8"), encoding="utf-8")
    code, out, _ = run(capsys, "los", "skirmish", "knight", "mutant")
    assert code == 0 and "knight -> mutant" in out  # seed-cover-1's models, not skirmish's
    code, _, err = run(capsys, "los", "wasteland:skirmish", "knight", "mutant")
    assert code == 1 and "unknown target 'mutant'" in err


def test_an_unknown_name_is_refused_with_a_suggestion(capsys: pytest.CaptureFixture[str],
                                                     elsewhere: Path) -> None:
    code, out, _ = run(capsys, "check", "skirmsh")
    assert code == 1
    assert "skirmsh: file not found" in out and "did you mean 'skirmish'?" in out
    assert "wasteland scenarios" in out


def test_a_path_the_system_refuses_is_refused_input(capsys: pytest.CaptureFixture[str],
                                                    elsewhere: Path) -> None:
    """A name longer than the file system allows: exit 1, the name cut short, no traceback."""
    long_name = "x" * 5000 + ".toml"
    code, out, _ = run(capsys, "check", long_name)
    assert code == 1 and "cannot use this path" in out and len(out) < 300
    code, _, err = run(capsys, "render", "skirmish", "-o", "x" * 5000 + ".png")
    assert code == 1 and "-o: cannot use" in err and len(err) < 300


# --- exit codes ---------------------------------------------------------------------

MISSING = "no-such-scenario.toml"
REFUSED = [
    ("check", MISSING),
    ("los", MISSING, "a", "b"),
    ("shoot", MISSING, "a", "b", "--weapon", "w"),
    ("render", MISSING, "-o", "x.png"),
    ("play", MISSING),
    ("replay", "no-such-save.json"),
    ("los", "seed-cover-1", "knight", "nobody"),
    ("shoot", "seed-plasma", "survivor", "mutant-hidden", "--weapon", "plasma_rifle"),
]


@pytest.mark.parametrize("argv", REFUSED, ids=lambda a: " ".join(a))
def test_refused_input_exits_1_in_every_command(capsys: pytest.CaptureFixture[str],
                                                elsewhere: Path, argv: tuple[str, ...]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 1, (out, err)
    assert "Traceback" not in out + err
    assert (MISSING in out + err) or ("no-such-save" in err) or argv[0] in ("los", "shoot")


USAGE = [("check",), ("los", "skirmish"), ("shoot", "skirmish", "a", "b"),
         ("render", "skirmish"), ("replay",), ("play", "--bogus"), ("frobnicate",),
         ("render", "skirmish", "-o", "x.png", "--width", "10"), ("check", "-", "-")]


@pytest.mark.parametrize("argv", USAGE, ids=lambda a: " ".join(a))
def test_usage_errors_exit_2_with_the_usage(capsys: pytest.CaptureFixture[str],
                                            elsewhere: Path, argv: tuple[str, ...]) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.startswith("usage: wasteland") and "error:" in err


def test_los_exits_0_without_sight(capsys: pytest.CaptureFixture[str]) -> None:
    """Decision: los answered, so 0; the answer (no sight) is in the output."""
    code, out, _ = run(capsys, "los", "seed-cover-4-dense", "paladin", "mutant-3")
    assert code == 0 and "no line of sight: blocked by forest" in out


# --- '-' for stdin and stdout -------------------------------------------------------

def test_check_reads_stdin(capsys: pytest.CaptureFixture[str],
                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Includes of a scenario on stdin are relative to the working folder."""
    monkeypatch.chdir(SCENARIOS)
    stdin(monkeypatch, (SCENARIOS / "seed-cover-1.toml").read_text(encoding="utf-8"))
    assert run(capsys, "check", "-") == (0, "-: ok\n", "")


def test_a_bad_scenario_on_stdin_is_named_stdin(capsys: pytest.CaptureFixture[str],
                                                elsewhere: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    stdin(monkeypatch, 'format = 1\nname = "x"\nrules = "chess"\n')
    code, out, _ = run(capsys, "check", "-")
    assert code == 1 and "<stdin>: rules: unknown rule set 'chess'" in out
    stdin(monkeypatch, "format = = 1\n")
    code, out, _ = run(capsys, "check", "-")
    assert code == 1 and out.startswith("<stdin>: invalid TOML")


def test_stdin_has_the_file_size_limit(capsys: pytest.CaptureFixture[str], elsewhere: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """'-' is read like any input file: over the limit is refused, named <stdin>."""
    stdin(monkeypatch, "#" * (MAX_FILE_BYTES + 1))
    code, out, _ = run(capsys, "check", "-")
    assert code == 1 and out.startswith("<stdin>: is over") and str(MAX_FILE_BYTES) in out


def test_los_reads_stdin(capsys: pytest.CaptureFixture[str],
                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(SCENARIOS)
    stdin(monkeypatch, (SCENARIOS / "seed-cover-4-dense.toml").read_text(encoding="utf-8"))
    code, out, _ = run(capsys, "los", "-", "paladin", "mutant-3")
    assert code == 0 and "blocked by forest" in out


def test_render_writes_the_png_to_stdout(elsewhere: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy",
           "SDL_AUDIODRIVER": "dummy"}
    got = subprocess.run([sys.executable, "-m", "sim", "render", "seed-cover-1", "-o", "-"],
                         capture_output=True, env=env, timeout=120, check=False)
    assert got.returncode == 0, got.stderr
    assert got.stdout.startswith(b"\x89PNG\r\n\x1a\n") and got.stderr == b""
    assert list(elsewhere.iterdir()) == []  # nothing left behind


def test_replay_reads_a_save_on_stdin(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    state = new_game(load_scenario(SCENARIOS / "seed-activation.toml"), seed=5)
    for _ in range(3):
        state.apply(next(iter(state.legal_actions())))
    save = tmp_path / "game.json"
    save_game(state, save)
    monkeypatch.chdir(tmp_path)
    from_file = run(capsys, "replay", "--actions", str(save))
    stdin(monkeypatch, save.read_text(encoding="utf-8"))
    from_stdin = run(capsys, "replay", "--actions", "-")
    assert from_stdin == from_file and from_file[0] == 0
    assert from_file[1].count("\n> ") + from_file[1].startswith("> ") == 3


def test_play_refuses_stdin(capsys: pytest.CaptureFixture[str]) -> None:
    """Decision: a game's save must find its scenario file again, so no '-' for play."""
    code, _, err = run(capsys, "play", "-")
    assert code == 1 and err.startswith("wasteland play: '-' (stdin) is not accepted")


# --- the small defects of issue 30 --------------------------------------------------------

@pytest.mark.parametrize("argv", [["check", "-"], ["los", "-", "a", "b"], ["replay", "-"],
                                  ["simulate", "-", "--games", "1"],
                                  ["ladder", "-", "--games", "1"]])
@pytest.mark.parametrize("text", ["", " \n\n"], ids=["nothing", "blank"])
def test_empty_stdin_is_said_to_be_empty(capsys: pytest.CaptureFixture[str], elsewhere: Path,
                                         monkeypatch: pytest.MonkeyPatch, argv: list[str],
                                         text: str) -> None:
    """Not "format: missing key" nor "invalid JSON": nothing was piped in."""
    stdin(monkeypatch, text)
    code, out, err = run(capsys, *argv)
    assert code == 1 and "<stdin>: is empty: nothing was piped in" in out + err


@pytest.mark.parametrize("argv", [["los", "skirmish", "a", "b"], ["check", "skirmish"],
                                  ["simulate", "skirmish", "--games", "1"],
                                  ["ladder", "skirmish", "--games", "1"],
                                  ["map", "skirmish", "knight"],
                                  ["shoot", "skirmish", "a", "b", "--weapon", "w"],
                                  ["play", "skirmish"]], ids=lambda argv: argv[0])
def test_a_commands_wrong_flag_prints_that_commands_usage(capsys: pytest.CaptureFixture[str],
                                                          argv: list[str]) -> None:
    command = argv[0]
    code, out, err = run(capsys, *argv, "--bogus")
    assert code == 2 and out == ""
    assert err.startswith(f"usage: wasteland {command} "), err
    assert err.rstrip().endswith("unrecognized arguments: --bogus")


@pytest.mark.parametrize("command", ["play", "edit"])
def test_a_bad_size_is_a_usage_error_with_or_without_a_display(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        command: str) -> None:
    for var in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER"):
        monkeypatch.delenv(var, raising=False)
    code, _, err = run(capsys, command, "skirmish", "--size", "10x")
    assert code == 2 and "--size: expected WIDTHxHEIGHT in pixels" in err


# --- render -o refuses what it cannot write as asked -------------------------------

@pytest.mark.parametrize("output, message", [
    ("no/such/dir/x.png", "does not exist (render does not create folders)"),
    (".", "is a folder"),
    ("board.jpg", "expected a .png file name"),
])
def test_render_refuses_an_output_it_cannot_write(capsys: pytest.CaptureFixture[str],
                                                  elsewhere: Path, output: str,
                                                  message: str) -> None:
    code, _, err = run(capsys, "render", "seed-cover-1", "-o", output)
    assert code == 1 and message in err
    assert list(elsewhere.iterdir()) == []  # no folder created, no file written


def test_a_closed_pipe_ends_quietly(elsewhere: Path) -> None:
    """``wasteland scenarios | head -0``: no traceback, the shell's status for SIGPIPE."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "sim", "scenarios"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader leaves before the first line is written
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 141 and err == b""
