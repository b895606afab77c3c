"""``wasteland ladder`` (issue 37): every pairing both ways, the JSON schema, the same
output for any --jobs, and errors that name the bad argument (docs/ai.md)."""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

import jsonschema
import pytest

from sim.cli import main
from tests.conftest import ROOT

SCHEMA = json.loads((ROOT / "sim" / "data" / "schemas" / "ladder.json").read_text(
    encoding="utf-8"))
# Short games of the quick players keep this fast; search is the same code path.
LADDER = ("skirmish", "--players", "random,greedy", "--games", "2", "--rounds", "2",
          "--seed", "3")


def run_out(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["ladder", *argv])
    return code, out.getvalue()


@pytest.fixture(scope="module")
def figures() -> dict[str, Any]:
    """The ladder on this process (--jobs 1), as the JSON prints it."""
    code, out = run_out(*LADDER, "--json")
    assert code == 0
    data: dict[str, Any] = json.loads(out)
    return data


def test_the_schema_is_a_valid_json_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["properties"]["format"] == {"const": "wasteland-ladder/1"}


def test_json_validates_and_plays_each_pairing_both_ways(figures: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator(SCHEMA).validate(figures)
    f = figures
    assert f["players"] == ["random", "greedy"] and f["sides"] == ["settlers", "mutants"]
    assert [b["players"] for b in f["blocks"]] == [
        {"settlers": "random", "mutants": "greedy"}, {"settlers": "greedy", "mutants": "random"}]
    assert f["games"] == 4 and all(b["games"] == 2 for b in f["blocks"])
    for b in f["blocks"]:
        assert sum(b["wins"].values()) + b["draws"] == 2
    # The matrix is the blocks read from each player's side.
    row = f["matrix"]["greedy"]["random"]
    as_settlers, as_mutants = f["blocks"][1], f["blocks"][0]
    assert row["wins"] == as_settlers["wins"]["settlers"] + as_mutants["wins"]["mutants"]
    assert row["draws"] == as_settlers["draws"] + as_mutants["draws"]
    back = f["matrix"]["random"]["greedy"]
    assert (back["wins"], back["losses"]) == (row["losses"], row["wins"])


def test_ratings_follow_the_points(figures: dict[str, Any]) -> None:
    """Two players: the gap is 400 log10 of the points ratio with one virtual draw."""
    r = {x["player"]: x for x in figures["ratings"]}
    points = {p: r[p]["wins"] + r[p]["draws"] / 2 for p in r}
    import math
    expected = 400 * math.log10((points["greedy"] + 0.5) / (points["random"] + 0.5))
    assert r["greedy"]["elo"] - r["random"]["elo"] == pytest.approx(expected, abs=0.2)
    assert r["greedy"]["elo"] == pytest.approx(-r["random"]["elo"], abs=0.1)
    for x in figures["ratings"]:
        lo, hi = x["ci95"]
        assert lo <= x["elo"] <= hi
    elos = [x["elo"] for x in figures["ratings"]]
    assert elos == sorted(elos, reverse=True)


def test_the_same_output_with_two_jobs(figures: dict[str, Any]) -> None:
    code, out = run_out(*LADDER, "--json", "--jobs", "2")
    assert code == 0 and json.loads(out) == figures


def test_the_text_is_the_same_with_two_jobs() -> None:
    argv = ("skirmish", "--players", "greedy,random", "--games", "1", "--rounds", "1")
    one, two = run_out(*argv), run_out(*argv, "--jobs", "2")
    assert one == two and one[0] == 0
    text = one[1]
    assert text.startswith("Crossroads Skirmish: ladder of greedy, random; 1 game per")
    assert "95% bootstrap interval" in text and "win matrix" in text


def test_the_same_output_on_a_dask_cluster() -> None:
    from distributed import LocalCluster  # the [cluster] extra, installed by `make test`

    argv = ("skirmish", "--players", "random,greedy", "--games", "1", "--rounds", "1",
            "--json")
    here = run_out(*argv)
    with LocalCluster(processes=False, n_workers=1, threads_per_worker=1,
                      dashboard_address=None) as cluster:
        there = run_out(*argv, "--backend", "dask", "--scheduler", cluster.scheduler_address)
    assert there == here and here[0] == 0


def test_wasteland_schema_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "ladder"]) == 0
    assert json.loads(capsys.readouterr().out) == SCHEMA


@pytest.mark.parametrize(("argv", "code", "words"), [
    (("--players", "random"), 2, ["two players"]),
    (("--players", "random,genius"), 2, ["'genius'", "random, greedy, greedy-blind, search"]),
    (("--players", "greedy,greedy"), 2, ["'greedy'", "twice"]),
    (("--games", "0"), 2, ["--games"]),
    (("--backend", "dask"), 2, ["--scheduler"]),
    (("--scheduler", "tcp://127.0.0.1:1"), 2, ["--backend dask"]),
])
def test_bad_arguments_are_named(capsys: pytest.CaptureFixture[str], argv: tuple[str, ...],
                                 code: int, words: list[str]) -> None:
    assert main(["ladder", "skirmish", "--games", "1", "--rounds", "1", *argv]) == code
    err = capsys.readouterr().err
    assert all(w in err for w in words), err
    assert "Traceback" not in err


def test_errors_under_json_are_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ladder", "no-such-scenario", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["format"] == "wasteland-error/1" and data["exit_status"] == 1
    assert main(["ladder", "skirmish", "--players", "random", "--json"]) == 2
    data = json.loads(capsys.readouterr().out)
    assert data["exit_status"] == 2 and "two players" in data["error"]
