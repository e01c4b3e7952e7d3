"""Model usage for ``bangarena plan`` without a pilot of model seats, measured on each model
player's prompts as ``bangarena prompt-stats`` measures them
(:func:`harness.agents.prompt_sample.sample_prompts`): rule-bot games at every table of the
config, the player's history policy, locale and context budget, tokens counted with the model's
own tokenizer as a model seat counts them (:func:`harness.agents.model_spec.counter_for`: its
``tokenizer:``, else the configured server's tokenize endpoint when it has one and answers, else
LiteLLM's tokenizer when it knows the model, else the estimate).  Each player's source line says
which figures are measured (the prompts, counted by that tokenizer) and which are guessed (the
calls, from rule-bot games; the output tokens).

Per model seat per game: the requests (one per decision with more than one option: one call per
decision, no retries), the input tokens per request, the share of them an exact-prefix cache can
reuse (counted as cached) and the **output tokens per request, estimated**: the shortest valid
answer to each request, ``{"choice": "<the option the rule bot chose>"}``, counted with the same
tokenizer (a floor: the reason the prompt asks for and any text around the object add to it),
plus the player's reasoning allowance when its call parameters set one (Anthropic's
``thinking.budget_tokens``: a ceiling of the thinking per call).  Reasoning a model does without
a stated allowance (e.g. ``reasoning_effort``) is not estimated, and the source says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from harness.league.league_config import LeagueConfig

from .plan import Usage, table_cells

PROMPT_SEED = 60_000_000


def _tokenizer_key(spec: Any) -> str:
    """What decides a model spec's tokenizer (players sharing it share one measurement)."""
    return f"{spec.tokenizer or ''}|{spec.provider}|{spec.model}|{spec.base_url or ''}"


def reasoning_allowance(params: Mapping[str, Any]) -> int | None:
    """Thinking tokens a call may spend by its parameters: Anthropic's ``thinking`` with a
    ``budget_tokens`` (not ``disabled``); ``None`` when the parameters state none."""
    thinking = params.get("thinking")
    if not isinstance(thinking, Mapping) or thinking.get("type") == "disabled":
        return None
    budget = thinking.get("budget_tokens")
    return budget if isinstance(budget, int) and not isinstance(budget, bool) else None


def _unstated_reasoning(params: Mapping[str, Any]) -> bool:
    return any(k in params for k in ("reasoning_effort", "reasoning")) or (
        isinstance(params.get("thinking"), Mapping) and reasoning_allowance(params) is None
        and params["thinking"].get("type") != "disabled"
    )  # fmt: skip


def prompt_usage(config: LeagueConfig, games: int) -> dict[str, Usage]:
    """Per model player of ``config``: its :class:`Usage` from ``games`` rule-bot games per
    table (none when ``games`` is 0)."""
    from harness.agents.model_spec import counter_for
    from harness.agents.prompt_sample import sample_prompts

    out: dict[str, Usage] = {}
    if games <= 0:
        return out
    done: dict[tuple[str, str, str, int], tuple[float, float, float, float, str]] = {}
    for p in config.players:
        spec = p.model
        if p.kind != "model" or spec is None:
            continue
        key = (spec.history, config.locale_of(p.name), _tokenizer_key(spec), spec.context_budget())
        if key not in done:
            policy, locale, _, context = key
            counter = counter_for(spec)
            counted = (
                f"tokens counted by {counter.source}"
                if counter.source != "estimate"
                else "tokens estimated (no tokenizer for this model could be reached)"
            )
            requests = tokens = reusable = answers = 0.0
            seat_games = 0
            for i, (seats, mode) in enumerate(table_cells(config)):
                stats = sample_prompts(
                    seats, mode, games, PROMPT_SEED + 1000 * i, locale, counter, [policy], context
                ).stats[policy]
                requests += len(stats.request_tokens)
                tokens += sum(stats.request_tokens)
                reusable += stats.reusable_tokens
                answers += sum(stats.answer_tokens)
                seat_games += games * seats
            calls = max(requests, 1.0)
            done[key] = (
                requests / seat_games,
                tokens / calls,
                reusable / calls,
                answers / calls,
                f"prompts measured on {games} rule-bot games per table ({policy} history, "
                f"{locale}, {counted}; cached = what an exact-prefix cache can reuse); calls "
                "guessed: one per rule-bot decision with a choice (a model's games may be "
                "longer or shorter, and retries add calls)",
            )
        calls, inp, cached, answer, text = done[key]
        allowance = reasoning_allowance(spec.params)
        output = answer + (allowance or 0)
        text += f"; output guessed: the shortest valid answer ({answer:.1f} tokens per call)"
        if allowance is not None:
            text += f" + the thinking budget ({allowance:,} per call)"
        elif _unstated_reasoning(spec.params):
            text += ", reasoning tokens not estimated (no budget in its params)"
        out[p.name] = Usage(calls, inp, cached, output, text)
    return out


__all__ = ["PROMPT_SEED", "prompt_usage", "reasoning_allowance"]
