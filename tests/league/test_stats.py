"""League statistics on small synthetic runs written with the record models: Wilson intervals,
win rates by player × role, role-adjusted scores, rates, ratings and their bootstrap intervals."""

from __future__ import annotations

import math
import zlib
from pathlib import Path

import pytest

from harness.engine.roles import TEAM_OF
from harness.league.stats_basic import t_quantile, wilson, wilson_share
from harness.records import GameRecord, SeatOutcome
from harness.records.notices import RecordWarning
from harness.records.store import RecordError
from harness.runs import build_report, save_report
from harness.runs.ratings import compute_ratings, prepare_games, rate_games
from harness.runs.stats import load_run, rates, role_adjusted, win_rates

Seat = tuple[str, str, bool]  # player, role, won


def record(game_id: str, seats: list[Seat], mode: str = "classic", **extra: object) -> GameRecord:
    """A finished game: one outcome per seat; decisions, fallbacks, tokens and cost per seat
    may be given as ``extra[<field>] = [value per seat]``."""
    outcomes = []
    for i, (player, role, won) in enumerate(seats):
        fields = {k: v[i] for k, v in extra.items()}  # type: ignore[index]
        outcomes.append(
            SeatOutcome(
                seat=i,
                player=player,
                kind="bot",
                role=role,
                team=TEAM_OF[role],
                won=won,
                alive=won,
                decisions=fields.pop("decisions", 10),
                **fields,
            )
        )
    winners = [i for i, s in enumerate(seats) if s[2]]
    return GameRecord(
        run="synthetic",
        game_id=game_id,
        seed=zlib.crc32(game_id.encode()),  # every game its own deal
        seats=len(seats),
        mode=mode,
        deal=0,
        rotation=0,
        winning_side=TEAM_OF[seats[winners[0]][1]],
        winners=winners,
        rounds=3,
        high_noon=False,
        decisions=sum(o.decisions for o in outcomes),
        seat_outcomes=outcomes,
        fallbacks=sum(sum(o.fallbacks.values()) for o in outcomes),
        cost_usd=sum(o.cost_usd for o in outcomes),
        input_tokens=sum(o.input_tokens for o in outcomes),
        output_tokens=sum(o.output_tokens for o in outcomes),
        duration_s=0.1,
        finished_at="2024-01-01T00:00:00+00:00",
    )


def write_run(root: Path, records: list[GameRecord]) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    (root / "games.jsonl").write_text(
        "".join(r.model_dump_json() + "\n" for r in records), encoding="utf-8"
    )
    return root


# Four 4-seat classic games of players A and B (roles marshal, raider, raider, loner).
# Base rates: marshal 1/4, raider 6/8, loner 0/4.  A wins 4 of 8 seats where a player with the
# same roles would expect 3.5 of 8, so A scores +1/16 and B -1/16.
SMALL = [
    record("g1", [("A", "marshal", True), ("B", "raider", False), ("A", "raider", False),
                  ("B", "loner", False)]),
    record("g2", [("B", "marshal", False), ("A", "raider", True), ("B", "raider", True),
                  ("A", "loner", False)]),
    record("g3", [("A", "marshal", False), ("B", "raider", True), ("A", "raider", True),
                  ("B", "loner", False)]),
    record("g4", [("B", "marshal", False), ("A", "raider", True), ("B", "raider", True),
                  ("A", "loner", False)]),
]  # fmt: skip


def test_wilson_known_values() -> None:
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    assert wilson(5, 5)[1] == 1.0 and wilson(0, 0) == (0.0, 1.0)


def test_load_run_frames(tmp_path: Path) -> None:
    data = load_run(write_run(tmp_path / "run", SMALL))
    assert data.name == "synthetic"
    assert list(data.games["game_id"]) == ["g1", "g2", "g3", "g4"]
    assert len(data.seats) == 16
    assert set(data.seats.columns) >= {
        "game_id", "seats", "mode", "player", "kind", "model", "role", "team", "won",
        "decisions", "fallback_timeout", "fallback_error", "fallback_invalid_answer",
        "invalid_answers", "tokens", "cost_usd", "latency_s",
    }  # fmt: skip
    assert data.seats["won"].sum() == 7


def test_load_run_errors(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="no run folder"):
        load_run(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(RecordError, match="not a run folder"):
        load_run(tmp_path / "empty")
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "games.jsonl").write_text("{not json\n{nor this\n")
    with pytest.raises(RecordError, match="line 1"):  # no line is a game record
        load_run(bad)
    # a damaged line among game records (one torn by a stop, then resumed) is reported and skipped
    (bad / "games.jsonl").write_text("{not json\n" + SMALL[0].model_dump_json() + "\n")
    with pytest.warns(RecordWarning, match="line 1 is damaged and skipped"):
        assert set(load_run(bad).seats["game_id"]) == {SMALL[0].game_id}


def test_win_rates_by_player_and_role(tmp_path: Path) -> None:
    wr = win_rates(load_run(write_run(tmp_path / "run", SMALL)).seats)
    rows = {(r.player, r.role): r for r in wr.itertuples()}
    assert list(wr["role"][wr["player"] == "A"]) == ["marshal", "raider", "loner"]
    a_raider = rows[("A", "raider")]
    assert (a_raider.games, a_raider.wins, a_raider.win_rate) == (4, 3, 0.75)
    # one seat in each of 4 deals: design effect 4/3, so Wilson at 3 results, t for 3 df
    assert (a_raider.ci_lo, a_raider.ci_hi) == pytest.approx(
        wilson_share(0.75, 3, t_quantile(0.975, 3))
    )
    assert (rows[("A", "marshal")].games, rows[("A", "marshal")].wins) == (2, 1)
    assert rows[("B", "loner")].win_rate == 0.0 and rows[("B", "loner")].ci_lo == 0.0
    by = win_rates(load_run(tmp_path / "run").seats, by=("seats", "mode"))
    assert set(by["seats"]) == {4} and set(by["mode"]) == {"classic"}


def test_role_adjusted_scores(tmp_path: Path) -> None:
    adj = role_adjusted(load_run(write_run(tmp_path / "run", SMALL)).seats)
    a = adj.set_index("player").loc["A"]
    b = adj.set_index("player").loc["B"]
    assert a["win_rate"] == 0.5 and a["expected"] == pytest.approx(3.5 / 8)
    assert a["score"] == pytest.approx(1 / 16) and b["score"] == pytest.approx(-1 / 16)
    assert list(adj["player"]) == ["A", "B"]  # best first
    for r in (a, b):
        assert math.isfinite(r["se"]) and r["ci_lo"] < r["score"] < r["ci_hi"]
        assert r["ci_hi"] - r["score"] == pytest.approx(r["score"] - r["ci_lo"])


def test_rates_per_decision_and_game(tmp_path: Path) -> None:
    recs = [
        record(
            "g1",
            [
                ("M", "marshal", True),
                ("M", "raider", False),
                ("R", "raider", False),
                ("R", "loner", False),
            ],
            decisions=[10, 10, 5, 5],
            fallbacks=[{"timeout": 1}, {"invalid_answer": 2}, {}, {}],
            invalid_answers=[1, 3, 0, 0],
            input_tokens=[100, 200, 0, 0],
            output_tokens=[10, 20, 0, 0],
            cost_usd=[0.01, 0.02, 0.0, 0.0],
            latency_s=[1.0, 3.0, 0.01, 0.01],
        )
    ]
    r = rates(load_run(write_run(tmp_path / "run", recs)).seats).set_index("player").loc["M"]
    assert (r["games"], r["decisions"], r["fallbacks"]) == (1, 20, 3)
    assert r["fallback_rate"] == pytest.approx(3 / 20)
    assert r["timeout_rate"] == pytest.approx(1 / 20)
    assert r["invalid_rate"] == pytest.approx(4 / 20)
    assert r["latency_per_decision_ms"] == pytest.approx(200)
    assert r["tokens_per_game"] == 330 and r["cost_per_game_usd"] == pytest.approx(0.03)


def dominance_run(games: int = 40) -> list[GameRecord]:
    """``champ`` is always on the winning side and ``chump`` always on a losing side; the two
    fillers take the other seats, each on either side in turn."""
    out = []
    for g in range(games):
        f1, f2 = ("x", "y") if g % 2 else ("y", "x")
        if g % 3:
            seats = [("champ", "raider", True), (f1, "raider", True), ("chump", "marshal", False),
                     (f2, "loner", False)]  # fmt: skip
        else:
            seats = [("champ", "marshal", True), ("chump", "raider", False), (f1, "raider", False),
                     (f2, "loner", False)]  # fmt: skip
        out.append(record(f"g{g:03d}", seats))
    return out


def test_ratings_winner_above_loser(tmp_path: Path) -> None:
    seats = load_run(write_run(tmp_path / "run", dominance_run())).seats
    ratings = compute_ratings(seats, bootstrap=50, seed=3).set_index("player")
    assert ratings.index[0] == "champ" and ratings.index[-1] == "chump"
    assert ratings.loc["champ", "mu"] > 25 > ratings.loc["chump", "mu"]
    assert ratings.loc["champ", "ordinal"] > ratings.loc["x", "ordinal"]
    assert ratings.loc["x", "ordinal"] > ratings.loc["chump", "ordinal"]
    assert (ratings["games"] == 40).all()
    for p, r in ratings.iterrows():
        assert r["mu_lo"] <= r["mu"] <= r["mu_hi"], p
        assert r["ordinal_lo"] <= r["ordinal"] <= r["ordinal_hi"], p
    again = compute_ratings(seats, bootstrap=50, seed=3).set_index("player")
    assert again.equals(ratings)  # seeded


def test_ratings_one_player_on_both_sides_moves_once() -> None:
    """A player holding a winning and a losing seat of one game gets the mean of both updates."""
    import pandas as pd

    seats = pd.DataFrame(
        {
            "game_id": ["g"] * 4,
            "mode": ["classic"] * 4,
            "seat": [0, 1, 2, 3],
            "player": ["twin", "w", "twin", "l"],
            "team": ["law", "law", "raiders", "raiders"],
            "won": [True, True, False, False],
        }
    )
    games = prepare_games(seats)
    assert games[0].teams == ((0, 1), (2, 3)) and games[0].ranks == (1, 2)
    state = rate_games(games)
    assert state["w"][0] > state["twin"][0] > state["l"][0]
    assert abs(state["twin"][0] - 25) < abs(state["w"][0] - 25)
    assert state["twin"][2] == 1


def test_report_tables_and_files(tmp_path: Path) -> None:
    run = write_run(tmp_path / "run", dominance_run(12) + SMALL)
    report = build_report(run, bootstrap=20)
    assert report.games == 16
    assert list(report.summary["player"])[0] == "champ"
    assert set(report.win_rates["player"]) == {"champ", "chump", "x", "y", "A", "B"}
    out = save_report(report)
    for name in ("summary", "win_rates", "role_adjusted", "ratings", "rates", "base_rates"):
        assert (out / f"{name}.csv").read_text().count("\n") > 1
    md = (out / "report.md").read_text()
    assert md.startswith("# League report — run synthetic: 16 games")
    assert md.count("\n## ") == 6
    assert "| player | role | games |" in md and "| champ | marshal |" in md


def test_a_player_who_loses_every_game_has_an_interval_of_real_width() -> None:
    """docs/statistics.md: with every seat-game lost in one role the residuals do not vary, yet
    four deals do not make the score certain: the interval is the win rate's clustered Wilson
    interval shifted by the expected rate, as wide as the raw win rate's."""
    import pandas as pd

    from harness.runs.stats import clustered_wilson

    rows = []
    for d in range(4):
        for seat, (player, role, won) in enumerate(
            [("R", "Marshal", 0), ("B", "Raider", 1), ("B", "Raider", 1), ("B", "Loner", 0)]
        ):
            rows.append({"game_id": f"g{d}", "deal_key": f"d{d}", "seats": 4, "mode": "classic",
                         "player": player, "role": role, "won": won, "seat": seat})  # fmt: skip
    seats = pd.DataFrame(rows)
    r = role_adjusted(seats).set_index("player").loc["R"]
    assert r["score"] == pytest.approx(0.0)  # the only Marshal: base rate 0, never won
    lo, hi = clustered_wilson(
        seats[seats.player == "R"]["won"], seats[seats.player == "R"]["deal_key"]
    )
    assert r["ci_hi"] - r["ci_lo"] > 0.3
    assert (r["ci_lo"], r["ci_hi"]) == pytest.approx((lo, hi))  # expected rate 0
