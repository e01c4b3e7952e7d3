"""The ``spend`` table of a league report: what every model player's calls cost, from the run's
spend ledger (``spend.jsonl``, :mod:`.ledger`) rather than from the game records.

The game records hold the calls of the games with a result; the ledger holds every call that was
sent — preflight samples, retries, calls of void games and of games abandoned by a stop — so the
table shows the whole bill next to the part that bought results:

``player, provider, model, calls, answered, truncated, failed, cancelled, input_tokens,
cached_input_tokens, cached_reported_calls, output_tokens, cost_usd, unpriced_calls,
preflight_calls, preflight_cost_usd, outside_calls, outside_cost_usd`` — ``truncated``: answered
calls the token limit cut (finish reason ``length``); ``cached_input_tokens`` is summed over the
``cached_reported_calls`` whose provider reported it (empty when none did: not reported is not
0); ``outside``: calls of games that are not among the results (void games, games in flight when
the run stopped); preflight calls are counted apart.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pandas as pd

from .ledger import SPEND_FILE, read_spend

COLUMNS = [
    "player", "provider", "model", "calls", "answered", "truncated", "failed", "cancelled",
    "input_tokens", "cached_input_tokens", "cached_reported_calls", "output_tokens", "cost_usd",
    "unpriced_calls", "preflight_calls", "preflight_cost_usd", "outside_calls", "outside_cost_usd",
]  # fmt: skip


def spend_table(run_dir: str | Path, result_games: Iterable[str]) -> pd.DataFrame:
    """One row per model player of the ledger of ``run_dir`` (empty without a ledger);
    ``result_games``: the ids of the games whose results count."""
    lines = read_spend(Path(run_dir) / SPEND_FILE)
    if not lines:
        return pd.DataFrame(columns=COLUMNS)
    counted = set(result_games)
    calls = pd.DataFrame(
        [
            {
                "player": line.player,
                "provider": line.provider,
                "model": line.model,
                "calls": 1,
                "answered": line.outcome == "answered",
                "truncated": line.finish_reason == "length",
                "failed": line.outcome == "failed",
                "cancelled": line.outcome == "cancelled",
                "input_tokens": line.input_tokens,
                "cached_input_tokens": line.cached_input_tokens,
                "cached_reported_calls": line.cached_input_tokens is not None
                and line.outcome == "answered",
                "output_tokens": line.output_tokens,
                "cost_usd": line.cost_usd or 0.0,
                "unpriced_calls": line.cost_usd is None and line.outcome == "answered",
                "preflight_calls": line.purpose == "preflight",
                "outside_calls": line.purpose is None and line.game_id not in counted,
            }
            for line in lines
        ]
    )
    calls["preflight_cost_usd"] = calls["cost_usd"].where(calls["preflight_calls"], 0.0)
    calls["outside_cost_usd"] = calls["cost_usd"].where(calls["outside_calls"], 0.0)
    calls["cached_input_tokens"] = pd.to_numeric(calls["cached_input_tokens"], errors="coerce")
    sums = [c for c in COLUMNS if c not in ("player", "provider", "model", "cached_input_tokens")]
    out = calls.groupby("player", sort=True).agg(
        {
            "provider": "first",
            "model": "first",
            "cached_input_tokens": lambda s: s.sum(min_count=1),  # NaN: none reported
            **dict.fromkeys(sums, "sum"),
        }
    )
    out = out.reset_index()[COLUMNS]
    ints = [c for c in sums if not c.endswith("_usd")]
    out[ints] = out[ints].astype(int)
    return out
