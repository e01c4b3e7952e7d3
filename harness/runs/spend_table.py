"""The ``spend`` table of a league report: what every model player's calls cost, from the run's
spend ledger (``spend.jsonl``, :mod:`harness.play.ledger`) rather than from the game records.

The game records hold the calls of the games with a result; the ledger holds every call that was
sent — preflight samples, retries, calls of void games and of games abandoned by a stop — so the
table shows the whole bill next to the part that bought results:

``player, provider, model, calls, answered, truncated, failed, cancelled, input_tokens,
cached_input_tokens, cached_reported_calls, output_tokens, cost_usd, unpriced_calls,
preflight_calls, preflight_cost_usd, outside_calls, outside_cost_usd, unknown_token_calls,
unrecorded_answers`` — ``truncated``: answered calls the token limit cut (finish reason
``length``); ``cached_input_tokens`` is summed over the ``cached_reported_calls`` whose provider
reported it (empty when none did: not reported is not 0); ``outside``: calls of games that are
not among the results (void games, games in flight when the run stopped); preflight calls are
counted apart; ``unknown_token_calls``: calls cancelled before their answer came back (their
tokens are unknown, not 0, and add nothing to the sums); ``unrecorded_answers``: answered calls
that are in no decision record of their game — an answer that came back as the run stopped, before
its decision was written (a resumed run asks that decision again).  :func:`unrecorded_note` says
so in one line.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from harness.agents.decision_record import INVALID_KINDS
from harness.play.ledger import SPEND_FILE, read_spend
from harness.records import RunStore
from harness.records.store import RecordError
from harness.views.plural import count

COLUMNS = [
    "player", "provider", "model", "calls", "answered", "truncated", "failed", "cancelled",
    "input_tokens", "cached_input_tokens", "cached_reported_calls", "output_tokens", "cost_usd",
    "unpriced_calls", "preflight_calls", "preflight_cost_usd", "outside_calls", "outside_cost_usd",
    "unknown_token_calls", "unrecorded_answers",
]  # fmt: skip


def _answered(attempt: Mapping[str, Any]) -> bool:
    """Whether a recorded attempt is a call whose answer came back (valid, invalid or cut)."""
    kind = attempt.get("error_kind")
    if kind is None or kind in INVALID_KINDS:
        return True
    return any(attempt.get(k) is not None for k in ("raw_text", "tool_arguments", "answer_chars"))


def recorded_answers(run_dir: Path, game_ids: Iterable[str]) -> Counter[tuple[str, str]]:
    """Answered model calls in the decision records of each game, by (game id, player): the
    finished games' files and the decisions kept of unfinished ones (response-cache hits, which
    send no call, left out)."""
    store = RunStore(run_dir)
    out: Counter[tuple[str, str]] = Counter()
    for game_id in game_ids:
        try:
            partial = store.partial_game(game_id)
        except (RecordError, OSError, UnicodeDecodeError):
            continue
        for d in partial[1] if partial is not None else []:
            for a in (d.model or {}).get("attempts") or []:
                if isinstance(a, Mapping) and not a.get("cached") and _answered(a):
                    out[(game_id, d.player)] += 1
    return out


def spend_table(run_dir: str | Path, result_games: Iterable[str]) -> pd.DataFrame:
    """One row per model player of the ledger of ``run_dir`` (empty without a ledger);
    ``result_games``: the ids of the games whose results count."""
    lines = read_spend(Path(run_dir) / SPEND_FILE)
    if not lines:
        return pd.DataFrame(columns=COLUMNS)
    counted = set(result_games)
    ledger_answers = Counter(
        (x.game_id, x.player)
        for x in lines
        if x.purpose is None and x.game_id is not None and x.outcome == "answered"
    )
    kept = recorded_answers(Path(run_dir), sorted({g for g, _ in ledger_answers if g}))
    unrecorded: Counter[str] = Counter()
    for (game_id, player), n in ledger_answers.items():
        unrecorded[player] += max(0, n - kept[(game_id, player)])
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
                "unknown_token_calls": not line.tokens_known,
                "unrecorded_answers": 0,
            }
            for line in lines
        ]
    )
    token_columns = ["input_tokens", "output_tokens"]  # unknown (cancelled): adds nothing
    calls[token_columns] = calls[token_columns].fillna(0)
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
    out["unrecorded_answers"] = [unrecorded[str(p)] for p in out["player"]]
    ints = [c for c in sums if not c.endswith("_usd")]
    out[ints] = out[ints].astype(int)
    return out


def unrecorded_note(spend: pd.DataFrame) -> str | None:
    """One line naming the players with answered calls that are in no decision record."""
    if spend.empty or not spend["unrecorded_answers"].sum():
        return None
    parts = [
        f"{count(int(r['unrecorded_answers']), 'answered call')} of {r['player']} ({r['model']})"
        for _, r in spend.iterrows()
        if r["unrecorded_answers"]
    ]
    return (
        f"{'; '.join(parts)} in the spend ledger but in no decision record: the answer came "
        "back as the run stopped, before its decision was written (the resumed run asked that "
        "decision again); their tokens and cost are in the spend table"
    )
