"""``bangarena bench bots`` and ``bangarena balance`` with tiny game counts: the printed table,
the final JSON line, ``balance.csv`` and ``balance.svg`` exist, parse and agree."""

from __future__ import annotations

import argparse
import csv
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from harness.cli import balance_cmd, bots_bench_cmd
from harness.engine.roles import MODES
from harness.league.balance import law_balance
from harness.league.stats_basic import chi2_sf, homogeneity, wilson


def parser() -> argparse.ArgumentParser:
    """The two commands wired the way ``main.py``/``bench_cmd.py`` wire them."""
    p = argparse.ArgumentParser(prog="bangarena")
    sub = p.add_subparsers(dest="command", required=True)
    bench = sub.add_parser("bench")
    bsub = bench.add_subparsers(dest="bench", required=True)
    bots_bench_cmd.register_bench(bsub)
    balance_cmd.register(sub)
    return p


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[str, dict[str, Any]]:
    args = parser().parse_args(argv)
    assert args.func(args) == 0
    out = capsys.readouterr().out
    last = out.strip().splitlines()[-1]
    return out, json.loads(last)


def test_bench_bots_prints_rates_and_a_json_line(capsys: pytest.CaptureFixture[str]) -> None:
    out, data = run(
        ["bench", "bots", "--games", "2", "--speed-games", "1", "--workers", "1"], capsys
    )
    assert data["benchmark"] == "bots" and data["games_per_row"] == 2
    rows = data["rows"]
    assert [(r["team"], r["seats"]) for r in rows] == [
        (t, n) for t in ("law", "raiders", "loner") for n in (5, 7)
    ]
    for r in rows:
        for side in ("bot", "random"):
            x = r[side]
            assert x["games"] == 2 and 0 <= x["wins"] <= 2
            assert x["lo"] <= x["rate"] == x["wins"] / 2 <= x["hi"]
        assert isinstance(r["pass"], bool)
    speed = data["decisions_per_s"]
    assert speed["decisions"] > 0 and speed["decide_only"] > speed["whole_bot_games"] > 0
    assert data["fallbacks"] == 0
    assert "bot decisions/s, one core" in out and "law" in out and "[" in out


def test_balance_writes_csv_and_svg(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_dir = tmp_path / "bal"
    out, data = run(["balance", "--games", "2", "--workers", "1", "--out", str(out_dir)], capsys)
    csv_path, svg_path = out_dir / "balance.csv", out_dir / "balance.svg"
    assert data["csv"] == str(csv_path) and data["svg"] == str(svg_path)
    with csv_path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert [(r["mode"], int(r["seats"])) for r in rows] == [
        (m, n) for m in MODES for n in range(4, 9)
    ]
    for r in rows:
        games = int(r["games"])
        assert games == 2
        ends = sum(int(r[f"end_{e}"]) for e in ("law", "raiders", "loner", "loners"))
        assert ends == games
        assert int(r["law_wins"]) + int(r["raiders_wins"]) + int(r["loner_wins"]) == games
        assert float(r["law_lo"]) <= float(r["law_rate"]) <= float(r["law_hi"])
        assert int(r["role_marshal_n"]) == games
        assert (r["high_noon_share"] == "") == (r["mode"] == "old_classic")
        assert int(r["fallbacks"]) == 0
    classic = {int(r["seats"]): r for r in rows if r["mode"] == "classic"}
    partners = {int(r["seats"]): r for r in rows if r["mode"] == "partners"}
    assert partners[5]["same_games_as"] == "classic" and partners[8]["same_games_as"] == ""
    assert partners[5]["law_wins"] == classic[5]["law_wins"]
    root = ET.parse(svg_path).getroot()
    assert root.tag.endswith("svg")
    assert len(root.findall(".//{http://www.w3.org/2000/svg}polyline")) == 3 * len(MODES)
    assert set(data["law_balance"]) == set(MODES)
    assert "is the law's win rate equal across table sizes?" in out
    assert "win rate by role" in out


def test_balance_reports_an_unwritable_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from harness.cli.cli_errors import CliError

    blocker = tmp_path / "file"
    blocker.write_text("x")
    args = parser().parse_args(["balance", "--games", "1", "--workers", "1", "--out",
                                str(blocker / "sub")])  # fmt: skip
    with pytest.raises(CliError, match="cannot write"):
        args.func(args)


def test_wired_into_main_when_the_lead_has_added_them(capsys: pytest.CaptureFixture[str]) -> None:
    from harness.cli.main import build_parser

    p = build_parser()
    try:
        p.parse_args(["balance", "--games", "1"])
        p.parse_args(["bench", "bots", "--games", "1"])
    except SystemExit:
        pytest.skip("bench bots / balance are not wired into harness/cli/main.py yet")


def test_wilson_and_chi_square() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(81, 263)
    assert abs(lo - 0.2553) < 1e-4 and abs(hi - 0.3662) < 1e-4
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    with pytest.raises(ValueError):
        wilson(3, 2)
    assert abs(chi2_sf(3.841, 1) - 0.05) < 1e-3
    assert abs(chi2_sf(9.488, 4) - 0.05) < 1e-3
    assert abs(chi2_sf(7.815, 3) - 0.05) < 1e-3
    stat, df, p = homogeneity([40, 50, 60], [100, 100, 100])
    assert (round(stat, 6), df) == (8.0, 2) and abs(p - 0.0183156) < 1e-6
    assert homogeneity([5, 5], [10, 10])[2] == 1.0


def test_law_balance_verdicts() -> None:
    """Equal rates → "equal within noise"; 40 % vs 70 % on 500 games → "NOT equal"."""

    def rows(rates: list[float]) -> list[dict[str, Any]]:
        out = []
        for m in MODES:
            for n, r in zip(range(4, 9), rates, strict=True):
                law = {"wins": round(500 * r), "n": 500, "rate": r, "lo": r, "hi": r}
                out.append({"mode": m, "seats": n, "teams": {"law": law}})
        return out

    flat = law_balance(rows([0.45] * 5))
    assert all(b["verdict"] == "equal within noise" and b["p"] == 1.0 for b in flat.values())
    steep = law_balance(rows([0.4, 0.5, 0.6, 0.7, 0.45]))["classic"]
    assert steep["verdict"] == "NOT equal" and not steep["roughly_equal"]
    assert steep["min"] == {"seats": 4, "rate": 0.4} and steep["max"] == {"seats": 7, "rate": 0.7}
    assert steep["p"] < 1e-6 and steep["df"] == 4
    close = law_balance(rows([0.44, 0.46, 0.44, 0.46, 0.49]))["classic"]
    assert close["spread"] <= 0.05 and close["roughly_equal"]
