"""Model usage for ``bangarena plan`` without a pilot of model seats: each model player's prompts
measured as ``bangarena prompt-stats`` measures them (:func:`harness.cli.prompt_stats_cmd.measure`):
rule-bot games at every table of the config, the player's history policy, locale and context
budget, tokens counted with its tokenizer (its ``tokenizer:`` unless ``server``, else its model
name: LiteLLM's tokenizer when it knows the model, else the estimate).

Per model seat per game: the requests (one per decision with more than one option: one call per
decision, no retries), the input tokens per request, and the share of them an exact-prefix cache
can reuse (counted as cached).  Output tokens are not measured: the plan's dollars then cover
input tokens only and say so."""

from __future__ import annotations

import argparse
from typing import Any

from harness.league.config import LeagueConfig
from harness.league.plan import Usage, table_cells

from .prompt_stats_cmd import measure

PROMPT_SEED = 60_000_000


def _tokenizer(spec: Any) -> str:
    if spec.tokenizer is not None and spec.tokenizer != "server":
        return str(spec.tokenizer)
    return str(spec.model)


def prompt_usage(config: LeagueConfig, games: int) -> dict[str, Usage]:
    """Per model player of ``config``: its :class:`Usage` from ``games`` rule-bot games per
    table (none when ``games`` is 0)."""
    from harness.views.tokens import counter_named

    out: dict[str, Usage] = {}
    if games <= 0:
        return out
    done: dict[tuple[str, str, str, int], Usage] = {}
    for p in config.players:
        spec = p.model
        if p.kind != "model" or spec is None:
            continue
        key = (spec.history, config.locale_of(p.name), _tokenizer(spec), spec.context_budget())
        if key not in done:
            policy, locale, tokenizer, context = key
            counter = counter_named(tokenizer)
            requests = tokens = reusable = 0.0
            seat_games = 0
            for i, (seats, mode) in enumerate(table_cells(config)):
                ns = argparse.Namespace(
                    seats=seats, mode=mode, games=games, seed=PROMPT_SEED + 1000 * i,
                    players="bots", history=[policy], context_tokens=context,
                )  # fmt: skip
                stats = measure(ns, locale, counter).stats[policy]
                requests += len(stats.request_tokens)
                tokens += sum(stats.request_tokens)
                reusable += stats.reusable_tokens
                seat_games += games * seats
            done[key] = Usage(
                requests / seat_games,
                tokens / requests,
                reusable / requests,
                None,
                f"prompts measured on {games} rule-bot games per table ({policy} history, "
                f"{locale}, tokens by {counter.source}; cached = what an exact-prefix cache can "
                "reuse); one call per decision; output tokens not measured",
            )
        out[p.name] = done[key]
    return out
