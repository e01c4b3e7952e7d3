"""The league report of one run: tables built from the records alone, shown and saved.

* :func:`build_report` — a :class:`Report` holding pandas DataFrames: ``summary`` (one row per
  player), ``win_rates`` (player × role, Wilson intervals), ``role_adjusted`` (results minus the
  role's base rate), ``base_rates`` (role × table size × mode), ``ratings`` (openskill, bootstrap
  intervals) and ``rates`` (fallbacks, invalid answers, timeouts, latency, tokens, cost).
* :func:`print_report` — the tables as rich tables on a console.
* :func:`save_report` — ``<run>/report/summary.csv``, one CSV per table and ``report.md``.

Usage from Python::

    from harness.league.report import build_report
    r = build_report("results/quickstart")
    r.win_rates  # a pandas DataFrame
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from .ratings import DEFAULT_BOOTSTRAP, DEFAULT_SEED, compute_ratings
from .stats import base_rates, load_run, rates, role_adjusted, win_rates
from .stats_basic import wilson

__all__ = ["REPORT_DIR", "TABLES", "Report", "build_report", "print_report", "save_report"]

REPORT_DIR = "report"
TABLES = ("summary", "win_rates", "role_adjusted", "ratings", "rates", "base_rates")


@dataclass
class Report:
    """Every table of a run's report (pandas DataFrames with raw, unrounded numbers)."""

    run_dir: Path
    name: str
    games: int
    seat_games: int
    bootstrap: int
    summary: pd.DataFrame
    win_rates: pd.DataFrame
    role_adjusted: pd.DataFrame
    base_rates: pd.DataFrame
    ratings: pd.DataFrame
    rates: pd.DataFrame
    cells: list[str] = field(default_factory=list)  # "5p classic: 70 games"
    last_finished: str = ""

    def tables(self) -> dict[str, pd.DataFrame]:
        """The tables by file stem, in report order."""
        return {name: getattr(self, name) for name in TABLES}


def _summary(
    seats: pd.DataFrame, adjusted: pd.DataFrame, ratings: pd.DataFrame, rate: pd.DataFrame
) -> pd.DataFrame:
    rows = []
    for player, part in seats.groupby("player", sort=True):
        n = len(part)
        k = int(part["won"].sum())
        lo, hi = wilson(k, n)
        rows.append(
            {
                "player": player,
                "seat_games": n,
                "wins": k,
                "win_rate": k / n,
                "win_lo": lo,
                "win_hi": hi,
            }
        )
    out = pd.DataFrame(rows)
    adj = adjusted[["player", "score", "ci_lo", "ci_hi"]].rename(
        columns={"ci_lo": "score_lo", "ci_hi": "score_hi"}
    )
    rat = ratings[["player", "mu", "sigma", "ordinal", "ordinal_lo", "ordinal_hi"]]
    rat = rat.rename(columns={"mu": "rating_mu", "sigma": "rating_sigma"})
    cost = rate[["player", "kind", "model", "games", "decisions", "fallback_rate", "invalid_rate",
                 "timeout_rate", "tokens_per_game", "cost_per_game_usd"]]  # fmt: skip
    out = cost.merge(out, on="player", how="left")
    out = out.merge(adj, on="player", how="left").merge(rat, on="player", how="left")
    order = ["player", "kind", "model", "games", "seat_games", "wins", "win_rate", "win_lo",
             "win_hi", "score", "score_lo", "score_hi", "rating_mu", "rating_sigma", "ordinal",
             "ordinal_lo", "ordinal_hi", "decisions", "fallback_rate", "invalid_rate",
             "timeout_rate", "tokens_per_game", "cost_per_game_usd"]  # fmt: skip
    out = out[order]
    return out.sort_values(["ordinal", "player"], ascending=[False, True]).reset_index(drop=True)


def build_report(
    run_dir: str | Path, bootstrap: int = DEFAULT_BOOTSTRAP, seed: int = DEFAULT_SEED
) -> Report:
    """Compute every table of the report of ``run_dir`` from its ``games.jsonl``.

    Raises :class:`~harness.records.store.RecordError` when the folder is not a readable run.
    """
    data = load_run(run_dir)
    seats = data.seats
    adjusted = role_adjusted(seats)
    ratings = compute_ratings(seats, bootstrap=bootstrap, seed=seed)
    rate = rates(seats)
    cells = [
        f"{n}p {mode}: {k} games"
        for (n, mode), k in data.games.groupby(["seats", "mode"]).size().items()
    ]
    return Report(
        run_dir=data.run_dir,
        name=data.name,
        games=len(data.games),
        seat_games=len(seats),
        bootstrap=bootstrap,
        summary=_summary(seats, adjusted, ratings, rate),
        win_rates=win_rates(seats),
        role_adjusted=adjusted,
        base_rates=base_rates(seats),
        ratings=ratings,
        rates=rate,
        cells=cells,
        last_finished=str(data.games["finished_at"].max()),
    )


# ------------------------------------------------------------------------------------ display
Fmt = Callable[[Any], str]


def _nan(x: Any) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def _pct(x: Any) -> str:
    return "–" if _nan(x) else f"{100 * float(x):.1f}%"


def _pp(x: Any) -> str:
    return "–" if _nan(x) else f"{100 * float(x):+.1f}"


def _num(digits: int) -> Fmt:
    return lambda x: "–" if _nan(x) else f"{float(x):,.{digits}f}"


def _int(x: Any) -> str:
    return "–" if _nan(x) else f"{int(x):,}"


def _text(x: Any) -> str:
    return "" if _nan(x) else str(x)


def _usd(x: Any) -> str:
    return "–" if _nan(x) else f"${float(x):,.4f}"


def _interval(fmt: Fmt, lo: str, hi: str) -> Callable[[pd.Series], str]:
    def cell(row: pd.Series) -> str:
        if _nan(row[lo]) or _nan(row[hi]):
            return "–"
        return f"{fmt(row[lo])} … {fmt(row[hi])}"

    return cell


def _with_interval(fmt: Fmt, value: str, lo: str, hi: str) -> Callable[[pd.Series], str]:
    def cell(row: pd.Series) -> str:
        if _nan(row[lo]) or _nan(row[hi]):
            return fmt(row[value])
        return f"{fmt(row[value])} ({fmt(row[lo])} … {fmt(row[hi])})"

    return cell


Column = tuple[str, str | Callable[[pd.Series], str], Fmt | None]  # header, column/cell, format

_SPECS: dict[str, tuple[str, list[Column]]] = {
    "summary": (
        "Players (sorted by rating ordinal; intervals are 95%)",
        [
            ("player", "player", _text),
            ("model", "model", _text),
            ("games", "games", _int),
            ("seats", "seat_games", _int),
            ("win rate", _with_interval(_pct, "win_rate", "win_lo", "win_hi"), None),
            ("role-adjusted (pp)", _with_interval(_pp, "score", "score_lo", "score_hi"), None),
            ("ordinal", _with_interval(_num(1), "ordinal", "ordinal_lo", "ordinal_hi"), None),
            ("fallbacks", "fallback_rate", _pct),
            ("cost/game", "cost_per_game_usd", _usd),
        ],
    ),
    "win_rates": (
        "Win rate by player × role (games = seats played in that role; 95% Wilson interval)",
        [
            ("player", "player", _text),
            ("role", "role", _text),
            ("games", "games", _int),
            ("wins", "wins", _int),
            ("win rate", "win_rate", _pct),
            ("95% CI", _interval(_pct, "ci_lo", "ci_hi"), None),
        ],
    ),
    "role_adjusted": (
        "Role-adjusted score: result minus the role's base rate at that table size and mode "
        "(percentage points; 95% CI, normal approx., clustered by game)",
        [
            ("player", "player", _text),
            ("games", "games", _int),
            ("seats", "seat_games", _int),
            ("win rate", "win_rate", _pct),
            ("expected", "expected", _pct),
            ("score (pp)", "score", _pp),
            ("95% CI", _interval(_pp, "ci_lo", "ci_hi"), None),
        ],
    ),
    "ratings": (
        "Ratings (openskill Plackett-Luce, team matches in game order; bootstrap 95% CI)",
        [
            ("player", "player", _text),
            ("games", "games", _int),
            ("mu", "mu", _num(2)),
            ("95% CI", _interval(_num(2), "mu_lo", "mu_hi"), None),
            ("sigma", "sigma", _num(2)),
            ("ordinal", "ordinal", _num(2)),
            ("95% CI", _interval(_num(2), "ordinal_lo", "ordinal_hi"), None),
        ],
    ),
    "rates": (
        "Decisions, fallbacks and costs (rates per decision; latency, tokens, cost per game)",
        [
            ("player", "player", _text),
            ("kind", "kind", _text),
            ("decisions", "decisions", _int),
            ("fallback", "fallback_rate", _pct),
            ("invalid", "invalid_rate", _pct),
            ("timeout", "timeout_rate", _pct),
            ("ms/decision", "latency_per_decision_ms", _num(2)),
            ("s/game", "latency_per_game_s", _num(2)),
            ("tokens/game", "tokens_per_game", _num(0)),
            ("cost/game", "cost_per_game_usd", _usd),
            ("cost", "cost_usd", _usd),
        ],
    ),
    "base_rates": (
        "Base win rate of each role (all players) by table size and mode",
        [
            ("seats", "seats", _int),
            ("mode", "mode", _text),
            ("role", "role", _text),
            ("games", "games", _int),
            ("win rate", "base_rate", _pct),
        ],
    ),
}


def _visible(df: pd.DataFrame, spec: list[Column]) -> list[Column]:
    """The spec without a ``model`` column when no player is a model."""
    if "model" in df.columns and not df["model"].fillna("").astype(str).str.len().any():
        return [c for c in spec if c[1] != "model"]
    return spec


def _justify(column: Column) -> str:
    return "left" if column[2] is _text else "right"


def _cells(df: pd.DataFrame, spec: list[Column]) -> list[list[str]]:
    out = []
    for _, row in df.iterrows():
        line = []
        for _header, col, fmt in spec:
            if callable(col):
                line.append(col(row))
            else:
                assert fmt is not None
                line.append(fmt(row[col]))
        out.append(line)
    return out


def _headline(report: Report) -> str:
    return (
        f"League report — run {report.name}: {report.games} games, {report.seat_games} seats "
        f"({'; '.join(report.cells)})"
    )


def print_report(report: Report, console: Any = None) -> None:
    """Show the report's tables on a rich console (a new one on stdout when ``None``)."""
    from rich.console import Console
    from rich.table import Table

    console = console if console is not None else Console()
    console.print(f"[bold]{_headline(report)}[/bold]")
    console.print(f"run folder: {report.run_dir}")
    for name in TABLES:
        title, spec = _SPECS[name]
        df = report.tables()[name]
        spec = _visible(df, spec)
        table = Table(title=title, title_justify="left", header_style="bold")
        for column in spec:
            table.add_column(column[0], justify=_justify(column), overflow="fold")  # type: ignore[arg-type]
        for line in _cells(df, spec):
            table.add_row(*line)
        console.print(table)


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def markdown(report: Report) -> str:
    """The report as Markdown: a headline and one table per DataFrame."""
    parts = [f"# {_md_escape(_headline(report))}", ""]
    parts.append(
        f"Computed from `{report.run_dir}/games.jsonl` alone (last game finished "
        f"{report.last_finished}); rating intervals from {report.bootstrap} bootstrap resamples "
        "of the games."
    )
    for name in TABLES:
        title, spec = _SPECS[name]
        df = report.tables()[name]
        spec = _visible(df, spec)
        parts += ["", f"## {_md_escape(title)}", ""]
        parts.append("| " + " | ".join(_md_escape(c[0]) for c in spec) + " |")
        parts.append(
            "|" + "|".join(":---" if _justify(c) == "left" else "---:" for c in spec) + "|"
        )
        for line in _cells(df, spec):
            parts.append("| " + " | ".join(_md_escape(c) for c in line) + " |")
    return "\n".join(parts) + "\n"


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def save_report(report: Report, run_dir: str | Path | None = None) -> Path:
    """Write ``<run>/report/``: ``summary.csv``, one CSV per table (raw numbers) and
    ``report.md``; return the folder."""
    out = Path(run_dir if run_dir is not None else report.run_dir) / REPORT_DIR
    out.mkdir(parents=True, exist_ok=True)
    for name, df in report.tables().items():
        _write(out / f"{name}.csv", df.to_csv(index=False))
    _write(out / "report.md", markdown(report))
    return out
