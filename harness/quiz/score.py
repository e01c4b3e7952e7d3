"""Scoring quiz answers: exact match and set F1 per question, and what a random guess scores.

A single-answer question is a set question with a one-element answer, so F1 is defined for every
question: ``2·|given ∩ right| / (|given| + |right|)``, and 1 when both sets are empty.  A missing
answer (the model never gave a valid one) scores 0 on both.

The random-guess baseline guesses uniformly: one of the ``k`` candidates for a single answer
(exact match 1/k), any subset of the ``k`` candidates for a set answer (exact match 2^-k; the
expected F1 is summed exactly over the subsets' sizes).
"""

from __future__ import annotations

from collections.abc import Collection
from functools import lru_cache
from math import comb


def exact(right: Collection[str], given: Collection[str] | None) -> bool:
    return given is not None and set(given) == set(right)


def f1(right: Collection[str], given: Collection[str] | None) -> float:
    if given is None:
        return 0.0
    r, g = set(right), set(given)
    if not r and not g:
        return 1.0
    return 2 * len(r & g) / (len(r) + len(g))


@lru_cache(maxsize=256)
def _random_subset_f1(k: int, a: int) -> float:
    """Expected F1 of a uniformly random subset of ``k`` candidates against a right answer of
    ``a`` of them."""
    if a == 0:
        return 0.5**k  # only the empty guess scores (1)
    total = 0.0
    for hits in range(a + 1):
        for misses in range(k - a + 1):
            ways = comb(a, hits) * comb(k - a, misses)
            total += ways * 2 * hits / (hits + misses + a)
    return total * 0.5**k


def baseline(shape: str, k: int, answer_size: int) -> tuple[float, float]:
    """(expected exact match, expected F1) of a random guess among ``k`` candidates."""
    if k < 1:
        raise ValueError("a question needs at least one candidate")
    if shape == "one":
        return (1.0 / k, 1.0 / k)
    return (0.5**k, _random_subset_f1(k, answer_size))


__all__ = ["baseline", "exact", "f1"]
