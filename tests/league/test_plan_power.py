"""The planned games deliver the promised power: a pool of rule bot against random seat at four
seats, paired (the case ``plan`` once planned at 41 % power), is the world; the plan is made from
it as from a pilot, and leagues of the planned size are drawn from it by whole deals
(harness.runs.plan_power).  The power of the two-sided 5 % test must be 80 % ± 5 points in
every role and role-adjusted; at the count a spread √(2/3) too small would plan (the earlier
estimator on runs with copies) it must fall clearly short, so the check can fail."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
import pytest
import yaml

from harness.league.league_config import parse_config
from harness.league.schedule import build_schedule
from harness.runs import ROLE_ADJUSTED, base_rates, bootstrap_power, load_run
from harness.runs.plan import ScheduleCounts, games_per_table, make_plan, pilot_source
from tests.bot_league import play_league

POOL = """\
name: pool
players:
  - {name: rulebot, kind: bot}
  - {name: random, kind: random}
tables:
  - seats: [4]
games_per_table: 400
base_seed: 3300
paired: true
"""
DELTA = 0.15  # small enough for many deals a league (the normal approximation's regime)
DRAWS = 4000


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The pool run (200 deals × 2 seatings), its seat rows and the plan made from it (raw
    results: the luck adjustment is not computed here)."""
    root = tmp_path_factory.mktemp("pool")
    run = play_league(root, POOL, "pool")
    data = load_run(run)
    df = data.seats.merge(data.games[["game_id", "seed", "rotation"]], on="game_id")
    df = df.merge(base_rates(df)[["seats", "mode", "role", "base_rate"]],
                  on=["seats", "mode", "role"])  # fmt: skip

    source = pilot_source(run, luck=False)
    config = parse_config(yaml.safe_load(POOL))
    plan = make_plan(config, DELTA, 0.05, 0.8, source, default_calls=0.0)
    return {"rows": df, "plan": plan, "config": config}


def _values(df: pd.DataFrame, role: str) -> pd.DataFrame:
    if role == ROLE_ADJUSTED:
        return df.assign(value=df["won"].astype(float) - df["base_rate"])
    part = df[df["role"] == role]
    return part.assign(value=part["won"].astype(float))


def _power(pool: dict[str, Any], role: str, g: int) -> float:
    schedule = build_schedule(pool["config"].model_copy(update={"games_per_table": g}))
    return bootstrap_power(_values(pool["rows"], role), schedule, "rulebot", "random", DELTA,
                           draws=DRAWS, seed=g).power  # fmt: skip


@pytest.mark.parametrize("role", ["marshal", "raider", "loner", ROLE_ADJUSTED])
def test_the_planned_games_have_the_promised_power(pool: dict[str, Any], role: str) -> None:
    plan = pool["plan"]
    row = next(r for r in plan.roles if r.role == role)
    g = row.games_raw // plan.cells
    assert g >= 40  # a league of at least 20 deals
    power = _power(pool, role, g)
    assert power == pytest.approx(0.80, abs=0.05), (role, g, power)
    # the spread √(2/3) too small: two thirds of the seat-games needed
    short = games_per_table(ScheduleCounts(pool["config"]), role, row.per_player_raw * 2 / 3)
    assert _power(pool, role, short) < 0.72


def test_bootstrap_power_against_the_normal_formula() -> None:
    """A synthetic pool of 400 deals, one seat each for A and B per deal, per-deal differences
    of SD 1: a league of 50 deals has SE ≈ 1/√50 and the z test's power at δ follows
    Φ(δ/SE − z) + Φ(−δ/SE − z)."""
    from statistics import NormalDist

    rng = np.random.default_rng(5)
    deals = 400
    a, b = rng.normal(0.2, math.sqrt(0.5), deals), rng.normal(0.0, math.sqrt(0.5), deals)
    pool = pd.DataFrame({
        "seats": 4, "mode": "classic", "seed": np.repeat(np.arange(deals), 2),
        "rotation": np.tile([0, 1], deals), "player": np.tile(["A", "B"], deals),
        "value": np.column_stack([a, b]).ravel(),
    })  # fmt: skip
    config = parse_config({"name": "s", "players": [{"name": "A", "kind": "bot"},
                           {"name": "B", "kind": "bot"}], "tables": [{"seats": [4]}],
                           "games_per_table": 100})  # fmt: skip
    result = bootstrap_power(pool, build_schedule(config), "A", "B", 0.4, draws=DRAWS)
    d = a - b
    assert result.deals == 50
    assert result.truth == pytest.approx(d.mean())
    assert result.se == pytest.approx(d.std(ddof=0) / math.sqrt(50), rel=0.05)
    z = NormalDist()
    ratio = 0.4 / result.se
    expected = z.cdf(ratio - 1.959964) + z.cdf(-ratio - 1.959964)
    assert result.power == pytest.approx(expected, abs=0.025)
