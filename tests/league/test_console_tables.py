"""The league report on a terminal: no header is cut inside a word and no number is folded, at 80
columns too; a table wider than the terminal comes in parts that each repeat the player and
model (issue 36: the Spend table's headers were cut mid-word)."""

from __future__ import annotations

import dataclasses
import io
import re
from pathlib import Path

import pandas as pd
import pytest
from rich.console import Console

from harness.runs import build_report, print_report
from harness.runs.console_tables import fitted_tables
from harness.runs.league_report_columns import TABLE_SPECS

from ..bot_league import play_league

CONFIG = """name: t
players:
  - name: bot
    kind: bot
  - name: rnd
    kind: random
tables:
  - seats: [4]
    modes: [classic]
games_per_table: 2
base_seed: 4
paired: false
"""
SPEND = {
    "player": "gpt-test", "model": "openai/gpt-4o-mini", "calls": 123456, "truncated": 3,
    "failed": 1, "cancelled": 2, "input_tokens": 98765432, "cached_input_tokens": 4321,
    "cached_reported_calls": 120, "answered": 123450, "output_tokens": 765432,
    "cost_usd": 1234.5678, "preflight_calls": 1, "preflight_cost_usd": 0.0012,
    "outside_calls": 4, "outside_cost_usd": 0.25, "unknown_token_calls": 2,
    "unrecorded_answers": 0,
}  # fmt: skip


def _render(tables: list, width: int) -> str:  # type: ignore[type-arg]
    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system=None)
    for t in tables:
        console.print(t)
    return buf.getvalue()


def _words(text: str) -> set[str]:
    return set(re.findall(r"[^\s│┃┏┓┗┛━┳┻╇┡┩└┘─┴┬]+", text))


@pytest.mark.parametrize("width", [80, 100, 160])
def test_headers_break_between_words_and_numbers_stay_whole(width: int) -> None:
    columns = [("player", "left"), ("model", "left")] + [
        (f"long header number {i}", "right") for i in range(12)
    ]
    rows = [["gpt-test", "openai/gpt-4o-mini", *[f"{10**i:,}" for i in range(12)]]]
    tables = fitted_tables("Title", columns, rows, width)  # type: ignore[arg-type]
    text = _render(tables, width)
    assert max(len(line) for line in text.splitlines()) <= width
    words = _words(text)
    assert {"long", "header", "number"} | {str(i) for i in range(12)} <= words
    assert all(f"{10**i:,}" in words for i in range(12))  # no number folded
    assert len(tables) > 1 or width == 160
    assert all(t.columns[0].header == "player" and t.columns[1].header == "model" for t in tables)
    assert text.count("Title") == 1


def test_the_spend_table_of_the_league_report_at_80_columns(tmp_path: Path) -> None:
    run = play_league(tmp_path, CONFIG, "t")
    report = dataclasses.replace(build_report(run, bootstrap=5), spend=pd.DataFrame([SPEND]))
    buf = io.StringIO()
    print_report(report, Console(file=buf, width=80, color_system=None))
    text = buf.getvalue()
    assert max(len(line) for line in text.splitlines()) <= 80
    spend = text[text.index("Spend") : text.index("Base win rate")]
    words = _words(spend)
    _title, spec = TABLE_SPECS["spend"]
    for header, *_ in spec:
        assert set(header.split()) <= words, header
    for value in ("123,456", "98,765,432", "$1,234.5678", "4,321 (120 of 123,450)"):
        assert value in spend, value
