"""The cells of the league report's tables: how one value, one interval or one row's figure is
written (``–`` for an undefined value), shared by the console and Markdown forms
(:mod:`.league_report_output`) through the column specs of :mod:`.league_report_columns`."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import pandas as pd

from harness.league.league_config import SEATED_KINDS

from .luck_tables import ROLE_ADJUSTED
from .units import score_cell

NOT_VALID = "not valid"

Fmt = Callable[[Any], str]
Cell = Callable[[pd.Series], str]


def missing(x: Any) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


def pct(x: Any) -> str:
    return "–" if missing(x) else f"{100 * float(x):.1f}%"


def pp(x: Any) -> str:
    return "–" if missing(x) else f"{100 * float(x):+.1f}"


def num(digits: int) -> Fmt:
    return lambda x: "–" if missing(x) else f"{float(x):,.{digits}f}"


def integer(x: Any) -> str:
    return "–" if missing(x) else f"{int(x):,}"


def plain(x: Any) -> str:
    return "" if missing(x) else str(x)


def usd(x: Any) -> str:
    return "–" if missing(x) else f"${float(x):,.4f}"


def seconds(x: Any) -> str:
    return "–" if missing(x) else f"{float(x):,.2f} s"


def interval(fmt: Fmt, lo: str, hi: str) -> Cell:
    def cell(row: pd.Series) -> str:
        if missing(row[lo]) or missing(row[hi]):
            return "–"
        return f"{fmt(row[lo])} … {fmt(row[hi])}"

    return cell


def with_interval(fmt: Fmt, value: str, lo: str, hi: str) -> Cell:
    def cell(row: pd.Series) -> str:
        if missing(row[value]):
            return "–"
        if missing(row[lo]) or missing(row[hi]):
            return f"{fmt(row[value])} (–)"  # one deal: no interval
        return f"{fmt(row[value])} ({fmt(row[lo])} … {fmt(row[hi])})"

    return cell


def valid(inner: Cell | str, fmt: Fmt | None = None) -> Cell:
    """A result cell that reads "not valid (…)" for a flagged player."""

    def cell(row: pd.Series) -> str:
        text = inner(row) if callable(inner) else (fmt or plain)(row[inner])
        ok = row.get("valid", True)
        if not missing(ok) and not bool(ok):
            return f"{NOT_VALID}: {text}"
        return text

    return cell


def luck_cell(value: str, lo: str, hi: str) -> Cell:
    """A luck-table cell: a win rate in %, the role-adjusted row in pp (:mod:`.units`)."""
    return score_cell(value, lo, hi, lambda row: row["role"] == ROLE_ADJUSTED)


def decisions(row: pd.Series) -> str:
    """``4 of 7`` for a model player (model decisions of all its decisions), else ``7``."""
    model = row.get("model_decisions")
    if row.get("kind") in SEATED_KINDS and not missing(model):
        return f"{integer(model)} of {integer(row['decisions'])}"
    return integer(row["decisions"])


NOT_REPORTED = "n/a"


def cached_input(row: pd.Series) -> str:
    """Cached input tokens and their share of the input of the calls that reported them, with
    how many did (``1,200 (62.0%, 8 of 9 calls)``); ``n/a`` when no call reported them."""
    tokens, reported = row.get("cached_input_tokens"), row.get("cached_reported_calls")
    if missing(tokens) or (not missing(reported) and int(reported) == 0):
        return NOT_REPORTED
    if missing(reported):  # no per-call counts: the seat outcomes' sum
        return integer(tokens)
    return (
        f"{integer(tokens)} ({pct(row.get('cached_input_share'))}, "
        f"{integer(reported)} of {integer(row.get('answered_calls'))} calls)"
    )


def spend_cached_input(row: pd.Series) -> str:
    """The spend table's cached input tokens with how many answered calls reported them."""
    tokens = row.get("cached_input_tokens")
    if missing(tokens):
        return NOT_REPORTED
    return f"{integer(tokens)} ({integer(row.get('cached_reported_calls'))} of {integer(row['answered'])})"


def call_latency(row: pd.Series) -> str:
    med, p95 = row["call_latency_median_s"], row["call_latency_p95_s"]
    return "–" if missing(med) else f"{seconds(med)} / {seconds(p95)}"
