"""``bangarena prompt-stats`` — prompt sizes in tokens per history policy over sampled decisions:
tokens per request (median, p95, max) and per game, the share of input tokens an exact-prefix
cache can reuse, and per locale the context a model needs to hold the system prompt, the game
message and :data:`~harness.agents.prompt_stats.CONTEXT_DECISIONS` decisions (see
:mod:`harness.agents.prompt_stats`), counted with the chosen tokenizer."""

from __future__ import annotations

import argparse
import json
from typing import Any

from harness.agents.prompt_sample import sample_prompts
from harness.agents.prompt_stats import CONTEXT_DECISIONS, PolicyMeter
from harness.agents.tokenizers import DEFAULT_TOKENIZER_MODEL, counter_named
from harness.agents.transcript import HISTORY_POLICIES
from harness.views.names import LOCALES
from harness.views.prompts import system_prompt_text
from harness.views.tokens import TokenCounter, TokenizerError

from .args import add_series_args, positive_int
from .cli_errors import CliError
from .progress import Progress


def register(sub: Any) -> None:
    p = sub.add_parser(
        "prompt-stats",
        help="prompt sizes in tokens per history policy, and the share a prefix cache reuses",
    )
    add_series_args(p, 10, "games to sample", 7)
    p.add_argument("--locale", choices=(*LOCALES, "all"), default="en",
                   help="language of the prompts, or all of them (default: en)")  # fmt: skip
    p.add_argument("--players", choices=("bots", "random"), default="bots",
                   help="who plays the sampled games (default: rule bots)")  # fmt: skip
    p.add_argument("--tokenizer", default=DEFAULT_TOKENIZER_MODEL,
                   help="how tokens are counted: a model name LiteLLM knows, a tiktoken encoding "
                        "(o200k_base, cl100k_base), a tokenizer.json path, an OpenAI-compatible "
                        "server's URL (its tokenize endpoint) or 'estimate' (the fallback with "
                        "its margin); a model LiteLLM does not know gets the estimate "
                        "(default: %(default)s)")  # fmt: skip
    p.add_argument("--history", choices=HISTORY_POLICIES, action="append",
                   help="history policy to measure; repeat for several (default: all)")  # fmt: skip
    p.add_argument("--context-tokens", type=positive_int, default=None,
                   help="context budget of the conversation (default: none, nothing compacted)")  # fmt: skip
    p.add_argument("--no-progress", action="store_true", help="no progress bar or lines")
    p.set_defaults(func=run)


def measure(
    args: argparse.Namespace, locale: str, counter: TokenCounter, bar: Progress | None = None
) -> PolicyMeter:
    return sample_prompts(
        args.seats, args.mode, args.games, args.seed, locale, counter,
        args.history or HISTORY_POLICIES, args.context_tokens, args.players,
        on_game=bar.advance if bar is not None else None,
    )  # fmt: skip


def _counter(name: str) -> TokenCounter:
    try:
        return counter_named(name)
    except TokenizerError as e:
        raise CliError(str(e)) from None


def run(args: argparse.Namespace) -> int:
    counter = _counter(args.tokenizer)
    locales = list(LOCALES) if args.locale == "all" else [args.locale]
    total = args.games * len(locales)
    with Progress("prompt-stats", total, enabled=not args.no_progress) as bar:
        results = {loc: _run_locale(args, loc, counter, bar) for loc in locales}
    if len(locales) > 1:
        _print_context(results)
    result = results[locales[0]] if len(locales) == 1 else {
        "benchmark": "prompt_stats",
        "games": args.games,
        "seats": args.seats,
        "mode": args.mode,
        "locale": "all",
        "players": args.players,
        "tokenizer": counter.source,
        "context_tokens": args.context_tokens,
        "locales": results,
    }  # fmt: skip
    print(json.dumps(result))
    return 0


def _print_context(results: dict[str, dict[str, Any]]) -> None:
    print(f"context a conversation needs per locale (system prompt + game message + "
          f"{CONTEXT_DECISIONS} decisions + the answer's reserve), tokens:")  # fmt: skip
    print(f"  {'locale':<8}{'system':>8}{'first':>8}{'decision':>10}{'p95':>8}"
          f"{'needs':>8}{'needs p95':>11}")  # fmt: skip
    for loc, r in results.items():
        c = r.get("context")
        if not c:
            continue
        print(
            f"  {loc:<8}{c['system']:>8}{c['first_median']:>8}{c['decision_median']:>10}"
            f"{c['decision_p95']:>8}{c['needs_median']:>8}{c['needs_p95']:>11}"
        )


def _run_locale(
    args: argparse.Namespace, locale: str, counter: TokenCounter, bar: Progress
) -> dict[str, Any]:
    meter = measure(args, locale, counter, bar)
    system = meter.tokens(system_prompt_text(locale))
    policies = {p: s.summary() for p, s in meter.stats.items()}
    print(
        f"prompt sizes ({counter.source} tokenizer), {args.games} games, {args.seats} seats "
        f"{args.mode}, {locale}, {args.players}; system prompt {system} tokens "
        f"(the same for every seat and game)"
    )
    print(f"  {'policy':<13}{'requests':>9}{'median':>8}{'p95':>8}{'max':>8}"
          f"{'w/o system':>12}{'per game':>10}{'reusable':>10}{'compacted':>10}")  # fmt: skip
    for p, r in policies.items():
        print(
            f"  {p:<13}{r['requests']:>9}{r['request_median']:>8}{r['request_p95']:>8}"
            f"{r['request_max']:>8}{r['without_system_median']:>12}{r['game_median']:>10}"
            f"{r['reusable_share'] * 100:>9.1f}%{r['compactions']:>10}"
        )
    print("  (median/p95/max: input tokens of one request; w/o system: median without the shared"
          " system prompt; reusable: share of all input tokens an exact-prefix cache reuses)")  # fmt: skip
    context = meter.context.summary() if meter.context.first else None
    if context is not None:
        print(
            f"  context needed for the system prompt, the game message and "
            f"{CONTEXT_DECISIONS} decisions: {context['needs_median']} tokens at the median "
            f"decision ({context['decision_median']}), {context['needs_p95']} at the p95 "
            f"({context['decision_p95']}); first request {context['first_median']}, "
            f"{context['reserve']} kept for the answer"
        )
    return {
        "benchmark": "prompt_stats",
        "games": args.games,
        "seats": args.seats,
        "mode": args.mode,
        "locale": locale,
        "players": args.players,
        "tokenizer": counter.source,
        "context_tokens": args.context_tokens,
        "system_tokens": system,
        "policies": policies,
        "context": context,
    }
