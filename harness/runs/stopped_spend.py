"""What ``league report`` shows for a run that stopped before its first game
(:mod:`harness.league.stopped`): why it stopped, and the bill of the calls it made — the spend
table of :mod:`harness.runs.spend_table`, read from the run's ledger."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from harness.league.stopped import StoppedRun

from .spend_table import spend_table

__all__ = ["print_stopped_report", "stopped_lines"]

SHOWN = [
    ("player", "player"), ("model", "model"), ("calls", "calls"), ("answered", "answered"),
    ("failed", "failed"), ("input_tokens", "input tokens"), ("output_tokens", "output tokens"),
    ("cost_usd", "cost $"),
]  # fmt: skip


def stopped_lines(run_dir: Path, stopped: StoppedRun) -> tuple[str, list[list[str]]]:
    """The headline and the spend rows (strings) of a run stopped at its preflight."""
    head = (
        f"{run_dir}: the run stopped before its first game ({stopped.stage}, {stopped.at}): "
        f"{stopped.reason}"
    )
    table = spend_table(run_dir, [])
    rows = []
    for _, r in table.iterrows():
        row = []
        for column, _title in SHOWN:
            value: Any = r[column]
            row.append(f"{value:.4f}" if column == "cost_usd" else f"{value}")
        rows.append(row)
    return head, rows


def print_stopped_report(run_dir: Path, stopped: StoppedRun, console: Any) -> None:
    """The headline, then the spend table (every call of the preflight, priced)."""
    from rich.table import Table

    head, rows = stopped_lines(run_dir, stopped)
    console.print(head, markup=False, highlight=False)
    table = Table(title="spend (the preflight's calls, from spend.jsonl)")
    for _column, title in SHOWN:
        table.add_column(title)
    for row in rows:
        table.add_row(*row)
    if not rows:
        console.print("spend: no call in spend.jsonl")
    else:
        console.print(table)
