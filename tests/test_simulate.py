"""``wasteland simulate`` (issue 18): figures, the JSON schema, the same results for any
--jobs and on a Dask cluster, and errors that name the bad argument (docs/ai.md)."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest
from distributed import LocalCluster  # the [cluster] extra, installed by `make test`

from sim.ai.batch import ScenarioSource, run_games
from sim.ai.stats import wilson
from sim.cli import main
from tests.conftest import ROOT, SCENARIOS

SCHEMA = json.loads((ROOT / "sim" / "data" / "schemas" / "simulate.json").read_text(
    encoding="utf-8"))
# Short games keep this fast; the players are the real ones.
BATCH = ("skirmish", "--games", "4", "--rounds", "2", "--seed", "11",
         "--ai", "settlers=greedy", "--ai", "mutants=random")


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code = main(["simulate", *argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def local_figures() -> dict[str, Any]:
    """The batch on this process (--jobs 1), as the JSON prints it."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["simulate", *BATCH, "--json"]) == 0
    data: dict[str, Any] = json.loads(out.getvalue())
    return data


def test_the_schema_is_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["properties"]["format"] == {"const": "wasteland-simulate/1"}


def test_json_validates_and_counts_every_game(local_figures: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(SCHEMA).validate(local_figures)
    f = local_figures
    assert f["games"] == 4 and f["players"] == {"settlers": "greedy", "mutants": "random"}
    assert sum(f["wins"].values()) + f["draws"] == 4
    assert f["mean_rounds"] <= 2  # --rounds 2 is the last round
    assert set(f["units"]) == {"survivor", "settler-1", "settler-2", "knight", "paladin",
                               "sniper", "mutant-1", "mutant-2", "mutant-3", "hound-1",
                               "hound-2", "behemoth"}
    assert sum(f["first_side"].values()) == 4
    for side, rate in f["win_rate"].items():
        lo, hi = rate["ci95"]
        assert lo <= rate["rate"] <= hi and rate["wins"] == f["wins"][side]


def test_the_same_figures_with_two_jobs(capsys: pytest.CaptureFixture[str],
                                        local_figures: dict[str, Any]) -> None:
    code, data = run_json(capsys, *BATCH, "--jobs", "2")
    assert code == 0
    assert data == local_figures


def test_the_same_records_on_a_dask_cluster() -> None:
    """Game i from seed S+i on a LocalCluster gives the records of this process."""
    source = ScenarioSource(path=str(SCENARIOS / "skirmish.toml"))
    players = {"settlers": "random", "mutants": "greedy"}
    here = run_games(source, players, 5, 3, rounds=1)
    with LocalCluster(processes=False, n_workers=1, threads_per_worker=1,
                      dashboard_address=None) as cluster:
        there = run_games(source, players, 5, 3, rounds=1, backend="dask",
                          scheduler=cluster.scheduler_address)
    assert there == here
    assert [r.seed for r in here] == [5, 6, 7]


def test_the_dask_backend_through_the_command_line(capsys: pytest.CaptureFixture[str]
                                                   ) -> None:
    argv = ("skirmish", "--games", "2", "--rounds", "1", "--ai", "settlers=random",
            "--ai", "mutants=random")
    code, local = run_json(capsys, *argv)
    with LocalCluster(processes=False, n_workers=1, threads_per_worker=1,
                      dashboard_address=None) as cluster:
        code2, remote = run_json(capsys, *argv, "--backend", "dask", "--scheduler",
                                 cluster.scheduler_address)
    assert code == code2 == 0 and remote == local


def test_text_report_names_sides_and_units(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "skirmish", "--games", "1", "--rounds", "1",
                 "--ai", "settlers=random", "--ai", "mutants=random"]) == 0
    out = capsys.readouterr()
    assert "Commonwealth Settlers (random) wins" in out.out
    assert "95% CI" in out.out and "Behemoth" in out.out and "mean rounds" in out.out
    assert out.err == ""  # no progress bar when stderr is not a terminal


@pytest.mark.parametrize(("argv", "code", "words"), [
    (("--ai", "orcs=greedy"), 1, ["'orcs'", "settlers, mutants"]),
    (("--ai", "settlers=genius"), 2, ["'genius'", "random, greedy, greedy-blind, search"]),
    (("--ai", "settlers"), 2, ["SIDE=PLAYER"]),
    (("--ai", "settlers=random", "--ai", "settlers=greedy"), 2, ["twice", "'settlers'"]),
    (("--games", "0"), 2, ["--games"]),
    (("--jobs", "x"), 2, ["whole number"]),
    (("--backend", "dask"), 2, ["--scheduler"]),
    (("--scheduler", "tcp://127.0.0.1:1"), 2, ["--backend dask"]),
    (("--backend", "dask", "--scheduler", "tcp://127.0.0.1:1"), 1, ["--scheduler",
                                                                   "127.0.0.1:1"]),
])
def test_bad_arguments_are_named(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                 code: int, words: list[str]) -> None:
    assert main(["simulate", "skirmish", "--games", "1", "--rounds", "1", *argv]) == code
    err = capsys.readouterr().err
    assert all(w in err for w in words), err
    assert "Traceback" not in err


def test_errors_under_json_are_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, data = run_json(capsys, "skirmish", "--ai", "orcs=greedy")
    assert code == 1 and data["format"] == "wasteland-error/1" and "'orcs'" in data["error"]


def test_wilson_interval_matches_the_formula() -> None:
    # 8 of 10: the textbook values (Wilson 1927; e.g. Newcombe 1998, table I).
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 5)[0] == 0.0 and wilson(5, 5)[1] == 1.0


def test_a_game_that_never_ends_says_why_and_how_to_end_it(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A scenario without a last round ends only when a side is out of play; two players
    who never meet go on until the runaway guard, whose error then names the remedy
    (``--rounds``) instead of leaving the user with a bare count."""
    import sim.ai.match

    monkeypatch.setattr(sim.ai.match, "MAX_DECISIONS", 40)  # far fewer than a whole game
    argv = ["--games", "1", "--seed", "3", "--ai", "mutants=random"]
    assert main(["simulate", "seed-cover-4-dense", *argv]) == 1
    err = capsys.readouterr().err
    assert "did not end in 40 decisions" in err and "no last round" in err, err
    assert "--rounds R" in err and "Traceback" not in err
    # ...and a note before the batch starts said so.
    assert err.index("ends only when a side is out of play") < err.index("did not end"), err
    # With a last round the game is simply too long: no advice about rounds.
    assert main(["simulate", "skirmish", *argv]) == 1
    err = capsys.readouterr().err
    assert "did not end in 40 decisions" in err and "--rounds" not in err, err
    assert "no last round" not in err, err
