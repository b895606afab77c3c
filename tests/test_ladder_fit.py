"""The ladder's ratings (issue 37, sim/ai/ladder.py): Bradley-Terry on the Elo scale,
draws as half a win (R-TURN-10: a draw is no win), checked against cases computed by
hand, the bootstrap intervals, the pairings and the win matrix."""

from __future__ import annotations

import math

import pytest

from sim.ai.ladder import (
    NoFiniteRatings,
    Result,
    bootstrap_intervals,
    fit_elo,
    pairings,
    totals,
    win_matrix,
)


def gap(ratings: dict[str, float], a: str, b: str) -> float:
    return ratings[a] - ratings[b]


def test_three_wins_in_four_give_400_log10_3() -> None:
    """P(a) = 3/4 = 1 / (1 + 10^(-gap/400)), so gap = 400 log10(3) = 190.85."""
    elo = fit_elo(["a", "b"], [Result("a", "b", 3, 0, 1)], prior=0)
    assert gap(elo, "a", "b") == pytest.approx(400 * math.log10(3), abs=1e-6)
    assert elo["a"] + elo["b"] == pytest.approx(0, abs=1e-9)  # the ratings average 0


def test_a_draw_counts_half_a_win() -> None:
    """2 wins and 2 draws in 4 games is 3 points of 4: the gap of 3-1."""
    elo = fit_elo(["a", "b"], [Result("a", "b", 2, 2, 0)], prior=0)
    assert gap(elo, "a", "b") == pytest.approx(400 * math.log10(3), abs=1e-6)


def test_both_side_assignments_add_up() -> None:
    """a wins 2-0 on one side and 1-1 on the other: 3 of 4 again, whoever sat where."""
    elo = fit_elo(["a", "b"], [Result("a", "b", 2, 0, 0), Result("b", "a", 1, 0, 1)],
                  prior=0)
    assert gap(elo, "a", "b") == pytest.approx(400 * math.log10(3), abs=1e-6)


def test_the_prior_is_one_virtual_draw_per_pairing() -> None:
    """3-1 plus a virtual draw: 3.5 of 5, gap 400 log10(3.5 / 1.5)."""
    elo = fit_elo(["a", "b"], [Result("a", "b", 3, 0, 1)], prior=1)
    assert gap(elo, "a", "b") == pytest.approx(400 * math.log10(7 / 3), abs=1e-6)


def test_three_players_fitted_exactly() -> None:
    """Strengths 4:2:1 fit these games exactly (each score is its expected score:
    a-b 2 of 3 at 4/6, b-c 2 of 3 at 2/3, a-c 4 of 5 at 4/5), so each gap is
    400 log10(2) and the middle player sits at 0."""
    games = [Result("a", "b", 2, 0, 1), Result("b", "c", 2, 0, 1), Result("c", "a", 1, 0, 4)]
    elo = fit_elo(["a", "b", "c"], games, prior=0)
    step = 400 * math.log10(2)
    assert elo["a"] == pytest.approx(step, abs=1e-6)
    assert elo["b"] == pytest.approx(0, abs=1e-6)
    assert elo["c"] == pytest.approx(-step, abs=1e-6)


def test_a_clean_sweep_has_no_finite_rating_without_the_prior() -> None:
    sweep = [Result("greedy", "random", 20, 0, 0)]
    with pytest.raises(NoFiniteRatings):
        fit_elo(["greedy", "random"], sweep, prior=0)
    elo = fit_elo(["greedy", "random"], sweep)  # the default prior: 20.5 of 21
    assert gap(elo, "greedy", "random") == pytest.approx(400 * math.log10(41), abs=1e-6)


def test_players_that_never_met_cannot_be_compared() -> None:
    with pytest.raises(NoFiniteRatings, match="never met"):
        fit_elo(["a", "b", "c", "d"], [Result("a", "b", 1, 0, 1), Result("c", "d", 1, 0, 1)])


def test_even_results_rate_everyone_level() -> None:
    elo = fit_elo(["a", "b", "c"], [Result("a", "b", 1, 2, 1), Result("b", "c", 0, 4, 0),
                                    Result("c", "a", 2, 0, 2)])
    assert all(v == pytest.approx(0, abs=1e-9) for v in elo.values())


def test_the_bootstrap_is_seeded_and_holds_the_rating() -> None:
    players = ["a", "b"]
    games = [Result("a", "b", 6, 1, 3), Result("b", "a", 4, 0, 6)]
    ci = bootstrap_intervals(players, games, seed=5, resamples=300)
    assert ci == bootstrap_intervals(players, games, seed=5, resamples=300)
    elo = fit_elo(players, games)
    for p in players:
        lo, hi = ci[p]
        assert lo < elo[p] < hi


def test_more_games_give_narrower_intervals() -> None:
    few = bootstrap_intervals(["a", "b"], [Result("a", "b", 6, 0, 2)], seed=1, resamples=300)
    many = bootstrap_intervals(["a", "b"], [Result("a", "b", 60, 0, 20)], seed=1,
                               resamples=300)
    width = {name: ci["a"][1] - ci["a"][0] for name, ci in (("few", few), ("many", many))}
    assert width["many"] < width["few"] / 2  # ten times the games: about a third as wide


def test_every_pairing_both_ways() -> None:
    got = pairings(["random", "greedy", "search"])
    assert sorted(got) == sorted((a, b) for a in ("random", "greedy", "search")
                                 for b in ("random", "greedy", "search") if a != b)
    assert len(got) == len(set(got)) == 6


def test_the_win_matrix_reads_from_each_players_side() -> None:
    games = [Result("a", "b", 3, 1, 0), Result("b", "a", 2, 0, 2), Result("a", "c", 1, 0, 0)]
    m = win_matrix(["a", "b", "c"], games)
    assert (m["a"]["b"].wins, m["a"]["b"].draws, m["a"]["b"].losses) == (5, 1, 2)
    assert (m["b"]["a"].wins, m["b"]["a"].draws, m["b"]["a"].losses) == (2, 1, 5)
    assert m["a"]["b"].score == pytest.approx(5.5 / 8)
    assert m["b"]["c"].games == 0 and "a" not in m["a"]
    t = totals(["a", "b", "c"], games)
    assert (t["a"].wins, t["a"].draws, t["a"].losses) == (6, 1, 2)
