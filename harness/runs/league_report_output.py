"""The league report shown and saved: :func:`print_report` (the run checks and the tables as rich
tables on a console), :func:`markdown` and :func:`save_report` (``<run>/report/``: one CSV per
table, ``flags.csv``, ``settings.csv`` and ``report.md``).  The tables come from
:func:`.league_report.build_report`; their columns from :mod:`.league_report_columns`."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pandas as pd

from harness.league.league_config import SEATED_KINDS
from harness.views.plural import count

from .compactions import compaction_notes
from .console_tables import fitted_tables
from .league_report import INTERVALS_NOTE, REPORT_DIR, Report
from .league_report_cells import plain
from .league_report_columns import SHOWN, TABLE_SPECS, Column
from .locales import TITLE as LOCALES_TITLE
from .locales import locale_table
from .talk_table import talk_setting

__all__ = ["markdown", "print_report", "save_report"]


def _shown(report: Report) -> list[tuple[str, pd.DataFrame]]:
    out = []
    for name in SHOWN:
        if name == "model_calls":
            if not report.has_models:
                continue
            df = report.rates[report.rates["kind"].isin(SEATED_KINDS)]
        elif (
            name in ("spend", "luck", "moves", "compactions", "signals", "claim_effect")
            and getattr(report, name).empty
        ):
            continue
        elif name in ("luck", "moves", "probe_summary", "probes"):
            df = getattr(report, name)
            if df.empty:
                continue
        else:
            df = report.tables()[name]
        out.append((name, df))
    return out


def _visible(df: pd.DataFrame, spec: list[Column]) -> list[Column]:
    """The spec without a ``model`` column when no player is a model."""
    if "model" in df.columns and not df["model"].fillna("").astype(str).str.len().any():
        return [c for c in spec if c[1] != "model"]
    return spec


def _justify(column: Column) -> str:
    return "left" if column[2] is plain else "right"


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
    void = f", {report.void_games} void" if report.void_games else ""
    return (
        f"League report — run {report.name}: {count(report.games, 'game')}{void}, "
        f"{count(report.seat_games, 'seat')} ({'; '.join(report.cells)})"
    )


def _checks(report: Report) -> list[str]:
    """The run-check lines: flags first (each a reason the figures are not all results)."""
    lines = [f"FLAG: {f.message}" for f in report.flags.flags] + list(report.flags.notes)
    return lines + compaction_notes(report.compactions)


def print_report(report: Report, console: Any = None) -> None:
    """Show the report's run checks and tables on a rich console (stdout when ``None``)."""
    from rich.console import Console
    from rich.markup import escape

    console = console if console is not None else Console()
    console.print(f"[bold]{escape(_headline(report))}[/bold]")
    console.print(f"run folder: {escape(str(report.run_dir))}")
    console.print(escape(INTERVALS_NOTE))
    if report.talk:
        console.print(escape(report.talk))
    for line in _checks(report):
        style = "bold red" if line.startswith("FLAG") else "yellow"
        console.print(f"[{style}]{escape(line)}[/{style}]")
    for name, df in _shown(report):  # headers break between words; a wide table comes in parts
        title, spec = TABLE_SPECS[name]
        spec = _visible(df, spec)
        columns = [(c[0], _justify(c)) for c in spec]
        for table in fitted_tables(title, columns, _cells(df, spec), console.width):  # type: ignore[arg-type]
            console.print(table)
    headers, rows = locale_table(report.locales)
    if rows:
        for table in fitted_tables(
            LOCALES_TITLE, [(h, "left") for h in headers], rows, console.width
        ):
            console.print(table)


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|")


def markdown(report: Report) -> str:
    """The report as Markdown: a headline, the run checks and one table per DataFrame."""
    parts = [f"# {_md_escape(_headline(report))}", ""]
    parts.append(
        f"Computed from `{report.run_dir}/games.jsonl`"
        + (" and the spend ledger `spend.jsonl`" if not report.spend.empty else " alone")
        + f" (last game finished "
        f"{report.last_finished}); rating intervals from {report.bootstrap} bootstrap resamples "
        f"of whole deals. {INTERVALS_NOTE}"
    )
    if report.talk:
        parts += ["", _md_escape(report.talk)]
    checks = _checks(report)
    if checks:
        parts += ["", "## Run checks", ""]
        parts += [f"- **{_md_escape(c)}**" if c.startswith("FLAG") else f"- {c}" for c in checks]
    for name, df in _shown(report):
        title, spec = TABLE_SPECS[name]
        spec = _visible(df, spec)
        parts += ["", f"## {_md_escape(title)}", ""]
        parts.append("| " + " | ".join(_md_escape(c[0]) for c in spec) + " |")
        parts.append(
            "|" + "|".join(":---" if _justify(c) == "left" else "---:" for c in spec) + "|"
        )
        for line in _cells(df, spec):
            parts.append("| " + " | ".join(_md_escape(c) for c in line) + " |")
    headers, rows = locale_table(report.locales)
    if rows:
        parts += ["", f"## {_md_escape(LOCALES_TITLE)}", ""]
        parts.append("| " + " | ".join(headers) + " |")
        parts.append("|" + "|".join(":---" for _ in headers) + "|")
        parts += ["| " + " | ".join(_md_escape(c) for c in line) + " |" for line in rows]
    return "\n".join(parts) + "\n"


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def save_report(report: Report, run_dir: str | Path | None = None) -> Path:
    """Write ``<run>/report/``: ``summary.csv``, one CSV per table (raw numbers; undefined values
    are empty cells), ``flags.csv`` (kind, player, message of every flag), ``settings.csv`` (the
    run's table-talk setting: ``on``, ``off`` or ``people``) and ``report.md``;
    return the folder."""
    out = Path(run_dir if run_dir is not None else report.run_dir) / REPORT_DIR
    out.mkdir(parents=True, exist_ok=True)
    for name, df in report.tables().items():
        _write(out / f"{name}.csv", df.to_csv(index=False))
    _write(out / "flags.csv", report.flags_table().to_csv(index=False))
    talk = talk_setting(report.run_dir)
    _write(
        out / "settings.csv",
        pd.DataFrame([{"setting": "signals", "value": talk}]).to_csv(index=False),
    )
    if not report.locales.empty:
        _write(out / "locale_win_rates.csv", report.locales.to_csv(index=False))
    if not report.luck.empty:
        _write(out / "luck.csv", report.luck.to_csv(index=False))
    if not report.moves.empty:
        _write(out / "moves.csv", report.moves.to_csv(index=False))
    if not report.probes.empty:  # belief probes (harness.runs.probe_table)
        _write(out / "probes.csv", report.probes.to_csv(index=False))
        _write(out / "probe_summary.csv", report.probe_summary.to_csv(index=False))
        _write(out / "probe_calibration.csv", report.probe_calibration.to_csv(index=False))
    _write(out / "report.md", markdown(report))
    return out
