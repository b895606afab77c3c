"""A ladder between AI players: every pairing played both ways, Elo ratings fitted to
all the games, and the win matrix (``wasteland ladder``, docs/ai.md).

Pure: it reads game results, never plays them (:mod:`sim.commands.ladder` does, through
:func:`sim.ai.batch.run_games`).

**The fit** is Bradley-Terry on the Elo scale: player ``a`` scores against ``b``
with probability ``1 / (1 + 10 ** ((Rb - Ra) / 400))``, a draw counting half a win
to each (R-TURN-10: a draw is no win). The ratings maximise the likelihood of every
game plus ``prior`` virtual draws between each pair of players that met (BayesElo's
prior: without it a player that won every game would have no finite rating), and
average 0. Two players alone, ``a`` scoring ``s`` of ``n``: the gap is
``400 * log10((s + prior/2) / (n - s + prior/2))``.

>>> gap = fit_elo(["a", "b"], [Result("a", "b", 3, 0, 1)], prior=0)
>>> round(gap["a"] - gap["b"], 2)  # 400 * log10(3)
190.85

**The intervals** are a bootstrap: each block of games (one pairing, one side
assignment) drawn again with replacement, ``BOOTSTRAP`` times from a generator seeded
with the ladder's seed, the ratings refitted, and the 2.5th and 97.5th percentiles
taken. Deterministic: the same games and seed give the same intervals.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

#: Virtual draws credited to each pair of players that met (keeps the fit finite).
PRIOR_DRAWS = 1.0
#: Bootstrap resamples behind each 95% interval.
BOOTSTRAP = 1000
ELO = 400.0 / math.log(10.0)  # Elo points per unit of the logistic's natural scale
_MAX_STEPS = 200


class NoFiniteRatings(ValueError):
    """Without a prior, a player won or lost every game: no finite rating fits."""


@dataclass(frozen=True)
class Result:
    """The games of one block: ``first`` against ``second``, from ``first``'s side."""

    first: str
    second: str
    wins: int  # games ``first`` won
    draws: int
    losses: int  # games ``second`` won

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """``first``'s points: a win 1, a draw 1/2."""
        return self.wins + self.draws / 2


def pairings(players: Sequence[str]) -> list[tuple[str, str]]:
    """Every ordered pair of distinct players: each pairing both ways, so each player
    plays each side against each other one.

    >>> pairings(["random", "greedy", "search"])  # doctest: +NORMALIZE_WHITESPACE
    [('random', 'greedy'), ('greedy', 'random'), ('random', 'search'), ('search', 'random'),
     ('greedy', 'search'), ('search', 'greedy')]
    """
    out: list[tuple[str, str]] = []
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            out += [(a, b), (b, a)]
    return out


def _tables(players: Sequence[str], results: Sequence[Result], prior: float
            ) -> tuple[np.ndarray, np.ndarray]:
    """``score[i, j]``: i's points against j; ``games[i, j]``: their games (both with
    the prior's virtual draws)."""
    index = {p: k for k, p in enumerate(players)}
    n = len(players)
    score = np.zeros((n, n))
    games = np.zeros((n, n))
    for r in results:
        i, j = index[r.first], index[r.second]
        score[i, j] += r.score
        score[j, i] += r.games - r.score
        games[i, j] += r.games
        games[j, i] += r.games
    met = games > 0
    score += np.where(met, prior / 2, 0.0)
    games += np.where(met, prior, 0.0)
    return score, games


def _fit(score: np.ndarray, games: np.ndarray) -> np.ndarray:
    """The maximum-likelihood strengths (natural scale, mean 0): Newton's method on the
    concave log-likelihood, the first player held at 0 while fitting."""
    n = len(score)
    theta = np.zeros(n)
    for _ in range(_MAX_STEPS):
        p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # p[i, j]: i beats j
        grad = (score - games * p).sum(axis=1)
        w = games * p * (1 - p)
        hess = w - np.diag(w.sum(axis=1))
        step = np.zeros(n)
        try:
            step[1:] = np.linalg.solve(hess[1:, 1:], -grad[1:])
        except np.linalg.LinAlgError:  # a player or a group that never met the others
            raise NoFiniteRatings("some players never met the others (directly or "
                                  "through others): their ratings cannot be compared") from None
        step = np.clip(step, -1.0, 1.0)  # damped: far from the top the steps overshoot
        theta += step
        if np.max(np.abs(step)) < 1e-10:
            centred: np.ndarray = theta - float(theta.mean())
            return centred
        if np.max(np.abs(theta)) > 50:  # a rating running off to infinity
            break
    raise NoFiniteRatings("a player won or lost every game it played: no finite rating "
                          "fits without a prior")


def fit_elo(players: Sequence[str], results: Sequence[Result],
            prior: float = PRIOR_DRAWS) -> dict[str, float]:
    """Each player's Elo rating (mean 0) fitted to ``results`` (see the module's doc)."""
    score, games = _tables(players, results, prior)
    theta = _fit(score, games)
    return {p: float(theta[k] * ELO) for k, p in enumerate(players)}


def bootstrap_intervals(players: Sequence[str], results: Sequence[Result], seed: int,
                        prior: float = PRIOR_DRAWS, resamples: int = BOOTSTRAP
                        ) -> dict[str, tuple[float, float]]:
    """The 95% percentile-bootstrap interval of each player's rating."""
    rng = np.random.Generator(np.random.PCG64(seed))
    fits = np.empty((resamples, len(players)))
    for b in range(resamples):
        again = []
        for r in results:
            drawn = rng.multinomial(r.games, [r.wins / r.games, r.draws / r.games,
                                              r.losses / r.games]) if r.games else (0, 0, 0)
            again.append(Result(r.first, r.second, int(drawn[0]), int(drawn[1]),
                                int(drawn[2])))
        score, games = _tables(players, again, prior)
        fits[b] = _fit(score, games) * ELO
    lo, hi = np.percentile(fits, [2.5, 97.5], axis=0)
    return {p: (float(lo[k]), float(hi[k])) for k, p in enumerate(players)}


@dataclass(frozen=True)
class Cell:
    """The row player's games against the column player, both side assignments."""

    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """The row player's share of the points (a draw half), 0 without games."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0


def win_matrix(players: Sequence[str], results: Sequence[Result]
               ) -> dict[str, dict[str, Cell]]:
    """``matrix[row][col]``: row's wins, draws and losses against col (none on the
    diagonal)."""
    counts = {(a, b): [0, 0, 0] for a in players for b in players if a != b}
    for r in results:
        for a, b, won, lost in ((r.first, r.second, r.wins, r.losses),
                                (r.second, r.first, r.losses, r.wins)):
            c = counts[(a, b)]
            c[0] += won
            c[1] += r.draws
            c[2] += lost
    return {a: {b: Cell(*counts[(a, b)]) for b in players if b != a} for a in players}


def totals(players: Sequence[str], results: Sequence[Result]) -> Mapping[str, Cell]:
    """Each player's wins, draws and losses over all its games."""
    m = win_matrix(players, results)
    return {a: Cell(sum(c.wins for c in m[a].values()), sum(c.draws for c in m[a].values()),
                    sum(c.losses for c in m[a].values())) for a in players}
