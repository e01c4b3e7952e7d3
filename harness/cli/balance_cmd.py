"""``bangarena balance [--games N] [--out DIR]`` — bot-only tables at every size and mode.

Prints, per mode and table size: the win rate of each team and each role with a 95 % Wilson
interval, average rounds, the share of games that reach High Noon (round ≥ 8; not in
old_classic), and how the games ended; then states whether the law's win rate is roughly equal
across table sizes (chi-square test of homogeneity and the max − min spread; the seed pages claim
the Marshal's ♥ bonus balances it).  Writes ``balance.csv`` and the chart ``balance.svg`` under
``--out`` (default ``results/balance/``), every figure as ``balance.json`` there, and ends with
one short JSON line (the law-balance verdicts and where the files are).

Partners below 8 seats and double_agent at 4 seats play exactly as classic (RULES.md §1), so those
rows reuse classic's games (column ``same_games_as``) instead of replaying identical deals.
"""

from __future__ import annotations

import argparse
import csv
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

from harness.engine.roles import HIGH_NOON_ROUND, MAX_SEATS, MIN_SEATS, MODES, ROLES
from harness.league.bot_tables import TableJob, TableOutcome, run_tables
from harness.league.stats_basic import homogeneity, wilson
from harness.paths import RESULTS_DIR

from .args import positive_int
from .errors import path_error
from .progress import Progress

TEAMS = ("law", "raiders", "loner")
SIDES = {"law": ("law",), "raiders": ("raiders",), "loner": ("loner", "loners")}
ENDINGS = ("law", "raiders", "loner", "loners")
SEATS = tuple(range(MIN_SEATS, MAX_SEATS + 1))
ROUGHLY_EQUAL_SPREAD = 0.05


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


def plays_as(mode: str, seats: int) -> str:
    """The mode whose games this table replays (identical rules and deal)."""
    if (mode == "partners" and seats < 8) or (mode == "double_agent" and seats < 5):
        return "classic"
    return mode


def _interval(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {"wins": k, "n": n, "rate": k / n if n else 0.0, "lo": lo, "hi": hi}


def summarize(mode: str, seats: int, outcomes: list[TableOutcome]) -> dict[str, Any]:
    """Figures of one (mode, seats) table from its games."""
    n = len(outcomes)
    teams = {t: _interval(sum(o.side in SIDES[t] for o in outcomes), n) for t in TEAMS}
    roles: dict[str, dict[str, Any]] = {}
    for role in ROLES:
        seats_of = sum(o.roles.count(role) for o in outcomes)
        if seats_of:
            won = sum(1 for o in outcomes for w in o.winners if o.roles[w] == role)
            roles[role] = _interval(won, seats_of)
    ends = Counter(o.side for o in outcomes)
    high_noon = (
        None if mode == "old_classic" else sum(o.rounds >= HIGH_NOON_ROUND for o in outcomes) / n
    )
    return {
        "mode": mode,
        "seats": seats,
        "games": n,
        "same_games_as": plays_as(mode, seats) if plays_as(mode, seats) != mode else "",
        "teams": teams,
        "roles": roles,
        "avg_rounds": sum(o.rounds for o in outcomes) / n,
        "high_noon_share": high_noon,
        "endings": {e: ends.get(e, 0) for e in ENDINGS},
        "fallbacks": sum(o.fallbacks for o in outcomes),
    }


def law_balance(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per mode: is the law's win rate the same at every table size?"""
    out: dict[str, dict[str, Any]] = {}
    for mode in MODES:
        mine = [r for r in rows if r["mode"] == mode]
        law = [r["teams"]["law"] for r in mine]
        stat, df, p = homogeneity([x["wins"] for x in law], [x["n"] for x in law])
        rates = [(x["rate"], r["seats"]) for x, r in zip(law, mine, strict=True)]
        (lo_rate, lo_seats), (hi_rate, hi_seats) = min(rates), max(rates)
        spread = hi_rate - lo_rate
        if p >= 0.05:
            verdict = "equal within noise"
        elif spread <= ROUGHLY_EQUAL_SPREAD:
            verdict = "roughly equal (small but detectable differences)"
        else:
            verdict = "NOT equal"
        out[mode] = {
            "chi2": round(stat, 2),
            "df": df,
            "p": p,
            "spread": round(spread, 4),
            "min": {"seats": lo_seats, "rate": round(lo_rate, 4)},
            "max": {"seats": hi_seats, "rate": round(hi_rate, 4)},
            "roughly_equal": verdict != "NOT equal",
            "verdict": verdict,
        }
    return out


def run_balance_games(
    games: int, seed: int, workers: int, progress: bool = True
) -> list[dict[str, Any]]:
    """Play the bot-only tables and return one summary per (mode, seats)."""
    keys = sorted({(plays_as(m, n), n) for m in MODES for n in SEATS})
    jobs = [TableJob(n, m, seed + i, ("all",)) for m, n in keys for i in range(games)]
    played: dict[tuple[str, int], list[TableOutcome]] = {}
    with Progress("balance", len(jobs), enabled=progress) as bar:
        outcomes = run_tables(jobs, workers, on_done=lambda part: bar.advance(len(part)))
    for o in outcomes:
        played.setdefault((o.job.mode, o.job.seats), []).append(o)
    return [summarize(m, n, played[(plays_as(m, n), n)]) for m in MODES for n in SEATS]


CSV_FIELDS = (
    ["mode", "seats", "games", "same_games_as"]
    + [f"{t}_{k}" for t in TEAMS for k in ("wins", "rate", "lo", "hi")]
    + [f"role_{r}_{k}" for r in ROLES for k in ("wins", "n", "rate", "lo", "hi")]
    + ["avg_rounds", "high_noon_share"]
    + [f"end_{e}" for e in ENDINGS]
    + ["fallbacks"]
)


def csv_row(r: dict[str, Any]) -> dict[str, Any]:
    row: dict[str, Any] = {k: r[k] for k in ("mode", "seats", "games", "same_games_as")}
    for t in TEAMS:
        x = r["teams"][t]
        row.update(
            {
                f"{t}_wins": x["wins"],
                f"{t}_rate": round(x["rate"], 4),
                f"{t}_lo": round(x["lo"], 4),
                f"{t}_hi": round(x["hi"], 4),
            }
        )
    for role in ROLES:
        x = r["roles"].get(role)
        for k in ("wins", "n", "rate", "lo", "hi"):
            v = x[k] if x else ""
            row[f"role_{role}_{k}"] = round(v, 4) if isinstance(v, float) else v
    row["avg_rounds"] = round(r["avg_rounds"], 2)
    hn = r["high_noon_share"]
    row["high_noon_share"] = "" if hn is None else round(hn, 4)
    for e in ENDINGS:
        row[f"end_{e}"] = r["endings"][e]
    row["fallbacks"] = r["fallbacks"]
    return row


def write_outputs(
    out: Path, rows: list[dict[str, Any]], figures: dict[str, Any] | None = None
) -> tuple[Path, Path]:
    try:
        out.mkdir(parents=True, exist_ok=True)
        csv_path = out / "balance.csv"
        with csv_path.open("w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
            w.writeheader()
            for r in rows:
                w.writerow(csv_row(r))
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
    rows = run_balance_games(args.games, args.seed, args.workers, not args.no_progress)
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


# ------------------------------------------------------------------ chart
_COLORS = {
    "classic": "#1f77b4",
    "partners": "#2ca02c",
    "double_agent": "#d62728",
    "old_classic": "#9467bd",
}
_PANEL_W, _PANEL_H, _PAD_L, _PAD_T, _PAD_B = 260, 220, 46, 40, 40


def balance_svg(rows: list[dict[str, Any]]) -> str:
    """A hand-written SVG: one panel per team (win rate by table size), one line per mode, with
    95 % interval whiskers."""
    width = _PAD_L + len(TEAMS) * (_PANEL_W + 30) + 130
    height = _PAD_T + _PANEL_H + _PAD_B + 20
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{_PAD_L}" y="18" font-size="14" font-weight="bold">'
        "Win rate by table size (rule bots at every seat; 95 % Wilson intervals)</text>",
    ]
    for p, team in enumerate(TEAMS):
        x0 = _PAD_L + p * (_PANEL_W + 30)
        parts += _panel(rows, team, x0)
    lx = _PAD_L + len(TEAMS) * (_PANEL_W + 30)
    for i, mode in enumerate(MODES):
        y = _PAD_T + 20 + 18 * i
        parts.append(
            f'<line x1="{lx}" y1="{y - 4}" x2="{lx + 18}" y2="{y - 4}" '
            f'stroke="{_COLORS[mode]}" stroke-width="2"/>'
            f'<text x="{lx + 24}" y="{y}">{mode}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _panel(rows: list[dict[str, Any]], team: str, x0: int) -> list[str]:
    y0 = _PAD_T
    out = [
        f'<text x="{x0 + _PANEL_W / 2}" y="{y0 - 8}" text-anchor="middle" '
        f'font-weight="bold">{team}</text>',
        f'<rect x="{x0}" y="{y0}" width="{_PANEL_W}" height="{_PANEL_H}" fill="none" '
        'stroke="#999"/>',
    ]

    def px(seats: int) -> float:
        return x0 + 20 + (seats - MIN_SEATS) * (_PANEL_W - 40) / (MAX_SEATS - MIN_SEATS)

    def py(rate: float) -> float:
        return y0 + _PANEL_H * (1.0 - rate)

    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = py(tick)
        out.append(
            f'<line x1="{x0}" y1="{y:.1f}" x2="{x0 + _PANEL_W}" y2="{y:.1f}" stroke="#eee"/>'
            f'<text x="{x0 - 4}" y="{y + 4:.1f}" text-anchor="end">{tick:.0%}</text>'
        )
    for n in SEATS:
        out.append(
            f'<text x="{px(n):.1f}" y="{y0 + _PANEL_H + 14}" text-anchor="middle">{n}</text>'
        )
    out.append(
        f'<text x="{x0 + _PANEL_W / 2}" y="{y0 + _PANEL_H + 30}" text-anchor="middle">seats</text>'
    )
    for k, mode in enumerate(MODES):
        color = _COLORS[mode]
        pts = [r for r in rows if r["mode"] == mode]
        dx = (k - 1.5) * 3  # keep the whiskers of different modes apart
        line = " ".join(
            f"{px(r['seats']) + dx:.1f},{py(r['teams'][team]['rate']):.1f}" for r in pts
        )
        out.append(f'<polyline points="{line}" fill="none" stroke="{color}" stroke-width="2"/>')
        for r in pts:
            x = px(r["seats"]) + dx
            t = r["teams"][team]
            out.append(
                f'<line x1="{x:.1f}" y1="{py(t["lo"]):.1f}" x2="{x:.1f}" y2="{py(t["hi"]):.1f}" '
                f'stroke="{color}"/><circle cx="{x:.1f}" cy="{py(t["rate"]):.1f}" r="2.5" '
                f'fill="{color}"><title>{mode}, {r["seats"]} seats: {100 * t["rate"]:.1f} % '
                f"[{100 * t['lo']:.1f}, {100 * t['hi']:.1f}]</title></circle>"
            )
    return out
