"""The balance measurement: rule bots at every seat of every table size and mode, summarized as
win rates by team and role with 95 % Wilson intervals, average rounds, the share of games that
reach High Noon (round ≥ 8; not in old_classic) and how the games ended; and, per mode, whether
the law's win rate is roughly equal across table sizes (chi-square test of homogeneity and the
max − min spread).

Partners below 8 seats and double_agent at 4 seats play exactly as classic (RULES.md §1), so those
rows reuse classic's games (column ``same_games_as``) instead of replaying identical deals.
``bangarena balance`` prints these figures; :mod:`harness.report.balance_chart` draws them.
"""

from __future__ import annotations

import csv
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness.engine.roles import HIGH_NOON_ROUND, MAX_SEATS, MIN_SEATS, MODES, ROLES

from .bot_tables import TableJob, TableOutcome, run_tables
from .stats_basic import homogeneity, wilson

__all__ = [
    "CSV_FIELDS",
    "ENDINGS",
    "ROUGHLY_EQUAL_SPREAD",
    "SEATS",
    "TEAMS",
    "balance_jobs",
    "csv_row",
    "law_balance",
    "play_balance",
    "plays_as",
    "summarize",
    "write_csv",
]

TEAMS = ("law", "raiders", "loner")
SIDES = {"law": ("law",), "raiders": ("raiders",), "loner": ("loner", "loners")}
ENDINGS = ("law", "raiders", "loner", "loners")
SEATS = tuple(range(MIN_SEATS, MAX_SEATS + 1))
ROUGHLY_EQUAL_SPREAD = 0.05


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


def balance_jobs(games: int, seed: int) -> list[TableJob]:
    """The bot-only tables to play: ``games`` deals per distinct (mode played, seats)."""
    keys = sorted({(plays_as(m, n), n) for m in MODES for n in SEATS})
    return [TableJob(n, m, seed + i, ("all",)) for m, n in keys for i in range(games)]


def play_balance(
    jobs: list[TableJob],
    workers: int,
    on_done: Callable[[list[TableOutcome]], None] | None = None,
) -> list[dict[str, Any]]:
    """Play ``jobs`` (from :func:`balance_jobs`) and return one summary per (mode, seats);
    ``on_done`` gets each finished batch of outcomes (for a progress display)."""
    played: dict[tuple[str, int], list[TableOutcome]] = {}
    for o in run_tables(jobs, workers, on_done=on_done):
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
    """One summary as a flat ``balance.csv`` row (rates rounded to 4 places)."""
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


def write_csv(path: Path, rows: list[dict[str, Any]]) -> None:
    """Write ``balance.csv`` (raises ``OSError`` when it cannot)."""
    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow(csv_row(r))
