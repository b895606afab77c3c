"""The search player's tree over one activation: its two actions together (docs/ai.md).

A *first* is one of the activation's candidate actions; its *pairs* are the
first followed by one of the best few second actions greedy weighs on a copy
after it (or the first alone, when it leaves no action or ends the
activation). Every visit of a pair is one playout (sim.ai.search), so a pair's
value is its exact score (the first's attack worth plus the second's greedy
score) minus the mean of its playouts' answers.

A pair's *k*-th playout is on the decision's *k*-th seed, the same seeds for
every pair, and each answer counts against the mean of its seed's answers
(:class:`Luck`), so a pair played out on a harsh seed alone is not judged by it.
Which pair is visited next: UCB1 at both levels, among the firsts opened so
far and, within the first, among its pairs opened so far. *Progressive
widening* opens them as they are visited: after ``n`` visits a node has
``ceil(k * (n + 1) ** alpha)`` children open (firsts in the shortlist's order,
seconds in greedy's). No dice and no clock: the same budget and seeds choose
the same pair on any machine.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from sim.ai.greedy import Weighed
from sim.engine.actions import Action
from sim.engine.state import GameState

T = TypeVar("T")

#: Firsts open after n visits of the activation: ceil(FIRSTS * (n + 1) ** ALPHA).
FIRSTS = 1.5
#: Pairs open within a first after n of its visits: ceil(SECONDS * (n + 1) ** ALPHA).
SECONDS = 0.75
#: Progressive widening's exponent (both levels).
ALPHA = 0.5
#: Second actions a first may open at most (greedy's best after it).
MOST_SECONDS = 3
#: UCB1's exploration weight, in the values' unit (an attack's worth: 1 a sure kill).
EXPLORE = 0.2


class Luck:
    """The mean answer of every pair played out on each seed: a seed's harsh or kind
    dice are the same for every pair (common random numbers), so a pair is judged
    by its answers less its seeds' means, not by which seeds it happened to get."""

    def __init__(self) -> None:
        self.sums: dict[int, float] = {}
        self.counts: dict[int, int] = {}

    def add(self, k: int, answer: float) -> None:
        self.sums[k] = self.sums.get(k, 0.0) + answer
        self.counts[k] = self.counts.get(k, 0) + 1

    def mean(self, k: int) -> float:
        return self.sums[k] / self.counts[k]

    def overall(self) -> float:
        """The mean of the seeds' means (the answer a pair of average luck gets)."""
        return sum(self.mean(k) for k in self.sums) / len(self.sums)


@dataclass
class Pair:
    """A first action and a second (or none), their exact score and playouts."""

    actions: tuple[Action, ...]
    exact: float
    second: Weighed | None  # the second action as greedy weighed it, if any
    after: GameState  # the copy after the first action (seeded dice)
    target: str | None  # the pair's first attack's target (its playouts split by it)
    p_kill: float  # the exact chance that attack eliminates it
    runs: list[tuple[float, bool]] = field(default_factory=list)  # (answer, target gone)

    @property
    def n(self) -> int:
        return len(self.runs)

    def value(self, luck: Luck) -> float:
        """The exact score minus the answer, each run's answer taken relative to its
        seed's mean; with an attack's outcomes both seen, their means weighted by the
        exact chance to eliminate (less noise than the plain mean)."""
        kill = [a - luck.mean(k) for k, (a, gone) in enumerate(self.runs) if gone]
        stay = [a - luck.mean(k) for k, (a, gone) in enumerate(self.runs) if not gone]
        if kill and stay:
            answer = (self.p_kill * sum(kill) / len(kill)
                      + (1.0 - self.p_kill) * sum(stay) / len(stay))
        else:
            runs = kill or stay
            answer = sum(runs) / len(runs)
        return self.exact - luck.overall() - answer

    def play(self, answer: float, gone: bool, luck: Luck) -> None:
        luck.add(self.n, answer)
        self.runs.append((answer, gone))


@dataclass
class First:
    """A first action: its pairs, opened as it is visited (``expand`` lists them)."""

    weighed: Weighed
    expand: Callable[[], list[Pair]]
    pairs: list[Pair] | None = None
    n: int = 0

    def opened(self) -> list[Pair]:
        if self.pairs is None:
            self.pairs = self.expand()
        return self.pairs[:_open(SECONDS, self.n)]

    def value(self, luck: Luck) -> float:
        """The best of its pairs played out (the second is chosen after the first)."""
        return max(p.value(luck) for p in self.pairs or [] if p.n)


def _open(k: float, n: int) -> int:
    return max(1, math.ceil(k * math.pow(n + 1, ALPHA)))


def _ucb(value: float, n: int, parent: int) -> float:
    return value + EXPLORE * math.sqrt(math.log(parent + 1) / n)


def next_pair(firsts: list[First], visits: int, luck: Luck) -> tuple[First, Pair]:
    """The pair to play out next: an unvisited open child first (in order), else the
    best by UCB1, at both levels."""
    first = _pick(firsts[:_open(FIRSTS, visits)], visits,
                  lambda f: f.n, lambda f: f.value(luck))
    pairs = first.opened()
    return first, _pick(pairs, first.n, lambda p: p.n, lambda p: p.value(luck))


def _pick(children: list[T], parent: int, n: Callable[[T], int],
             value: Callable[[T], float]) -> T:
    for c in children:
        if n(c) == 0:
            return c
    return max(children, key=lambda c: _ucb(value(c), n(c), parent))


def best_pair(firsts: list[First], luck: Luck) -> tuple[First, Pair]:
    """The pair chosen: the best value among the pairs played out most (at least
    half as often as the most visited), ties to the first listed."""
    played = [(f, p) for f in firsts for p in f.pairs or [] if p.n]
    most = max(p.n for _, p in played)
    sure = [(f, p) for f, p in played if 2 * p.n >= most]
    return max(sure, key=lambda fp: fp[1].value(luck))
