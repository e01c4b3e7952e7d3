"""``bangarena plan --from RUN`` with a paired pilot: the SD of a per-deal difference
(harness.league.plan_paired), checked by hand on a constructed run and against a two-way
least-squares fit on a played one."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from harness.league import plan as plan_module
from harness.league.config import parse_config
from harness.league.luck_report import ROLE_ADJUSTED
from harness.league.plan import make_plan, pilot_source
from harness.league.plan_paired import paired_sd
from harness.league.stats import GAME_COLUMNS, SEAT_COLUMNS, RunData, load_run
from tests.bot_league import play_league

# Six deals of a 4-seat table, each played twice: A, then B at seat 0 (the Marshal).
A_WON = [1, 0, 1, 0, 1, 0]
B_WON = [1, 0, 1, 0, 0, 1]
CONFIG = {
    "name": "constructed",
    "players": [{"name": "A", "kind": "bot"}, {"name": "B", "kind": "random"}],
    "tables": [{"seats": [4]}],
    "games_per_table": 12,
}
# Four players at a 4-seat paired table: every deal-seat is played once by each (balanced).
FOUR = """\
name: four
players:
  - {name: bot1, kind: bot}
  - {name: bot2, kind: bot}
  - {name: random1, kind: random}
  - {name: random2, kind: random}
tables:
  - seats: [4]
games_per_table: 16
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


def test_paired_and_unpaired_spreads_of_a_constructed_run_by_hand(
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
    # Unpaired: each player's mean is 0.5, Σ (x − 0.5)² = 12 · 0.25 = 3 on 12 − 2 = 10 degrees of
    # freedom: σ² = 0.3.  Paired: the per-deal differences A − B are 0, 0, 0, 0, 1, −1, whose
    # sample variance (ddof 1) is 2 / 5 = 0.4 = σ_d².
    unpaired, paired = src.spreads["marshal"], src.paired["marshal"]
    assert unpaired.sd_raw == pytest.approx(math.sqrt(0.3)) and not unpaired.paired
    assert paired.sd_raw == pytest.approx(math.sqrt(0.4)) and paired.paired
    assert paired.sd_adjusted == pytest.approx(math.sqrt(0.4) / 2)
    assert paired.seat_games == 12
    assert src.paired[ROLE_ADJUSTED].sd_raw == pytest.approx(math.sqrt(0.4))  # base rate 0.5
    # (z₀.₉₇₅ + z₀.₈)² = 7.848879; δ = 0.1.  Paired: 7.848879 · 0.4 / 0.01 = 313.96 deals;
    # unpaired: 2 · 7.848879 · 0.3 / 0.01 = 470.93 seat-games; luck-adjusted: a quarter of each.
    for paired_league, raw, adj in ((True, 314, 79), (False, 471, 118)):
        config = parse_config({**CONFIG, "paired": paired_league})
        plan = make_plan(config, 0.1, 0.05, 0.8, src, default_calls=0.0)
        row = next(r for r in plan.roles if r.role == "marshal")
        assert (row.per_player_raw, row.per_player_adjusted, row.paired) == (
            raw, adj, paired_league,
        )  # fmt: skip
        # the other dealt roles have no paired deal in this run: the unpaired row-adjusted SD
        assert plan.paired_formula is False
        if paired_league:
            assert any("no deal of the pilot was played twice" in n for n in plan.notes)


def test_a_deal_seat_played_once_adds_nothing() -> None:
    df = pd.DataFrame(
        {"seats": 4, "mode": "classic", "seed": [1, 1, 2, 3], "seat": 0,
         "player": ["A", "B", "A", "B"], "x": [1.0, 0.0, 1.0, 1.0]}
    )  # fmt: skip
    r = paired_sd(df, "x")
    assert (r.plays, r.deal_seats, r.dof) == (2, 1, 0) and math.isnan(r.sd)
    assert math.isnan(paired_sd(df.iloc[2:], "x").sd)


@pytest.fixture(scope="module")
def paired_pilot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return play_league(tmp_path_factory.mktemp("paired"), FOUR, "four")


def test_a_played_paired_pilot_matches_a_two_way_least_squares_fit(paired_pilot: Path) -> None:
    """In the played pilot every deal-seat is played once by each player (a balanced design), so
    σ_e² is the residual mean square of x ~ player + deal-seat, fitted here by least squares."""
    src = pilot_source(paired_pilot)
    data = load_run(paired_pilot)
    df = data.seats.merge(data.games[["game_id", "seed"]], on="game_id")
    df["adjusted"] = [luck[s] for luck, s in zip(_luck(paired_pilot, df), df["seat"], strict=True)]
    for role in ("marshal", "raider", "loner"):
        part = df[df["role"] == role]
        cells = part.groupby(["seats", "mode", "seed", "seat"]).ngroup().to_numpy()
        players = pd.factorize(part["player"])[0]
        assert (np.bincount(cells * 4 + players) == 1).all()  # balanced: each player once
        design = np.column_stack(
            [np.eye(cells.max() + 1)[cells], np.eye(players.max() + 1)[players][:, 1:]]
        )
        dof = len(part) - design.shape[1]
        for column, sd in (("won", src.paired[role].sd_raw),
                           ("adjusted", src.paired[role].sd_adjusted)):  # fmt: skip
            x = part[column].to_numpy(dtype=float)
            fit, *_ = np.linalg.lstsq(design, x, rcond=None)
            ms = float(np.sum((x - design @ fit) ** 2)) / dof
            assert ms > 0.01
            assert sd == pytest.approx(math.sqrt(2 * ms))
        assert src.paired[role].seat_games == len(part) and src.paired[role].paired


def _luck(run: Path, df: pd.DataFrame) -> list[list[float]]:
    lines = (run / "analysis" / "luck.jsonl").read_text(encoding="utf-8").splitlines()
    by_game = {d["game_id"]: d["adjusted"] for d in map(json.loads, lines)}
    return [by_game[g] for g in df["game_id"]]
