"""The table-talk shares' intervals (docs/signals.md): the Wilson interval at the design-effect
sample size covers the true share about 95 % of the time, also when claims cluster by game,
where the plain Wilson interval (claims taken as independent) covers it too rarely."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pandas as pd
import pytest

from harness.league.stats_basic import wilson
from harness.runs import talk_table
from harness.runs.talk_table import _Game, share_interval


def _coverage(clustered: bool, reps: int = 400) -> tuple[float, float]:
    rng = random.Random(23)
    p, games, per_game = 0.3, 30, 4
    hit = plain = 0
    for _ in range(reps):
        values, clusters = [], []
        for g in range(games):
            # clustered: each game's claims share one game-level honesty drawn around p
            q = rng.betavariate(0.6, 1.4) if clustered else p  # mean 0.3
            for _ in range(per_game):
                values.append(float(rng.random() < q))
                clusters.append(g)
        share, lo, hi = share_interval(pd.Series(values), pd.Series(clusters))
        hit += lo <= p <= hi
        k = int(sum(values))
        wlo, whi = wilson(k, len(values))
        plain += wlo <= p <= whi
    return hit / reps, plain / reps


def test_independent_claims_get_about_the_nominal_coverage() -> None:
    ours, plain = _coverage(clustered=False)
    assert 0.91 <= ours <= 0.99 and 0.91 <= plain <= 0.99


def test_clustered_claims_keep_the_coverage_plain_wilson_loses() -> None:
    ours, plain = _coverage(clustered=True)
    assert ours >= 0.91
    assert plain < 0.88 < ours


def test_the_share_is_the_plain_proportion() -> None:
    values = pd.Series([1.0, 0.0, 1.0, 1.0, 0.0])
    share, lo, hi = share_interval(values, pd.Series([0, 0, 1, 2, 2]))
    assert share == 0.6 and lo < share < hi


def _claim(role: str, at: int) -> dict[str, object]:
    return {"seat": 0, "kind": "claim", "role": role, "target": None, "reaction": None, "at": at}


def _claims_of(deals: int, rotations: int) -> Iterator[_Game]:
    """``deals`` deals, each played ``rotations`` times (a paired league), every game of a deal
    with the same claims: seat 0, a Raider, claims Raider (honest) in a third of the deals and
    Deputy in the others."""
    for d in range(deals):
        claim = "raider" if d % 3 == 0 else "deputy"
        for r in range(rotations):
            yield _Game(
                game_id=f"4p-classic-{d * rotations + r:04d}",
                deal=f"4:classic:{1000 + d}",
                players=["a", "b", "c", "d"],
                roles=["raider", "marshal", "loner", "deputy"],
                signals=[_claim(claim, 3 + k) for k in range(2)],
                refused=[],
                events=[],
            )


def test_replaying_a_deal_in_rotation_does_not_narrow_the_interval(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def honesty(rotations: int) -> pd.DataFrame:
        monkeypatch.setattr(talk_table, "_games", lambda _run: _claims_of(12, rotations))
        rows = talk_table.signal_table("run")
        return rows[rows["player"] == "a"][["claims", "honest", "honest_lo", "honest_hi"]]

    once, four = honesty(1), honesty(4)
    # the same 12 deals: four rotations of each add claims, not independent evidence
    assert int(four["claims"].sum()) == 4 * int(once["claims"].sum())
    (a,), (b,) = once.itertuples(index=False), four.itertuples(index=False)
    assert a.honest == pytest.approx(1 / 3) and b.honest == pytest.approx(a.honest)
    assert (b.honest_lo, b.honest_hi) == pytest.approx((a.honest_lo, a.honest_hi), abs=1e-9)
