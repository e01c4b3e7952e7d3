"""How often each model player's conversation restarted to fit its context, per locale.

A decision record says ``compacted`` when the seat's conversation was restarted (the public
record of the game replacing the earlier messages) to fit ``context_tokens``.  Per model player
and locale, :func:`compaction_table` counts model decisions and compactions, and sizes the
requests from the tokens the server reported: the first request of a seat (system prompt, game
message, first decision: ``context_messages == 0``, not compacted) and the growth of a
conversation per decision (the difference between consecutive answered requests of one seat in
one game that did not restart).  A player is flagged when its median first request plus
:data:`~harness.agents.prompt_stats.CONTEXT_DECISIONS` ``- 1`` median decisions and the answer's
reserve exceed its ``context_tokens`` — it cannot hold the system prompt, the game message and
that many decisions — or, when no conversation grew at all, when it restarted on most decisions.

Pure computation over the run's game files (pandas, as the league report).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from harness.agents.prompt_stats import CONTEXT_DECISIONS
from harness.agents.transcript import DEFAULT_RESERVE_TOKENS
from harness.league.model_calls import model_games
from harness.records import GameRecord, RunStore
from harness.records.store import DamagedGame

from .locales import player_locales

__all__ = ["COLUMNS", "TITLE", "compaction_notes", "compaction_table", "context_budgets"]

COLUMNS = ["player", "model", "locale", "history", "context_tokens", "decisions", "compacted",
           "compacted_share", "first_tokens", "decision_tokens", "needs_tokens", "holds",
           "flag"]  # fmt: skip
TITLE = (
    "History compactions per model player and locale (conversations restarted to fit the "
    f"context; needs: median first request + {CONTEXT_DECISIONS - 1} median decisions + the "
    f"answer's {DEFAULT_RESERVE_TOKENS} reserved tokens, from the server's reported counts)"
)


def context_budgets(config: Mapping[str, Any] | None) -> dict[str, int]:
    """Each model player's context budget from a run's ``config.json`` (its spec's
    ``context_budget()``: ``context_tokens``, else LiteLLM's map, else 8192)."""
    from harness.agents.model_spec import ModelSpec

    out: dict[str, int] = {}
    for p in (config or {}).get("players") or []:
        if not isinstance(p, Mapping) or p.get("kind") != "model":
            continue
        try:
            spec = ModelSpec.model_validate(p.get("model") or {})
        except ValueError:
            continue
        out[str(p.get("name"))] = spec.context_budget()
    return out


def _first_input(model: Mapping[str, Any]) -> int:
    attempts = [a for a in model.get("attempts") or [] if isinstance(a, Mapping)]
    if not attempts:
        return 0
    tokens = attempts[0].get("tokens") or {}
    return int(tokens.get("input") or 0) if isinstance(tokens, Mapping) else 0


class _Player:
    def __init__(self) -> None:
        self.model: str | None = None
        self.history: str | None = None
        self.decisions = 0
        self.compacted = 0
        self.first: list[int] = []
        self.growth: list[int] = []


def _read(run_dir: Path, games: Iterable[GameRecord]) -> dict[str, _Player]:
    store = RunStore(run_dir)
    players: dict[str, _Player] = {}
    for g in model_games(games):
        try:
            start, decisions, _ = store.read_game(g.game_id)
        except DamagedGame as e:  # reported; its seat outcomes still count elsewhere
            e.skipped()
            continue
        model_seats = {s.seat: s.player for s in start.seating if s.kind == "model"}
        previous: dict[int, int] = {}  # seat -> reported input of its last answered request
        for d in decisions:
            player = model_seats.get(d.seat)
            if player is None or len(d.options) < 2 or not d.model:
                continue
            p = players.setdefault(player, _Player())
            m = d.model
            p.model = p.model or (str(m.get("model")) if m.get("model") else None)
            p.history = p.history or (str(m.get("history")) if m.get("history") else None)
            p.decisions += 1
            compacted = bool(m.get("compacted"))
            p.compacted += int(compacted)
            reported = _first_input(m)
            if not reported:
                continue
            if not compacted and int(m.get("context_messages") or 0) == 0:
                p.first.append(reported)
            elif not compacted and d.seat in previous:
                p.growth.append(reported - previous[d.seat])
            previous[d.seat] = reported
    return players


def compaction_table(
    run_dir: str | Path, games: Iterable[GameRecord], config: Mapping[str, Any] | None
) -> pd.DataFrame:
    """One row per model player (and its locale), see the module docstring."""
    players = _read(Path(run_dir), games)
    locales = player_locales(config)
    budgets = context_budgets(config)
    rows = []
    for name in sorted(players):
        p = players[name]
        budget = budgets.get(name)
        first = int(statistics.median(p.first)) if p.first else None
        growth = int(statistics.median(p.growth)) if p.growth else None
        needs = None
        if first is not None and growth is not None:
            needs = first + (CONTEXT_DECISIONS - 1) * growth + DEFAULT_RESERVE_TOKENS
        share = p.compacted / p.decisions if p.decisions else None
        flag = ""
        if p.history in (None, "conversation") and budget is not None:
            if needs is not None and needs > budget:
                flag = (
                    f"{name} cannot hold the system prompt, the game message and "
                    f"{CONTEXT_DECISIONS} decisions in its {budget:,}-token context (needs "
                    f"about {needs:,}); its conversation restarted on {p.compacted} of "
                    f"{p.decisions} decisions"
                )
            elif needs is None and share is not None and share > 0.5:
                flag = (
                    f"{name}'s conversation restarted on {p.compacted} of {p.decisions} "
                    f"decisions: its {budget:,}-token context does not hold "
                    f"{CONTEXT_DECISIONS} decisions"
                )
        rows.append(
            {
                "player": name,
                "model": p.model,
                "locale": locales.get(name, "en"),
                "history": p.history,
                "context_tokens": budget,
                "decisions": p.decisions,
                "compacted": p.compacted,
                "compacted_share": share,
                "first_tokens": first,
                "decision_tokens": growth,
                "needs_tokens": needs,
                "holds": (needs <= budget) if needs is not None and budget is not None else None,
                "flag": flag,
            }
        )
    return pd.DataFrame(rows, columns=COLUMNS)


def compaction_notes(table: pd.DataFrame) -> list[str]:
    """The run-check lines of the flagged players (``warning: ...``)."""
    if table.empty:
        return []
    return [f"warning: {f}" for f in table["flag"] if isinstance(f, str) and f]
