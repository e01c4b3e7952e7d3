"""``bangarena balance [--games N] [--out DIR]`` — bot-only tables at every size and mode.

Prints, per mode and table size: the win rate of each team and each role with a 95 % Wilson
interval, average rounds, the share of games that reach High Noon, and how the games ended; then
states whether the law's win rate is roughly equal across table sizes (the seed pages claim the
Marshal's ♥ bonus balances it).  Writes ``balance.csv`` and the chart ``balance.svg`` under
``--out`` (default ``results/balance/``), every figure as ``balance.json`` there, and ends with
one short JSON line (the law-balance verdicts and where the files are).

The measurement and its statistics are :mod:`harness.league.balance`; the chart is
:mod:`harness.report.balance_chart`.  This command parses, prints and writes the files.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from harness.engine.roles import MAX_SEATS, MIN_SEATS, MODES, ROLES
from harness.league.balance import (
    ROUGHLY_EQUAL_SPREAD,
    balance_jobs,
    csv_row,
    law_balance,
    play_balance,
    write_csv,
)
from harness.paths import RESULTS_DIR
from harness.report.balance_chart import balance_svg

from .args import positive_int
from .cli_errors import path_error
from .progress import Progress


def register(sub: Any) -> None:
    p = sub.add_parser(
        "balance",
        help="bot-only tables at every size and mode: win rates by team and role, CSV + SVG",
        description="Rule bots at every seat; win rates by team and role with 95 % intervals, "
        "rounds, High Noon share, endings; is the law's win rate equal across table sizes? "
        "Writes balance.csv, balance.svg and balance.json (every figure) to --out and ends with "
        "one short JSON line.",
    )
    p.add_argument("--games", type=positive_int, default=500, help="games per table (default 500)")
    p.add_argument("--seed", type=int, default=1, help="first deal seed (default 1)")
    p.add_argument("--workers", type=positive_int, default=2, help="processes (default 2)")
    p.add_argument(
        "--out",
        type=Path,
        default=RESULTS_DIR / "balance",
        help="output folder (default: results/balance)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    p.set_defaults(func=run_balance)


def write_outputs(
    out: Path, rows: list[dict[str, Any]], figures: dict[str, Any] | None = None
) -> tuple[Path, Path]:
    try:
        out.mkdir(parents=True, exist_ok=True)
        csv_path = out / "balance.csv"
        write_csv(csv_path, rows)
        svg_path = out / "balance.svg"
        svg_path.write_text(balance_svg(rows), encoding="utf-8")
        if figures is not None:
            (out / "balance.json").write_text(json.dumps(figures, indent=1) + "\n", "utf-8")
    except OSError as e:
        raise path_error(e, "cannot write to") from None
    return csv_path, svg_path


def _ci(x: dict[str, Any]) -> str:
    return f"{100 * x['rate']:5.1f} [{100 * x['lo']:4.1f}-{100 * x['hi']:5.1f}]"


def _print_tables(rows: list[dict[str, Any]]) -> None:
    print("win rate by team, % [95% Wilson interval]")
    print(
        f"  {'mode':<13}{'seats':>5}  {'law':<20}{'raiders':<20}{'loner':<20}"
        f"{'rounds':>7}{'noon':>7}  endings law/raiders/loner/loners"
    )
    for r in rows:
        t = r["teams"]
        hn = "-" if r["high_noon_share"] is None else f"{100 * r['high_noon_share']:.0f}%"
        e = r["endings"]
        same = "  (= classic games)" if r["same_games_as"] else ""
        print(
            f"  {r['mode']:<13}{r['seats']:>5}  {_ci(t['law']):<20}{_ci(t['raiders']):<20}"
            f"{_ci(t['loner']):<20}{r['avg_rounds']:>7.1f}{hn:>7}  "
            f"{e['law']}/{e['raiders']}/{e['loner']}/{e['loners']}{same}"
        )
    print("win rate by role (share of seats of that role that won), % [95% Wilson interval]")
    print(f"  {'mode':<13}{'seats':>5}  " + "".join(f"{x:<20}" for x in ROLES))
    for r in rows:
        cells = "".join(f"{_ci(r['roles'][x]) if x in r['roles'] else '-':<20}" for x in ROLES)
        print(f"  {r['mode']:<13}{r['seats']:>5}  {cells}")


def run_balance(args: argparse.Namespace) -> int:
    t0 = time.perf_counter()
    jobs = balance_jobs(args.games, args.seed)
    with Progress("balance", len(jobs), enabled=not args.no_progress) as bar:
        rows = play_balance(jobs, args.workers, on_done=lambda part: bar.advance(len(part)))
    seconds = time.perf_counter() - t0
    balance = law_balance(rows)
    figures = {
        "benchmark": "balance",
        "games_per_table": args.games,
        "seconds": round(seconds, 1),
        "law_balance": balance,
        "rows": [csv_row(r) for r in rows],
    }
    csv_path, svg_path = write_outputs(args.out, rows, figures)
    print(
        f"balance: rule bots at every seat, {args.games} games per table, modes "
        f"{', '.join(MODES)}, {MIN_SEATS}-{MAX_SEATS} seats, {args.workers} workers, "
        f"{seconds:.0f} s"
    )
    _print_tables(rows)
    print("is the law's win rate equal across table sizes? (chi-square homogeneity over sizes)")
    for mode, b in balance.items():
        print(
            f"  {mode:<13}{b['verdict']}: spread {100 * b['spread']:.1f} pts "
            f"(min {100 * b['min']['rate']:.1f} % at {b['min']['seats']} seats, "
            f"max {100 * b['max']['rate']:.1f} % at {b['max']['seats']} seats), "
            f"chi2 {b['chi2']} df {b['df']} p {b['p']:.3g}"
        )
    print(
        f"  (equal within noise: p >= 0.05; roughly equal: p < 0.05 but spread <= "
        f"{100 * ROUGHLY_EQUAL_SPREAD:.0f} pts; the seed pages say the Marshal's ♥ bonus balances "
        "table sizes; these are rule bots, not people, so human play may differ)"
    )
    json_path = args.out / "balance.json"
    print(f"wrote {csv_path}, {svg_path} and {json_path} (every figure)")
    summary = {
        "benchmark": "balance",
        "games_per_table": args.games,
        "seconds": round(seconds, 1),
        "law_balance": {
            m: {"p": float(f"{b['p']:.3g}"), "spread": b["spread"], "equal": b["roughly_equal"]}
            for m, b in balance.items()
        },
        "csv": str(csv_path),
        "svg": str(svg_path),
        "json": str(json_path),
    }
    print(json.dumps(summary))
    return 0
