"""``bangarena plan --from RUN``: the spread of a comparison of two players, clustered by deal
(harness.runs.plan_spread) — by hand on a constructed run, unbiased for the per-deal difference
by simulation, equal to the per-deal differences' variance on a played balanced pilot, and a
pilot too small for a spread still costs the plan."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from harness.cli.main import main
from harness.league.league_config import parse_config
from harness.runs import ROLE_ADJUSTED, make_plan, pilot_source
from harness.runs import plan as plan_module
from harness.runs.plan_spread import deal_spread, pair_variance
from harness.runs.stats import GAME_COLUMNS, SEAT_COLUMNS, RunData, load_run
from tests.bot_league import play_league

# Six deals of a 4-seat table, each played at two seatings: A, then B at seat 0 (the Marshal).
A_WON = [1, 0, 1, 0, 1, 0]
B_WON = [1, 0, 1, 0, 0, 1]
CONFIG = {
    "name": "constructed",
    "players": [{"name": "A", "kind": "bot"}, {"name": "B", "kind": "random"}],
    "tables": [{"seats": [4]}],
    "games_per_table": 12,
}
# Four players at a 4-seat paired table: every seat of a deal is played once by each (balanced).
FOUR = """\
name: four
players:
  - {name: bot1, kind: bot}
  - {name: bot2, kind: bot}
  - {name: random1, kind: random}
  - {name: random2, kind: random}
tables:
  - seats: [4]
games_per_table: 24
paired: true
"""


def _constructed_run(tmp_path: Path) -> RunData:
    games, seats = [], []
    for deal, won in enumerate(zip(A_WON, B_WON, strict=True)):
        for rotation, (player, w) in enumerate(zip("AB", won, strict=True)):
            gid = f"g{deal}-{rotation}"
            games.append({**dict.fromkeys(GAME_COLUMNS), "game_id": gid, "seed": 100 + deal,
                          "seats": 4, "mode": "classic", "deal": deal, "rotation": rotation})  # fmt: skip
            seats.append({**dict.fromkeys(SEAT_COLUMNS), "game_id": gid, "seats": 4,
                          "mode": "classic", "seat": 0, "player": player, "kind": "bot",
                          "role": "marshal", "team": "law", "won": bool(w), "model_calls": 0})  # fmt: skip
    s = pd.DataFrame(seats, columns=SEAT_COLUMNS)
    return RunData(tmp_path, "constructed", pd.DataFrame(games, columns=GAME_COLUMNS), s, s, [])


def test_the_spread_of_a_constructed_run_by_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run = _constructed_run(tmp_path)

    def luck(_run_dir: str, seats: pd.DataFrame) -> pd.DataFrame:
        df = seats[["game_id", "seats", "mode", "seat", "player", "role", "won"]].copy()
        df["adjusted"] = 0.25 + 0.5 * df["won"].astype(float)  # half the spread of the result
        return df

    monkeypatch.setattr(plan_module, "load_run", lambda _d: run)
    monkeypatch.setattr(plan_module, "with_luck", luck)
    src = pilot_source(tmp_path)
    assert src.kind == "pilot" and src.pilot_paired is True
    # The per-deal differences A − B are 0, 0, 0, 0, 1, −1: sample variance (ddof 1) 2/5 = 0.4.
    # One Marshal seat-game per player and deal (m = 1): σ̂² = m · 0.4 / 2 = 0.2.
    marshal = src.spreads["marshal"]
    assert marshal.sd_raw == pytest.approx(math.sqrt(0.2))
    assert marshal.sd_adjusted == pytest.approx(math.sqrt(0.2) / 2)
    assert marshal.seat_games == 12 and "6 deals, 1 pair of players" in marshal.note
    assert src.spreads[ROLE_ADJUSTED].sd_raw == pytest.approx(math.sqrt(0.2))  # base rate 0.5
    # (z₀.₉₇₅ + z₀.₈)² = 7.848879; δ = 0.1: 2 · 7.848879 · 0.2 / 0.01 = 313.96 seat-games per
    # player = deals (m = 1), the paired formula (z + z)² · s_d² / δ² with s_d² = 0.4; luck-
    # adjusted: a quarter.  Two players at four seats: half a Marshal seat-game per game each.
    for paired in (True, False):
        plan = make_plan(parse_config({**CONFIG, "paired": paired}), 0.1, 0.05, 0.8, src,
                         default_calls=0.0)  # fmt: skip
        row = next(r for r in plan.roles if r.role == "marshal")
        assert (row.per_player_raw, row.per_player_adjusted) == (314, 79)
        assert row.games_raw == 628
        # the other roles of the table: no deal of them, the spread over all roles
        loner = next(r for r in plan.roles if r.role == "loner")
        assert "too few deals in the pilot" in loner.note
        replayed = any("the pilot replayed its deals" in n for n in plan.notes)
        assert replayed is (not paired)


def test_a_deal_alone_or_one_player_gives_no_spread() -> None:
    x = np.array([1.0, 0.0, 1.0, 1.0])
    v, k = pair_variance(x, np.array([True, False, True, False]), np.array([1, 1, 1, 1]))
    assert math.isnan(v) and k == 1
    df = pd.DataFrame({"seats": 4, "mode": "classic", "seed": [1, 1, 2, 2], "seat": 0,
                       "player": ["A"] * 4, "x": x})  # fmt: skip
    assert math.isnan(deal_spread(df, "x").sd) and deal_spread(df, "x").pairs == 0


@pytest.mark.parametrize("m", [1, 2, 3])
def test_unbiased_for_the_per_deal_difference(m: int) -> None:
    """Paired deals where each player holds ``m`` seats of the role, correlated within the deal
    (a shared player × deal effect ``v``) on top of the seat's worth ``u`` (the same for both
    players, which pairing cancels) and noise ``e``: the per-deal difference has variance
    ``2σ_v² + 2σ_e²/m``, and σ̂² must average ``m · Var(d) / 2`` over many pilots of 6 deals.
    The seat-game-level spread (deals ignored) would not: it is shown to miss by far."""
    rng = np.random.default_rng(33 + m)
    reps, deals, sv, se, su = 6000, 6, 0.5, 1.0, 2.0
    var_d = 2 * sv**2 + 2 * se**2 / m
    target = m * var_d / 2
    # every replication at once: shape (reps, deals, player, seat)
    u = rng.normal(0, su, (reps, deals, 1, m))
    v = rng.normal(0, sv, (reps, deals, 2, 1))
    x = 0.3 * np.array([1, 0]).reshape(1, 1, 2, 1) + u + v + rng.normal(0, se, (reps, deals, 2, m))
    is_a = np.broadcast_to(np.array([True, False]).reshape(2, 1), (deals, 2, m)).ravel()
    deal = np.broadcast_to(np.arange(deals).reshape(deals, 1, 1), (deals, 2, m)).ravel()
    est = np.empty(reps)
    naive = np.empty(reps)
    for r in range(reps):
        values = x[r].ravel()
        var, _k = pair_variance(values, is_a, deal)
        est[r] = var / (2.0 / (deals * m))
        naive[r] = (np.var(values[is_a], ddof=1) + np.var(values[~is_a], ddof=1)) / 2
    mc = est.std(ddof=1) / math.sqrt(reps)
    assert abs(est.mean() - target) < 3.5 * mc, (est.mean(), target, mc)
    assert abs(naive.mean() - target) > 10 * mc  # the unclustered spread is another quantity


@pytest.fixture(scope="module")
def balanced_pilot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_league(tmp_path_factory.mktemp("four"), FOUR, "four")


def test_a_played_balanced_pilot_gives_the_per_deal_differences_variance(
    balanced_pilot: Path,
) -> None:
    """Four players at four seats, paired: in every deal each player sits every seat once, so a
    pair's σ̂² is exactly ``m · s_d² / 2`` (``m`` seats of the role a deal, ``s_d²`` the sample
    variance of the per-deal differences of their means); the spread averages the six pairs."""
    src = pilot_source(balanced_pilot)
    data = load_run(balanced_pilot)
    df = data.seats.merge(data.games[["game_id", "seed"]], on="game_id")
    df["adjusted"] = [
        luck[s] for luck, s in zip(_luck(balanced_pilot, df), df["seat"], strict=True)
    ]
    players = sorted(df["player"].unique())
    for role, m in (("marshal", 1), ("raider", 2), ("loner", 1)):
        part = df[df["role"] == role]
        assert (part.groupby(["seed", "player"]).size() == m).all()  # balanced
        for column, sd in (("won", src.spreads[role].sd_raw),
                           ("adjusted", src.spreads[role].sd_adjusted)):  # fmt: skip
            means = part.groupby(["seed", "player"])[column].mean().unstack()
            pairs = [m * float((means[a] - means[b]).var(ddof=1)) / 2
                     for i, a in enumerate(players) for b in players[i + 1:]]  # fmt: skip
            assert sd == pytest.approx(math.sqrt(float(np.mean(pairs))))
            assert sd > 0.05
        assert src.spreads[role].seat_games == len(part)
        assert "6 deals, 6 pairs of players" in src.spreads[role].note


def _luck(run: Path, df: pd.DataFrame) -> list[list[float]]:
    lines = (run / "analysis" / "luck.jsonl").read_text(encoding="utf-8").splitlines()
    by_game = {d["game_id"]: d["adjusted"] for d in map(json.loads, lines)}
    return [by_game[g] for g in df["game_id"]]


def test_a_one_game_pilot_costs_the_plan_with_the_bench_spread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A pilot of one game (one model seat, fake OpenAI server on 127.0.0.1) has no spread to
    measure: the plan says the spread is the bench's and still gives the pilot's calls, tokens
    and dollars per game."""
    pytest.importorskip("openai")
    from tests.fakes.backends import KEY_ENV, SECRET_KEY
    from tests.fakes.openai_server import FakeOpenAIServer
    from tests.league_run.model_league import run_dir, run_league, write_league

    monkeypatch.setenv(KEY_ENV, SECRET_KEY)
    with FakeOpenAIServer() as server:
        cfg = write_league(tmp_path / "one.yaml", server, name="one", model_players=1, bots=1,
                           games_per_table=1)  # fmt: skip
        assert run_league(cfg) == 0
    run = run_dir(cfg)
    assert len(load_run(run).games) == 1
    capsys.readouterr()
    assert main(["plan", str(cfg), "--from", str(run), "--detect", "0.1", "--json"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    data = json.loads(out[-1])
    assert data["source"] == "bench"
    assert "too small to measure a spread" in data["source_text"]
    assert "the spread is taken from the bench figures" in data["source_text"]
    (c,) = data["costs_raw"]
    seats = [o for g in load_run(run).records for o in g.seat_outcomes if o.kind == "model"]
    calls = sum(o.model_calls for o in seats)
    assert calls > 0 and c["calls"] == pytest.approx(calls / len(seats) * c["seat_games"])
    assert c["usd"] is not None and c["usd"] > 0 and "pilot one" in c["source"]
    per_game = next(line for line in out if "per game of the plan" in line)
    games = data["games_raw"]
    assert (
        f"{c['calls'] / games:,.1f} calls" in per_game and f"${c['usd'] / games:,.4f}" in per_game
    )
