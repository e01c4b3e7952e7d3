"""Agreement of two move analyses of the same decisions (harness.analysis.agreement)."""

from __future__ import annotations

import math

import pytest

from harness.analysis.agreement import (
    agreement,
    best_options,
    clear_best,
    gap_se,
    pearson,
    within_noise,
)
from harness.analysis.run_moves import MoveLine, MovesLine, settings_for


def _move(index: int, values: list[float], chosen: str = "a") -> MoveLine:
    options = ["a", "b", "c"][: len(values)]
    best = options[max(range(len(values)), key=values.__getitem__)]
    loss = max(values) - values[options.index(chosen)]
    return MoveLine(index=index, seat=0, player="p", role="raider", kind="play", options=options,
                    values=values, chosen=chosen, best=best, loss=loss,
                    label="blunder" if loss >= 0.15 else None, accuracy=0.0)  # fmt: skip


def _line(game: str, moves: list[MoveLine]) -> dict[str, MovesLine]:
    return {game: MovesLine(game_id=game, settings=settings_for("fitted", 1), decisions=moves)}


def test_an_analysis_agrees_with_itself() -> None:
    a = _line("g", [_move(1, [0.2, 0.5]), _move(2, [0.9, 0.1, 0.3]), _move(3, [0.4, 0.4])])
    r = agreement(a, a)
    assert r.decisions == 3 and r.best_agreement == 1.0 and r.label_agreement == 1.0
    assert r.correlation == pytest.approx(1.0)


def test_disagreement_on_the_best_and_on_the_losses_is_counted() -> None:
    mine = _line("g", [_move(1, [0.2, 0.5]), _move(2, [0.9, 0.1]), _move(3, [0.3, 0.6])])
    ref = _line("g", [_move(1, [0.6, 0.5]), _move(2, [0.9, 0.1]), _move(3, [0.1, 0.2])])
    r = agreement(mine, ref)
    assert (r.decisions, r.same_best) == (3, 2)
    assert r.best_agreement == pytest.approx(2 / 3)
    # losses of the chosen option "a": mine 0.3, 0, 0.3; the reference's 0, 0, 0.1
    assert r.correlation == pytest.approx(pearson([0.3, 0.0, 0.3], [0.0, 0.0, 0.1]))
    assert r.same_label == 1  # decision 2 only: decisions 1 and 3 are blunders of mine alone


def test_a_tie_in_the_reference_broken_the_other_way_is_agreement() -> None:
    assert best_options(_move(1, [0.5, 0.5, 0.1])) == {"a", "b"}
    mine = _line("g", [_move(1, [0.4, 0.6, 0.1], chosen="b")])
    ref = _line("g", [_move(1, [0.5, 0.5, 0.1], chosen="b")])
    assert agreement(mine, ref).same_best == 1


def test_only_common_decisions_with_the_same_options_count() -> None:
    mine = _line("g", [_move(1, [0.2, 0.5]), _move(2, [0.9, 0.1])]) | _line("h", [_move(1, [1, 0])])
    ref = _line("g", [_move(1, [0.2, 0.5, 0.0]), _move(2, [0.9, 0.1])])
    r = agreement(mine, ref)
    assert r.decisions == 1 and r.correlation is None  # one pair: no correlation
    empty = agreement(mine, {})
    assert empty.decisions == 0 and math.isnan(empty.best_agreement)


def test_pearson() -> None:
    assert pearson([1, 2, 3], [2, 4, 6]) == pytest.approx(1.0)
    assert pearson([1, 2, 3], [3, 2, 1]) == pytest.approx(-1.0)
    assert pearson([1, 1, 1], [1, 2, 3]) is None and pearson([1], [1]) is None


def _noisy(index: int, values: list[float], gap_ses: list[float]) -> MoveLine:
    m = _move(index, values)
    return m.model_copy(update={"gap_ses": gap_ses, "ses": [0.06] * len(values)})


def test_a_best_the_reference_cannot_tell_apart_is_within_its_noise() -> None:
    # the reference: b best by 0.05 over a (paired SE 0.04: not separated), by 0.4 over c (SE 0.05)
    ref = _noisy(1, [0.45, 0.5, 0.1], [0.04, 0.0, 0.05])
    assert within_noise(ref, "a") and within_noise(ref, "b") and not within_noise(ref, "c")
    assert clear_best(ref) is None
    clear = _noisy(2, [0.2, 0.5, 0.1], [0.05, 0.0, 0.05])  # b above both by more than 2 SE
    assert clear_best(clear) == "b"
    mine = _line("g", [_move(1, [0.6, 0.5, 0.1]), _move(2, [0.6, 0.5, 0.1])])  # a best in both
    r = agreement(mine, _line("g", [ref, clear]))
    assert (r.decisions, r.same_best) == (2, 0)  # the strict measure: both disagree
    assert r.within_noise == 1 and r.noise_agreement == pytest.approx(0.5)
    assert (r.clear, r.same_clear_best) == (1, 0) and r.clear_agreement == 0.0


def test_without_paired_errors_the_values_errors_bound_the_noise() -> None:
    ref = _move(1, [0.45, 0.5]).model_copy(update={"ses": [0.03, 0.03]})  # gap 0.05 <= 2·0.042
    assert gap_se(ref, "a") == pytest.approx(math.hypot(0.03, 0.03))
    assert within_noise(ref, "a") and clear_best(ref) is None
    bare = _move(1, [0.45, 0.5])  # schema 2: no standard errors; only a tie is within noise
    assert not within_noise(bare, "a") and clear_best(bare) == "b"
    assert math.isnan(agreement({}, {}).clear_agreement)


def test_a_tie_in_the_first_broken_the_other_way_is_agreement() -> None:
    # The first analysis values a and b alike (both lose nothing); its stored best is the first
    # of them in option order, an arbitrary pick — the reference's best b is one of its bests.
    mine = _line("g", [_move(1, [0.5, 0.5, 0.1], chosen="b")])
    assert mine["g"].decisions[0].best == "a"
    ref = _line("g", [_move(1, [0.4, 0.6, 0.1], chosen="b")])
    assert agreement(mine, ref).same_best == 1
    assert agreement(ref, mine).same_best == 1  # the same either way round
    other = _line("g", [_move(1, [0.4, 0.3, 0.6], chosen="b")])  # c best: no common best
    assert agreement(mine, other).same_best == 0
