"""Scoring: exact match, set F1 and the random-guess baseline (checked against brute force)."""

from __future__ import annotations

from itertools import combinations

import pytest

from harness.quiz.score import baseline, exact, f1


def test_exact_and_f1() -> None:
    assert exact(["a", "b"], ["b", "a"]) and not exact(["a"], ["a", "b"])
    assert not exact(["a"], None) and f1(["a"], None) == 0.0
    assert f1([], []) == 1.0 and f1([], ["a"]) == 0.0
    assert f1(["a", "b"], ["a", "c"]) == pytest.approx(0.5)
    assert f1(["a", "b", "c"], ["a"]) == pytest.approx(0.5)


@pytest.mark.parametrize("k", range(1, 7))
def test_the_random_baseline_is_the_mean_over_every_guess(k: int) -> None:
    ids = [str(i) for i in range(k)]
    guesses = [list(c) for r in range(k + 1) for c in combinations(ids, r)]
    for size in range(k + 1):
        right = ids[:size]
        ex = sum(exact(right, g) for g in guesses) / len(guesses)
        ff = sum(f1(right, g) for g in guesses) / len(guesses)
        assert baseline("set", k, size) == pytest.approx((ex, ff))
    assert baseline("one", k, 1) == pytest.approx((1 / k, 1 / k))
